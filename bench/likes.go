package main

import (
	"context"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"
)

// likeOp is one acknowledged like or unlike.
type likeOp struct {
	send, ack int64 // bench clock
	count     int32 // likesCount in the answer
	post      int32
	node      int8 // the node it was sent to (the cluster scenario; else 0)
}

// Slot states of likeRun.state.
const (
	stNone      = iota // never touched: must not be in post_likes
	stLiked            // last answer: liked
	stUnliked          // last answer: not liked
	stUncertain        // last request failed or timed out: either is fine
)

// likeRun drives likes on a set of posts and keeps the books needed for
// the consistency check and the push latency.
//
// The schedule makes each post's count move in one direction for long
// stretches, so a pushed count names the write that produced it: a post's
// k-th operation is by user k mod U, and it is a like in even rounds
// (k / U even) and an unlike in odd ones. Every user thus toggles its like
// once per round; within a round the count only rises (or only falls), so
// each value is produced by exactly one commit per round.
type likeRun struct {
	b     *bench
	name  string
	posts []uuid.UUID
	uris  []string
	U     int
	// picker makes one worker's post chooser from its random source.
	picker func(r *mrand.Rand) func() int
	// pace, when set, makes the run open-loop: each liker sends at
	// exponentially distributed intervals of this mean, whether or not
	// its last like was answered, and a like's latency counts from when
	// it was due (a late answer delays the next send but not the clock).
	pace time.Duration

	next  []atomic.Int64 // per post: operations issued
	busy  []atomic.Bool  // per post×user: a request is in flight
	state []uint8        // per post×user: stNone…stUncertain, written only while busy

	winStart, winEnd int64
	stop             atomic.Bool

	ok, fail, wrong, skipped atomic.Int64
	// refused counts the failures that were 503s: the server turned the
	// like away (full queue, no commit in time) and a retry is safe.
	refused  atomic.Int64
	errOnce  sync.Once
	firstErr atomic.Value

	mu  sync.Mutex
	ops []likeOp
	lat []int64
}

func (b *bench) newLikeRun(name string, posts []uuid.UUID, picker func(r *mrand.Rand) func() int) *likeRun {
	if picker == nil {
		picker = func(*mrand.Rand) func() int { return func() int { return 0 } }
	}
	lr := &likeRun{b: b, name: name, posts: posts, U: len(b.w.users), picker: picker}
	for _, p := range posts {
		lr.uris = append(lr.uris, b.uri("/api/posts/"+p.String()+"/like"))
	}
	lr.next = make([]atomic.Int64, len(posts))
	lr.busy = make([]atomic.Bool, len(posts)*lr.U)
	lr.state = make([]uint8, len(posts)*lr.U)
	return lr
}

// run starts likers, measures the window [warmup, warmup+dur) and stops
// them at its end (or when stopAt returns true, checked every 10 ms).
func (lr *likeRun) run(ctx context.Context, likers int, warmup, dur time.Duration, stopAt func() bool) {
	start := lr.b.now()
	lr.winStart, lr.winEnd = start+int64(warmup), start+int64(warmup+dur)
	var wg sync.WaitGroup
	for w := 0; w < likers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lr.worker(ctx, w)
		}()
	}
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	last := time.Now()
	for lr.b.now() < lr.winEnd && ctx.Err() == nil {
		<-t.C
		if stopAt != nil && stopAt() {
			break
		}
		if time.Since(last) >= time.Second {
			last = time.Now()
			lr.b.progress("%s: %s likes acknowledged, %d failed", lr.name, group(lr.ok.Load()), lr.fail.Load())
		}
	}
	lr.stop.Store(true)
	wg.Wait()
	if now := lr.b.now(); now < lr.winEnd {
		lr.winEnd = now // stopped early (crash): the window ends here
	}
}

func (lr *likeRun) worker(ctx context.Context, w int) {
	b := lr.b
	pick := lr.picker(mrand.New(mrand.NewPCG(uint64(b.o.seed), uint64(w)+1000)))
	c := b.client()
	defer c.CloseIdleConnections()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	var ops []likeOp
	var lat []int64
	U := int64(lr.U)
	var paceRng *mrand.Rand
	var due int64
	if lr.pace > 0 {
		paceRng = mrand.New(mrand.NewPCG(uint64(b.o.seed), uint64(w)+5000))
		due = b.now() + int64(paceRng.ExpFloat64()*float64(lr.pace))
	}
	for !lr.stop.Load() && ctx.Err() == nil {
		if lr.pace > 0 && !lr.sleepUntil(ctx, due) {
			break
		}
		p := pick()
		k := lr.next[p].Add(1) - 1
		u := int(k % U)
		like := (k/U)%2 == 0
		slot := p*lr.U + u
		// The same user's previous request on this post is still in
		// flight (only when the server is slower than a whole round):
		// skip, so each (post, user) has one request at a time and its
		// final state is the last answer's.
		if !lr.busy[slot].CompareAndSwap(false, true) {
			lr.skipped.Add(1)
			continue
		}
		if like {
			req.Header.SetMethod(fasthttp.MethodPost)
		} else {
			req.Header.SetMethod(fasthttp.MethodDelete)
		}
		req.SetRequestURI(lr.uris[p])
		req.Header.Set("Authorization", b.w.auth[u])
		send := b.now()
		if lr.pace > 0 {
			send = min(send, due)
			due += int64(paceRng.ExpFloat64() * float64(lr.pace))
		}
		err := c.DoTimeout(req, resp, 20*time.Second)
		ack := b.now()
		if err == nil && resp.StatusCode() == fasthttp.StatusOK {
			if liked, count, perr := parseLike(resp.Body()); perr == nil {
				if liked {
					lr.state[slot] = stLiked
				} else {
					lr.state[slot] = stUnliked
				}
				if liked != like {
					lr.wrong.Add(1)
				}
				lr.busy[slot].Store(false)
				lr.ok.Add(1)
				ops = append(ops, likeOp{send: send, ack: ack, count: count, post: int32(p)})
				if send >= lr.winStart && send < lr.winEnd {
					lat = append(lat, ack-send)
				}
				continue
			}
		}
		lr.state[slot] = stUncertain
		lr.busy[slot].Store(false)
		lr.fail.Add(1)
		if err == nil && resp.StatusCode() == fasthttp.StatusServiceUnavailable {
			lr.refused.Add(1)
		}
		lr.errOnce.Do(func() { lr.firstErr.Store(describe(err, resp)) })
		if err != nil {
			time.Sleep(5 * time.Millisecond) // a refused connection must not spin
		}
	}
	lr.mu.Lock()
	lr.ops = append(lr.ops, ops...)
	lr.lat = append(lr.lat, lat...)
	lr.mu.Unlock()
}

// sleepUntil waits until the bench clock reaches due, waking to notice
// the end of the run; false when the run ended first.
func (lr *likeRun) sleepUntil(ctx context.Context, due int64) bool {
	for {
		if lr.stop.Load() || ctx.Err() != nil {
			return false
		}
		wait := time.Duration(due - lr.b.now())
		if wait <= 0 {
			return true
		}
		time.Sleep(min(wait, 50*time.Millisecond))
	}
}

func (lr *likeRun) err() string {
	if s, ok := lr.firstErr.Load().(string); ok {
		return s
	}
	return ""
}

// likeStats are a like run's figures.
type likeStats struct {
	perSec     float64 // answered likes/unlikes per second in the window
	lat        dist
	push       dist    // like→viewer push latency
	deliveries float64 // pushes received per second in the window
	frames     int
	unmatched  int // frames whose count no answered request had reported
}

// stats computes the figures.
//
// Push latency of a frame (post p, count c, arrival A) is A − S, the time
// from the tap to the viewer's screen: request, commit, coalescing wait,
// broadcast and delivery. S is the earliest send time among the requests on
// p whose answer reported c in the generation the frame shows: the latest
// request that reported c and was sent before A names the generation, and
// its batch-mates are those reporting c that were answered after that send
// (a commit answers all of its batch; an earlier generation of c was
// answered a round earlier, under the schedule above). Taking the earliest
// of the batch charges the group-commit wait to the figure, not away.
func (lr *likeRun) stats(p *pool) likeStats {
	win := time.Duration(lr.winEnd - lr.winStart).Seconds()
	s := likeStats{lat: distOf(lr.lat)}
	acked := 0
	for _, op := range lr.ops {
		if op.ack >= lr.winStart && op.ack < lr.winEnd {
			acked++
		}
	}
	if win > 0 {
		s.perSec = float64(acked) / win
	}
	if p == nil {
		return s
	}
	byCount := make([]map[int32][]likeOp, len(lr.posts))
	for i := range byCount {
		byCount[i] = map[int32][]likeOp{}
	}
	for _, op := range lr.ops {
		byCount[op.post][op.count] = append(byCount[op.post][op.count], op)
	}
	for _, m := range byCount {
		for _, l := range m {
			slices.SortFunc(l, func(a, b likeOp) int { return cmpInt64(a.send, b.send) })
		}
	}
	frames := p.framesIn(lr.winStart, lr.winEnd)
	s.frames = len(frames)
	if win > 0 {
		s.deliveries = float64(len(frames)) / win
	}
	lat := make([]int64, 0, len(frames))
	for _, f := range frames {
		l := byCount[f.post][f.count]
		i := sort.Search(len(l), func(i int) bool { return l[i].send > f.at }) - 1
		if i < 0 {
			s.unmatched++
			continue
		}
		first := l[i].send
		// Batch-mates sort just before it; the first request answered
		// before it was even sent belongs to an earlier generation.
		for j := i - 1; j >= 0 && l[j].ack > l[i].send; j-- {
			first = l[j].send
		}
		lat = append(lat, f.at-first)
	}
	s.push = distOf(lat)
	return s
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// consistency is the check of the database against the answers.
type consistency struct {
	net       int // (post, user) pairs whose last answer was "liked"
	rows      int // post_likes rows of the posts
	counter   int // sum of posts.likes_count
	lost      int // answered liked, no row
	phantom   int // a row the answers say must not be there
	uncertain int // last request unanswered: either is right
	drift     int // Σ |likes_count − rows| per post
	wrong     int64
}

func (c consistency) ok() bool { return c.lost == 0 && c.phantom == 0 && c.drift == 0 && c.wrong == 0 }

func (c consistency) String() string {
	s := fmt.Sprintf("lost=%d phantom=%d (net acknowledged %d, rows %d, likes_count %d", c.lost, c.phantom, c.net, c.rows, c.counter)
	if c.uncertain > 0 {
		s += fmt.Sprintf(", %d unanswered", c.uncertain)
	}
	if c.wrong > 0 {
		s += fmt.Sprintf(", %d answers contradicting the request", c.wrong)
	}
	return s + ")"
}

// check compares post_likes and posts.likes_count with the answers.
func (lr *likeRun) check(ctx context.Context, db *bun.DB) (consistency, error) {
	c := consistency{wrong: lr.wrong.Load()}
	postIdx := map[uuid.UUID]int{}
	for i, p := range lr.posts {
		postIdx[p] = i
	}
	rows, err := db.QueryContext(ctx, "SELECT post_id, user_id FROM post_likes WHERE post_id IN (?)", bun.In(lr.posts))
	if err != nil {
		return c, fmt.Errorf("read post_likes: %w", err)
	}
	present := make([]bool, len(lr.state))
	perPost := make([]int, len(lr.posts))
	for rows.Next() {
		var ps, us string
		if err := rows.Scan(&ps, &us); err != nil {
			rows.Close()
			return c, fmt.Errorf("read post_likes: %w", err)
		}
		pid, _ := uuid.Parse(ps)
		uid, _ := uuid.Parse(us)
		c.rows++
		perPost[postIdx[pid]]++
		u, ok := lr.b.w.userIdx[uid]
		if !ok {
			c.phantom++ // not a user of ours
			continue
		}
		present[postIdx[pid]*lr.U+u] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("read post_likes: %w", err)
	}
	for slot, st := range lr.state {
		switch st {
		case stLiked:
			c.net++
			if !present[slot] {
				c.lost++
			}
		case stUncertain:
			c.uncertain++
		default:
			if present[slot] {
				c.phantom++
			}
		}
	}
	counts, err := db.QueryContext(ctx, "SELECT id, likes_count FROM posts WHERE id IN (?)", bun.In(lr.posts))
	if err != nil {
		return c, fmt.Errorf("read likes_count: %w", err)
	}
	defer counts.Close()
	for counts.Next() {
		var ps string
		var n int
		if err := counts.Scan(&ps, &n); err != nil {
			return c, fmt.Errorf("read likes_count: %w", err)
		}
		pid, _ := uuid.Parse(ps)
		c.counter += n
		d := n - perPost[postIdx[pid]]
		if d < 0 {
			d = -d
		}
		c.drift += d
	}
	return c, counts.Err()
}
