package faults

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"campus/app"
	"campus/persistence/testdb"
)

// TestSearchIndexLost deletes or replaces the search index directory under
// a running node (issue 14): searches answer 503 with Retry-After and the
// rebuilding message (never 500) while the node rebuilds the index from
// Postgres in the background, the rest of the node keeps serving, and
// afterwards search answers what it answered before, and follows new
// writes again.
func TestSearchIndexLost(t *testing.T) {
	ctx := context.Background()
	url := testdb.NewURL(t)
	n := startNode(t, url)
	db := openDB(t, url)
	people := newUsers(t, db)
	_, tok := people.add(t, n, "Zephyr Searcher")
	for _, c := range []string{"zephyr meadow at dawn", "a zephyr over the lantern fair", "nothing to see"} {
		createPost(t, n, tok, c)
	}

	search := func() answer { return n.try("GET", "/api/search?q=zephyr", tok, nil) }
	results := func(a answer) string {
		b, err := json.Marshal(a.data()["results"])
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var want string
	waitFor(t, 20*time.Second, "the posts indexed", func() bool {
		a := search()
		r, _ := a.data()["results"].([]any)
		// The author (named Zephyr) and two posts.
		if a.status == 200 && len(r) == 3 {
			want = results(a)
			return true
		}
		return false
	})

	dir := filepath.Join(n.dataDir, "search")
	tests := []struct {
		name   string
		damage func(t *testing.T)
	}{
		{"directory deleted", func(t *testing.T) {
			removeLive(t, dir)
		}},
		{"directory replaced by garbage", func(t *testing.T) {
			removeLive(t, dir)
			if err := os.MkdirAll(filepath.Join(dir, "store"), 0o700); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"index_meta.json", "store/root.bolt"} {
				if err := os.WriteFile(filepath.Join(dir, f), []byte("not an index"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Hold the rebuild at its first read (it counts the comments)
			// until the 503 has been seen: on a small database it would
			// otherwise finish between two searches. Searching for posts
			// does not read comments, so nothing else waits on the lock.
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, "LOCK TABLE comments IN ACCESS EXCLUSIVE MODE"); err != nil {
				t.Fatal(err)
			}
			tt.damage(t)

			waitFor(t, 20*time.Second, "a search answered 503 while rebuilding", func() bool {
				n.alive(t)
				a := search()
				switch {
				case a.status == 200:
					return false // not noticed yet: the open index still answers
				case unavailable(a):
					if a.env["message"] != app.MsgSearchRebuilding {
						t.Fatalf("503 message %q, want %q", a.env["message"], app.MsgSearchRebuilding)
					}
					return true
				default:
					t.Fatalf("search while the index is lost: %d %v (Retry-After %q)", a.status, a.env, a.retryAfter)
					return false
				}
			})
			// The rest of the node serves meanwhile.
			n.call(t, 200, "GET", "/api/posts/feed", tok, nil)
			n.call(t, 200, "GET", "/api/ready", "", nil)
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}

			waitFor(t, 30*time.Second, "search answering as before", func() bool {
				a := search()
				if a.status != 200 && !unavailable(a) {
					t.Fatalf("search during the rebuild: %d %v", a.status, a.env)
				}
				return a.status == 200 && results(a) == want
			})
			// The tailer follows the outbox from the rebuilt index on.
			word := []string{"quasar", "nebula"}[i]
			id := createPost(t, n, tok, "a "+word+" after the rebuild")
			waitFor(t, 20*time.Second, "a new post found after the rebuild", func() bool {
				a := n.try("GET", "/api/search?q="+word, tok, nil)
				r, _ := a.data()["results"].([]any)
				return len(r) == 1 && r[0].(map[string]any)["id"] == id
			})
		})
	}
	n.alive(t)
}

// removeLive deletes the directory of an index the node has open, as an
// operator's `rm -rf` would. The node's persister may write a new file
// between RemoveAll's listing and its rmdir ("directory not empty"), so it
// tries again until the directory is gone.
func removeLive(t *testing.T, dir string) {
	t.Helper()
	var err error
	for range 100 {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("remove %s: %v", dir, err)
}
