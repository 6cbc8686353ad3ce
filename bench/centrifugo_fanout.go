package main

import (
	"bufio"
	"context"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"

	"campus/protocol"
)

// The peers scenario's count fan-out: Campus's paced campus event on posts
// of its own, then the same sockets, subscriptions and count changes
// through Centrifugo, the realtime server a team would put beside its
// backend instead of a hub of its own. Campus's hub gets its changes from
// the likes it takes; Centrifugo gets the same changes, tick by tick, from
// a publisher replaying the ones Campus's likes made, one publication per
// changed post and tick (a channel per post), as a backend feeding it
// would. A delivered count frame is one post's new count reaching one
// socket: Campus packs a tick's changes for a socket into one websocket
// message, Centrifugo sends a push per channel (and may pack the pushes
// queued for a socket into one message), so the count frames, not the
// messages, are the unit both are charged per.

// countTick is the hub's count interval (actors.DefaultCountInterval): a
// socket gets a post's new count at most once per tick.
const countTick = 250 * time.Millisecond

// peersSc is the scenario's name in the table.
const peersSc = "11 peers: count fan-out"

// fanoutResult is one server's figures on the fan-out workload.
type fanoutResult struct {
	sockets    int
	frames     int     // count frames delivered in the window
	perSec     float64 // of them per second
	msgsPerSec float64 // websocket messages the viewers received per second in the window
	push       dist    // Campus: like → delivery; Centrifugo: publish → delivery
	cpu        cpuWindow
	rss0, rss1 int64 // KiB, before the sockets and with them idle
	rssSettled bool  // rss0 held still before the sockets opened
	// The Go heap and stacks in use (from the server's /metrics), bytes,
	// before the sockets and with them idle; 0: unknown.
	mem0, mem1 float64
	// Campus only: acknowledged likes in the window, the Postgres CPU.
	likes int
	// Centrifugo only: publications, and deliveries that never came.
	pubs, lost int
	// Centrifugo only: batch calls that took over a tick, the longest.
	slow    int
	slowest time.Duration
}

// rssPerSocket is the idle sockets' RSS, KiB each (it can come out
// negative when the process returned memory meanwhile); ok false when a
// reading is missing.
func (r fanoutResult) rssPerSocket() (float64, bool) {
	if r.rss0 <= 0 || r.rss1 <= 0 || r.sockets == 0 {
		return 0, false
	}
	return float64(r.rss1-r.rss0) / float64(r.sockets), true
}

// memPerSocket is the idle sockets' Go heap and stacks, KiB each; ok
// false when a reading is missing.
func (r fanoutResult) memPerSocket() (float64, bool) {
	if r.mem0 <= 0 || r.mem1 <= 0 || r.sockets == 0 {
		return 0, false
	}
	return (r.mem1 - r.mem0) / 1024 / float64(r.sockets), true
}

// cpuPerFrame is the server's CPU per delivered count frame, µs.
func (r fanoutResult) cpuPerFrame() float64 {
	if r.frames == 0 || !r.cpu.known {
		return -1
	}
	return float64(r.cpu.server.Microseconds()) / float64(r.frames)
}

// peers runs the peer scenarios that are not part of another scenario:
// the count fan-out against Centrifugo (the messages peers run inside the
// messages scenario).
func (b *bench) peers(ctx context.Context) {
	sc := peersSc
	if !b.o.peers {
		why := "--peers=false"
		if b.o.quick {
			why = "--quick (--peers runs them)"
		}
		b.rep.text(sc, "Centrifugo", "skipped: "+why)
		return
	}
	if err := b.need("likes", "ws"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	pid := b.o.serverPID
	if b.srv != nil {
		pid = b.srv.pid()
	}
	if pid <= 0 {
		b.rep.skip(sc, fmt.Errorf("%w: the server's CPU is the figure: pass --server-pid with --url", errUnavailable))
		return
	}
	cf, err := startCentrifugo(ctx, filepath.Join(b.tmp, "centrifugo"), b.progress)
	if err != nil {
		b.rep.text(sc, "Centrifugo "+centrifugoVersion, "unavailable: "+err.Error()).Result = resNA
		b.progress("peers: Centrifugo could not start: %v", err)
		return
	}
	defer func() {
		if err := cf.stop(30 * time.Second); err != nil {
			b.progress("peers: %v", err)
		}
	}()

	posts := b.w.peerPosts
	rng := mrand.New(mrand.NewPCG(uint64(b.o.seed), 1101))
	watch := make([][]uuid.UUID, b.o.evViewers)
	for i := range watch {
		for _, k := range rng.Perm(len(posts))[:b.o.evWatch] {
			watch[i] = append(watch[i], posts[k])
		}
	}
	pace, offered := b.pacedInterval()
	campus, lr, ok := b.campusFanout(ctx, sc, pid, posts, watch, pace)
	if !ok {
		return
	}
	// The like run started a warm-up before its window.
	runStart := lr.winStart - int64(b.o.warmup)
	sched := countSchedule(lr, len(posts), runStart)
	peer, err := b.centrifugoFanout(ctx, cf, posts, watch, sched, int64(b.o.warmup), lr.winEnd-lr.winStart)
	if err != nil {
		b.rep.skip(sc, fmt.Errorf("centrifugo: %w", err))
	} else {
		b.peerRows(sc, campus, peer, pace, offered)
	}
	// Campus took likes: their check holds whatever the peer did.
	b.consistencyRow(ctx, sc, lr)
}

// campusFanout runs the paced campus event on posts with viewer i
// watching watch[i], and measures Campus's side of the comparison.
func (b *bench) campusFanout(ctx context.Context, sc string, pid int, posts []uuid.UUID, watch [][]uuid.UUID, pace time.Duration) (fanoutResult, *likeRun, bool) {
	var r fanoutResult
	metrics := "http://" + b.addr + "/metrics"
	r.rss0, r.rssSettled = settledRSS(ctx, pid)
	r.mem0 = goMemInUse(metrics)
	p, err := b.viewers(ctx, "peers: Campus viewers", len(watch), posts, func(i int) []uuid.UUID { return watch[i] })
	defer p.close()
	if err != nil {
		b.rep.skip(sc, err)
		return r, nil, false
	}
	r.sockets = len(p.vs)
	time.Sleep(2 * time.Second) // sessions settle; nothing is sent on idle sockets
	r.rss1, _ = rssKiB(pid)
	r.mem1 = goMemInUse(metrics)

	picker := func(rg *mrand.Rand) func() int {
		z := mrand.NewZipf(rg, 1.1, 1, uint64(len(posts)-1))
		return func() int { return int(z.Uint64()) }
	}
	lr := b.newLikeRun("peers: Campus paced event", posts, picker)
	lr.pace = pace
	b.progress("peers: Campus: %d likers over %d posts (Zipf, each every %.1f s), %d sockets watching %d each, %s (+%s warm-up)",
		b.o.evLikers, len(posts), pace.Seconds(), r.sockets, b.o.evWatch, b.o.duration, b.o.warmup)
	p.rec.Store(true)
	done := b.cpu.phase("peers: Campus paced event")
	start := b.now()
	win := b.measureWindow(ctx, pid, start+int64(b.o.warmup), start+int64(b.o.warmup+b.o.duration))
	lr.run(ctx, b.o.evLikers, b.o.warmup, b.o.duration, nil)
	r.cpu = win()
	done()
	p.close()
	st := lr.stats(p)
	r.frames, r.perSec, r.push = st.frames, st.deliveries, st.push
	r.msgsPerSec = r.cpu.msgsPerSec()
	for _, op := range lr.ops {
		if op.ack >= lr.winStart && op.ack < lr.winEnd {
			r.likes++
		}
	}
	if n := lr.fail.Load(); n > 0 {
		b.rep.text(sc, "Campus likes failed", fmt.Sprintf("%d: %s", n, lr.err()))
	}
	return r, lr, true
}

// countTickPubs is one tick's count changes: the posts (indices) whose
// count changed and the count each reached.
type countTickPubs struct {
	posts  []int32
	counts []int32
}

// countSchedule is what Campus's hub had to send, tick by tick from the
// like run's start: tick k (from 1) holds each post whose count an answer
// acknowledged in ((k-1)·tick, k·tick], with the last such count. A
// post's counts rise through the schedule (the likers' first round only
// likes); should one not, it is published as one more than the last, so
// that a (post, count) names one publication.
func countSchedule(lr *likeRun, nPosts int, runStart int64) []countTickPubs {
	ops := slices.Clone(lr.ops)
	slices.SortFunc(ops, func(a, b likeOp) int { return cmpInt64(a.ack, b.ack) })
	var out []countTickPubs
	last := make([]int32, nPosts)
	for i := 0; i < len(ops); {
		k := (ops[i].ack-runStart)/int64(countTick) + 1
		end := runStart + k*int64(countTick)
		latest := map[int32]int32{}
		var order []int32
		for ; i < len(ops) && ops[i].ack < end; i++ {
			if _, seen := latest[ops[i].post]; !seen {
				order = append(order, ops[i].post)
			}
			latest[ops[i].post] = ops[i].count
		}
		for int64(len(out)) < k {
			out = append(out, countTickPubs{})
		}
		t := &out[k-1]
		for _, post := range order {
			c := latest[post]
			if c <= last[post] {
				c = last[post] + 1
			}
			last[post] = c
			t.posts, t.counts = append(t.posts, post), append(t.counts, c)
		}
	}
	return out
}

// countFrame is the post:counts frame of one post, as Campus's hub builds
// it (protocol.CountsFrame of one protocol.AppendCountEntry).
func countFrame(post uuid.UUID, likes int32) []byte {
	entry := protocol.AppendCountEntry(nil, post.String(), int64(likes), 0, 0, int64(likes))
	return protocol.CountsFrame(1, func(int) []byte { return entry })
}

// centrifugoFanout opens the same sockets on Centrifugo (viewer i
// subscribed to the channels of watch[i]), then publishes sched, tick k
// at k·countTick from the start; the window is [warmup, warmup+dur) from
// the start, as the like run's.
func (b *bench) centrifugoFanout(ctx context.Context, cf *centrifugoProc, posts []uuid.UUID, watch [][]uuid.UUID, sched []countTickPubs, warmup, dur int64) (fanoutResult, error) {
	var r fanoutResult
	subs := make([]int, len(posts)) // subscribers per post
	idx := map[uuid.UUID]int{}
	for i, p := range posts {
		idx[p] = i
	}
	tokens := make([]string, len(watch))
	for i := range watch {
		for _, p := range watch[i] {
			subs[idx[p]]++
		}
		var err error
		if tokens[i], err = cf.token(b.w.users[i%len(b.w.users)].String()); err != nil {
			return r, err
		}
	}
	metrics := "http://" + cf.apiAddr + "/metrics"
	r.rss0, r.rssSettled = settledRSS(ctx, cf.pid())
	r.mem0 = goMemInUse(metrics)
	p, err := b.dialPool(ctx, dialSpec{
		label: "peers: Centrifugo viewers", n: len(watch), posts: posts, conc: 64,
		open: func(ctx context.Context, d *websocket.Dialer, i int) (*websocket.Conn, error) {
			return cf.open(ctx, d, tokens[i], watch[i], 15*time.Second)
		},
		pong: centrifugoPong,
	})
	defer p.close()
	if err != nil {
		return r, fmt.Errorf("viewers: %d of %d open: %w", len(p.vs), len(watch), err)
	}
	r.sockets = len(p.vs)
	time.Sleep(2 * time.Second)
	r.rss1, _ = rssKiB(cf.pid())
	r.mem1 = goMemInUse(metrics)

	expected := 0
	for _, t := range sched {
		r.pubs += len(t.posts)
		for _, post := range t.posts {
			expected += subs[post]
		}
	}
	b.progress("peers: Centrifugo: replaying %s count changes in %d ticks of %s to %d sockets (%s deliveries)",
		group(int64(r.pubs)), len(sched), countTick, r.sockets, group(int64(expected)))
	p.rec.Store(true)
	meter := newCPUMeter(cf.pid())
	measure := meter.measure("peers: Centrifugo " + centrifugoVersion + " fan-out")
	start := b.now()
	winStart, winEnd := start+warmup, start+warmup+dur
	win := b.measureWindow(ctx, cf.pid(), winStart, winEnd)
	pubAt := make(map[int64]int64, r.pubs) // post<<32 | count → when its batch was sent
	// Each tick's batch goes out on time in a goroutine of its own, as a
	// backend publishes: a call still running when the next tick comes
	// (Centrifugo answers once every subscriber's queue has the
	// publication) must not hold the next one back and lower the rate
	// offered. A call's time is in the push latency, from its send.
	var (
		wg      sync.WaitGroup
		errOnce sync.Once
		pubErr  error
		slowMu  sync.Mutex
		slowest time.Duration
		slow    int
		stopped bool
	)
	for k, t := range sched {
		due := start + int64(k+1)*int64(countTick)
		if wait := time.Duration(due - b.now()); wait > 0 {
			select {
			case <-ctx.Done():
				stopped = true
			case <-time.After(wait):
			}
		}
		if stopped {
			break
		}
		if len(t.posts) == 0 {
			continue
		}
		pubs := make([]centrifugoPublication, len(t.posts))
		for j, post := range t.posts {
			pubs[j] = centrifugoPublication{channel: centrifugoChannel(posts[post]), data: countFrame(posts[post], t.counts[j])}
		}
		sent := b.now()
		for j, post := range t.posts {
			pubAt[int64(post)<<32|int64(t.counts[j])] = sent
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cf.publish(pubs)
			took := time.Duration(b.now() - sent)
			slowMu.Lock()
			slowest = max(slowest, took)
			if took > countTick {
				slow++
			}
			slowMu.Unlock()
			if err != nil {
				errOnce.Do(func() { pubErr = err })
			}
		}()
	}
	wg.Wait()
	r.slow, r.slowest = slow, slowest
	if pubErr != nil {
		return r, pubErr
	}
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	// The window may outlast the schedule by the likes' last tick.
	for b.now() < winEnd && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	r.cpu = win()
	// The last ticks' pushes: wait until the sockets have been quiet for a
	// second (at most 10 s).
	quiet, last := 0, framesReceived.Load()
	for i := 0; i < 100 && quiet < 10 && ctx.Err() == nil; i++ {
		time.Sleep(100 * time.Millisecond)
		if n := framesReceived.Load(); n == last {
			quiet++
		} else {
			quiet, last = 0, n
		}
	}
	if row, ok := measure(); ok {
		row.Postgres, row.TxPerS, row.XidPerS = -1, -1, -1
		b.cpu.rows = append(b.cpu.rows, row)
	}
	p.close()
	got := 0
	lat := make([]int64, 0, expected)
	for _, v := range p.vs {
		got += len(v.frames)
		for _, f := range v.frames {
			if f.at < winStart || f.at >= winEnd {
				continue
			}
			r.frames++
			if at, ok := pubAt[int64(f.post)<<32|int64(f.count)]; ok {
				lat = append(lat, f.at-at)
			}
		}
	}
	r.lost = expected - got
	r.push = distOf(lat)
	if w := time.Duration(winEnd - winStart).Seconds(); w > 0 {
		r.perSec = float64(r.frames) / w
	}
	r.msgsPerSec = r.cpu.msgsPerSec()
	return r, nil
}

// cpuWindow is a process's CPU over a window and the websocket messages
// the bench's viewers received in it.
type cpuWindow struct {
	wall   time.Duration
	server time.Duration
	msgs   int64
	known  bool
}

func (w cpuWindow) cores() float64 {
	if !w.known || w.wall <= 0 {
		return -1
	}
	return w.server.Seconds() / w.wall.Seconds()
}

func (w cpuWindow) msgsPerSec() float64 {
	if w.wall <= 0 {
		return 0
	}
	return float64(w.msgs) / w.wall.Seconds()
}

// measureWindow reads pid's CPU (utime+stime) when the bench clock
// reaches from and again when it reaches to, from a goroutine; the
// returned func waits for the second reading.
func (b *bench) measureWindow(ctx context.Context, pid int, from, to int64) func() cpuWindow {
	ch := make(chan cpuWindow, 1)
	go func() {
		var w cpuWindow
		defer func() { ch <- w }()
		sleepTo := func(at int64) bool {
			select {
			case <-ctx.Done():
				return false
			case <-time.After(time.Duration(at - b.now())):
				return true
			}
		}
		if !sleepTo(from) {
			return
		}
		t0, m0 := time.Now(), framesReceived.Load()
		c0, _, err0 := procCPU(pid)
		if !sleepTo(to) {
			return
		}
		t1, m1 := time.Now(), framesReceived.Load()
		c1, _, err1 := procCPU(pid)
		w = cpuWindow{wall: t1.Sub(t0), server: c1 - c0, msgs: m1 - m0, known: err0 == nil && err1 == nil}
	}()
	return func() cpuWindow { return <-ch }
}

// settledRSS reads pid's RSS (KiB) once it has held within 256 KiB for
// five readings a second apart (at most a minute): after the seeding and
// the index's merges the Go runtime returns freed memory to the system
// over tens of seconds, and a baseline read meanwhile makes the sockets
// look free or even negative. ok false when it was still moving or
// could not be read.
func settledRSS(ctx context.Context, pid int) (kib int64, ok bool) {
	prev, err := rssKiB(pid)
	if err != nil {
		return 0, false
	}
	steady := 0
	for i := 0; i < 60 && steady < 5 && ctx.Err() == nil; i++ {
		time.Sleep(time.Second)
		cur, err := rssKiB(pid)
		if err != nil {
			return 0, false
		}
		if d := cur - prev; d < 256 && d > -256 {
			steady++
		} else {
			steady = 0
		}
		prev = cur
	}
	return prev, steady >= 5
}

// goMemInUse is a Go server's heap and stacks in use, bytes, from the
// Prometheus Go collector's series at url (both servers export them);
// 0 when it cannot be read. Unlike RSS it does not count memory the
// runtime holds free, so it is the steadier per-socket figure.
func goMemInUse(url string) float64 {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0
	}
	var heap, stack float64
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		switch f[0] {
		case "go_memstats_heap_inuse_bytes":
			heap, _ = strconv.ParseFloat(f[1], 64)
		case "go_memstats_stack_inuse_bytes":
			stack, _ = strconv.ParseFloat(f[1], 64)
		}
	}
	if heap <= 0 {
		return 0
	}
	return heap + stack
}

// peerRows adds the comparison: Campus's figure, Centrifugo's as the
// baseline, and the ratio.
func (b *bench) peerRows(sc string, c, f fanoutResult, pace time.Duration, offered string) {
	r := b.rep
	peer := "Centrifugo " + centrifugoVersion
	r.text(sc, "workload", fmt.Sprintf("%s sockets × %d watched posts", group(int64(c.sockets)), b.o.evWatch)).
		note("each socket watches %d of %d posts; Campus takes %s likes/s offered (%s; each liker every %.1f s, Zipf) and pushes the counts; %s gets the same count changes as %s publications in ticks of %s through its batch API",
			b.o.evWatch, len(b.w.peerPosts), group(int64(float64(b.o.evLikers)/pace.Seconds())), offered, pace.Seconds(), peer, group(int64(f.pubs)), countTick)

	dv := r.add(sc, "count frames delivered", c.perSec, "frames/s").
		vs(fmt.Sprintf("%s %s/s", peer, group(int64(f.perSec))), f.perSec).
		note("a frame: one post's new count reaching one socket; websocket messages/s: Campus %s, %s %s",
			group(int64(c.msgsPerSec)), peer, group(int64(f.msgsPerSec)))
	if f.lost != 0 {
		dv.note("%s: %d of its deliveries never came", peer, f.lost)
	}
	if f.slow > 0 {
		dv.note("%s: %d of the publisher's batch calls took over a tick (the longest %.0f ms)", peer, f.slow, ms(f.slowest))
	}

	cpf, fpf := c.cpuPerFrame(), f.cpuPerFrame()
	x := r.add(sc, "server CPU per delivered count frame", cpf, "µs")
	switch {
	case cpf < 0 || fpf < 0:
		x.Text = "n/a: no CPU reading or no frames"
	default:
		x.vs(fmt.Sprintf("%s %.1f µs", peer, fpf), fpf).
			target("≤ "+peer+"'s", cpf <= fpf).
			note("Campus's also carries the likes, their commits and the watch checks: %.2f cores for %s frames in %.1f s; %s %.2f cores",
				c.cpu.cores(), group(int64(c.frames)), c.cpu.wall.Seconds(), peer, f.cpu.cores())
		if c.cpu.msgs > 0 && f.cpu.msgs > 0 {
			x.note("per websocket message: Campus %.1f µs, %s %.1f µs",
				float64(c.cpu.server.Microseconds())/float64(c.cpu.msgs), peer, float64(f.cpu.server.Microseconds())/float64(f.cpu.msgs))
		}
	}
	if c.likes > 0 && c.cpu.known {
		r.add(sc, "server CPU per acknowledged like", float64(c.cpu.server.Microseconds())/float64(c.likes), "µs").
			note("Campus: %s likes acknowledged in the window, all its server CPU charged to them (Postgres not counted); %s takes no likes",
				group(int64(c.likes)), peer)
	}

	pp := r.add(sc, "push p99", ms(c.push.p99), "ms").
		vs(fmt.Sprintf("%s %.1f ms", peer, ms(f.push.p99)), 0).
		note("Campus: like sent → count on the socket (the request, the commit, up to one %s tick of coalescing, the push); %s: publish sent → push on the socket; p50 %.1f ms and %.1f ms",
			countTick, peer, ms(c.push.p50), ms(f.push.p50))
	if f.push.n == 0 {
		pp.note("%s: no pushes matched", peer)
	}

	cr, cok := c.rssPerSocket()
	fr, fok := f.rssPerSocket()
	if cok && fok {
		x := r.add(sc, "server RSS per idle socket", cr, "KiB").
			vs(fmt.Sprintf("%s %.1f KiB", peer, fr), fr).
			note("%d posts watched (subscribed) each; VmRSS Campus %.1f → %.1f MiB, %s %.1f → %.1f MiB; Campus's process has run the earlier scenarios and reuses the memory they freed (the connections scenario reads its figure on a fresh one)",
				b.o.evWatch, float64(c.rss0)/1024, float64(c.rss1)/1024, peer, float64(f.rss0)/1024, float64(f.rss1)/1024)
		for _, s := range []struct {
			name string
			r    fanoutResult
		}{{"Campus", c}, {peer, f}} {
			if !s.r.rssSettled {
				x.note("%s's RSS was still moving after a minute: its baseline is the last reading", s.name)
			}
		}
		cm, cok := c.memPerSocket()
		fm, fok := f.memPerSocket()
		if cok && fok {
			// Garbage not yet collected is in both readings: a figure of
			// a few KiB is within that noise.
			x.note("Go heap + stacks in use (/metrics) per socket: Campus %.1f KiB (%.1f → %.1f MiB), %s %.1f KiB (%.1f → %.1f MiB), uncollected garbage included",
				cm, c.mem0/(1<<20), c.mem1/(1<<20), peer, fm, f.mem0/(1<<20), f.mem1/(1<<20))
		}
	}
}
