package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"campus/persistence/pgserver"
)

// startTestDendrite starts the cached Dendrite build on a throwaway
// Postgres (skipping when the build is not cached: tests do not build it).
func startTestDendrite(t *testing.T, ctx context.Context) *dendriteTarget {
	t.Helper()
	if dir, ok := dendriteCached(); !ok {
		t.Skipf("no Dendrite %s build in %s: the bench builds it on its first messages run", dendriteVersion, dir)
	}
	raiseNoFile()
	dir, err := os.MkdirTemp("", "campus-dendrite-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// Running as root, postgres runs as its own user and must traverse
	// this dir to reach its data dir (as the bench's temp dir).
	if err := os.Chmod(dir, 0o711); err != nil {
		t.Fatal(err)
	}
	pg, err := pgserver.Start(ctx, pgserver.Options{Dir: filepath.Join(dir, "postgres"), Ephemeral: true, Log: zerolog.Nop()})
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = pg.Stop(sctx)
	})
	d, err := startDendriteTarget(ctx, dendriteEnv{
		adminDSN: pg.URL(),
		dir:      filepath.Join(dir, "dendrite"),
		dial:     newDialer(),
		progress: func(format string, args ...any) { t.Logf(format, args...) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.close)
	return d
}

// dendriteInbox is what each person's live connection delivered, in order.
type dendriteInbox struct {
	mu  sync.Mutex
	got map[int][]msgDelivery // by person
}

func (in *dendriteInbox) deliver(p int) func(msgDelivery) {
	return func(m msgDelivery) {
		in.mu.Lock()
		defer in.mu.Unlock()
		in.got[p] = append(in.got[p], m)
	}
}

// ids is person p's deliveries in conversation c, as client IDs.
func (in *dendriteInbox) ids(p, c int) []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	var out []string
	for _, m := range in.got[p] {
		if m.conv == c {
			out = append(out, m.clientID)
		}
	}
	return out
}

func TestDendriteTarget(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d := startTestDendrite(t, ctx)
	var tg msgTarget = d

	const people = 4
	direct := [][2]int{{0, 1}, {2, 3}}
	groups := [][]int{{0, 1, 2}}
	members := [][]int{{0, 1}, {2, 3}, {0, 1, 2}}
	if err := tg.setup(ctx, people, direct, groups); err != nil {
		t.Fatal(err)
	}
	in := &dendriteInbox{got: map[int][]msgDelivery{}}
	lctx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	for p := range people {
		if err := tg.listen(lctx, p, in.deliver(p)); err != nil {
			t.Fatal(err)
		}
	}

	// Every member sends in each of their conversations, one send at a
	// time so that the order is known; the first send is sent twice under
	// the same client ID (a retry), which must join the original.
	type sendOp struct{ p, c int }
	var ops []sendOp
	for range 2 {
		for c, ms := range members {
			for _, p := range ms {
				ops = append(ops, sendOp{p, c})
			}
		}
	}
	want := make([][]string, len(members))
	for i, op := range ops {
		id := fmt.Sprintf("m%d-p%d-c%d", i, op.p, op.c)
		if _, err := tg.send(ctx, op.p, op.c, id, "hello "+id); err != nil {
			t.Fatalf("send %s: %v", id, err)
		}
		if i == 0 {
			if _, err := tg.send(ctx, op.p, op.c, id, "hello "+id); err != nil {
				t.Fatalf("resend %s: %v", id, err)
			}
		}
		want[op.c] = append(want[op.c], id)
	}

	// Wait until every member has the conversation's last message: the
	// room's events arrive in order, so a duplicate of an earlier one would
	// have come before it.
	deadline := time.Now().Add(2 * time.Minute)
	for c, ms := range members {
		last := want[c][len(want[c])-1]
		for _, p := range ms {
			for !slices.Contains(in.ids(p, c), last) {
				if time.Now().After(deadline) {
					t.Fatalf("person %d never got %s in conversation %d; got %v", p, last, c, in.ids(p, c))
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	}

	for c, ms := range members {
		for p := range people {
			t.Run(fmt.Sprintf("conversation %d person %d delivered", c, p), func(t *testing.T) {
				var exp []string
				if slices.Contains(ms, p) {
					exp = want[c]
				}
				if got := in.ids(p, c); !slices.Equal(got, exp) {
					t.Errorf("delivered %v, want %v (each once, in send order)", got, exp)
				}
			})
		}
		t.Run(fmt.Sprintf("conversation %d stored", c), func(t *testing.T) {
			st, err := tg.stored(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range st {
				got = append(got, m.clientID)
			}
			if !slices.Equal(got, want[c]) {
				t.Errorf("stored %v, want %v", got, want[c])
			}
		})
	}
}
