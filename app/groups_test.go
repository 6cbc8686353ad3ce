package app

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestHotCache: concurrent first callers share one computation; within
// hotTTL the order is reused; after it, callers get the previous order at
// once while one refresh runs, then the new one; a failed first computation
// is not kept; a forgotten key is computed again.
func TestHotCache(t *testing.T) {
	var c hotCache[uuid.UUID, []uuid.UUID]
	g := uuid.New()
	a, b := []uuid.UUID{uuid.New()}, []uuid.UUID{uuid.New()}
	var calls atomic.Int32
	release := make(chan struct{})
	slow := func(ids []uuid.UUID) func(context.Context) ([]uuid.UUID, error) {
		return func(context.Context) ([]uuid.UUID, error) {
			calls.Add(1)
			<-release
			return ids, nil
		}
	}
	var wg sync.WaitGroup
	got := make([][]uuid.UUID, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = c.get(context.Background(), g, slow(a))
		}()
	}
	close(release) // callers that come after the computation reuse it: one either way
	wg.Wait()
	for i, ids := range got {
		if len(ids) != 1 || ids[0] != a[0] {
			t.Fatalf("caller %d got %v", i, ids)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d computations for concurrent first callers", n)
	}
	// Within the TTL: reused.
	if ids, _ := c.get(context.Background(), g, slow(b)); ids[0] != a[0] || calls.Load() != 1 {
		t.Fatalf("within the TTL: %v after %d computations", ids, calls.Load())
	}
	// After it: the previous order at once, the new one once refreshed.
	c.mu.Lock()
	c.entries[g].at = time.Now().Add(-2 * hotTTL)
	c.mu.Unlock()
	done := make(chan struct{})
	fresh := func(context.Context) ([]uuid.UUID, error) { defer close(done); return b, nil }
	if ids, _ := c.get(context.Background(), g, fresh); ids[0] != a[0] {
		t.Fatalf("stale answer %v", ids)
	}
	<-done
	deadline := time.Now().Add(5 * time.Second)
	for {
		ids, _ := c.get(context.Background(), g, slow(a))
		if ids[0] == b[0] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the refreshed order never came")
		}
		time.Sleep(time.Millisecond)
	}
	// A failed first computation is answered, then computed again.
	h := uuid.New()
	boom := errors.New("boom")
	if _, err := c.get(context.Background(), h, func(context.Context) ([]uuid.UUID, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("first failure: %v", err)
	}
	if ids, err := c.get(context.Background(), h, func(context.Context) ([]uuid.UUID, error) { return a, nil }); err != nil || ids[0] != a[0] {
		t.Fatalf("after a failure: %v %v", ids, err)
	}
	c.forget(h)
	if ids, _ := c.get(context.Background(), h, func(context.Context) ([]uuid.UUID, error) { return b, nil }); ids[0] != b[0] {
		t.Fatalf("after forget: %v", ids)
	}
}
