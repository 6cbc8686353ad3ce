package app

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/persistence"
)

// hotTTL is how long a group's hot list is shared. The list is the same
// for every viewer (each viewer's posts, likes and blocks are read fresh
// from Postgres after it), and its query counts every like of the group
// in the window: at an event, tens of thousands, 10–170 ms of Postgres. A
// big screen re-orders every few seconds and its counts move live over the
// socket, so a list up to a second old is what it would show anyway; 50
// screens then cost one count a second instead of fifty.
const hotTTL = time.Second

// hotLists shares each group's hot post list for hotTTL: the callers that
// arrive while it is computed wait for that computation. Safe for
// concurrent use.
type hotLists struct {
	db  bun.IDB
	now func() time.Time

	mu sync.Mutex
	m  map[uuid.UUID]*hotList
}

type hotList struct {
	done chan struct{} // closed when ids and err are set
	at   time.Time
	ids  []uuid.UUID
	err  error
}

func newHotLists(db bun.IDB) *hotLists {
	return &hotLists{db: db, now: time.Now, m: make(map[uuid.UUID]*hotList)}
}

// get answers group's hot posts, most liked in the last hotWindow first.
// The slice is shared: callers must not modify it.
func (h *hotLists) get(ctx context.Context, group uuid.UUID) ([]uuid.UUID, error) {
	h.mu.Lock()
	l := h.m[group]
	if l == nil || (l.at.Before(h.now().Add(-hotTTL)) && isDone(l)) || (isDone(l) && l.err != nil) {
		l = &hotList{done: make(chan struct{}), at: h.now()}
		if len(h.m) > 10_000 {
			clear(h.m) // bounded: groups with a live screen are few
		}
		h.m[group] = l
		h.mu.Unlock()
		// Not the caller's context: the others waiting for it must not
		// fail because this caller gave up.
		qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		l.ids, l.err = persistence.HotGroupPosts(qctx, h.db, group, hotWindow, hotMax)
		cancel()
		close(l.done)
		return l.ids, l.err
	}
	h.mu.Unlock()
	select {
	case <-l.done:
		return l.ids, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func isDone(l *hotList) bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}
