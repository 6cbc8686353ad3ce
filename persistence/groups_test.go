package persistence_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

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

// TestGroupFeedPlans: with many posts, the home feed (posts outside groups
// and the reader's groups') walks the feed index and a group's feed its
// own index, newest first, instead of sorting the table.
func TestGroupFeedPlans(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	u := &persistence.User{ID: persistence.NewID(), Name: "Plan", Email: "plan@uni.edu", Role: "student", PasswordHash: "x", CollegeID: "c"}
	if err := persistence.InsertUser(ctx, db, u); err != nil {
		t.Fatal(err)
	}
	g := &persistence.Group{ID: persistence.NewID(), Handle: "plan-club", Name: "Plan", Kind: "club", Visibility: "closed"}
	if err := persistence.InsertGroup(ctx, db, g, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO posts (id, user_id, content, group_id, created_at)
		SELECT gen_random_uuid(), ?, 'p' || i, CASE WHEN i % 10 = 0 THEN ?::uuid END, now() - i * interval '1 second'
		FROM generate_series(1, 20000) AS i`, u.ID, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE posts"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, where, index string
		arg                any
	}{
		{"home feed", "removed_at IS NULL AND (group_id IS NULL OR group_id = ANY(?::uuid[]))", "posts_feed_idx", "{" + g.ID.String() + "}"},
		{"group feed", "removed_at IS NULL AND group_id = ?", "posts_group_feed_idx", g.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var plan []string
			rows, err := db.QueryContext(ctx, "EXPLAIN SELECT id FROM posts WHERE "+tc.where+" ORDER BY created_at DESC, id DESC LIMIT 21", tc.arg)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var line string
				if err := rows.Scan(&line); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, line)
			}
			text := strings.Join(plan, "\n")
			if !strings.Contains(text, tc.index) || strings.Contains(text, "Sort") {
				t.Fatalf("plan does not walk %s:\n%s", tc.index, text)
			}
		})
	}
}

// TestDeleteAccountPassesGroups: deleting an owner's account hands each of
// their groups to its admin (else its oldest member) and the counters lose
// them and their posts.
func TestDeleteAccountPassesGroups(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	ids := make([]uuid.UUID, 3)
	for i := range ids {
		u := &persistence.User{ID: persistence.NewID(), Name: fmt.Sprint("D", i), Email: fmt.Sprintf("d%d@uni.edu", i),
			Role: "student", PasswordHash: "x", CollegeID: "c"}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		ids[i] = u.ID
	}
	g := &persistence.Group{ID: persistence.NewID(), Handle: "heirs", Name: "Heirs", Kind: "club", Visibility: "public"}
	if err := persistence.InsertGroup(ctx, db, g, ids[0]); err != nil {
		t.Fatal(err)
	}
	for i, role := range []string{domain.RoleMember, domain.RoleAdmin} {
		if err := persistence.SetMembership(ctx, db, g.ID, ids[i+1], domain.StatusMember, role, uuid.Nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := persistence.InsertPost(ctx, db, &persistence.Post{ID: persistence.NewID(), UserID: ids[0], Content: "x", GroupID: g.ID}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := persistence.DeleteAccount(ctx, tx, ids[0])
		return err
	}); err != nil {
		t.Fatal(err)
	}
	r, err := persistence.GroupByID(ctx, db, g.ID, ids[2])
	if err != nil {
		t.Fatal(err)
	}
	if r.MyRole != domain.RoleOwner || r.MembersCount != 2 || r.PostsCount != 0 {
		t.Fatalf("after the owner's deletion: role %q, members %d, posts %d", r.MyRole, r.MembersCount, r.PostsCount)
	}
}
