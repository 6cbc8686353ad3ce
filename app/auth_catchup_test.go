package app

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/persistence"
	"campus/persistence/testdb"
)

// Revocations committed while the listener was down (their NOTIFY lost)
// are found by the catch-up after the reconnect: the hooks run for every
// user this node knew whose token version moved or who was deleted, and
// for nobody else.
func TestRevocationCatchUp(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	s := NewSessions(db, nil, zerolog.Nop())
	var mu sync.Mutex
	var closed []uuid.UUID
	s.OnRevoke(func(id uuid.UUID) {
		mu.Lock()
		closed = append(closed, id)
		mu.Unlock()
	})
	user := func(name string) uuid.UUID {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		return u.ID
	}
	kept, cachedRevoked, forgottenRevoked, deleted, signedInDuring := user("kept"), user("cached"), user("forgotten"), user("deleted"), user("late")

	// Known while listening (cached), then the listener is lost.
	for _, id := range []uuid.UUID{kept, cachedRevoked, forgottenRevoked, deleted} {
		if _, err := s.version(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	s.stopListening()
	// Signed in while nobody listened: the first version seen counts.
	if _, err := s.version(ctx, signedInDuring); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uuid.UUID{cachedRevoked, forgottenRevoked, signedInDuring} {
		if _, err := persistence.RevokeTokens(ctx, db, id); err != nil {
			t.Fatal(err)
		}
	}
	// A revocation on this node drops the cached version at once; the
	// catch-up must still close the sockets.
	s.Forget(forgottenRevoked)
	if _, err := s.version(ctx, forgottenRevoked); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM users WHERE id = ?", deleted); err != nil {
		t.Fatal(err)
	}

	if err := s.catchUp(ctx); err != nil {
		t.Fatal(err)
	}
	want := []uuid.UUID{cachedRevoked, forgottenRevoked, deleted, signedInDuring}
	slices.SortFunc(want, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	slices.SortFunc(closed, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	if !slices.Equal(closed, want) {
		t.Fatalf("hooks ran for %v, want %v", closed, want)
	}
	if !s.Listening() {
		t.Fatal("the cache is not back on after the catch-up")
	}
	if s.unheard != nil {
		t.Fatal("the catch-up's record was kept while listening")
	}
}

// Blocks made while the listener was down (their NOTIFY lost) are replayed
// to the block hooks by the catch-up; older ones are not.
func TestBlockCatchUp(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	s := NewSessions(db, nil, zerolog.Nop())
	var heard [][2]uuid.UUID
	s.OnBlock(func(a, b uuid.UUID) { heard = append(heard, [2]uuid.UUID{a, b}) })
	var us []uuid.UUID
	for _, name := range []string{"old-blocker", "old-blocked", "new-blocker", "new-blocked"} {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		us = append(us, u.ID)
	}
	if _, err := persistence.BlockUser(ctx, db, us[0], us[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "UPDATE user_blocks SET created_at = now() - interval '1 hour'"); err != nil {
		t.Fatal(err)
	}
	s.stopListening()
	if _, err := persistence.BlockUser(ctx, db, us[2], us[3]); err != nil {
		t.Fatal(err)
	}
	if err := s.catchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if want := [][2]uuid.UUID{{us[2], us[3]}}; !slices.Equal(heard, want) {
		t.Fatalf("block hooks ran for %v, want %v", heard, want)
	}
	// Up again: a second catch-up (after the next loss) starts afresh.
	heard = nil
	if err := s.catchUp(ctx); err != nil || len(heard) != 0 {
		t.Fatalf("catch-up while up replayed %v (%v)", heard, err)
	}
}
