package app

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestGatesFollowEveryNode: a node's cached post gates hear the blocks
// made and lifted and the posts removed through another node, and the node
// that made a change sees it at once, without waiting for its NOTIFY.
func TestGatesFollowEveryNode(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	signer, err := NewSigner([]byte("0123456789abcdef0123456789abcdef"), "Campus")
	if err != nil {
		t.Fatal(err)
	}
	oneSessions, twoSessions := listeningNode(t, db, signer), listeningNode(t, db, signer)
	one, two := NewGates(db, oneSessions), NewGates(db, twoSessions)
	var users []*persistence.User
	for _, name := range []string{"author", "reader"} {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	author, reader := users[0], users[1]
	post := &persistence.Post{ID: persistence.NewID(), UserID: author.ID, Content: "hello", Visibility: "public"}
	if err := persistence.InsertPost(ctx, db, post, nil); err != nil {
		t.Fatal(err)
	}
	safety := NewSafety(SafetyDeps{DB: db, Gates: one, Log: zerolog.Nop()})
	type want struct{ blocked, removed bool }
	steps := []struct {
		name   string
		change func(t *testing.T)
		want   want
	}{
		{"nothing yet", func(*testing.T) {}, want{}},
		{"author blocks reader", func(t *testing.T) {
			if _, err := safety.Block(ctx, Principal{UserID: author.ID}, reader.ID); err != nil {
				t.Fatal(err)
			}
		}, want{blocked: true}},
		{"author unblocks reader", func(t *testing.T) {
			if _, err := safety.Unblock(ctx, Principal{UserID: author.ID}, reader.ID); err != nil {
				t.Fatal(err)
			}
		}, want{}},
		{"reader blocks author", func(t *testing.T) {
			if _, err := safety.Block(ctx, Principal{UserID: reader.ID}, author.ID); err != nil {
				t.Fatal(err)
			}
		}, want{blocked: true}},
		{"reader unblocks author", func(t *testing.T) {
			if _, err := safety.Unblock(ctx, Principal{UserID: reader.ID}, author.ID); err != nil {
				t.Fatal(err)
			}
		}, want{}},
		{"a moderator removes the post", func(t *testing.T) {
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.RemovePost(ctx, tx, post.ID)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			// What Moderation.Remove does on its node after the commit.
			one.Changed(SafetyChange{Post: post.ID})
		}, want{removed: true}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			// Both caches hold the state before the change.
			for _, g := range []*Gates{one, two} {
				if _, err := g.Post(ctx, post.ID, reader.ID); err != nil {
					t.Fatal(err)
				}
			}
			s.change(t)
			got, err := one.Post(ctx, post.ID, reader.ID)
			if err != nil {
				t.Fatal(err)
			}
			if (want{got.Blocked, got.Removed}) != s.want || got.AuthorID != author.ID {
				t.Fatalf("the node that made the change: %+v, want %+v", got, s.want)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				got, err := two.Post(ctx, post.ID, reader.ID)
				if err != nil {
					t.Fatal(err)
				}
				if (want{got.Blocked, got.Removed}) == s.want {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the other node still answers %+v, want %+v", got, s.want)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	t.Run("no such post", func(t *testing.T) {
		if _, err := two.Post(ctx, persistence.NewID(), reader.ID); !isNotFound(err) {
			t.Fatalf("err %v, want not found", err)
		}
	})
}
