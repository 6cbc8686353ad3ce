package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"campus/bench/netlab"
	"campus/cluster"
)

// The netem scenario's faults, in the order they run by default.
var netemFaultNames = []string{"peers", "etcd", "postgres", "degrade"}

// What the scenario emulates.
const (
	// The web client (client/src/api/http.ts, constants.ts): a call
	// times out after 15 s; a 503 is sent again up to 3 times with the
	// same X-Request-Id, after Retry-After (1 s if absent) × the attempt
	// number plus up to as much again of jitter. Here a timeout or a
	// connection error is sent again the same way (the web client shows
	// those to the user instead): a user taps again.
	nmClientTimeout = 15 * time.Second
	nmRetries       = 3

	// The load balancer polls /api/ready as deploy/kubernetes's
	// readinessProbe does: every 5 s, 3 s timeout, out after 6 failures in
	// a row, back after one success.
	lbPeriod   = 5 * time.Second
	lbTimeout  = 3 * time.Second
	lbFailures = 6

	// The degraded network between nodes.
	nmDelay = 100 * time.Millisecond
	nmLoss  = 0.02

	// Steady load before each fault, and after the members agree again.
	nmSteady = 5 * time.Second
	// How long the sockets may take to show the counts of the likes sent
	// once the load has stopped.
	nmFreshWait = 5 * time.Second
)

// nmNode is one campus process in the lab.
type nmNode struct {
	i    int
	host *netlab.Host
	addr string // ip:port of its HTTP listener
	srv  *server
	cfg  serverConfig // to start it again
	up   atomic.Bool  // in the load balancer's rotation
	fail int          // the probe's failures in a row (probe goroutine only)
}

// nmAttempt is one HTTP attempt at a like or an unlike.
type nmAttempt struct {
	post      int32
	node      int8
	ok        bool
	send, end int64 // bench clock
	status    string
}

// nmSocketEvent is a websocket closed under a viewer, and where it came back.
type nmSocketEvent struct {
	at       int64
	from, to int // to: -1 until it reconnected
}

// netemRun is the scenario's load, viewers and load balancer.
type netemRun struct {
	b     *bench
	lab   *netemLab
	lr    *likeRun
	nodes []*nmNode
	c     *fasthttp.Client
	rr    atomic.Uint64

	paused   atomic.Bool
	quit     atomic.Bool
	lastFail atomic.Int64 // when the last failed attempt ended (bench clock)
	errText  sync.Map     // a connection error's or timeout's first text, by status
	inflight atomic.Int64
	skipped  atomic.Int64

	mu       sync.Mutex
	attempts []nmAttempt
	failed   []nmFailure // requests that failed after every retry
	retried  []int64     // when each request served by a retry was sent
	events   []nmSocketEvent

	sockets []*nmSocket
	wg      sync.WaitGroup
}

type nmFailure struct {
	at     int64
	status string
}

// nmSocket is one viewer watching every post, reconnecting as the web
// client does when its socket closes.
type nmSocket struct {
	node   atomic.Int32
	counts []atomic.Int32 // last count seen per post (-1: none)
	open   atomic.Bool
	mu     sync.Mutex
	c      *websocket.Conn
}

// nmResult is one fault's figures.
type nmResult struct {
	Fault string `json:"fault"`
	How   string `json:"how"`
	// Gap is, over the posts, the longest time from an attempt at a like
	// until one sent then or later was acknowledged.
	Gap       time.Duration  `json:"gap"`
	Never     int            `json:"never"`    // posts with an attempt no later one answered
	Acked     int            `json:"acked"`    // requests acknowledged (each once)
	Failed    map[string]int `json:"failed"`   // after the retries, by last status
	Attempts  map[string]int `json:"attempts"` // failed attempts by status
	Retried   int            `json:"retried"`  // requests served by a retry
	Closed    int            `json:"closed"`   // sockets the server closed or lost
	Moved     int            `json:"moved"`    // of those, reconnected on another node
	Stale     int            `json:"stale"`    // sockets without every post's final count
	StaleText string         `json:"stale_text,omitempty"`
	// ErrText is the first connection error's and timeout's text.
	ErrText map[string]string `json:"err_text,omitempty"`
	// The latency of the attempts answered 200 sent before the fault and
	// while it lasted.
	Steady, During dist          `json:"-"`
	Sockets        int           `json:"sockets"`
	Touches        int           `json:"touches_failed"` // closing likes that failed
	SeenMin        []int         `json:"seen_min"`       // fewest members each node reported in the fault (-1: never ready)
	NotReady       []float64     `json:"not_ready"`      // fraction of the fault's polls each node was not ready
	Converged      bool          `json:"converged"`
	AgreeIn        time.Duration `json:"agree_in"` // heal → every node ready with 3 members
	// FailsEnd is how long after the heal the last failed attempt ended
	// (0: none after it); Quiet is false when failures went on until the
	// settle bound.
	FailsEnd time.Duration `json:"fails_end"`
	Quiet    bool          `json:"quiet"`
	// Restarted names the nodes restarted after the fault because the
	// members did not agree again: the next fault starts from a whole
	// cluster.
	Restarted []int       `json:"restarted,omitempty"`
	Cons      consistency `json:"-"`
	Lost      int         `json:"lost"`
	Phantom   int         `json:"phantom"`
}

// netem: three nodes, etcd and Postgres on addresses of their own in a
// network of namespaces (bench/netlab); under a steady paced like load
// through a load balancer, with viewers on every node, node 3 is cut from
// its peers, from etcd, from Postgres, then every link between nodes gets
// 100 ms and 2 % loss; each fault lasts --netem-fault and heals.
func (b *bench) netem(ctx context.Context) {
	const sc = "10 netem"
	if b.labErr != nil {
		b.rep.skip(sc, b.labErr)
		return
	}
	if b.lab == nil {
		b.rep.skip(sc, fmt.Errorf("%w: needs the server and Postgres the bench starts (not --url)", errUnavailable))
		return
	}
	if err := b.need("likes"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	res, err := b.runNetem(ctx)
	for _, x := range res {
		b.netemRows(sc, x)
	}
	if err != nil {
		b.rep.skip(sc, err)
	}
	if len(res) > 0 {
		b.progress("netem:\n%s", netemTable(res))
	}
}

// runNetem starts etcd and the nodes in the lab, runs every fault of
// --netem-faults and answers their figures.
func (b *bench) runNetem(ctx context.Context) ([]nmResult, error) {
	l := b.lab
	dir := filepath.Join(l.dir, "run-"+b.w.run)
	if err := os.MkdirAll(dir, 0o711); err != nil {
		return nil, err
	}
	etcdBin, err := exec.LookPath("etcd")
	if err != nil {
		return nil, fmt.Errorf("%w: no etcd", errUnavailable)
	}
	endpoint, stopEtcd, err := startEtcdAt(ctx, etcdBin, dir, l.etcd.IP, labEtcdPort, labEtcdPeerPort, l.etcd.Command)
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	defer stopEtcd()
	certs := filepath.Join(dir, "tls")
	if _, err := cluster.WriteCerts(certs, time.Now()); err != nil {
		return nil, err
	}
	nr := &netemRun{b: b, lab: l, lr: b.newLikeRun("netem", b.w.netem, nil), c: &fasthttp.Client{
		MaxConnsPerHost:           8192,
		ReadTimeout:               nmClientTimeout,
		WriteTimeout:              nmClientTimeout,
		MaxIdemponentCallAttempts: 1,
		NoDefaultUserAgentHeader:  true,
		DisablePathNormalizing:    true,
		Dial: func(addr string) (net.Conn, error) {
			return net.DialTimeout("tcp4", addr, nmClientTimeout)
		},
	}}
	defer func() {
		for _, n := range nr.nodes {
			if done, _ := n.srv.exited(); !done {
				_ = n.srv.stop(30 * time.Second)
			}
		}
	}()
	b.progress("netem: etcd at %s; starting 3 nodes", endpoint)
	for i, h := range l.nodes {
		n := &nmNode{i: i, host: h, addr: net.JoinHostPort(h.IP, strconv.Itoa(labHTTPPort))}
		ndir := filepath.Join(dir, "node-"+strconv.Itoa(i+1))
		if err := os.MkdirAll(ndir, 0o711); err != nil {
			return nil, err
		}
		n.cfg = serverConfig{bin: b.o.bin, dir: ndir, addr: n.addr, dbURL: l.dsn, command: h.Command,
			env: []string{
				"CAMPUS_CLUSTER_PROVIDER=etcd",
				"CAMPUS_ETCD_ENDPOINTS=" + endpoint,
				"CAMPUS_CLUSTER_NAME=netem-" + b.w.run,
				"CAMPUS_CLUSTER_ADDR=" + net.JoinHostPort(h.IP, strconv.Itoa(labRemotingPort)),
				"CAMPUS_CLUSTER_TLS_CA=" + filepath.Join(certs, cluster.CAFile),
				"CAMPUS_CLUSTER_TLS_CERT=" + filepath.Join(certs, cluster.CertFile),
				"CAMPUS_CLUSTER_TLS_KEY=" + filepath.Join(certs, cluster.KeyFile),
				// Membership changes and dependency failures are logged at
				// info and warn: the evidence when a fault goes wrong.
				"CAMPUS_LOG_LEVEL=info",
			}}
		if n.srv, err = startServer(ctx, n.cfg); err != nil {
			return nil, fmt.Errorf("start node %d: %w", i+1, err)
		}
		nr.nodes = append(nr.nodes, n)
	}
	for _, n := range nr.nodes {
		if err := nr.waitMembers(ctx, n, len(nr.nodes), nodeStartLimit); err != nil {
			return nil, err
		}
		n.up.Store(true)
	}
	nr.settle(ctx)

	// Viewers, the load balancer's probe, then the load (paused between
	// faults). bg ends them all, backoffs and pauses included, when the
	// scenario ends.
	bg, stopBg := context.WithCancel(ctx)
	defer func() {
		nr.quit.Store(true)
		stopBg()
		nr.closeSockets()
		nr.wg.Wait()
		nr.drain(context.Background())
	}()
	for i := range len(nr.nodes) * b.o.nmSockets {
		s := &nmSocket{counts: make([]atomic.Int32, len(b.w.netem))}
		for p := range s.counts {
			s.counts[p].Store(-1)
		}
		s.node.Store(int32(i % len(nr.nodes)))
		nr.mu.Lock()
		nr.sockets = append(nr.sockets, s)
		nr.mu.Unlock()
		nr.wg.Add(1)
		go func() {
			defer nr.wg.Done()
			nr.view(bg, s, b.w.tokens[(i*7919+3)%len(b.w.tokens)])
		}()
	}
	nr.wg.Add(1)
	go func() {
		defer nr.wg.Done()
		nr.probe(bg)
	}()
	nr.paused.Store(true)
	nr.wg.Add(1)
	go func() {
		defer nr.wg.Done()
		nr.dispatch(bg)
	}()
	if err := nr.waitSockets(ctx, 30*time.Second); err != nil {
		return nil, err
	}

	var out []nmResult
	for _, f := range splitList(b.o.nmFaults) {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		r, err := nr.fault(ctx, f)
		if errors.Is(err, netlab.ErrUnavailable) {
			// The kernel refuses this fault (no sch_netem and no NFQUEUE):
			// say so and go on with the others.
			b.progress("netem %s: %v", f, err)
			b.rep.text("10 netem", f+": —", err.Error()).Result = resNA
			continue
		}
		if err != nil {
			return out, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// fault runs one fault: steady load, the fault for --netem-fault, the
// heal, until every node is ready with every member (at most
// --netem-settle), steady load again; then the load stops, one more like
// per post shows whether every socket still gets counts, and the books are
// checked against Postgres.
func (nr *netemRun) fault(ctx context.Context, name string) (nmResult, error) {
	b := nr.b
	r := nmResult{Fault: name, Sockets: len(nr.sockets)}
	start := b.now()
	nr.errText.Clear()
	nr.paused.Store(false)
	b.progress("netem %s: steady load %s", name, nmSteady)
	if !sleepCtx(ctx, nmSteady) {
		return r, ctx.Err()
	}
	how, heal, err := nr.lab.apply(name)
	if err != nil {
		nr.paused.Store(true)
		nr.drain(ctx)
		return r, err
	}
	r.How = how
	faultAt := b.now()
	b.progress("netem %s: %s for %s", name, how, b.o.nmFault)
	seen := nr.watchMembers(ctx, b.o.nmFault)
	if err := heal(); err != nil {
		return r, fmt.Errorf("heal: %w", err)
	}
	healAt := b.now()
	r.SeenMin, r.NotReady = seen.min, seen.notReady
	r.AgreeIn, r.Converged = nr.agree(ctx, b.o.nmSettle)
	if r.Converged {
		b.progress("netem %s: healed; every node ready with %d members after %.1f s", name, len(nr.nodes), r.AgreeIn.Seconds())
	} else {
		b.progress("netem %s: healed; the members do not agree after %s: %s", name, b.o.nmSettle, nr.membersText(ctx))
	}
	r.FailsEnd, r.Quiet = nr.quiet(ctx, healAt, b.o.nmSettle)
	if r.FailsEnd > 0 {
		b.progress("netem %s: the last failed attempt ended %.1f s after the heal", name, r.FailsEnd.Seconds())
	}
	nr.paused.Store(true)
	nr.drain(ctx)
	end := b.now()

	// The books of [start, end).
	nr.mu.Lock()
	var att []nmAttempt
	for _, a := range nr.attempts {
		if a.send >= start && a.send < end {
			att = append(att, a)
		}
	}
	r.Failed, r.Attempts = map[string]int{}, map[string]int{}
	for _, f := range nr.failed {
		if f.at >= start && f.at < end {
			r.Failed[f.status]++
		}
	}
	for _, at := range nr.retried {
		if at >= start && at < end {
			r.Retried++
		}
	}
	for _, e := range nr.events {
		if e.at >= start && e.at < end {
			r.Closed++
			if e.to >= 0 && e.to != e.from {
				r.Moved++
			}
		}
	}
	nr.mu.Unlock()
	var during, steady []int64
	for _, a := range att {
		if a.ok {
			r.Acked++
			switch {
			case a.send >= faultAt && a.send < healAt:
				during = append(during, a.end-a.send)
			case a.send < faultAt:
				steady = append(steady, a.end-a.send)
			}
		} else {
			r.Attempts[a.status]++
		}
	}
	r.During, r.Steady = distOf(during), distOf(steady)
	r.ErrText = map[string]string{}
	nr.errText.Range(func(k, v any) bool {
		r.ErrText[k.(string)] = v.(string)
		return true
	})
	r.Gap, r.Never = longestNoLike(att, len(nr.lr.posts), end)

	// One like per post, each through another node, then every socket must
	// show every post's count as Postgres has it.
	r.Touches = nr.touch(ctx)
	r.Stale, r.StaleText = nr.stale(ctx)
	if r.Stale > 0 {
		b.progress("netem %s: sockets without the final counts: %s", name, r.StaleText)
	}
	c, err := nr.lr.check(ctx, b.db)
	if err != nil {
		return r, fmt.Errorf("consistency check: %w", err)
	}
	r.Cons, r.Lost, r.Phantom = c, c.lost, c.phantom
	b.progress("netem %s: %s", name, c)
	if !r.Converged {
		if r.Restarted, err = nr.restore(ctx); err != nil {
			return r, err
		}
	}
	return r, nil
}

// quiet keeps the load on until no attempt has failed for nmSteady (at
// most limit after the heal) and answers when, after healAt, the last
// failed attempt ended.
func (nr *netemRun) quiet(ctx context.Context, healAt int64, limit time.Duration) (time.Duration, bool) {
	b := nr.b
	for {
		last := nr.lastFail.Load()
		if time.Duration(b.now()-max(last, healAt)) >= nmSteady {
			return time.Duration(max(0, last-healAt)), true
		}
		if time.Duration(b.now()-healAt) >= limit || !sleepCtx(ctx, 100*time.Millisecond) {
			return time.Duration(max(0, last-healAt)), false
		}
	}
}

// restore restarts node 3 (the one every fault is about), then any other
// node, until every node is ready with every member again, so that the
// next fault starts from a whole cluster; it answers the nodes restarted
// (1-based).
func (nr *netemRun) restore(ctx context.Context) ([]int, error) {
	b := nr.b
	var restarted []int
	order := []int{2, 0, 1}
	for _, i := range order {
		n := nr.nodes[i]
		b.progress("netem: restarting node %d (SIGTERM, then a new start) so the members agree again", i+1)
		if err := n.srv.stop(30 * time.Second); err != nil {
			b.progress("netem: %v", err)
		}
		var err error
		if n.srv, err = startServer(ctx, n.cfg); err != nil {
			return restarted, fmt.Errorf("restart node %d: %w", i+1, err)
		}
		restarted = append(restarted, i+1)
		if _, ok := nr.agree(ctx, nodeStartLimit); ok {
			b.progress("netem: every node ready with %d members again", len(nr.nodes))
			return restarted, nil
		}
		b.progress("netem: still no agreement after restarting node %d: %s", i+1, nr.membersText(ctx))
	}
	return restarted, fmt.Errorf("the members do not agree even after restarting every node: %s", nr.membersText(ctx))
}

// apply starts fault name and answers how it is made and how to heal it.
func (l *netemLab) apply(name string) (how string, heal func() error, err error) {
	n3 := l.nodes[2]
	switch name {
	case "peers":
		heal, err = l.lab.Cut(n3, l.nodes[0], l.nodes[1])
		how = "node 3 cut from nodes 1 and 2 (iptables DROP both ways; it still reaches etcd and Postgres, clients still reach it)"
	case "etcd":
		heal, err = l.lab.Cut(n3, l.etcd)
		how = "node 3 cut from etcd (iptables DROP both ways)"
	case "postgres":
		heal, err = l.lab.Cut(n3, l.pg)
		how = "node 3 cut from Postgres (iptables DROP both ways)"
	case "degrade":
		var method string
		method, heal, err = l.lab.Degrade(l.nodes, nmDelay, nmLoss)
		switch method {
		case "netem":
			how = fmt.Sprintf("%s each way + %g %% loss between nodes (tc netem)", nmDelay, nmLoss*100)
		case "nfqueue":
			how = fmt.Sprintf("%s each way + %g %% loss between nodes (the kernel has no sch_netem: every packet held by an NFQUEUE delayer in user space; loss by iptables' statistic match)",
				nmDelay, nmLoss*100)
		}
	default:
		err = fmt.Errorf("unknown fault %q", name)
	}
	return how, heal, err
}

// dispatch sends likes at --netem-rate (Poisson arrivals) while not
// paused, each on its own goroutine under the client's retry policy.
func (nr *netemRun) dispatch(ctx context.Context) {
	b := nr.b
	rng := mrand.New(mrand.NewPCG(uint64(b.o.seed), 7700))
	mean := float64(time.Second) / b.o.nmRate
	next := b.now()
	for !nr.quit.Load() && ctx.Err() == nil {
		if nr.paused.Load() {
			time.Sleep(10 * time.Millisecond)
			next = b.now()
			continue
		}
		next += int64(rng.ExpFloat64() * mean)
		if wait := time.Duration(next - b.now()); wait > 0 {
			time.Sleep(wait)
		}
		if nr.paused.Load() {
			continue
		}
		p := rng.IntN(len(nr.lr.posts))
		nr.inflight.Add(1)
		go func() {
			defer nr.inflight.Add(-1)
			nr.like(p, -1)
		}()
	}
}

// drain waits until no like is in flight: every request has run its
// retry policy to the end (at most 4 × 15 s and the pauses).
func (nr *netemRun) drain(ctx context.Context) {
	for nr.inflight.Load() > 0 && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
}

// like sends post p's next scheduled like or unlike through node via (-1:
// the load balancer's pick, each attempt) under the client's retry policy.
// It answers whether it was acknowledged.
func (nr *netemRun) like(p int, via int) bool {
	b, lr := nr.b, nr.lr
	U := int64(lr.U)
	k := lr.next[p].Add(1) - 1
	u := int(k % U)
	liking := (k/U)%2 == 0
	slot := p*lr.U + u
	if !lr.busy[slot].CompareAndSwap(false, true) {
		nr.skipped.Add(1)
		return false
	}
	defer lr.busy[slot].Store(false)
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	reqID := "nm-" + strconv.Itoa(p) + "-" + strconv.FormatInt(k, 10)
	first := b.now()
	status := ""
	for attempt := 0; ; attempt++ {
		node := via
		if node < 0 {
			node = nr.pick()
		}
		req.Reset()
		if liking {
			req.Header.SetMethod(fasthttp.MethodPost)
		} else {
			req.Header.SetMethod(fasthttp.MethodDelete)
		}
		req.SetRequestURI("http://" + nr.nodes[node].addr + "/api/posts/" + lr.posts[p].String() + "/like")
		req.Header.Set("Authorization", b.w.auth[u])
		req.Header.Set("X-Request-Id", reqID)
		send := b.now()
		err := nr.c.DoTimeout(req, resp, nmClientTimeout)
		end := b.now()
		a := nmAttempt{post: int32(p), node: int8(node), send: send, end: end}
		retryAfter := 0
		switch {
		case err != nil:
			a.status = "conn"
			if errors.Is(err, fasthttp.ErrTimeout) || errors.Is(err, os.ErrDeadlineExceeded) {
				a.status = "timeout"
			}
			nr.errText.LoadOrStore(a.status, fmt.Sprintf("node %d after %.1f s: %v", node+1, time.Duration(end-send).Seconds(), err))
		case resp.StatusCode() == fasthttp.StatusOK:
			if liked, _, perr := parseLike(resp.Body()); perr == nil {
				if liked {
					lr.state[slot] = stLiked
				} else {
					lr.state[slot] = stUnliked
				}
				if liked != liking {
					lr.wrong.Add(1)
				}
				a.ok = true
			} else {
				a.status = "bad body"
			}
		default:
			a.status = strconv.Itoa(resp.StatusCode())
			retryAfter, _ = strconv.Atoi(string(resp.Header.Peek("Retry-After")))
		}
		if !a.ok {
			nr.lastFail.Store(end)
		}
		nr.mu.Lock()
		nr.attempts = append(nr.attempts, a)
		if a.ok && attempt > 0 {
			nr.retried = append(nr.retried, first)
		}
		nr.mu.Unlock()
		if a.ok {
			return true
		}
		status = a.status
		retry := a.status == "conn" || a.status == "timeout" || a.status == "503"
		if !retry || attempt == nmRetries {
			break
		}
		time.Sleep(retryDelay(retryAfter, attempt+1))
	}
	lr.state[slot] = stUncertain
	nr.mu.Lock()
	nr.failed = append(nr.failed, nmFailure{at: first, status: status})
	nr.mu.Unlock()
	return false
}

// retryDelay is the web client's retryDelayMs: Retry-After seconds (1 if
// absent) × the attempt number, plus up to as much again.
func retryDelay(retryAfter, attempt int) time.Duration {
	base := time.Duration(max(1, retryAfter)) * time.Second * time.Duration(attempt)
	return base + time.Duration(mrand.Int64N(int64(base)))
}

// pick is the load balancer: round robin over the nodes in its rotation
// (all of them if none is).
func (nr *netemRun) pick() int {
	n := len(nr.nodes)
	start := int(nr.rr.Add(1) % uint64(n))
	for k := range n {
		if i := (start + k) % n; nr.nodes[i].up.Load() {
			return i
		}
	}
	return start
}

// probe is the load balancer's readiness probe of every node.
func (nr *netemRun) probe(ctx context.Context) {
	t := time.NewTicker(lbPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var wg sync.WaitGroup
		for _, n := range nr.nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, _ := nr.ready(n, lbTimeout)
				if st == fasthttp.StatusOK {
					n.fail = 0
					if !n.up.Swap(true) {
						nr.b.progress("netem: the load balancer takes node %d back", n.i+1)
					}
					return
				}
				if n.fail++; n.fail >= lbFailures && n.up.Swap(false) {
					nr.b.progress("netem: the load balancer takes node %d out (%d failed probes)", n.i+1, n.fail)
				}
			}()
		}
		wg.Wait()
	}
}

// ready is node n's /api/ready: its status (0: no answer) and the members
// it reports.
func (nr *netemRun) ready(n *nmNode, timeout time.Duration) (status, members int) {
	c := &fasthttp.Client{}
	st, body, err := c.GetTimeout(nil, "http://"+n.addr+"/api/ready", timeout)
	if err != nil {
		return 0, 0
	}
	var env struct {
		Data struct {
			Members int `json:"members"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &env)
	return st, env.Data.Members
}

// memberWatch is what the nodes reported while a fault lasted.
type memberWatch struct {
	min      []int     // fewest members reported while ready (-1: never ready)
	notReady []float64 // fraction of polls not ready (or unanswered)
}

// watchMembers polls every node's /api/ready every half second for d.
func (nr *netemRun) watchMembers(ctx context.Context, d time.Duration) memberWatch {
	n := len(nr.nodes)
	w := memberWatch{min: make([]int, n), notReady: make([]float64, n)}
	bad := make([]int, n)
	for i := range w.min {
		w.min[i] = -1
	}
	polls := 0
	end := time.Now().Add(d)
	for time.Now().Before(end) && ctx.Err() == nil {
		next := time.Now().Add(500 * time.Millisecond)
		var wg sync.WaitGroup
		st := make([]int, n)
		mem := make([]int, n)
		for i, nd := range nr.nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st[i], mem[i] = nr.ready(nd, 400*time.Millisecond)
			}()
		}
		wg.Wait()
		polls++
		for i := range n {
			if st[i] != fasthttp.StatusOK {
				bad[i]++
			} else if w.min[i] < 0 || mem[i] < w.min[i] {
				w.min[i] = mem[i]
			}
		}
		time.Sleep(time.Until(next))
	}
	for i := range n {
		if polls > 0 {
			w.notReady[i] = float64(bad[i]) / float64(polls)
		}
	}
	return w
}

// agree waits until every node answers ready with every member in the
// same round of polls (every 200 ms), for at most limit.
func (nr *netemRun) agree(ctx context.Context, limit time.Duration) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < limit && ctx.Err() == nil {
		ok := atomic.Bool{}
		ok.Store(true)
		var wg sync.WaitGroup
		for _, n := range nr.nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if st, m := nr.ready(n, 2*time.Second); st != fasthttp.StatusOK || m != len(nr.nodes) {
					ok.Store(false)
				}
			}()
		}
		wg.Wait()
		if ok.Load() {
			return time.Since(start), true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return time.Since(start), false
}

// membersText is each node's readiness answer, for the log.
func (nr *netemRun) membersText(ctx context.Context) string {
	var parts []string
	for _, n := range nr.nodes {
		st, m := nr.ready(n, 2*time.Second)
		parts = append(parts, fmt.Sprintf("node %d: %d, %d members", n.i+1, st, m))
	}
	return strings.Join(parts, "; ")
}

// waitMembers waits until node n answers ready with want members.
func (nr *netemRun) waitMembers(ctx context.Context, n *nmNode, want int, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if done, code := n.srv.exited(); done {
			return fmt.Errorf("node %d exited (%d) while starting; log tail:\n%s", n.i+1, code, n.srv.tail(20))
		}
		if st, m := nr.ready(n, 2*time.Second); st == fasthttp.StatusOK && m == want {
			return nil
		}
		if !sleepCtx(ctx, 200*time.Millisecond) {
			return ctx.Err()
		}
	}
	return fmt.Errorf("node %d: not ready with %d members within %s; log tail:\n%s", n.i+1, want, within, n.srv.tail(20))
}

// settle waits, up to a bound, until the nodes together use under 0.2
// core over a second: each built its search index at start.
func (nr *netemRun) settle(ctx context.Context) {
	limit := 2 * time.Minute
	busy := func() time.Duration {
		var total time.Duration
		for _, n := range nr.nodes {
			own, _, _ := procCPU(n.srv.pid())
			total += own
		}
		return total
	}
	start := time.Now()
	for time.Since(start) < limit && ctx.Err() == nil {
		a := busy()
		time.Sleep(time.Second)
		if busy()-a < 200*time.Millisecond {
			nr.b.progress("netem: nodes idle after %.0fs", time.Since(start).Seconds())
			return
		}
	}
}

// view keeps socket s open on its node, watching every post; when the
// server closes it (or the connection drops) it reconnects as the web
// client does (1 s, 2 s, 4 s … with up to 30 % jitter), through the load
// balancer.
func (nr *netemRun) view(ctx context.Context, s *nmSocket, token string) {
	b := nr.b
	idx := map[string]int32{}
	for i, id := range nr.lr.posts {
		idx[id.String()] = int32(i)
	}
	d := &websocket.Dialer{HandshakeTimeout: 10 * time.Second, ReadBufferSize: 1024, WriteBufferSize: 1024}
	attempt := 0
	var pending *nmSocketEvent
	for !nr.quit.Load() && ctx.Err() == nil {
		node := int(s.node.Load())
		c, err := nr.dialSocket(ctx, d, nr.nodes[node].addr, token)
		if err != nil {
			wait := time.Duration(float64(time.Second<<min(attempt, 5)) * (1 + 0.3*mrand.Float64()))
			attempt++
			sleepCtx(ctx, wait)
			s.node.Store(int32(nr.pick()))
			continue
		}
		attempt = 0
		if pending != nil {
			nr.mu.Lock()
			pending.to = node
			nr.events = append(nr.events, *pending)
			nr.mu.Unlock()
			pending = nil
		}
		s.mu.Lock()
		s.c = c
		s.mu.Unlock()
		s.open.Store(true)
		for {
			_, msg, err := c.ReadMessage()
			if err != nil {
				break
			}
			if !bytes.Contains(msg, evCounts) {
				continue
			}
			for rest := msg; ; {
				i := bytes.Index(rest, keyPost)
				if i < 0 {
					break
				}
				rest = rest[i+len(keyPost):]
				j := bytes.IndexByte(rest, '"')
				n, ok := jsonInt(rest, keyCount)
				if j < 0 || !ok {
					break
				}
				if p, known := idx[string(rest[:j])]; known {
					s.counts[p].Store(int32(n))
				}
			}
		}
		s.open.Store(false)
		c.Close()
		if nr.quit.Load() || ctx.Err() != nil {
			return
		}
		pending = &nmSocketEvent{at: b.now(), from: node, to: -1}
		sleepCtx(ctx, time.Duration(float64(time.Second)*(1+0.3*mrand.Float64())))
		s.node.Store(int32(nr.pick()))
	}
}

// dialSocket opens an authenticated socket watching every post.
func (nr *netemRun) dialSocket(ctx context.Context, d *websocket.Dialer, addr, token string) (*websocket.Conn, error) {
	c, _, err := d.DialContext(ctx, "ws://"+addr+"/api/ws?token="+url.QueryEscape(token), nil)
	if err != nil {
		return nil, err
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	ready := false
	for k := 0; k < 8 && !ready; k++ {
		_, msg, err := c.ReadMessage()
		if err != nil {
			c.Close()
			return nil, err
		}
		ready = strings.Contains(string(msg), `"event":"ready"`)
	}
	if !ready {
		c.Close()
		return nil, errors.New("no ready frame")
	}
	_ = c.SetReadDeadline(time.Time{})
	if err := c.WriteMessage(websocket.TextMessage, watchFrame(nr.lr.posts)); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// waitSockets waits until every viewer is connected.
func (nr *netemRun) waitSockets(ctx context.Context, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		open := 0
		for _, s := range nr.sockets {
			if s.open.Load() {
				open++
			}
		}
		if open == len(nr.sockets) {
			time.Sleep(500 * time.Millisecond) // the watch frames are not acknowledged
			return nil
		}
		if !sleepCtx(ctx, 100*time.Millisecond) {
			return ctx.Err()
		}
	}
	return fmt.Errorf("viewers: not all %d sockets open within %s", len(nr.sockets), within)
}

func (nr *netemRun) closeSockets() {
	for _, s := range nr.sockets {
		s.mu.Lock()
		if s.c != nil {
			_ = s.c.Close()
		}
		s.mu.Unlock()
	}
}

// touch sends one more like per post, post p through node p mod 3, and
// answers how many failed after the retries.
func (nr *netemRun) touch(ctx context.Context) int {
	var failed atomic.Int64
	var wg sync.WaitGroup
	for p := range nr.lr.posts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !nr.like(p, p%len(nr.nodes)) {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(failed.Load())
}

// stale counts the sockets that, within nmFreshWait, do not show every
// post's count as Postgres has it, and says which: per node, the sockets
// and one count shown beside Postgres's.
func (nr *netemRun) stale(ctx context.Context) (int, string) {
	db := make([]int32, len(nr.lr.posts))
	idx := map[uuid.UUID]int{}
	for i, p := range nr.lr.posts {
		idx[p] = i
	}
	rows, err := nr.b.db.QueryContext(ctx, "SELECT id, likes_count FROM posts WHERE id IN (?)", bun.In(nr.lr.posts))
	if err != nil {
		return len(nr.sockets), fmt.Sprintf("read likes_count: %v", err)
	}
	for rows.Next() {
		var id uuid.UUID
		var n int32
		if err := rows.Scan(&id, &n); err == nil {
			db[idx[id]] = n
		}
	}
	rows.Close()
	count := func() (int, string) {
		stale := 0
		perNode := make([]int, len(nr.nodes))
		example := make([]string, len(nr.nodes))
		for _, s := range nr.sockets {
			wrong := 0
			for p := range db {
				if got := s.counts[p].Load(); got != db[p] {
					if wrong == 0 && example[s.node.Load()] == "" {
						example[s.node.Load()] = fmt.Sprintf("post %d shows %d, Postgres %d", p+1, got, db[p])
					}
					wrong++
				}
			}
			if wrong > 0 {
				stale++
				perNode[s.node.Load()]++
			}
		}
		var parts []string
		for i, n := range perNode {
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%d on node %d (%s)", n, i+1, example[i]))
			}
		}
		return stale, strings.Join(parts, "; ")
	}
	deadline := time.Now().Add(nmFreshWait)
	for {
		n, detail := count()
		if n == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return n, detail
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// longestNoLike is, over the posts, the longest time from an attempt at a
// like until the first acknowledgement of one sent at that time or later;
// an attempt that no later one answered counts until end (never counts
// those posts).
func longestNoLike(att []nmAttempt, posts int, end int64) (time.Duration, int) {
	byPost := make([][]nmAttempt, posts)
	for _, a := range att {
		byPost[a.post] = append(byPost[a.post], a)
	}
	var gap int64
	never := 0
	for _, l := range byPost {
		slices.SortFunc(l, func(a, b nmAttempt) int { return cmpInt64(b.send, a.send) }) // latest first
		best := int64(-1)                                                                // earliest ack among those sent at or after
		unanswered := false
		for _, a := range l {
			if a.ok && (best < 0 || a.end < best) {
				best = a.end
			}
			if best < 0 {
				unanswered = true
				gap = max(gap, end-a.send)
				continue
			}
			gap = max(gap, best-a.send)
		}
		if unanswered {
			never++
		}
	}
	return time.Duration(gap), never
}

// netemRows puts one fault's figures in the report.
func (b *bench) netemRows(sc string, r nmResult) {
	rep := b.rep
	f := r.Fault + ": "
	g := rep.add(sc, f+"longest a post could not take a like", ms(r.Gap), "ms").note("%s", r.How).
		note("acknowledged attempts' latency p50/p99: %.0f/%.0f ms before the fault, %.0f/%.0f ms in it",
			ms(r.Steady.p50), ms(r.Steady.p99), ms(r.During.p50), ms(r.During.p99))
	if r.Never > 0 {
		g.note("%d posts took no like after an attempt", r.Never)
	}
	fr := rep.add(sc, f+"failed after the client's retries", float64(sum(r.Failed)), "").
		target("0", sum(r.Failed) == 0).
		note("of %d requests (%s); failed attempts %s; %d served by a retry", r.Acked+sum(r.Failed), statusText(r.Failed),
			statusText(r.Attempts), r.Retried)
	for _, k := range []string{"conn", "timeout"} {
		if t, ok := r.ErrText[k]; ok {
			fr.note("first %s: %s", k, t)
		}
	}
	rep.add(sc, f+"sockets moved", float64(r.Moved), "").
		note("%d of %d closed by the server or dropped, %d reconnected on another node", r.Closed, r.Sockets, r.Moved)
	st := rep.add(sc, f+"sockets without the final counts", float64(r.Stale), "").
		target("0", r.Stale == 0).
		note("of %d, %s after the last likes (one more per post, %d failed)", r.Sockets, nmFreshWait, r.Touches)
	if r.Stale > 0 {
		st.note("%s", r.StaleText)
	}
	q := rep.add(sc, f+"last failure after the heal", r.FailsEnd.Seconds(), "s").
		note("the load ran on until no attempt had failed for %s", nmSteady)
	if !r.Quiet {
		q.note("attempts still failed %s after the heal", b.o.nmSettle)
	}
	a := rep.add(sc, f+"members agree after the heal", r.AgreeIn.Seconds(), "s").
		target(fmt.Sprintf("≤ %s", b.o.nmSettle), r.Converged).
		note("during the fault, fewest members seen by node 1/2/3: %s; not ready in %s of polls", intsText(r.SeenMin), pctText(r.NotReady))
	if !r.Converged {
		a.note("not within %s", b.o.nmSettle)
	}
	if len(r.Restarted) > 0 {
		a.note("node %s restarted afterwards to go on", intsText(r.Restarted))
	}
	rep.text(sc, f+"consistency", r.Cons.String()).check("lost = phantom = 0, count = rows", r.Cons.ok())
}

func intsText(v []int) string {
	var p []string
	for _, x := range v {
		if x < 0 {
			p = append(p, "–")
		} else {
			p = append(p, strconv.Itoa(x))
		}
	}
	return strings.Join(p, "/")
}

func pctText(v []float64) string {
	var p []string
	for _, x := range v {
		p = append(p, fmt.Sprintf("%.0f%%", x*100))
	}
	return strings.Join(p, "/")
}

// netemTable is the README's table of the faults.
func netemTable(res []nmResult) string {
	var sb strings.Builder
	sb.WriteString("| fault | longest a post could not take a like | failed after retries | last failure after the heal | sockets moved | sockets without the final counts | members agree after the heal | lost / phantom |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range res {
		agree := fmt.Sprintf("%.1f s", r.AgreeIn.Seconds())
		if !r.Converged {
			agree = "not within " + r.AgreeIn.Round(time.Second).String()
			if len(r.Restarted) > 0 {
				agree += " (node " + intsText(r.Restarted) + " restarted to go on)"
			}
		}
		fails := fmt.Sprintf("%.1f s", r.FailsEnd.Seconds())
		if !r.Quiet {
			fails = "still failing after " + r.FailsEnd.Round(time.Second).String()
		}
		fmt.Fprintf(&sb, "| %s | %.1f s | %d of %d | %s | %d of %d | %d of %d | %s | %d / %d |\n",
			r.How, r.Gap.Seconds(), sum(r.Failed), r.Acked+sum(r.Failed), fails, r.Moved, r.Sockets, r.Stale, r.Sockets, agree, r.Lost, r.Phantom)
	}
	return sb.String()
}
