package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// base holds the same-run baselines the scenarios are compared with.
type base struct {
	ceiling   float64 // GET /api/health req/s at the storm's concurrency
	naive     float64 // one transaction per like on one hot row, likes/s
	rawDeliv  float64 // raw push deliveries/s to the storm's viewers
	rawP99    time.Duration
	rawP50    time.Duration
	naiveConn int
}

// ceiling: what the HTTP stack alone answers, on as many keep-alive
// connections as the storm has likers.
func (b *bench) ceiling(ctx context.Context) {
	b.progress("baseline: GET /api/health on %d connections for %s", b.o.likers, b.o.baseDur)
	done := b.cpu.phase("baseline: health")
	r := b.closedLoop(ctx, loadSpec{
		conc: b.o.likers, warmup: b.o.warmup, dur: b.o.baseDur,
		prep: func(_ int, req *fasthttp.Request) { req.SetRequestURI(b.uri("/api/health")) },
	})
	done()
	b.base.ceiling = r.perSec()
	x := b.rep.add("baseline", "HTTP ceiling: GET /api/health", r.perSec(), "req/s").
		note("%d conns, p50 %.2f ms, p99 %.2f ms", b.o.likers, ms(r.lat.p50), ms(r.lat.p99))
	if r.fail > 0 {
		x.note("%d failed: %s", r.fail, r.firstErr)
	}
}

// naivePools are the Postgres pool sizes the naive baseline runs at,
// besides one connection per liker: a hot row serializes its
// transactions, so more connections mostly add waiting, and the baseline
// the grain is compared with is the best of them.
var naivePools = []int{8, 16, 32, 64}

// naive: the design the post grain replaces — each like its own
// transaction (insert the row, bump the counter) on one hot row, straight
// against Postgres, at several pool sizes; the baseline is the best.
func (b *bench) naive(ctx context.Context) {
	var maxConns, used int
	err := b.db.QueryRowContext(ctx,
		"SELECT current_setting('max_connections')::int, (SELECT count(*) FROM pg_stat_activity)::int").Scan(&maxConns, &used)
	if err != nil {
		b.rep.skip("baseline", fmt.Errorf("naive likes: %w", err))
		return
	}
	// Postgres caps connections; the server's pool holds some.
	free := maxConns - used - 20
	if free < 1 {
		b.rep.skip("baseline", fmt.Errorf("naive likes: no free Postgres connections (%d of %d used)", used, maxConns))
		return
	}
	var pools []int
	for _, n := range append(append([]int(nil), naivePools...), b.o.likers) {
		n = min(n, free)
		if !slices.Contains(pools, n) {
			pools = append(pools, n)
		}
	}
	slices.Sort(pools)
	var best *row
	for _, conns := range pools {
		if ctx.Err() != nil {
			return
		}
		rate, x := b.naiveRun(ctx, conns)
		if x != nil && rate > b.base.naive {
			b.base.naive, b.base.naiveConn, best = rate, conns, x
		}
	}
	if best != nil {
		best.note("the best pool size: the baseline")
	}
}

// naiveRun runs the naive likes on conns connections and answers the
// likes/s and the row it added (nil if it could not run).
func (b *bench) naiveRun(ctx context.Context, conns int) (float64, *row) {
	db, err := openDB(ctx, b.dsn, conns)
	if err != nil {
		b.rep.skip("baseline", fmt.Errorf("naive likes: %w", err))
		return 0, nil
	}
	defer db.Close()
	sqldb := db.DB
	post := b.w.naive
	// Each run starts from a post without likes, as its workers assume.
	if _, err := sqldb.ExecContext(ctx, `WITH d AS (DELETE FROM post_likes WHERE post_id = $1)
		UPDATE posts SET likes_count = 0 WHERE id = $1`, post); err != nil {
		b.rep.skip("baseline", fmt.Errorf("naive likes: reset: %w", err))
		return 0, nil
	}
	b.progress("baseline: naive likes on %d Postgres connections for %s", conns, b.o.baseDur)
	U := len(b.w.users)
	start := b.now()
	winStart, winEnd := start+int64(b.o.warmup), start+int64(b.o.warmup+b.o.baseDur)
	var (
		ok, fail atomic.Int64
		firstErr atomic.Value
		mu       sync.Mutex
		all      []int64
		wg       sync.WaitGroup
	)
	done := b.cpu.phase(fmt.Sprintf("baseline: naive likes, %d conns", conns))
	for w := 0; w < conns; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Worker w owns users w, w+conns, …: it toggles them in turn.
			var mine []uuid.UUID
			for u := w; u < U; u += conns {
				mine = append(mine, b.w.users[u])
			}
			liked := make([]bool, len(mine))
			var lat []int64
			for i := 0; ctx.Err() == nil && len(mine) > 0; i++ {
				send := b.now()
				if send >= winEnd {
					break
				}
				k := i % len(mine)
				err := naiveToggle(ctx, sqldb, post, mine[k], liked[k])
				took := b.now() - send
				if err != nil {
					fail.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				liked[k] = !liked[k]
				if send >= winStart {
					ok.Add(1)
					lat = append(lat, took)
				}
			}
			mu.Lock()
			all = append(all, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	done()
	win := time.Duration(min(b.now(), winEnd) - winStart)
	d := distOf(all)
	rate := float64(ok.Load()) / win.Seconds()
	x := b.rep.add("baseline", fmt.Sprintf("naive likes: 1 transaction per like, hot row, %d conns", conns), rate, "likes/s").
		note("p50 %.1f ms, p99 %.1f ms", ms(d.p50), ms(d.p99))
	if n := fail.Load(); n > 0 {
		x.note("%d failed: %v", n, firstErr.Load())
	}
	return rate, x
}

// naiveToggle likes (or unlikes) in its own transaction, moving the counter
// by the rows actually changed.
func naiveToggle(ctx context.Context, db *sql.DB, post, user uuid.UUID, liked bool) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	row, delta := "INSERT INTO post_likes (post_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", 1
	if liked {
		row, delta = "DELETE FROM post_likes WHERE post_id = $1 AND user_id = $2", -1
	}
	res, err := tx.ExecContext(ctx, row, post, user)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		if _, err := tx.ExecContext(ctx, "UPDATE posts SET likes_count = likes_count + $1 WHERE id = $2", delta, post); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// rawPush: a bare broadcaster in this process sends the storm's frames to
// as many viewer sockets as the storm has, at the coalescing cadence the
// product promises (every 250 ms), through the same client code.
// Latency is arrival − the moment the broadcaster began that frame.
func (b *bench) rawPush(ctx context.Context) {
	const tick = 250 * time.Millisecond
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		b.rep.skip("baseline", fmt.Errorf("raw push: %w", err))
		return
	}
	hub := &rawHub{conns: map[*rawConn]struct{}{}}
	up := websocket.FastHTTPUpgrader{ReadBufferSize: 1024, WriteBufferSize: 1024}
	srv := &fasthttp.Server{Handler: func(c *fasthttp.RequestCtx) {
		if err := up.Upgrade(c, hub.serve); err != nil {
			c.Error("upgrade failed", fasthttp.StatusBadRequest)
		}
	}}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Shutdown() }()

	p, err := b.dialPool(ctx, dialSpec{
		label: "raw push: viewers", url: "ws://" + ln.Addr().String() + "/ws", n: b.o.viewers,
		posts: []uuid.UUID{b.w.hot}, conc: 64,
	})
	defer p.close()
	if err != nil {
		b.rep.skip("baseline", fmt.Errorf("raw push: %w", err))
		return
	}
	b.progress("baseline: raw push to %d sockets every %s for %s", len(p.vs), tick, b.o.baseDur)
	p.rec.Store(true)
	start := b.now()
	winStart, winEnd := start+int64(b.o.warmup), start+int64(b.o.warmup+b.o.baseDur)
	sentAt := map[int32]int64{}
	done := b.cpu.phase("baseline: raw push")
	t := time.NewTicker(tick)
	for n := int32(1); b.now() < winEnd && ctx.Err() == nil; n++ {
		sentAt[n] = b.now()
		hub.broadcast([]byte(fmt.Sprintf(`{"event":"post:counts","data":{"posts":[{"postId":%q,"likesCount":%d,"commentsCount":0,"countsVersion":%d}]}}`, b.w.hot, n, n)))
		<-t.C
	}
	t.Stop()
	time.Sleep(100 * time.Millisecond) // the last frame's deliveries
	done()
	p.close()
	frames := p.framesIn(winStart, winEnd)
	lat := make([]int64, 0, len(frames))
	for _, f := range frames {
		lat = append(lat, f.at-sentAt[f.count])
	}
	d := distOf(lat)
	b.base.rawDeliv = float64(len(frames)) / time.Duration(winEnd-winStart).Seconds()
	b.base.rawP50, b.base.rawP99 = d.p50, d.p99
	x := b.rep.add("baseline", "raw push: bare broadcaster, same frames", b.base.rawDeliv, "deliveries/s").
		note("%d sockets, 1 frame/%s; latency p50 %.2f ms, p99 %.2f ms", len(p.vs), tick, ms(d.p50), ms(d.p99))
	if dr := hub.dropped.Load(); dr > 0 {
		x.note("%d frames dropped on full queues", dr)
	}
}

// rawHub is the bare broadcaster: one writer goroutine and a small queue
// per socket, nothing else.
type rawHub struct {
	mu      sync.Mutex
	conns   map[*rawConn]struct{}
	dropped atomic.Int64
}

type rawConn struct{ out chan []byte }

func (h *rawHub) serve(c *websocket.Conn) {
	rc := &rawConn{out: make(chan []byte, 16)}
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"event":"ready","data":{}}`)); err != nil {
		return
	}
	h.mu.Lock()
	h.conns[rc] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.conns, rc)
		h.mu.Unlock()
	}()
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}()
	for {
		select {
		case m := <-rc.out:
			if err := c.WriteMessage(websocket.TextMessage, m); err != nil {
				return
			}
		case <-gone:
			return
		}
	}
}

func (h *rawHub) broadcast(m []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for rc := range h.conns {
		select {
		case rc.out <- m:
		default:
			h.dropped.Add(1)
		}
	}
}
