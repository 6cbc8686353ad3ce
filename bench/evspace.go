package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"
)

// tgtLiveP99 is issue 18's target for the big screen's data call.
const tgtLiveP99 = 50 * time.Millisecond

// eventSpace: the campus event, paced (--paced-rate), on one event group's posts with
// every viewer on the shared page, while big screens poll the group's live
// data (GET /api/groups/{handle}/live) once a second each.
func (b *bench) eventSpace(ctx context.Context) {
	const sc = "2 event space"
	if err := b.need("likes", "ws", "live"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	pace, why := b.pacedInterval()
	rate := b.o.pacedRate
	scr := &screens{b: b, n: b.o.screens, period: time.Second, uri: b.uri("/api/groups/" + b.w.spaceHandle + "/live")}
	b.progress("event space: %s likes/s offered (%s), %d big screens on /api/groups/%s/live", group(int64(rate)), why, scr.n, b.w.spaceHandle)
	backlog, err := b.spaceBacklog(ctx, b.o.evspaceBacklog)
	if err != nil {
		b.rep.skip(sc, err)
		return
	}
	b.eventRun(ctx, sc, b.w.spacePosts, eventSpec{
		pace: pace, offered: why, shared: true, name: "event space",
		prep: func(lr *likeRun) {
			for _, s := range backlog {
				lr.state[s] = stLiked
			}
		},
		along: func(start int64) func() { return scr.run(ctx, start) },
		rows: func() {
			scr.rows(sc)
			if len(backlog) > 0 {
				b.rep.add(sc, "likes already given", float64(len(backlog)), "").
					note("--evspace-backlog: in the 9 minutes before the run, by the last users, Zipf over the posts")
			}
		},
	})
}

// spaceBacklog gives n likes on the event space's posts, dated over the
// last nine minutes, before the run: an event in progress, whose likes the
// big screen's "last ten minutes" counts. They are by the last users (the
// likers start from the first, so their schedule stays clear of them),
// Zipf over the posts like the likers' and at most half the users per
// post; likes_count follows and the table is vacuumed, as autovacuum would
// have over those minutes. It answers the likeRun slots (post×user) liked.
func (b *bench) spaceBacklog(ctx context.Context, n int) ([]int, error) {
	if n == 0 {
		return nil, nil
	}
	posts, U := b.w.spacePosts, len(b.w.users)
	weights, sum := make([]float64, len(posts)), 0.0
	for r := range posts {
		weights[r] = 1 / math.Pow(float64(r+1), 1.1)
		sum += weights[r]
	}
	var slots []int
	for r := range posts {
		k := min(int(float64(n)*weights[r]/sum), U/2)
		for j := 0; j < k; j++ {
			slots = append(slots, r*U+U-1-j)
		}
	}
	rng := mrand.New(mrand.NewPCG(uint64(b.o.seed), 77))
	now := time.Now().UTC()
	var done atomic.Int64
	err := b.copyRows(ctx, "post_likes", "post_id, user_id, created_at", len(slots), &done, func(i int, bw *bufio.Writer) {
		at := now.Add(-time.Duration(rng.Int64N(int64(9 * time.Minute))))
		fmt.Fprintf(bw, "%s\t%s\t%s\n", posts[slots[i]/U], b.w.users[slots[i]%U], at.Format("2006-01-02 15:04:05.000000+00"))
	})
	if err != nil {
		return nil, fmt.Errorf("event space backlog: %w", err)
	}
	if _, err := b.db.ExecContext(ctx, `UPDATE posts p SET likes_count = (SELECT count(*) FROM post_likes pl WHERE pl.post_id = p.id)
		WHERE p.id IN (?)`, bun.In(posts)); err != nil {
		return nil, fmt.Errorf("event space backlog: likes_count: %w", err)
	}
	if _, err := b.db.ExecContext(ctx, "VACUUM (ANALYZE) post_likes, posts"); err != nil {
		return nil, fmt.Errorf("event space backlog: vacuum: %w", err)
	}
	b.progress("event space: %s likes already given over the last 9 minutes", group(int64(len(slots))))
	return slots, nil
}

// screens are big-screen clients, each on its own keep-alive connection,
// calling one URL every period, open loop: screen i's calls are due at
// start + i·period/n + k·period, and a call's latency counts from when it
// was due (a slow answer delays the next call but not its clock).
type screens struct {
	b      *bench
	n      int
	period time.Duration
	uri    string

	winStart, winEnd int64
	stop             atomic.Bool
	wg               sync.WaitGroup

	mu       sync.Mutex
	lat      []int64        // answered calls due in the window
	failures map[string]int // calls due in the window that failed, by status or error
	firstErr string
}

// run starts the screens; the window is the likes' (a warm-up after start,
// for the measured duration). It returns their stop.
func (s *screens) run(ctx context.Context, start int64) func() {
	s.winStart = start + int64(s.b.o.warmup)
	s.winEnd = s.winStart + int64(s.b.o.duration)
	s.failures = map[string]int{}
	for i := 0; i < s.n; i++ {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.screen(ctx, i, start+int64(i)*int64(s.period)/int64(s.n))
		}()
	}
	return func() {
		s.stop.Store(true)
		s.wg.Wait()
	}
}

func (s *screens) screen(ctx context.Context, i int, due int64) {
	b := s.b
	c := b.client()
	defer c.CloseIdleConnections()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(fasthttp.MethodGet)
	req.SetRequestURI(s.uri)
	// Any user: every one is a member of the event space.
	req.Header.Set("Authorization", b.w.auth[(i*13+7)%len(b.w.auth)])
	var lat []int64
	fails := map[string]int{}
	firstErr := ""
	for s.wait(ctx, due) {
		err := c.DoTimeout(req, resp, 10*time.Second)
		ack := b.now()
		took, inWin := ack-due, due >= s.winStart && due < s.winEnd
		due += int64(s.period)
		var fail string
		switch {
		case err != nil:
			fail = errorKind(err)
		case resp.StatusCode() != fasthttp.StatusOK:
			fail = fmt.Sprintf("status %d", resp.StatusCode())
		case !strings.Contains(string(resp.Body()), `"hot"`):
			fail = "200 without a hot list"
		}
		if fail != "" && firstErr == "" {
			firstErr = describe(err, resp)
		}
		if !inWin {
			continue
		}
		if fail != "" {
			fails[fail]++
			continue
		}
		lat = append(lat, took)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lat = append(s.lat, lat...)
	for k, v := range fails {
		s.failures[k] += v
	}
	if s.firstErr == "" {
		s.firstErr = firstErr
	}
}

// wait sleeps until the bench clock reaches due, waking to notice the
// stop; false when stopped first.
func (s *screens) wait(ctx context.Context, due int64) bool {
	for {
		if s.stop.Load() || ctx.Err() != nil {
			return false
		}
		d := time.Duration(due - s.b.now())
		if d <= 0 {
			return true
		}
		time.Sleep(min(d, 50*time.Millisecond))
	}
}

// errorKind names a transport error for the failures row.
func errorKind(err error) string {
	switch {
	case errors.Is(err, fasthttp.ErrTimeout):
		return "timeout"
	case errors.Is(err, fasthttp.ErrConnectionClosed):
		return "connection closed"
	}
	return "error"
}

// rows adds the big screens' figures.
func (s *screens) rows(sc string) {
	r := s.b.rep
	d := distOf(s.lat)
	win := time.Duration(s.winEnd - s.winStart).Seconds()
	r.add(sc, "big-screen data call p50", ms(d.p50), "ms").
		note("GET /api/groups/{handle}/live: %d screens, each once every %s (open loop, staggered), latency from the due time", s.n, s.period)
	p99 := r.add(sc, "big-screen data call p99", ms(d.p99), "ms").
		target(fmt.Sprintf("≤ %.0f ms", ms(tgtLiveP99)), d.n > 0 && d.p99 <= tgtLiveP99)
	if d.n > 0 {
		p99.note("max %.1f ms over %d answers", ms(d.max), d.n)
	}
	offered := float64(s.n) / s.period.Seconds()
	if win > 0 {
		r.add(sc, "big-screen answers", float64(d.n)/win, "answers/s").vs(fmt.Sprintf("offered %s/s", group(int64(offered))), offered)
	}
	total, keys := 0, make([]string, 0, len(s.failures))
	for k, v := range s.failures {
		total += v
		keys = append(keys, k)
	}
	slices.Sort(keys)
	text := "0"
	if total > 0 {
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s ×%d", k, s.failures[k])
		}
		text = fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
	}
	f := r.text(sc, "big-screen failures", text).target("none", total == 0)
	if s.firstErr != "" {
		f.note("first: %s", s.firstErr)
	}
}
