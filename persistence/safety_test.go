package persistence_test

import (
	"context"
	"testing"

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
