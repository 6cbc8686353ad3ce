package app

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// gateCacheMax bounds each of the gate caches; past it a cache starts over
// rather than track LRU order (the token version cache does the same).
const gateCacheMax = 100_000

// Gates answers a post's gate — its author, whether a moderator removed it,
// whether its author is suspended, and whether a block stands between its
// author and a viewer — from memory,
// so that a like or a comment at a campus event costs no query before the
// post grain (the query per like was most of Postgres' work in a storm).
//
// What it holds is only trusted while the node hears every change: blocks
// made and lifted, posts removed or deleted and suspensions made or lifted
// reach every node by NOTIFY
// (Sessions' listener, OnSafetyChange), and a cache filled under an older
// listener generation, or while the listener is down, is not used. A load that raced
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
	// groups holds, per group, its visibility and what is known of who is
	// a member; memberOf each user's member groups (the home feed's).
	groups   map[uuid.UUID]*groupAccess
	memberOf map[uuid.UUID][]uuid.UUID
	// suspended holds, per post author, their suspension as last read: a
	// suspension ends by itself at its end, so the end is kept, not a flag.
	suspended map[uuid.UUID]suspensionState
}

// suspensionState is an author's suspension as Gates knows it.
type suspensionState struct {
	on      bool
	forever bool
	until   time.Time
}

// at reports whether the suspension holds at now.
func (s suspensionState) at(now time.Time) bool {
	return s.on && (s.forever || now.Before(s.until))
}

type groupAccess struct {
	visibility string
	members    map[uuid.UUID]bool
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
	g.groups = make(map[uuid.UUID]*groupAccess)
	g.memberOf = make(map[uuid.UUID][]uuid.UUID)
	g.suspended = make(map[uuid.UUID]suspensionState)
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
	if c.Suspension != uuid.Nil {
		delete(g.suspended, c.Suspension)
	}
	switch {
	case c.Group != uuid.Nil && c.Member != uuid.Nil:
		if ga := g.groups[c.Group]; ga != nil {
			delete(ga.members, c.Member)
		}
		delete(g.memberOf, c.Member)
	case c.Group != uuid.Nil:
		// Visibility changed or the group went: every member list that
		// named it is stale too.
		delete(g.groups, c.Group)
		clear(g.memberOf)
	}
	g.mu.Unlock()
}

// generation answers the listener generation the caches may be used under
// (0: not at all), starting them over when it moved.
func (g *Gates) generation() uint64 {
	gen := g.sessions.Generation()
	if gen == 0 {
		return 0
	}
	g.mu.RLock()
	stale := g.gen != gen
	g.mu.RUnlock()
	if stale {
		g.mu.Lock()
		if g.gen != gen {
			g.reset(gen)
		}
		g.mu.Unlock()
	}
	return gen
}

// MemberGroups answers the groups user is a member of (the home feed shows
// their posts), sorted by id.
func (g *Gates) MemberGroups(ctx context.Context, user uuid.UUID) ([]uuid.UUID, error) {
	gen := g.generation()
	if gen == 0 {
		return persistence.MemberGroupIDs(ctx, g.db, user)
	}
	g.mu.RLock()
	ids, ok := g.memberOf[user]
	g.mu.RUnlock()
	if ok {
		return ids, nil
	}
	epoch := g.currentEpoch()
	ids, err := persistence.MemberGroupIDs(ctx, g.db, user)
	if err != nil {
		return nil, err
	}
	g.store(gen, epoch, func() {
		if len(g.memberOf) >= gateCacheMax {
			g.memberOf = make(map[uuid.UUID][]uuid.UUID)
		}
		g.memberOf[user] = ids
	})
	return ids, nil
}

// groupLocked reports whether group's posts are closed to viewer: a
// closed or secret group they are not a member of.
func (g *Gates) groupLocked(ctx context.Context, gen uint64, group, viewer uuid.UUID) (bool, error) {
	g.mu.RLock()
	var vis string
	member, known := false, false
	if ga := g.groups[group]; ga != nil {
		vis = ga.visibility
		member, known = ga.members[viewer]
		known = known || vis == domain.GroupPublic
	}
	g.mu.RUnlock()
	if known {
		return vis != domain.GroupPublic && !member, nil
	}
	epoch := g.currentEpoch()
	vis, member, err := persistence.GroupAccess(ctx, g.db, group, viewer)
	if err != nil {
		return false, err
	}
	g.store(gen, epoch, func() {
		ga := g.groups[group]
		if ga == nil {
			if len(g.groups) >= gateCacheMax {
				g.groups = make(map[uuid.UUID]*groupAccess)
			}
			ga = &groupAccess{visibility: vis, members: make(map[uuid.UUID]bool)}
			g.groups[group] = ga
		}
		if vis != domain.GroupPublic && len(ga.members) < gateCacheMax {
			ga.members[viewer] = member
		}
	})
	return vis != domain.GroupPublic && !member, nil
}

// Post answers the gate of post id for viewer; domain.ErrNotFound if there
// is no such post.
func (g *Gates) Post(ctx context.Context, id, viewer uuid.UUID) (persistence.PostGate, error) {
	gen := g.generation()
	if gen == 0 {
		return persistence.PostGateOf(ctx, g.db, id, viewer)
	}
	g.mu.RLock()
	meta, haveMeta := g.posts[id]
	g.mu.RUnlock()
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
	if meta.Removed {
		return gate, nil
	}
	suspended, err := g.authorSuspended(ctx, gen, meta.AuthorID)
	if err != nil {
		return persistence.PostGate{}, err
	}
	if gate.AuthorSuspended = suspended; suspended || viewer == meta.AuthorID {
		return gate, nil
	}
	if meta.GroupID != uuid.Nil {
		locked, err := g.groupLocked(ctx, gen, meta.GroupID, viewer)
		if isNotFound(err) {
			return persistence.PostGate{}, err // the group went, and its posts with it
		}
		if err != nil {
			return persistence.PostGate{}, err
		}
		if gate.GroupLocked = locked; locked {
			return gate, nil
		}
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

// AuthorSuspended reports whether author is suspended now (their posts and
// comments are hidden from everyone but moderators).
func (g *Gates) AuthorSuspended(ctx context.Context, author uuid.UUID) (bool, error) {
	gen := g.generation()
	if gen == 0 {
		s, err := persistence.SuspensionOf(ctx, g.db, author)
		return s != nil, err
	}
	return g.authorSuspended(ctx, gen, author)
}

func (g *Gates) authorSuspended(ctx context.Context, gen uint64, author uuid.UUID) (bool, error) {
	g.mu.RLock()
	st, ok := g.suspended[author]
	g.mu.RUnlock()
	if ok {
		return st.at(time.Now()), nil
	}
	epoch := g.currentEpoch()
	s, err := persistence.SuspensionOf(ctx, g.db, author)
	if err != nil {
		return false, err
	}
	if s != nil {
		st = suspensionState{on: true, forever: s.Until == nil}
		if s.Until != nil {
			st.until = *s.Until
		}
	}
	g.store(gen, epoch, func() {
		if len(g.suspended) >= gateCacheMax {
			g.suspended = make(map[uuid.UUID]suspensionState)
		}
		g.suspended[author] = st
	})
	return s != nil, nil
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
