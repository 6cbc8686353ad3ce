package faults

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"campus/httpapi/wstest"
	"campus/persistence/testdb"
)

// TestDrainProcess sends SIGTERM to a real `campus serve` while likes and
// sockets run (serve.go's drain end to end; httpapi's TestDrain is the
// in-process half): /api/ready turns 503 before the node stops answering,
// the sockets close with 1012 "service restart", every like it
// acknowledged is in Postgres and no like is answered with anything but
// success or 503, and the process exits 0 within CAMPUS_SHUTDOWN_TIMEOUT.
// CAMPUS_DRAIN_DELAY holds the 503 long enough for a poller to see it.
func TestDrainProcess(t *testing.T) {
	const shutdownTimeout = 10 * time.Second
	url := testdb.NewURL(t)
	n := startNode(t, url, fmt.Sprintf("CAMPUS_SHUTDOWN_TIMEOUT=%s", shutdownTimeout), "CAMPUS_DRAIN_DELAY=1s")
	db := openDB(t, url)
	people := newUsers(t, db)

	_, authorTok := people.add(t, n, "Drain Author")
	posts := make([]string, 4)
	for i := range posts {
		posts[i] = createPost(t, n, authorTok, fmt.Sprintf("drain post %d", i))
	}
	var sockets []*wstest.Conn
	for k := range 3 {
		_, tok := people.add(t, n, fmt.Sprintf("Drain Watcher %d", k))
		c := wstest.Connect(t, n.addr, tok)
		c.Watch(t, posts...)
		sockets = append(sockets, c)
	}
	const nLikers = 12
	tokens := make([]string, nLikers)
	for k := range tokens {
		_, tokens[k] = people.add(t, n, fmt.Sprintf("Drain Liker %d", k))
	}

	// Ready is polled on keep-alive connections from before the signal
	// until the node stops answering: the answers must go 200…, 503…, then
	// nothing.
	var (
		mu      sync.Mutex
		readies [2][]int // per poller; 0: no answer
		bad     []string
		// state[k][p]: 1 liked, 2 not liked (acknowledged), 3 unanswered
		// (either is right).
		state = make([][]int, nLikers)
		acks  int
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range readies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Timeout: 5 * time.Second}
			for {
				select {
				case <-stop:
					return
				default:
				}
				status := 0
				if resp, err := c.Get("http://" + n.addr + "/api/ready"); err == nil {
					status = resp.StatusCode
					resp.Body.Close()
				}
				mu.Lock()
				readies[i] = append(readies[i], status)
				mu.Unlock()
				if status == 0 {
					return
				}
			}
		}()
	}
	for k := range nLikers {
		state[k] = make([]int, len(posts))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				p := (k + i) % len(posts)
				like := i/len(posts)%2 == 0
				method := "DELETE"
				if like {
					method = "POST"
				}
				a := n.try(method, "/api/posts/"+posts[p]+"/like", tokens[k], nil)
				mu.Lock()
				switch {
				case a.status == 200 && like:
					state[k][p], acks = 1, acks+1
				case a.status == 200:
					state[k][p], acks = 2, acks+1
				default:
					state[k][p] = 3
					if a.status != 0 && !unavailable(a) {
						bad = append(bad, fmt.Sprintf("%s like: %d %v", method, a.status, a.env))
					}
				}
				mu.Unlock()
				if a.status == 0 {
					return // the node is gone
				}
			}
		}()
	}
	waitFor(t, 30*time.Second, "likes acknowledged before the signal", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return acks >= 50
	})

	signalled := time.Now()
	if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	t.Run("sockets close with 1012 service restart", func(t *testing.T) {
		for i, c := range sockets {
			if code, reason := c.CloseCodeReason(t); code != websocket.CloseServiceRestart || reason == "" {
				t.Fatalf("socket %d closed with %d %q", i, code, reason)
			}
		}
	})
	t.Run("the process exits 0 within the shutdown timeout", func(t *testing.T) {
		select {
		case <-n.done:
		case <-time.After(shutdownTimeout + 5*time.Second):
			t.Fatalf("still running %s after SIGTERM", time.Since(signalled))
		}
		if code := n.cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("exit code %d", code)
		}
	})
	close(stop)
	wg.Wait()

	t.Run("ready turns 503 before the node stops answering", func(t *testing.T) {
		for i, seq := range readies {
			saw503, last := false, 200
			for _, s := range seq {
				switch {
				case s == 503:
					saw503 = true
				case s == 200 && last != 200:
					t.Fatalf("poller %d: ready answered 200 after %d", i, last)
				case s != 200 && s != 0:
					t.Fatalf("poller %d: ready answered %d", i, s)
				}
				last = s
			}
			if !saw503 {
				t.Fatalf("poller %d: ready never answered 503 while draining (%d answers)", i, len(seq))
			}
		}
	})
	t.Run("every acknowledged like is in Postgres", func(t *testing.T) {
		if len(bad) > 0 {
			t.Fatalf("%d likes answered neither success nor 503, first: %s", len(bad), bad[0])
		}
		users, err := db.QueryContext(context.Background(),
			`SELECT u.name, p.id FROM post_likes l JOIN users u ON u.id = l.user_id JOIN posts p ON p.id = l.post_id WHERE p.id IN (?, ?, ?, ?)`,
			posts[0], posts[1], posts[2], posts[3])
		if err != nil {
			t.Fatal(err)
		}
		defer users.Close()
		present := map[string]bool{}
		for users.Next() {
			var name, post string
			if err := users.Scan(&name, &post); err != nil {
				t.Fatal(err)
			}
			present[name+"/"+post] = true
		}
		if err := users.Err(); err != nil {
			t.Fatal(err)
		}
		for k := range nLikers {
			for p, st := range state[k] {
				has := present[fmt.Sprintf("Drain Liker %d/%s", k, posts[p])]
				if st == 1 && !has || st == 2 && has || st == 0 && has {
					t.Fatalf("liker %d, post %d: answered state %d, row present %v", k, p, st, has)
				}
			}
		}
	})
}
