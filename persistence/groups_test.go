package persistence_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// TestGroupMembershipCounts: the members counter moves with the rows it
// counts through every transition, and posts_count with group posts.
func TestGroupMembershipCounts(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	users := make([]uuid.UUID, 3)
	for i := range users {
		u := &persistence.User{ID: persistence.NewID(), Name: fmt.Sprint("G", i), Email: fmt.Sprintf("g%d@uni.edu", i),
			Role: "student", PasswordHash: "x", CollegeID: "c"}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		users[i] = u.ID
	}
	g := &persistence.Group{ID: persistence.NewID(), Handle: "robotics", Name: "Robotics", Kind: "club", Visibility: "closed"}
	if err := persistence.InsertGroup(ctx, db, g, users[0]); err != nil {
		t.Fatal(err)
	}
	dup := &persistence.Group{ID: persistence.NewID(), Handle: "robotics", Name: "Again", Kind: "club", Visibility: "public"}
	if err := persistence.InsertGroup(ctx, db, dup, users[1]); !strings.Contains(fmt.Sprint(err), domain.MsgGroupHandleTaken) {
		t.Fatalf("duplicate handle: %v", err)
	}
	count := func() int {
		r, err := persistence.GroupByID(ctx, db, g.ID, users[1])
		if err != nil {
			t.Fatal(err)
		}
		return r.MembersCount
	}
	for _, step := range []struct {
		name string
		do   func() error
		want int
	}{
		{"request", func() error {
			return persistence.SetMembership(ctx, db, g.ID, users[1], domain.StatusRequested, "", uuid.Nil)
		}, 1},
		{"approve", func() error {
			return persistence.SetMembership(ctx, db, g.ID, users[1], domain.StatusMember, "", uuid.Nil)
		}, 2},
		{"approve twice", func() error {
			return persistence.SetMembership(ctx, db, g.ID, users[1], domain.StatusMember, "", uuid.Nil)
		}, 2},
		{"invite", func() error {
			return persistence.SetMembership(ctx, db, g.ID, users[2], domain.StatusInvited, "", users[0])
		}, 2},
		{"leave", func() error { _, err := persistence.DeleteMembership(ctx, db, g.ID, users[1]); return err }, 1},
		{"decline invitation", func() error { _, err := persistence.DeleteMembership(ctx, db, g.ID, users[2]); return err }, 1},
	} {
		t.Run(step.name, func(t *testing.T) {
			if err := step.do(); err != nil {
				t.Fatal(err)
			}
			if got := count(); got != step.want {
				t.Fatalf("members_count %d, want %d", got, step.want)
			}
		})
	}
	p := &persistence.Post{ID: persistence.NewID(), UserID: users[0], Content: "in the group", GroupID: g.ID}
	if err := persistence.InsertPost(ctx, db, p, nil); err != nil {
		t.Fatal(err)
	}
	// The closed group's post is hidden from a non-member and shown to the owner.
	row, err := persistence.PostByID(ctx, db, p.ID, users[1])
	if err != nil || len(row.HiddenFor) != 1 || row.Group == nil || row.Group.Handle != "robotics" {
		t.Fatalf("non-member's view: %+v %v", row, err)
	}
	row, err = persistence.PostByID(ctx, db, p.ID, users[0])
	if err != nil || len(row.HiddenFor) != 0 {
		t.Fatalf("owner's view: %+v %v", row, err)
	}
	if r, _ := persistence.GroupByID(ctx, db, g.ID, users[0]); r.PostsCount != 1 {
		t.Fatalf("posts_count %d", r.PostsCount)
	}
}
