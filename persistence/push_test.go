package persistence_test

import (
	"context"
	"fmt"
	"testing"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestPushSubscriptionsAndOutbox: a new notification queues one push per
// subscribed device of its recipient (the trigger), none for a user without
// push; an endpoint belongs to one account; a user keeps at most
// MaxPushSubscriptions devices, the least recently renewed going first.
func TestPushSubscriptionsAndOutbox(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	alice := socialUser(t, db, "Alice Outbox")
	bob := socialUser(t, db, "Bob Outbox")
	save := func(u *persistence.User, endpoint string) {
		t.Helper()
		s := &persistence.PushSubscription{UserID: u.ID, Endpoint: endpoint, P256dh: "k", Auth: "a"}
		if err := persistence.SavePushSubscription(ctx, db, s); err != nil {
			t.Fatal(err)
		}
	}
	count := func(table, where string, args ...any) int {
		t.Helper()
		n, err := db.NewSelect().TableExpr(table).Where(where, args...).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	notify := func(u *persistence.User) *persistence.Notification {
		t.Helper()
		n := &persistence.Notification{UserID: u.ID, Type: persistence.NotifyComment}
		if err := persistence.InsertNotification(ctx, db, n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	save(alice, "https://push.example/alice-phone")
	save(alice, "https://push.example/alice-laptop")

	t.Run("one push per subscribed device", func(t *testing.T) {
		n := notify(alice)
		if got := count("push_outbox", "notification_id = ?", n.ID); got != 2 {
			t.Fatalf("%d pushes queued, want 2", got)
		}
	})
	t.Run("no push for a user without subscriptions", func(t *testing.T) {
		n := notify(bob)
		if got := count("push_outbox", "notification_id = ?", n.ID); got != 0 {
			t.Fatalf("%d pushes queued, want 0", got)
		}
	})
	t.Run("an endpoint moves to the account that subscribes it", func(t *testing.T) {
		save(bob, "https://push.example/alice-laptop")
		if a, b := count("push_subscriptions", "user_id = ?", alice.ID), count("push_subscriptions", "user_id = ?", bob.ID); a != 1 || b != 1 {
			t.Fatalf("alice %d, bob %d subscriptions; want 1 and 1", a, b)
		}
	})
	t.Run("claimed with its subscription, then done", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		q, err := persistence.ClaimPush(ctx, tx)
		if err != nil {
			t.Fatal(err)
		}
		if q.UserID != alice.ID || q.Endpoint != "https://push.example/alice-phone" {
			t.Fatalf("claimed %+v", q)
		}
		if err := persistence.PushDone(ctx, tx, q.ID); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := count("push_outbox", "id = ?", q.ID); got != 0 {
			t.Fatal("the sent push is still queued")
		}
	})
	t.Run("at most MaxPushSubscriptions devices", func(t *testing.T) {
		for i := range persistence.MaxPushSubscriptions + 3 {
			save(bob, fmt.Sprintf("https://push.example/bob-%02d", i))
		}
		if got := count("push_subscriptions", "user_id = ?", bob.ID); got != persistence.MaxPushSubscriptions {
			t.Fatalf("%d subscriptions kept, want %d", got, persistence.MaxPushSubscriptions)
		}
		if got := count("push_subscriptions", "endpoint = ?", "https://push.example/alice-laptop"); got != 0 {
			t.Fatal("the oldest subscription was kept")
		}
		if got := count("push_subscriptions", "endpoint = ?", fmt.Sprintf("https://push.example/bob-%02d", persistence.MaxPushSubscriptions+2)); got != 1 {
			t.Fatal("the newest subscription was retired")
		}
	})
}
