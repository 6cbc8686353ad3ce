package persistence_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

func waitABit() <-chan time.Time { return time.After(200 * time.Millisecond) }

func TestNotificationsAreScopedToTheirOwner(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	owner, other := socialUser(t, db, "Owner"), socialUser(t, db, "Other")
	base := now().Add(-time.Hour)
	var mine []uuid.UUID
	for i := range 3 {
		n := &persistence.Notification{UserID: owner.ID, Type: persistence.NotifyFriendRequest, SenderID: other.ID, CreatedAt: base.Add(time.Duration(i) * time.Second)}
		if err := persistence.InsertNotification(ctx, db, n); err != nil {
			t.Fatal(err)
		}
		mine = append(mine, n.ID)
	}
	theirs := &persistence.Notification{UserID: other.ID, Type: persistence.NotifyOther}
	if err := persistence.InsertNotification(ctx, db, theirs); err != nil || theirs.ID == uuid.Nil || theirs.CreatedAt.IsZero() {
		t.Fatalf("insert %+v %v", theirs, err)
	}

	page, err := persistence.NotificationsOf(ctx, db, owner.ID, persistence.Keyset{}, 2)
	if err != nil || len(page) != 2 || page[0].ID != mine[2] || page[1].ID != mine[1] || len(page[0].Actors) != 1 || page[0].Actors[0].Name != "Other" {
		t.Fatalf("first page %+v %v", page, err)
	}
	rest, err := persistence.NotificationsOf(ctx, db, owner.ID, persistence.Keyset{At: page[1].UpdatedAt, ID: page[1].ID}, 2)
	if err != nil || len(rest) != 1 || rest[0].ID != mine[0] {
		t.Fatalf("second page %+v %v", rest, err)
	}

	n, err := persistence.MarkNotificationsRead(ctx, db, owner.ID, []uuid.UUID{mine[0], theirs.ID, uuid.New()})
	if err != nil || n != 1 {
		t.Fatalf("marked %d %v", n, err)
	}
	if c, _ := persistence.UnreadNotificationCount(ctx, db, other.ID); c != 1 {
		t.Fatalf("the other user's notification was marked: unread %d", c)
	}
	if ok, err := persistence.DeleteNotification(ctx, db, owner.ID, theirs.ID); err != nil || ok {
		t.Fatalf("deleted another user's notification: %v %v", ok, err)
	}
	if err := persistence.ReadFriendRequestNotifications(ctx, db, owner.ID, other.ID); err != nil {
		t.Fatal(err)
	}
	if c, _ := persistence.UnreadNotificationCount(ctx, db, owner.ID); c != 0 {
		t.Fatalf("unread after reading the requests %d", c)
	}
	if err := persistence.DeleteFriendRequestNotifications(ctx, db, owner.ID, other.ID); err != nil {
		t.Fatal(err)
	}
	if left, _ := persistence.NotificationsOf(ctx, db, owner.ID, persistence.Keyset{}, 10); len(left) != 0 {
		t.Fatalf("left %v", left)
	}
	if c, _ := persistence.MarkAllNotificationsRead(ctx, db, other.ID); c != 1 {
		t.Fatalf("mark all %d", c)
	}
}

// The unread counter on users follows every path that changes unread
// notifications: inserts, marking read, deletes and the cascades of
// deleting a post or a sender's account.
func TestUnreadCounterFollowsEveryPath(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	owner, s1, s2 := newUser("Counter Owner"), newUser("Counter Sender One"), newUser("Counter Sender Two")
	insert(t, db, owner, s1, s2)
	post := newPost(t, db, owner, "counted", 0)
	other := newPost(t, db, owner, "kept", 0)
	note := func(typ string, sender *persistence.User, p *persistence.Post) *persistence.Notification {
		n := &persistence.Notification{ID: persistence.NewID(), UserID: owner.ID, Type: typ, SenderID: sender.ID}
		if p != nil {
			n.PostID = p.ID
		}
		return n
	}
	n1, n2, n3 := note(persistence.NotifyLike, s1, post), note(persistence.NotifyLike, s2, post), note(persistence.NotifyFriendRequest, s2, nil)
	n4, n5 := note(persistence.NotifyComment, s1, other), note(persistence.NotifyComment, s2, other)
	// n1 and n2 roll up into one row, whose id is the batch's newest like's.
	n1.ID = n2.ID
	n6 := note(persistence.NotifyFriendAccepted, s2, nil)

	steps := []struct {
		name string
		do   func() error
		want int
	}{
		{"create three: the likes roll up", func() error {
			res, err := persistence.CreateNotifications(ctx, db, owner.ID, []*persistence.Notification{n1, n2, n3, n6})
			if err == nil && res.Unread != 3 {
				err = fmt.Errorf("answered unread %d", res.Unread)
			}
			return err
		}, 3},
		{"another like of the unread roll-up changes nothing", func() error {
			_, err := persistence.CreateNotifications(ctx, db, owner.ID, []*persistence.Notification{note(persistence.NotifyLike, s1, post)})
			return err
		}, 3},
		{"mark one read", func() error {
			_, err := persistence.MarkNotificationsRead(ctx, db, owner.ID, []uuid.UUID{n1.ID})
			return err
		}, 2},
		{"mark it read again", func() error {
			_, err := persistence.MarkNotificationsRead(ctx, db, owner.ID, []uuid.UUID{n1.ID})
			return err
		}, 2},
		{"delete an unread one", func() error { _, err := persistence.DeleteNotification(ctx, db, owner.ID, n6.ID); return err }, 1},
		{"delete a read one", func() error { _, err := persistence.DeleteNotification(ctx, db, owner.ID, n1.ID); return err }, 1},
		{"mark all read", func() error { _, err := persistence.MarkAllNotificationsRead(ctx, db, owner.ID); return err }, 0},
		{"create two more", func() error {
			_, err := persistence.CreateNotifications(ctx, db, owner.ID, []*persistence.Notification{n4, n5})
			return err
		}, 2},
		{"the sender's account goes", func() error {
			_, err := db.NewDelete().Model((*persistence.User)(nil)).Where("id = ?", s2.ID).Exec(ctx)
			return err
		}, 1},
		{"the post goes", func() error {
			return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.DeletePost(ctx, tx, other.ID)
				return err
			})
		}, 0},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := persistence.UnreadNotificationCount(ctx, db, owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		var rows int
		if err := db.NewSelect().Model((*persistence.Notification)(nil)).ColumnExpr("count(*)").
			Where("user_id = ? AND NOT is_read", owner.ID).Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		if got != st.want || rows != st.want {
			t.Fatalf("%s: counter %d, unread rows %d, want %d", st.name, got, rows, st.want)
		}
	}
}
