package searchindex

import (
	"container/list"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/singleflight"
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
