package realtime

import (
	"time"

	"github.com/google/uuid"
)

// pushedSeqs remembers, per conversation, the highest message seq this
// node's hub pushed, so that it pushes each seq at most once and never one
// below a seq it already pushed: the conversation grain's push after the
// commit, the same message pushed again for a retried send, a repair after
// a member was lost, and a twin grain's push may all bring a seq here.
//
// Bounded by two generations of maps: a conversation is remembered for
// at least pushedKeep after its last push (longer than the repair's
// window, so a repair never finds a seq forgotten here) and at most twice
// that; a generation that fills up (pushedMax conversations) is retired
// early, which can only let a repair push a seq a second time, never hold
// one back.
//
// Concurrency: used by the hub actor only.
type pushedSeqs struct {
	cur, prev map[uuid.UUID]int64
	since     time.Time // when cur was started
	keep      time.Duration
	max       int
}

const (
	pushedKeep = 2 * time.Minute
	pushedMax  = 200_000
)

func newPushedSeqs(keep time.Duration, max int) *pushedSeqs {
	return &pushedSeqs{cur: make(map[uuid.UUID]int64), prev: map[uuid.UUID]int64{}, keep: keep, max: max}
}

// last is the highest seq of conv pushed here (0: none remembered).
func (p *pushedSeqs) last(conv uuid.UUID) int64 {
	if s, ok := p.cur[conv]; ok {
		return s
	}
	return p.prev[conv]
}

// pushed records that seq of conv was pushed at now (seq above last).
func (p *pushedSeqs) pushed(conv uuid.UUID, seq int64, now time.Time) {
	if p.since.IsZero() {
		p.since = now
	}
	if now.Sub(p.since) >= p.keep || len(p.cur) >= p.max {
		p.prev, p.cur, p.since = p.cur, make(map[uuid.UUID]int64, len(p.cur)), now
	}
	p.cur[conv] = seq
}

// len is how many conversations are remembered (tests).
func (p *pushedSeqs) len() int {
	n := len(p.cur)
	for c := range p.prev {
		if _, ok := p.cur[c]; !ok {
			n++
		}
	}
	return n
}
