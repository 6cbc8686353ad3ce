package app

import (
	"context"
	"sync"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/persistence"
)

// gateCacheMax bounds each of the gate caches; past it a cache starts over
// rather than track LRU order (the token version cache does the same).
const gateCacheMax = 100_000

// Gates answers a post's gate — its author, whether a moderator removed it,
// and whether a block stands between its author and a viewer — from memory,
// so that a like or a comment at a campus event costs no query before the
// post grain (the query per like was most of Postgres' work in a storm).
//
// What it holds is only trusted while the node hears every change: blocks
// made and lifted and posts removed reach every node by NOTIFY (Sessions'
// listener, OnSafetyChange), and a cache filled under an older listener
// generation, or while the listener is down, is not used. A load that raced
// a change is not stored (epoch). Safe for concurrent use.
type Gates struct {
	db       bun.IDB
	sessions *Sessions

	mu    sync.RWMutex
	gen   uint64
	epoch uint64
	posts map[uuid.UUID]persistence.PostMeta
	// blocks holds, per post author, everyone who blocks them or whom they
	// block: an event's few authors each cost one query, not each liker.
	blocks map[uuid.UUID]map[uuid.UUID]bool
}

// NewGates makes a Gates over db that follows sessions' listener.
func NewGates(db bun.IDB, sessions *Sessions) *Gates {
	g := &Gates{db: db, sessions: sessions}
	g.reset(0)
	sessions.OnSafetyChange(g.Changed)
	return g
}

func (g *Gates) reset(gen uint64) {
	g.gen = gen
	g.posts = make(map[uuid.UUID]persistence.PostMeta)
	g.blocks = make(map[uuid.UUID]map[uuid.UUID]bool)
}

// Changed forgets what c touched. The listener calls it for every node's
// changes; the use case that made one calls it too, right after its commit,
// so this node's next request sees the change without waiting for the NOTIFY.
func (g *Gates) Changed(c SafetyChange) {
	g.mu.Lock()
	g.epoch++
	if c.Post != uuid.Nil {
		delete(g.posts, c.Post)
	}
	if c.A != uuid.Nil {
		delete(g.blocks, c.A)
		delete(g.blocks, c.B)
	}
	g.mu.Unlock()
}

// Post answers the gate of post id for viewer; domain.ErrNotFound if there
// is no such post.
func (g *Gates) Post(ctx context.Context, id, viewer uuid.UUID) (persistence.PostGate, error) {
	gen := g.sessions.Generation()
	if gen == 0 {
		return persistence.PostGateOf(ctx, g.db, id, viewer)
	}
	g.mu.RLock()
	stale := g.gen != gen
	meta, haveMeta := g.posts[id]
	g.mu.RUnlock()
	if stale {
		g.mu.Lock()
		if g.gen != gen {
			g.reset(gen)
		}
		g.mu.Unlock()
		haveMeta = false
	}
	if !haveMeta {
		epoch := g.currentEpoch()
		var err error
		if meta, err = persistence.PostMetaOf(ctx, g.db, id); err != nil {
			return persistence.PostGate{}, err
		}
		g.store(gen, epoch, func() {
			if len(g.posts) >= gateCacheMax {
				g.posts = make(map[uuid.UUID]persistence.PostMeta)
			}
			g.posts[id] = meta
		})
	}
	gate := persistence.PostGate{AuthorID: meta.AuthorID, Removed: meta.Removed}
	if meta.Removed || viewer == meta.AuthorID {
		return gate, nil
	}
	g.mu.RLock()
	set, haveSet := g.blocks[meta.AuthorID]
	g.mu.RUnlock()
	if !haveSet {
		epoch := g.currentEpoch()
		var err error
		if set, err = persistence.BlockedWith(ctx, g.db, meta.AuthorID); err != nil {
			return persistence.PostGate{}, err
		}
		g.store(gen, epoch, func() {
			if len(g.blocks) >= gateCacheMax {
				g.blocks = make(map[uuid.UUID]map[uuid.UUID]bool)
			}
			g.blocks[meta.AuthorID] = set
		})
	}
	gate.Blocked = set[viewer]
	return gate, nil
}

func (g *Gates) currentEpoch() uint64 {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.epoch
}

// store runs put under the lock if nothing changed since the load began
// (epoch) and the cache still belongs to the listener generation gen.
func (g *Gates) store(gen, epoch uint64, put func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == gen && g.epoch == epoch {
		put()
	}
}
