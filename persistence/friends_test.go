package persistence_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

func TestOnePendingRequestPerPair(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	a, b := socialUser(t, db, "Pair A"), socialUser(t, db, "Pair B")
	request := func(from, to *persistence.User) error {
		return persistence.InsertFriendRequest(ctx, db, &persistence.FriendRequest{ID: persistence.NewID(), SenderID: from.ID, ReceiverID: to.ID})
	}
	if err := request(a, b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to *persistence.User }{{a, b}, {b, a}} {
		if err := request(c.from, c.to); !persistence.IsPendingPairConflict(err) {
			t.Fatalf("%s→%s: %v, want a pending pair conflict", c.from.Name, c.to.Name, err)
		}
	}
	r, err := persistence.PendingRequest(ctx, db, a.ID, b.ID)
	if err != nil || r.Status != persistence.RequestPending || r.CreatedAt.IsZero() {
		t.Fatalf("pending %+v %v", r, err)
	}
	if _, err := persistence.PendingRequest(ctx, db, b.ID, a.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("reverse pending: %v", err)
	}
	rel, err := persistence.RelationOf(ctx, db, b.ID, a.ID)
	if err != nil || rel.IsFriend || rel.ReceivedID != r.ID || rel.SentID != [16]byte{} {
		t.Fatalf("relation %+v %v", rel, err)
	}
	if err := persistence.SetRequestStatus(ctx, db, r, persistence.RequestDeclined); err != nil || r.Status != persistence.RequestDeclined {
		t.Fatalf("decline: %v %s", err, r.Status)
	}
	// Closed requests do not count: a new one either way is fine.
	if err := request(b, a); err != nil {
		t.Fatal(err)
	}
}

func TestFriendships(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	me := socialUser(t, db, "Centre")
	names := []string{"Zed", "amy", "Bob"}
	for _, n := range names {
		f := socialUser(t, db, n)
		if ok, err := persistence.AddFriendship(ctx, db, f.ID, me.ID); err != nil || !ok {
			t.Fatalf("add %s: %v %v", n, ok, err)
		}
		if ok, err := persistence.AddFriendship(ctx, db, me.ID, f.ID); err != nil || ok {
			t.Fatalf("adding %s twice: %v %v", n, ok, err)
		}
	}
	got, err := persistence.FriendsOf(ctx, db, me.ID, persistence.Keyset{}, 10)
	if err != nil || len(got) != 3 || got[0].Name != "amy" || got[1].Name != "Bob" || got[2].Name != "Zed" {
		t.Fatalf("friends %v %v, want by name ignoring case", got, err)
	}
	page, err := persistence.FriendsOf(ctx, db, me.ID, persistence.Keyset{Key: "bob", ID: got[1].ID}, 10)
	if err != nil || len(page) != 1 || page[0].Name != "Zed" {
		t.Fatalf("after Bob %v %v", page, err)
	}
	counts, err := persistence.CountsOf(ctx, db, me.ID, me.ID)
	if err != nil || counts.Friends != 3 || counts.Posts != 0 {
		t.Fatalf("counts %+v %v", counts, err)
	}
	if ok, err := persistence.RemoveFriendship(ctx, db, got[0].ID, me.ID); err != nil || !ok {
		t.Fatalf("remove %v %v", ok, err)
	}
	if ok, err := persistence.AreFriends(ctx, db, me.ID, got[0].ID); err != nil || ok {
		t.Fatalf("still friends %v %v", ok, err)
	}
	if ok, err := persistence.RemoveFriendship(ctx, db, got[0].ID, me.ID); err != nil || ok {
		t.Fatalf("removing twice %v %v", ok, err)
	}
}

func TestFriendPairLockSerializes(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	a, b := socialUser(t, db, "Lock A"), socialUser(t, db, "Lock B")
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := persistence.LockFriendPair(ctx, tx, a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	// The same pair, named the other way round, waits for the first.
	done := make(chan error, 1)
	go func() {
		done <- db.RunInTx(ctx, nil, func(ctx context.Context, tx2 bun.Tx) error {
			return persistence.LockFriendPair(ctx, tx2, b.ID, a.ID)
		})
	}()
	select {
	case err := <-done:
		t.Fatalf("second lock did not wait: %v", err)
	case <-waitABit():
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
