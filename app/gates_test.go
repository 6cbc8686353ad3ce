package app

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestGatesFollowEveryNode: a node's cached post gates hear the blocks
// made and lifted and the posts removed or deleted through another node,
// and the node that made a change sees it at once, without waiting for its
// NOTIFY.
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
	type want struct{ blocked, removed, suspended, gone bool }
	// state is what g answers of the post for reader.
	state := func(t *testing.T, g *Gates) want {
		t.Helper()
		got, err := g.Post(ctx, post.ID, reader.ID)
		if isNotFound(err) {
			return want{gone: true}
		}
		if err != nil {
			t.Fatal(err)
		}
		if got.AuthorID != author.ID {
			t.Fatalf("author %v, want %v", got.AuthorID, author.ID)
		}
		return want{blocked: got.Blocked, removed: got.Removed, suspended: got.AuthorSuspended}
	}
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
		{"a moderator suspends the author", func(t *testing.T) {
			until := time.Now().Add(time.Hour)
			if err := persistence.SuspendUser(ctx, db, author.ID, &until, "spam", uuid.Nil); err != nil {
				t.Fatal(err)
			}
			// What Moderation.Suspend does on its node after the commit.
			one.Changed(SafetyChange{Suspension: author.ID})
		}, want{suspended: true}},
		{"the suspension is lifted", func(t *testing.T) {
			if ok, err := persistence.UnsuspendUser(ctx, db, author.ID); err != nil || !ok {
				t.Fatal(ok, err)
			}
			one.Changed(SafetyChange{Suspension: author.ID})
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
		{"the author deletes the post", func(t *testing.T) {
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.DeletePost(ctx, tx, post.ID)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			// What Posts.Delete does on its node after the commit.
			one.Changed(SafetyChange{Post: post.ID})
		}, want{gone: true}},
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
			if got := state(t, one); got != s.want {
				t.Fatalf("the node that made the change: %+v, want %+v", got, s.want)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				got := state(t, two)
				if got == s.want {
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

// TestGatesFollowGroups: a node's cached gate of a closed group's post and
// its cached member groups follow memberships and visibility changed
// anywhere (the group triggers' NOTIFYs), and a public group's posts are
// open to all.
func TestGatesFollowGroups(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	signer, err := NewSigner([]byte("0123456789abcdef0123456789abcdef"), "Campus")
	if err != nil {
		t.Fatal(err)
	}
	gates := NewGates(db, listeningNode(t, db, signer))
	var users []*persistence.User
	for _, name := range []string{"owner", "reader"} {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	owner, reader := users[0], users[1]
	group := persistence.NewID()
	if _, err := db.ExecContext(ctx, `INSERT INTO groups (id, handle, name, kind, visibility) VALUES (?, 'chess-club', 'Chess', 'club', 'closed');
		INSERT INTO group_members (group_id, user_id, status, role, joined_at) VALUES (?, ?, 'member', 'owner', now())`,
		group, group, owner.ID); err != nil {
		t.Fatal(err)
	}
	post := &persistence.Post{ID: persistence.NewID(), UserID: owner.ID, Content: "members only", Visibility: "public", GroupID: group}
	if err := persistence.InsertPost(ctx, db, post, nil); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) func(t *testing.T) {
		return func(t *testing.T) {
			if _, err := db.ExecContext(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		name    string
		change  func(t *testing.T)
		locked  bool
		inGroup bool // the reader's member groups hold the group
	}{
		{"a closed group to a non-member", func(*testing.T) {}, true, false},
		{"the reader asks to join", exec(`INSERT INTO group_members (group_id, user_id, status) VALUES (?, ?, 'requested')`, group, reader.ID), true, false},
		{"an admin approves", exec(`UPDATE group_members SET status = 'member', joined_at = now() WHERE group_id = ? AND user_id = ?`, group, reader.ID), false, true},
		{"the reader leaves", exec(`DELETE FROM group_members WHERE group_id = ? AND user_id = ?`, group, reader.ID), true, false},
		{"the group turns public", exec(`UPDATE groups SET visibility = 'public' WHERE id = ?`, group), false, false},
		{"and secret", exec(`UPDATE groups SET visibility = 'secret' WHERE id = ?`, group), true, false},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			// The cache holds the state before the change.
			if _, err := gates.Post(ctx, post.ID, reader.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := gates.MemberGroups(ctx, reader.ID); err != nil {
				t.Fatal(err)
			}
			s.change(t)
			deadline := time.Now().Add(10 * time.Second)
			for {
				g, err := gates.Post(ctx, post.ID, reader.ID)
				if err != nil {
					t.Fatal(err)
				}
				ids, err := gates.MemberGroups(ctx, reader.ID)
				if err != nil {
					t.Fatal(err)
				}
				in := len(ids) == 1 && ids[0] == group
				if g.GroupLocked == s.locked && in == s.inGroup {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("locked %v, in group %v; want %v, %v", g.GroupLocked, in, s.locked, s.inGroup)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	t.Run("the author passes", func(t *testing.T) {
		g, err := gates.Post(ctx, post.ID, owner.ID)
		if err != nil || g.GroupLocked {
			t.Fatalf("gate %+v, %v", g, err)
		}
	})
}
