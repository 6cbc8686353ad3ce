package faults

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"campus/httpapi/wstest"
	"campus/persistence/pgserver"
)

// storm is many people liking and unliking a few posts and reading the
// feed, as a client would: an answer 503 with Retry-After is retried until
// it is acknowledged; anything else that is not a success is a fault.
type storm struct {
	n      *node
	posts  []string
	tokens []string

	acks, unavailable atomic.Int64
	stop              atomic.Bool
	wg                sync.WaitGroup

	mu     sync.Mutex
	faults []string
	// liked[k][p] is liker k's acknowledged state on post p; an action is
	// retried until acknowledged, so it is certain once the storm ends.
	liked [][]bool
}

func (s *storm) fault(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.faults) < 20 {
		s.faults = append(s.faults, fmt.Sprintf(format, args...))
	}
}

func (s *storm) start() {
	s.liked = make([][]bool, len(s.tokens))
	for k := range s.tokens {
		s.liked[k] = make([]bool, len(s.posts))
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			rng := rand.New(rand.NewPCG(uint64(k), 14))
			for !s.stop.Load() {
				p := rng.IntN(len(s.posts))
				method := "POST" // like
				if rng.IntN(3) == 0 {
					method = "DELETE" // unlike
				}
				for { // until acknowledged
					a := s.n.try(method, "/api/posts/"+s.posts[p]+"/like", s.tokens[k], nil)
					if a.status == 200 {
						s.acks.Add(1)
						liked, _ := a.data()["isLiked"].(bool)
						s.mu.Lock()
						s.liked[k][p] = liked
						s.mu.Unlock()
						break
					}
					if !unavailable(a) {
						s.fault("%s like: %d %v (Retry-After %q)", method, a.status, a.env, a.retryAfter)
						return
					}
					s.unavailable.Add(1)
					time.Sleep(100 * time.Millisecond)
				}
			}
		}()
	}
	for r := range 2 { // feed readers
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for !s.stop.Load() {
				a := s.n.try("GET", "/api/posts/feed?limit=10", s.tokens[r], nil)
				switch {
				case a.status == 200:
				case unavailable(a):
					s.unavailable.Add(1)
				default:
					s.fault("feed: %d %v (Retry-After %q)", a.status, a.env, a.retryAfter)
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
}

// finish stops the storm and waits for the actions in flight to be
// acknowledged.
func (s *storm) finish(t *testing.T) {
	t.Helper()
	s.stop.Store(true)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the storm's last actions were not acknowledged within 60 s")
	}
	s.check(t)
}

func (s *storm) check(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.faults) > 0 {
		t.Fatalf("answers that were neither a success nor 503 with Retry-After:\n%v", s.faults)
	}
}

// TestPostgresRestartUnderLoad stops Postgres with an immediate shutdown in
// the middle of a like storm and starts it again (issue 14): the node stays
// up and answers 503 with Retry-After (never 500) while the database is
// gone, /api/ready names the database, the node serves again within 5 s of
// Postgres accepting connections, every acknowledged like is in the
// database, and the search tailer and the revocation listener reconnect
// and catch up.
func TestPostgresRestartUnderLoad(t *testing.T) {
	ctx := context.Background()
	// A server of this test's own: stopping the shared test server would
	// kill every other test's database. Not Ephemeral: an acknowledged
	// commit must survive the immediate shutdown, as in production.
	// Its own directory under the temp dir, not t.TempDir(): running as
	// root, postgres runs as the postgres user, which cannot traverse the
	// test's private temp dir.
	pgDir, err := os.MkdirTemp("", "campus-faults-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(pgDir) })
	log := zerolog.Nop()
	pg, err := pgserver.Start(ctx, pgserver.Options{Dir: pgDir, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		_ = pg.Stop(c)
	})
	url, port := pg.URL(), pg.Port()

	n := startNode(t, url)
	db := openDB(t, url)
	people := newUsers(t, db)

	_, authorTok := people.add(t, n, "Fault Author")
	posts := make([]string, 3)
	for i := range posts {
		posts[i] = createPost(t, n, authorTok, fmt.Sprintf("storm post %d", i))
	}
	_, earlyTok := people.add(t, n, "Early Leaver")
	_, lateTok := people.add(t, n, "Late Leaver")
	earlyWS := wstest.Connect(t, n.addr, earlyTok)
	lateWS := wstest.Connect(t, n.addr, lateTok)

	s := &storm{n: n, posts: posts}
	for k := range 8 {
		_, tok := people.add(t, n, fmt.Sprintf("Storm Liker %d", k))
		s.tokens = append(s.tokens, tok)
	}
	s.start()
	waitFor(t, 30*time.Second, "likes acknowledged before the fault", func() bool {
		s.check(t)
		return s.acks.Load() >= 40
	})

	// The fault: pg_ctl stop -m immediate.
	stopCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err = pg.StopImmediate(stopCtx)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("while the database is gone", func(t *testing.T) {
		before := s.unavailable.Load()
		waitFor(t, 20*time.Second, "503s under the storm", func() bool {
			n.alive(t)
			s.check(t)
			return s.unavailable.Load() >= before+10
		})
		a := n.try("GET", "/api/ready", "", nil)
		errs, _ := a.env["errors"].([]any)
		if a.status != 503 || len(errs) != 1 || errs[0].(map[string]any)["field"] != "database" {
			t.Fatalf("ready: %d %v, want 503 naming the database", a.status, a.env)
		}
		if h := n.try("GET", "/api/health", "", nil); h.status != 200 {
			t.Fatalf("health: %d %v", h.status, h.env)
		}
		n.alive(t)
	})

	pg, err = pgserver.Start(ctx, pgserver.Options{Dir: pgDir, Log: log, Port: port})
	if err != nil {
		t.Fatal(err)
	}
	back := time.Now() // Postgres accepts connections again
	if pg.URL() != url {
		t.Fatalf("restarted on %s, want the same URL", pg.URL())
	}

	// A revocation right after the restart, likely before the listener
	// is back: the catch-up after its reconnect must still close the socket.
	for {
		a := n.try("POST", "/api/auth/logout", earlyTok, nil)
		if a.status == 200 {
			break
		}
		if !unavailable(a) {
			t.Fatalf("logout right after the restart: %d %v", a.status, a.env)
		}
		if time.Since(back) > 5*time.Second {
			t.Fatalf("logout still refused 5 s after the restart: %d %v", a.status, a.env)
		}
		time.Sleep(50 * time.Millisecond)
	}

	t.Run("serves again within 5 s", func(t *testing.T) {
		for {
			a := n.try("GET", "/api/posts/feed", authorTok, nil)
			if a.status == 200 {
				break
			}
			if !unavailable(a) {
				t.Fatalf("feed after the restart: %d %v", a.status, a.env)
			}
			if time.Since(back) > 5*time.Second {
				t.Fatalf("feed still %d %v 5 s after Postgres accepted connections", a.status, a.env)
			}
			time.Sleep(50 * time.Millisecond)
		}
		n.waitReady(t, 10*time.Second)
	})

	// Let the storm run on the recovered database for a moment.
	after := s.acks.Load()
	waitFor(t, 30*time.Second, "likes acknowledged after the restart", func() bool {
		s.check(t)
		return s.acks.Load() >= after+40
	})
	s.finish(t)

	t.Run("every acknowledged like is in the database", func(t *testing.T) {
		for p, id := range posts {
			want := 0
			for k := range s.liked {
				if s.liked[k][p] {
					want++
				}
			}
			var count, rows int
			if err := db.QueryRowContext(ctx,
				`SELECT likes_count, (SELECT count(*) FROM post_likes WHERE post_id = p.id) FROM posts p WHERE id = ?`,
				id).Scan(&count, &rows); err != nil {
				t.Fatal(err)
			}
			if count != want || rows != want {
				t.Errorf("post %d: likes_count %d, rows %d, acknowledged %d", p, count, rows, want)
			}
		}
		t.Logf("%d likes acknowledged, %d answers 503 with Retry-After", s.acks.Load(), s.unavailable.Load())
	})

	t.Run("a revocation sent right after the restart closes the sockets", func(t *testing.T) {
		awaitClosed(t, earlyWS, 20*time.Second)
		waitFor(t, 10*time.Second, "the revocation listener's reconnect logged", func() bool {
			return n.logged(t, "token revocation listener reconnected")
		})
	})

	t.Run("a revocation after the reconnect closes the sockets", func(t *testing.T) {
		n.call(t, 200, "POST", "/api/auth/logout", lateTok, nil)
		awaitClosed(t, lateWS, 10*time.Second)
	})

	t.Run("the search tailer reconnects and indexes a new post", func(t *testing.T) {
		id := createPost(t, n, authorTok, "quokkas returned after the restart")
		waitFor(t, 20*time.Second, "the new post found by search", func() bool {
			a := n.try("GET", "/api/search?q=quokkas", authorTok, nil)
			results, _ := a.data()["results"].([]any)
			for _, r := range results {
				if r.(map[string]any)["id"] == id {
					return true
				}
			}
			return false
		})
		waitFor(t, 10*time.Second, "the search listener's reconnect logged", func() bool {
			return n.logged(t, "search outbox listener reconnected")
		})
	})
	n.alive(t)
}
