package actors

import (
	"campus/protocol"
	"sync"
	"time"

	"github.com/google/uuid"
)

// countBatcher collects the counts this node's post grains commit and sends
// them to every hub as ONE CountsTick per period of the node-wide clock
// (a countSlots-th of CountInterval), however many posts changed: at a
// campus event hundreds of warm posts tick together, and one broadcast each
// was most of the cluster traffic. Within a period the latest counts of a
// post win, so a post's counts go out at most once per period and the last
// value always goes out (the batcher holds it even if the grain passivates
// meanwhile). "Latest" is by the counts' version (the post's
// counts_version), not by arrival: a twin grain's or a moderator's older
// counts that arrive late do not replace newer ones.
//
// Concurrency: safe for concurrent use (grains publish from their own
// Receive); mu guards pending and scheduled. The flush runs on a timer
// goroutine and sends outside the lock.
type countBatcher struct {
	mu        sync.Mutex
	pending   map[string]*PostCount
	scheduled bool
}

// PublishCounts sends a post's counts, committed outside its grain (a
// moderator removed a comment, someone reposted the post), to the post's watchers on every node with
// the next tick (app.CountsPublisher).
func (l *Live) PublishCounts(postID uuid.UUID, likes, comments, reposts int, version int64) {
	l.publishCounts(postID.String(), likes, comments, reposts, version)
}

// publishCounts hands a post's newly committed counts to the node's batcher.
func (l *Live) publishCounts(postID string, likes, comments, reposts int, version int64) {
	b := &l.counts
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending == nil {
		b.pending = make(map[string]*PostCount)
	}
	if cur := b.pending[postID]; cur != nil && cur.GetVersion() > version {
		return // newer counts of the post are already waiting
	}
	r := int64(reposts)
	b.pending[postID] = &PostCount{PostId: postID, Likes: int64(likes), Comments: int64(comments), Reposts: &r,
		Version: version}
	if b.scheduled {
		return
	}
	b.scheduled = true
	// The next multiple of the period: every node's batcher ticks at the
	// same instants, so the hubs get each period's counts of all nodes
	// together and a socket gets them in one frame. The period is a slot
	// of the hubs' tick (countSlots): each slot's sessions get their frame
	// right after its period's counts came, so waiting for the batcher
	// adds nothing to waiting for the socket's phase.
	interval := l.cfg.CountInterval / protocol.CountSlots
	now := time.Now()
	time.AfterFunc(now.Truncate(interval).Add(interval).Sub(now), l.flushCounts)
}

// flushCounts broadcasts what was published since the last tick.
func (l *Live) flushCounts() {
	b := &l.counts
	b.mu.Lock()
	pending := b.pending
	b.pending, b.scheduled = nil, false
	b.mu.Unlock()
	if len(pending) == 0 || l.cur.Load() == nil {
		return
	}
	msg := &CountsTick{Counts: make([]*PostCount, 0, len(pending))}
	for _, c := range pending {
		msg.Counts = append(msg.Counts, c)
	}
	l.broadcast(msg)
}
