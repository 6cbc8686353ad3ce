package persistence_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
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

// TestRemovedCommentCount: a comment a moderator removes leaves its post's
// comments_count at once; afterwards neither its author's delete nor the
// deletion of their account counts it out again (which would leave the
// count short, or break its CHECK and the account deletion with it).
func TestRemovedCommentCount(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author, commenter := newUser("Removed Count Author"), newUser("Removed Count Commenter")
	insert(t, db, author, commenter)
	post := newPost(t, db, author, "talk", 0)
	kept := &persistence.Comment{ID: persistence.NewID(), UserID: author.ID, Content: "kept"}
	removed := &persistence.Comment{ID: persistence.NewID(), UserID: commenter.ID, Content: "removed"}
	if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: post.ID,
		Comments: []*persistence.Comment{kept, removed}}); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		t.Helper()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT comments_count FROM posts WHERE id = ?`, post.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	steps := []struct {
		name string
		do   func() error
		want int
	}{
		{"a moderator removes it", func() error {
			it, err := persistence.RemoveComment(ctx, db, removed.ID)
			if err == nil && (it.Comments != 1 || it.PostID != post.ID) {
				t.Errorf("removal answered %+v, want the post's count 1", it)
			}
			return err
		}, 1},
		{"its author deletes it", func() error {
			res, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: post.ID,
				Removals: []persistence.CommentRemoval{{CommentID: removed.ID, UserID: commenter.ID}}})
			if err == nil && !errors.Is(res.RemovalErrs[0], domain.ErrNotFound) {
				t.Errorf("the author's delete: %v, want not found", res.RemovalErrs[0])
			}
			return err
		}, 1},
		{"its author's account is deleted", func() error {
			return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.DeleteAccount(ctx, tx, commenter.ID)
				return err
			})
		}, 1},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if err := st.do(); err != nil {
				t.Fatal(err)
			}
			if n := count(); n != st.want {
				t.Fatalf("comments_count %d, want %d", n, st.want)
			}
		})
	}
}
