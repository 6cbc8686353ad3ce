package app

import (
	"math"
	"sync"
	"time"
)

// Limiter is a set of token buckets keyed by string (an account, an address,
// an IP). It is per node: with N nodes behind a balancer an attacker gets at
// most N times the budget, which the per-code attempt counter in Postgres
// (cluster-wide) backs up. Safe for concurrent use.
type Limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	rate    float64 // tokens per second
	burst   float64
	now     func() time.Time
	off     bool
	sweeps  int
}

type bucket struct {
	tokens float64
	last   time.Time
}

// NewLimiter allows burst events at once and refills at n events per period.
func NewLimiter(n int, period time.Duration, burst int, enabled bool) *Limiter {
	return &Limiter{
		buckets: make(map[string]*bucket),
		rate:    float64(n) / period.Seconds(),
		burst:   float64(burst),
		now:     time.Now,
		off:     !enabled,
	}
}

// Allow takes one token for key. When none is left it answers false and the
// whole seconds until one will be.
func (l *Limiter) Allow(key string) (bool, int) {
	if l == nil || l.off {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	l.sweep(now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := int(math.Ceil((1 - b.tokens) / l.rate))
	if wait < 1 {
		wait = 1
	}
	return false, wait
}

// sweep drops full buckets now and then so memory stays bounded by the
// number of recently active keys. Called with mu held.
func (l *Limiter) sweep(now time.Time) {
	l.sweeps++
	if l.sweeps < 1024 {
		return
	}
	l.sweeps = 0
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	for k, b := range l.buckets {
		if now.Sub(b.last) > full {
			delete(l.buckets, k)
		}
	}
}
