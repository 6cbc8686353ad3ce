package persistence_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

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
	if err != nil || len(page) != 2 || page[0].ID != mine[2] || page[1].ID != mine[1] || page[0].Sender == nil || page[0].Sender.Name != "Other" {
		t.Fatalf("first page %+v %v", page, err)
	}
	rest, err := persistence.NotificationsOf(ctx, db, owner.ID, persistence.Keyset{At: page[1].CreatedAt, ID: page[1].ID}, 2)
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
