package persistence_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

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

// TestMessagePushOutbox: new messages keep one push row per device and
// conversation, moving its wanted seq; a push that went out while a newer
// message came stays queued and due (MessagePushDone), one that covered
// everything goes.
func TestMessagePushOutbox(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	a, b, c := socialUser(t, db, "Outbox Msg A"), socialUser(t, db, "Outbox Msg B"), socialUser(t, db, "Outbox Msg C")
	for _, u := range []*persistence.User{a, b} {
		s := &persistence.PushSubscription{UserID: u.ID, Endpoint: "https://push.example/" + u.ID.String(), P256dh: "k", Auth: "a"}
		if err := persistence.SavePushSubscription(ctx, db, s); err != nil {
			t.Fatal(err)
		}
	}
	conv := groupOf(t, db, a, b, c)
	row := func(t *testing.T, user *persistence.User) (n int, wanted int64, due bool) {
		t.Helper()
		err := db.NewRaw(`SELECT count(*), coalesce(max(o.wanted_seq), 0), coalesce(bool_and(o.next_attempt_at <= now()), false)
			FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
			WHERE o.conversation_id = ? AND s.user_id = ?`, conv, user.ID).Scan(ctx, &n, &wanted, &due)
		if err != nil {
			t.Fatal(err)
		}
		return n, wanted, due
	}
	claim := func(t *testing.T) *persistence.QueuedPush {
		t.Helper()
		var q *persistence.QueuedPush
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var err error
			if q, err = persistence.ClaimPush(ctx, tx); err != nil {
				return err
			}
			return persistence.LeaseMessagePush(ctx, tx, q.ID, q.WantedSeq, time.Hour)
		})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}

	cases := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"a batch and another message: one row per device, up to the newest", func(t *testing.T) {
			sendAll(t, db, conv, c.ID, c.ID, a.ID)
			sendAll(t, db, conv, c.ID)
			if n, wanted, _ := row(t, a); n != 1 || wanted != 4 {
				t.Fatalf("A: %d rows up to %d, want 1 up to 4", n, wanted)
			}
			if n, wanted, _ := row(t, b); n != 1 || wanted != 4 {
				t.Fatalf("B: %d rows up to %d, want 1 up to 4", n, wanted)
			}
			// C sent every message but one, and is not subscribed.
			var all int
			if err := db.NewRaw(`SELECT count(*) FROM push_outbox WHERE conversation_id = ?`, conv).Scan(ctx, &all); err != nil || all != 2 {
				t.Fatalf("%d rows in all (%v), want 2", all, err)
			}
		}},
		{"a message during the push: the row stays, due again", func(t *testing.T) {
			q := claim(t)
			sendAll(t, db, conv, c.ID)
			if err := persistence.MessagePushDone(ctx, db, q.ID, q.WantedSeq); err != nil {
				t.Fatal(err)
			}
			var n int
			var wanted int64
			var due bool
			if err := db.NewRaw(`SELECT count(*), coalesce(max(wanted_seq), 0), coalesce(bool_and(next_attempt_at <= now()), false)
				FROM push_outbox WHERE id = ?`, q.ID).Scan(ctx, &n, &wanted, &due); err != nil {
				t.Fatal(err)
			}
			if n != 1 || wanted != 5 || !due {
				t.Fatalf("row: %d, wanted %d, due %v; want it kept up to 5 and due", n, wanted, due)
			}
		}},
		{"nothing newer: the rows go", func(t *testing.T) {
			for range 2 {
				q := claim(t)
				if err := persistence.MessagePushDone(ctx, db, q.ID, q.WantedSeq); err != nil {
					t.Fatal(err)
				}
			}
			for _, u := range []*persistence.User{a, b} {
				if n, _, _ := row(t, u); n != 0 {
					t.Fatalf("%s: %d rows left", u.Name, n)
				}
			}
		}},
		{"muted or left: none", func(t *testing.T) {
			if err := persistence.SetMuted(ctx, db, conv, a.ID, true); err != nil {
				t.Fatal(err)
			}
			if _, err := persistence.RemoveMember(ctx, db, conv, b.ID, 5); err != nil {
				t.Fatal(err)
			}
			sendAll(t, db, conv, c.ID)
			for _, u := range []*persistence.User{a, b} {
				if n, _, _ := row(t, u); n != 0 {
					t.Fatalf("%s: %d rows queued", u.Name, n)
				}
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}
