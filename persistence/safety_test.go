package persistence_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestNoNotificationAcrossABlock: an action allowed before a block whose
// notification is written after it notifies no one, either way; a third
// person's still does.
func TestNoNotificationAcrossABlock(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	a, b, c := newUser("Block Note A"), newUser("Block Note B"), newUser("Block Note C")
	insert(t, db, a, b, c)
	aPost, bPost := newPost(t, db, a, "a's", 0), newPost(t, db, b, "b's", 0)
	if _, err := persistence.BlockUser(ctx, db, a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	note := func(to, from *persistence.User, typ string, post *persistence.Post) *persistence.Notification {
		return &persistence.Notification{ID: persistence.NewID(), UserID: to.ID, Type: typ, SenderID: from.ID, PostID: post.ID}
	}
	cases := []struct {
		name string
		to   *persistence.User
		n    *persistence.Notification
		want int
	}{
		{"blocked to blocker: comment", a, note(a, b, persistence.NotifyComment, aPost), 0},
		{"blocked to blocker: like", a, note(a, b, persistence.NotifyLike, aPost), 0},
		{"blocker to blocked: comment", b, note(b, a, persistence.NotifyComment, bPost), 0},
		{"third person: comment", a, note(a, c, persistence.NotifyComment, aPost), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := persistence.CreateNotifications(ctx, db, tc.to.ID, []*persistence.Notification{tc.n})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Created) != tc.want {
				t.Fatalf("created %d, want %d", len(res.Created), tc.want)
			}
		})
	}
}

// TestWatchablePosts: a viewer may watch a post unless a block stands
// between them and its author (either way) or a moderator removed it.
func TestWatchablePosts(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	viewer, blocker, blocked, other := newUser("Watch Viewer"), newUser("Watch Blocker"), newUser("Watch Blocked"), newUser("Watch Other")
	insert(t, db, viewer, blocker, blocked, other)
	byBlocker, byBlocked := newPost(t, db, blocker, "blocker's", 0), newPost(t, db, blocked, "blocked's", 0)
	byOther, removed, own := newPost(t, db, other, "other's", 0), newPost(t, db, other, "removed", 0), newPost(t, db, viewer, "own", 0)
	if _, err := persistence.BlockUser(ctx, db, blocker.ID, viewer.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.BlockUser(ctx, db, viewer.ID, blocked.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.RemovePost(ctx, db, removed.ID); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		post uuid.UUID
		want bool
	}{
		{"the author blocked the viewer", byBlocker.ID, false},
		{"the viewer blocked the author", byBlocked.ID, false},
		{"removed by a moderator", removed.ID, false},
		{"no such post", persistence.NewID(), false},
		{"a third person's", byOther.ID, true},
		{"the viewer's own", own.ID, true},
	}
	all := make([]uuid.UUID, 0, len(cases))
	for _, tc := range cases {
		all = append(all, tc.post)
	}
	got, err := persistence.WatchablePosts(ctx, db, viewer.ID, all) // one query for them all
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if slices.Contains(got, tc.post) != tc.want {
				t.Errorf("watchable %v, want %v", !tc.want, tc.want)
			}
		})
	}
}
