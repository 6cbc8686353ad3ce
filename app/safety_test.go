package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/config"
	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

func TestBrakesLimitNewAccountsOnly(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	newUser := func(name string, age time.Duration) *persistence.User {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "UPDATE users SET created_at = now() - ?::interval WHERE id = ?",
			age.String(), u.ID); err != nil {
			t.Fatal(err)
		}
		return u
	}
	limits := config.NewAccountLimits{Age: 24 * time.Hour, PostsPerHour: 2, CommentsPerHour: 3, RequestsPerHour: 1}
	cases := []struct {
		name    string
		age     time.Duration
		what    brake
		enabled bool
		allowed int // how many pass before a 429; -1: never refused in 10
	}{
		{"new account posts", time.Hour, brakePost, true, 2},
		{"new account comments", time.Hour, brakeComment, true, 3},
		{"new account requests", time.Minute, brakeRequest, true, 1},
		{"day-old account", 25 * time.Hour, brakePost, true, -1},
		{"limits off", time.Hour, brakePost, false, -1},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := newUser("brake"+string(rune('a'+i)), c.age)
			b := NewBrakes(db, limits, c.enabled)
			passed := 0
			for range 10 {
				err := b.check(ctx, u.ID, c.what)
				if err == nil {
					passed++
					continue
				}
				var de *domain.Error
				if !errors.As(err, &de) || de.Kind != domain.KindTooMany || de.RetryAfter < 1 {
					t.Fatalf("refusal %v, want 429 with Retry-After", err)
				}
				break
			}
			want := c.allowed
			if want == -1 {
				want = 10
			}
			if passed != want {
				t.Errorf("%d passed, want %d", passed, want)
			}
		})
	}
}

// A suspension on one node revokes the account's tokens on every node: the
// other node's revocation hook (which closes sockets) runs within a second
// and its cached token version no longer lets the token in.
func TestSuspensionReachesEveryNode(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	signer, err := NewSigner([]byte("0123456789abcdef0123456789abcdef"), "Campus")
	if err != nil {
		t.Fatal(err)
	}
	one, two := listeningNode(t, db, signer), listeningNode(t, db, signer)
	revoked := make(chan uuid.UUID, 4)
	two.OnRevoke(func(id uuid.UUID) { revoked <- id })

	user := func(name string) *persistence.User {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		return u
	}
	mod, target := user("moderator"), user("target")
	if _, err := persistence.GrantCapability(ctx, db, mod.ID, domain.CapModerator, uuid.Nil); err != nil {
		t.Fatal(err)
	}
	tok, err := one.Issue(target)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := two.Authenticate(ctx, tok); err != nil { // node two caches the version
		t.Fatal(err)
	}
	m := NewModeration(ModerationDeps{DB: db, Sessions: one, Log: zerolog.Nop()})
	if _, err := m.Suspend(ctx, Principal{UserID: mod.ID}, target.ID, domain.ModerationInput{Reason: "spam", Days: 3}); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-revoked:
		if id != target.ID {
			t.Fatalf("revoked %v, want %v", id, target.ID)
		}
	case <-time.After(time.Second):
		t.Fatal("the second node did not hear the suspension within 1 s")
	}
	if _, err := two.Authenticate(ctx, tok); !errors.Is(err, ErrBadToken) {
		t.Fatalf("second node still accepts the token: %v", err)
	}
	// And a new sign-in is refused with a clear message.
	err = suspensionRefusal(ctx, db, target.ID)
	var de *domain.Error
	if !errors.As(err, &de) || de.Kind != domain.KindForbidden || de.Message == "" {
		t.Fatalf("login refusal %v", err)
	}
}

// listeningNode is one node's Sessions over db, listening for revocations
// and blocks until the test ends.
func listeningNode(t *testing.T, db *bun.DB, signer *Signer) *Sessions {
	t.Helper()
	s := NewSessions(db, signer, zerolog.Nop())
	lctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Listen(lctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	deadline := time.Now().Add(10 * time.Second)
	for !s.Listening() {
		if time.Now().After(deadline) {
			t.Fatal("listener never came up")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return s
}

// TestBlockReachesEveryNode: a block made through one node is heard by
// another node's block hooks (where its socket hub drops the watches), as
// a block and not as a revocation; a second block of the same pair is
// heard again (harmless), an unblock is not.
func TestBlockReachesEveryNode(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	signer, err := NewSigner([]byte("0123456789abcdef0123456789abcdef"), "Campus")
	if err != nil {
		t.Fatal(err)
	}
	_, two := listeningNode(t, db, signer), listeningNode(t, db, signer)
	blocks, revoked := make(chan [2]uuid.UUID, 4), make(chan uuid.UUID, 4)
	two.OnBlock(func(a, b uuid.UUID) { blocks <- [2]uuid.UUID{a, b} })
	two.OnRevoke(func(id uuid.UUID) { revoked <- id })
	var users []*persistence.User
	for _, name := range []string{"blocker", "blocked"} {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	s := NewSafety(SafetyDeps{DB: db, Log: zerolog.Nop()})
	want := [2]uuid.UUID{users[0].ID, users[1].ID}
	for _, step := range []string{"block", "block again"} {
		t.Run(step, func(t *testing.T) {
			if _, err := s.Block(ctx, Principal{UserID: users[0].ID}, users[1].ID); err != nil {
				t.Fatal(err)
			}
			select {
			case got := <-blocks:
				if got != want {
					t.Fatalf("heard block %v, want %v", got, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the second node never heard the block")
			}
		})
	}
	if _, err := s.Unblock(ctx, Principal{UserID: users[0].ID}, users[1].ID); err != nil {
		t.Fatal(err)
	}
	// A revocation after the unblock is heard; nothing else came before it.
	if err := persistence.NotifyRevoked(ctx, db, users[0].ID); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-revoked:
		if id != users[0].ID {
			t.Fatalf("revoked %v", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the revocation was not heard")
	}
	if len(blocks) > 0 || len(revoked) > 0 {
		t.Fatalf("extra signals: %d blocks, %d revocations", len(blocks), len(revoked))
	}
}
