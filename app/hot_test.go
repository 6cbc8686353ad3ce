package app

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestHotListsShareForASecond: the big screen's hot list is computed once
// for the callers of the same second (a like after it shows only in the
// next second's list), and concurrent callers share one computation.
func TestHotListsShareForASecond(t *testing.T) {
	ctx := context.Background()
	db := testdb.New(t)
	var users []*persistence.User
	for _, name := range []string{"author", "fan"} {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: "x",
			Email: name + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	group := persistence.NewID()
	if _, err := db.ExecContext(ctx, `INSERT INTO groups (id, handle, name, kind, visibility) VALUES (?, 'hot-club', 'Hot', 'club', 'public')`, group); err != nil {
		t.Fatal(err)
	}
	var posts []uuid.UUID
	for range 2 {
		p := &persistence.Post{ID: persistence.NewID(), UserID: users[0].ID, Content: "hot", Visibility: "public", GroupID: group}
		if err := persistence.InsertPost(ctx, db, p, nil); err != nil {
			t.Fatal(err)
		}
		posts = append(posts, p.ID)
	}
	like := func(post uuid.UUID) {
		t.Helper()
		if _, err := db.ExecContext(ctx, `INSERT INTO post_likes (post_id, user_id) VALUES (?, ?)`, post, users[1].ID); err != nil {
			t.Fatal(err)
		}
	}
	like(posts[0])
	clock := time.Now()
	var mu sync.Mutex
	h := newHotLists(db)
	h.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	first := func() uuid.UUID {
		t.Helper()
		ids, err := h.get(ctx, group)
		if err != nil || len(ids) == 0 {
			t.Fatalf("hot %v, %v", ids, err)
		}
		return ids[0]
	}
	steps := []struct {
		name    string
		before  func()
		hottest uuid.UUID
	}{
		{"first call", func() {}, posts[0]},
		{"a like for the other post, same second", func() {
			like(posts[1])
			if _, err := db.ExecContext(ctx, `INSERT INTO post_likes (post_id, user_id) VALUES (?, ?)`, posts[1], users[0].ID); err != nil {
				t.Fatal(err)
			}
		}, posts[0]},
		{"a second later", func() { mu.Lock(); clock = clock.Add(hotTTL + time.Millisecond); mu.Unlock() }, posts[1]},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.before()
			var wg sync.WaitGroup
			got := make([]uuid.UUID, 20)
			for i := range got {
				wg.Add(1)
				go func() { defer wg.Done(); got[i] = first() }()
			}
			wg.Wait()
			for _, g := range got {
				if g != s.hottest {
					t.Fatalf("hottest %v, want %v", g, s.hottest)
				}
			}
		})
	}
}
