package persistence_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// queued stores a mail to to that expires after ttl, tied to code when
// that is not nil, and returns its id.
func queued(t *testing.T, db bun.IDB, to string, ttl time.Duration, code uuid.UUID) uuid.UUID {
	t.Helper()
	m := &persistence.QueuedMail{Kind: "test", Recipient: to, Subject: "Subject", Text: "Body",
		CodeID: code, ExpiresAt: time.Now().Add(ttl)}
	if err := persistence.QueueMail(context.Background(), db, m); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

func mailIDs(t *testing.T, db bun.IDB) []uuid.UUID {
	t.Helper()
	var ids []uuid.UUID
	if err := db.NewSelect().Model((*persistence.QueuedMail)(nil)).Column("id").OrderExpr("id").
		Scan(context.Background(), &ids); err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestDropUselessMail(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	u := newUser("Mail Owner")
	insert(t, db, u)
	code := func(consumed bool) uuid.UUID {
		c := &persistence.OTPCode{ID: persistence.NewID(), UserID: u.ID, Email: u.Email, Purpose: "signup",
			CodeHash: []byte("hash"), ExpiresAt: time.Now().Add(10 * time.Minute)}
		if consumed {
			c.ConsumedAt = time.Now()
		}
		insert(t, db, c)
		return c.ID
	}
	tests := []struct {
		name    string
		id      uuid.UUID
		dropped bool
		expired bool
	}{
		{"open code", queued(t, db, "a@uni.edu", 10*time.Minute, code(false)), false, false},
		{"notice without a code", queued(t, db, "b@uni.edu", time.Hour, uuid.Nil), false, false},
		{"expired", queued(t, db, "c@uni.edu", -time.Second, code(false)), true, true},
		{"code used or replaced", queued(t, db, "d@uni.edu", 10*time.Minute, code(true)), true, false},
		{"expired notice", queued(t, db, "e@uni.edu", -time.Second, uuid.Nil), true, true},
	}
	gone, err := persistence.DropUselessMail(ctx, db, 100)
	if err != nil {
		t.Fatal(err)
	}
	left := mailIDs(t, db)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := slices.IndexFunc(gone, func(g persistence.DroppedMail) bool { return g.ID == tt.id })
			if (i >= 0) != tt.dropped || slices.Contains(left, tt.id) == tt.dropped {
				t.Fatalf("dropped = %v (still queued = %v), want dropped = %v", i >= 0, slices.Contains(left, tt.id), tt.dropped)
			}
			if i >= 0 && gone[i].Expired != tt.expired {
				t.Fatalf("expired = %v, want %v", gone[i].Expired, tt.expired)
			}
		})
	}
}

// TestClaimMail: a claimed row is invisible to other claimers until the
// claim ends; a failed row waits for its retry; RetryMailNow ends the wait.
func TestClaimMail(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	first := queued(t, db, "first@uni.edu", time.Hour, uuid.Nil)
	second := queued(t, db, "second@uni.edu", time.Hour, uuid.Nil)

	claim := func(tx bun.Tx) uuid.UUID {
		t.Helper()
		m, err := persistence.ClaimMail(ctx, tx)
		if errors.Is(err, domain.ErrNotFound) {
			return uuid.Nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	begin := func() bun.Tx {
		t.Helper()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tx.Rollback() })
		return tx
	}

	a, b, c := begin(), begin(), begin()
	steps := []struct {
		name string
		tx   bun.Tx
		want uuid.UUID
	}{
		{"the oldest first", a, first},
		{"another sender skips the claimed row", b, second},
		{"a third finds nothing free", c, uuid.Nil},
	}
	for _, s := range steps {
		if got := claim(s.tx); got != s.want {
			t.Fatalf("%s: claimed %v, want %v", s.name, got, s.want)
		}
	}
	// a delivered its row; b failed and reschedules in a minute.
	if err := persistence.MailDone(ctx, a, first); err != nil {
		t.Fatal(err)
	}
	if err := persistence.MailFailed(ctx, b, second, time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, tx := range []bun.Tx{a, b} {
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if got := claim(c); got != uuid.Nil {
		t.Fatalf("claimed %v while it waits for its retry", got)
	}
	d, ok, err := persistence.NextMailIn(ctx, db)
	if err != nil || !ok || d <= 30*time.Second || d > time.Minute {
		t.Fatalf("next mail in %v (%v, %v), want about a minute", d, ok, err)
	}
	var attempts int
	if err := db.NewSelect().Model((*persistence.QueuedMail)(nil)).Column("attempts").Where("id = ?", second).
		Scan(ctx, &attempts); err != nil || attempts != 1 {
		t.Fatalf("attempts = %d (%v), want 1", attempts, err)
	}
	if n, err := persistence.RetryMailNow(ctx, db); err != nil || n != 1 {
		t.Fatalf("retry now moved %d rows (%v), want 1", n, err)
	}
	if got := claim(begin()); got != second {
		t.Fatalf("after RetryMailNow claimed %v, want %v", got, second)
	}
	if _, ok, err := persistence.NextMailIn(ctx, db); err != nil || ok {
		t.Fatalf("NextMailIn ok = %v (%v) with nothing waiting", ok, err)
	}
}

func TestMailInsertWakesListeners(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	db := testdb.New(t)
	ln := pgdriver.NewListener(db)
	defer ln.Close()
	if err := ln.Listen(ctx, persistence.MailChannel); err != nil {
		t.Fatal(err)
	}
	if err := persistence.AwaitListening(ctx, db, ln, persistence.MailChannel, func(string) {}); err != nil {
		t.Fatal(err)
	}
	queued(t, db, "notify@uni.edu", time.Hour, uuid.Nil)
	channel, _, err := ln.Receive(ctx)
	if err != nil {
		t.Fatalf("no notification after queueing mail: %v", err)
	}
	if channel != persistence.MailChannel {
		t.Errorf("notified on %q, want %q", channel, persistence.MailChannel)
	}
}
