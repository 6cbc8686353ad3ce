package searchindex

import (
	"cmp"
	"container/list"
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/singleflight"

	"campus/domain"
	"campus/persistence"
)

// cacheEntries bounds the result cache (an entry is at most SearchMaxLimit
// hits, a few KB).
const cacheEntries = 4096

// resultCache remembers the hits of recent searches for as long as the
// index does not change. Popular searches repeat — at a campus event many
// people type the same few words, and a word in most posts is the costliest
// query there is (its whole posting list is scored) — so each is computed
// once per index change, and concurrent identical searches share one
// computation. Any applied batch bumps the epoch and so retires every
// entry: a cached answer is never staler than the index.
type resultCache struct {
	epoch  atomic.Uint64
	flight singleflight.Group

	mu    sync.Mutex
	order *list.List // front = most recently used; values are *cacheEntry
	byKey map[string]*list.Element
}

type cacheEntry struct {
	key   string
	epoch uint64
	hits  []Hit
}

func newResultCache() *resultCache {
	return &resultCache{order: list.New(), byKey: map[string]*list.Element{}}
}

// invalidate retires every entry; call it after the index changed.
func (c *resultCache) invalidate() { c.epoch.Add(1) }

// get answers the cached hits for key, or computes, caches and answers them.
// Callers must not modify the returned slice.
func (c *resultCache) get(key string, compute func() ([]Hit, error)) ([]Hit, error) {
	epoch := c.epoch.Load()
	if hits, ok := c.lookup(key, epoch); ok {
		return hits, nil
	}
	// The epoch is part of the flight's key: a search that starts after a
	// change never joins one that started before it.
	v, err, _ := c.flight.Do(strconv.FormatUint(epoch, 10)+"@"+key, func() (any, error) {
		hits, err := compute()
		if err == nil {
			c.store(key, epoch, hits)
		}
		return hits, err
	})
	if err != nil {
		return nil, err
	}
	return v.([]Hit), nil
}

func (c *resultCache) lookup(key string, epoch uint64) ([]Hit, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if e.epoch != epoch {
		c.order.Remove(el)
		delete(c.byKey, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.hits, true
}

// store keeps hits computed at epoch, unless the index changed meanwhile.
func (c *resultCache) store(key string, epoch uint64, hits []Hit) {
	if c.epoch.Load() != epoch {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		el.Value = &cacheEntry{key: key, epoch: epoch, hits: hits}
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, epoch: epoch, hits: hits})
	for c.order.Len() > cacheEntries {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}

// Warming: the costliest searches are for the words in the most documents
// (every one of those is scored), and they are also among the likeliest.
// After the index took in a lot at once (a start, a rebuild, a bulk load)
// and the tailer is idle, it runs them once so the first people to search
// for them do not wait.
const (
	warmAfterDocs = 1000 // documents applied since the last warm-up
	warmTerms     = 32   // how many of the most frequent words
	warmSample    = 500  // newest posts and comments sampled to find them
)

// warm searches for the most frequent words of posts and comments (into
// the cache).
func (x *Index) warm(ctx context.Context) {
	if x.cache == nil {
		return
	}
	terms, err := x.frequentTerms(ctx, warmTerms)
	if err != nil {
		if ctx.Err() == nil {
			x.log.Debug().Err(err).Msg("search warm-up skipped")
		}
		return
	}
	for _, t := range terms {
		if ctx.Err() != nil {
			return
		}
		if _, err := x.Search(ctx, t, domain.SearchDefaultLimit); err != nil {
			x.log.Debug().Err(err).Msg("search warm-up stopped")
			return
		}
	}
}

// frequentTerms are the n words in the most posts and comments. Frequent
// words are frequent in any sample, so the candidates come from the newest
// texts and only they are counted in the index.
func (x *Index) frequentTerms(ctx context.Context, n int) ([]string, error) {
	texts, err := persistence.RecentContents(ctx, x.opts.DB, warmSample)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	for _, t := range texts {
		for _, tok := range x.docs.text.Analyze([]byte(t)) {
			seen[string(tok.Term)]++
		}
	}
	candidates := slices.Collect(maps.Keys(seen))
	slices.SortFunc(candidates, func(a, b string) int { return cmp.Or(cmp.Compare(seen[b], seen[a]), strings.Compare(a, b)) })
	candidates = candidates[:min(len(candidates), 2*n)]
	_, release, err := x.acquire()
	if err != nil {
		return nil, err
	}
	defer release()
	counts := map[string]uint64{}
	for _, f := range []kindFields{postFields, commentFields} {
		c, err := x.docFreqs(f.text, candidates)
		if err != nil {
			return nil, err
		}
		for t, k := range c {
			counts[t] += k
		}
	}
	slices.SortFunc(candidates, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b)) })
	return candidates[:min(len(candidates), n)], nil
}
