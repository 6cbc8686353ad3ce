package domain

import (
	"errors"
	"testing"
	"time"
)

func TestValidHandle(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"robotics-club", true}, {"abc", true}, {"a1-2b", true}, {"ab", false},
		{"-abc", false}, {"abc-", false}, {"Abc", false}, {"ab c", false}, {"ab_c", false},
		{"a234567890123456789012345678901", false}, {"a23456789012345678901234567890"[:30], true}, {"", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := ValidHandle(tc.in); got != tc.want {
				t.Fatalf("ValidHandle(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestGroupInputValidate(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	end := start.Add(2 * time.Hour)
	for _, tc := range []struct {
		name  string
		in    GroupInput
		field string // "" when valid
	}{
		{"club", GroupInput{Name: "Robotics", Handle: " Robotics-Club ", Kind: "club", Visibility: "public"}, ""},
		{"bad handle", GroupInput{Name: "R", Handle: "r!", Kind: "club", Visibility: "public"}, "handle"},
		{"bad kind", GroupInput{Name: "R", Handle: "rob", Kind: "guild", Visibility: "public"}, "kind"},
		{"bad visibility", GroupInput{Name: "R", Handle: "rob", Kind: "club", Visibility: "hidden"}, "visibility"},
		{"no name", GroupInput{Name: "  ", Handle: "rob", Kind: "club", Visibility: "public"}, "name"},
		{"event", GroupInput{Name: "Fest", Handle: "fest", Kind: "event", Visibility: "public", StartsAt: &start, EndsAt: &end}, ""},
		{"event no end", GroupInput{Name: "Fest", Handle: "fest", Kind: "event", Visibility: "public", StartsAt: &start}, "endsAt"},
		{"event backwards", GroupInput{Name: "Fest", Handle: "fest", Kind: "event", Visibility: "public", StartsAt: &end, EndsAt: &start}, "endsAt"},
		{"times on a club", GroupInput{Name: "R", Handle: "rob", Kind: "club", Visibility: "public", StartsAt: &start, EndsAt: &end}, "startsAt"},
		{"course", GroupInput{Name: "BCA 20", Handle: "bca-20", Kind: "course", Visibility: "closed", Course: &GroupCourse{Program: "bca", Batch: "20"}}, ""},
		{"course bad batch", GroupInput{Name: "BCA", Handle: "bca-20", Kind: "course", Visibility: "closed", Course: &GroupCourse{Program: "BCA", Batch: "x"}}, "course"},
		{"course on a club", GroupInput{Name: "BCA", Handle: "bca-20", Kind: "club", Visibility: "closed", Course: &GroupCourse{Program: "BCA", Batch: "20"}}, "course"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := tc.in.Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if !ValidHandle(g.Handle) {
					t.Fatalf("handle %q not normalized", g.Handle)
				}
				return
			}
			var de *Error
			if !errors.As(err, &de) || de.Kind != KindInvalid || len(de.Fields) == 0 || de.Fields[0].Field != tc.field {
				t.Fatalf("error %v, want invalid %s", err, tc.field)
			}
		})
	}
}

func TestCourseEligible(t *testing.T) {
	c := &GroupCourse{Program: "BCA", Batch: "20"}
	for _, tc := range []struct {
		uid  string
		want bool
	}{
		{"BWU/BCA/20/123", true}, {"bwu/bca/20/7", true}, {"BWU/BCA/21/123", false}, {"BWU/MCA/20/1", false},
		{"", false}, {"garbage", false},
	} {
		t.Run(tc.uid, func(t *testing.T) {
			if got := CourseEligible(c, tc.uid); got != tc.want {
				t.Fatalf("CourseEligible(%q) = %v", tc.uid, got)
			}
		})
	}
	if CourseEligible(nil, "BWU/BCA/20/1") {
		t.Fatal("a group without a course is nobody's course")
	}
}

func kindOf(err error) Kind {
	var de *Error
	if errors.As(err, &de) {
		return de.Kind
	}
	return 0
}

func TestJoin(t *testing.T) {
	none := Membership{Status: StatusNone}
	for _, tc := range []struct {
		name     string
		vis      string
		m        Membership
		eligible bool
		want     string
		kind     Kind
	}{
		{"public", GroupPublic, none, false, StatusMember, 0},
		{"closed asks", GroupClosed, none, false, StatusRequested, 0},
		{"closed again", GroupClosed, Membership{Status: StatusRequested}, false, StatusRequested, 0},
		{"closed course eligible", GroupClosed, none, true, StatusMember, 0},
		{"closed invited", GroupClosed, Membership{Status: StatusInvited}, false, StatusMember, 0},
		{"secret uninvited", GroupSecret, none, false, "", KindNotFound},
		{"secret course eligible still needs invitation", GroupSecret, none, true, "", KindNotFound},
		{"secret invited", GroupSecret, Membership{Status: StatusInvited}, false, StatusMember, 0},
		{"already member", GroupPublic, Membership{Status: StatusMember, Role: RoleMember}, false, "", KindConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := JoinGroup(tc.vis, tc.m, tc.eligible)
			if got != tc.want || kindOf(err) != tc.kind {
				t.Fatalf("Join = %q, %v; want %q kind %d", got, err, tc.want, tc.kind)
			}
		})
	}
}

func TestGroupPermissions(t *testing.T) {
	owner := Membership{Status: StatusMember, Role: RoleOwner}
	admin := Membership{Status: StatusMember, Role: RoleAdmin}
	member := Membership{Status: StatusMember, Role: RoleMember}
	none := Membership{Status: StatusNone}
	invited := Membership{Status: StatusInvited}
	requested := Membership{Status: StatusRequested}
	for _, tc := range []struct {
		name string
		err  error
		kind Kind
	}{
		{"owner cannot leave", Leave(owner), KindConflict},
		{"admin leaves", Leave(admin), 0},
		{"non-member cannot leave", Leave(none), KindForbidden},
		{"member invites to closed", CanInvite(GroupClosed, member, none), 0},
		{"member cannot invite to secret", CanInvite(GroupSecret, member, none), KindForbidden},
		{"admin invites to secret", CanInvite(GroupSecret, admin, none), 0},
		{"invite a requester", CanInvite(GroupClosed, admin, requested), 0},
		{"no double invitation", CanInvite(GroupPublic, member, invited), KindConflict},
		{"outsider cannot invite", CanInvite(GroupPublic, none, none), KindForbidden},
		{"owner removes admin", CanRemove(owner, admin), 0},
		{"admin removes member", CanRemove(admin, member), 0},
		{"admin cannot remove admin", CanRemove(admin, admin), KindForbidden},
		{"admin cannot remove owner", CanRemove(admin, owner), KindForbidden},
		{"member cannot remove", CanRemove(member, member), KindForbidden},
		{"remove a non-member", CanRemove(owner, none), KindNotFound},
		{"owner makes admin", CanSetRole(owner, member, RoleAdmin), 0},
		{"admin cannot make admin", CanSetRole(admin, member, RoleAdmin), KindForbidden},
		{"no such role", CanSetRole(owner, member, RoleOwner), KindInvalid},
		{"owner transfers", CanTransfer(owner, admin), 0},
		{"admin cannot transfer", CanTransfer(admin, member), KindForbidden},
		{"transfer to outsider", CanTransfer(owner, invited), KindNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if kindOf(tc.err) != tc.kind || (tc.kind == 0) != (tc.err == nil) {
				t.Fatalf("got %v, want kind %d", tc.err, tc.kind)
			}
		})
	}
	for _, tc := range []struct {
		vis        string
		m          Membership
		see, posts bool
	}{
		{GroupPublic, none, true, true}, {GroupClosed, none, true, false}, {GroupSecret, none, false, false},
		{GroupSecret, invited, true, false}, {GroupClosed, requested, true, false}, {GroupSecret, member, true, true},
	} {
		t.Run(tc.vis+"/"+tc.m.Status, func(t *testing.T) {
			if CanSeeGroup(tc.vis, tc.m) != tc.see || CanReadPosts(tc.vis, tc.m) != tc.posts {
				t.Fatalf("see %v posts %v", CanSeeGroup(tc.vis, tc.m), CanReadPosts(tc.vis, tc.m))
			}
		})
	}
}
