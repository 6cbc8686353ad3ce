package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"maps"
	"math"
	mrand "math/rand/v2"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// The soak (--soak D, issue 14): mixed traffic at about half of what the
// server answers closed-loop, for D, sampling the server's resources every
// --soak-sample. A leak shows as a slope, not as a level: the verdicts are
// on the least-squares slope of each series after the warm-up.

// soakOp is one kind of request of the mix.
type soakOp int

const (
	opFeed soakOp = iota
	opLike
	opComment
	opSearch
	opPost
	opDelete
	opFriend
	opSignIn
	nSoakOps
)

var soakOpNames = [nSoakOps]string{"feed read", "like/unlike", "comment", "search", "post with image", "delete post", "friend request", "sign-in"}

// soakWeights is the mix, in percent. Posts and deletions balance, so the
// live posts stay about level; sign-ins are few because each is an argon2id
// hash (19 MiB, tens of ms of a core), as they are few in real use.
var soakWeights = [nSoakOps]int{34, 24, 10, 10, 5, 5, 9, 3}

// Soak tunables the flags do not expose.
const (
	soakProbeConc = 32               // closed-loop workers of the capacity probe
	soakProbeDur  = 10 * time.Second // its length
	soakWorkers   = 64               // open-loop connections: enough that a slow answer does not hold up the schedule
	soakQueue     = 4096             // scheduled requests waiting for a worker; beyond, the bench sheds (a failure)
	soakHot       = 20               // newest posts that get most likes and that sockets watch
	soakWatch     = 5                // posts each socket watches
	soakLifetime  = 30 * time.Second // mean socket lifetime (exponential)
	soakDeletedP  = 0.05             // share of likes and comments aimed at a deleted post (a deliberate 404)
	soakMinLive   = soakHot + 10     // below this many live posts, a deletion becomes a feed read
)

// Outcome classes of one request.
type soakClass uint8

const (
	clsOK       soakClass = iota
	clsExpected           // a deliberate 4xx: liking a deleted post, a duplicate friend request
	clsFail               // 5xx, transport error, an unexpected 4xx or a wrong body
)

// soakBook counts outcomes; one for the capacity probe, one for the soak.
type soakBook struct {
	ok, expected, failed [nSoakOps]atomic.Int64
	shed                 atomic.Int64 // scheduled requests dropped because every worker was busy

	mu        sync.Mutex
	status    map[int]int64    // by status; 0 = transport error
	deliber   map[string]int64 // deliberate 4xx by op and status
	firstFail map[soakOp]string
	win       []int64 // latencies of requests answered since the last sample
	// From this bench-clock time on (0: never), each op's latencies are
	// kept for the table.
	opFrom atomic.Int64
	opLat  [nSoakOps][]int64
}

func newSoakBook() *soakBook {
	return &soakBook{status: map[int]int64{}, deliber: map[string]int64{}, firstFail: map[soakOp]string{}}
}

// record counts one answer (status 0: a transport error) received at the
// bench-clock time at, took after it was due.
func (k *soakBook) record(op soakOp, cls soakClass, status int, at, took int64, why string) {
	switch cls {
	case clsOK:
		k.ok[op].Add(1)
	case clsExpected:
		k.expected[op].Add(1)
	default:
		k.failed[op].Add(1)
	}
	k.mu.Lock()
	k.status[status]++
	if cls == clsExpected {
		k.deliber[fmt.Sprintf("%s %d", soakOpNames[op], status)]++
	}
	if cls == clsFail {
		if _, seen := k.firstFail[op]; !seen {
			k.firstFail[op] = why
		}
	}
	if status != 0 {
		k.win = append(k.win, took)
		if from := k.opFrom.Load(); from > 0 && at >= from {
			k.opLat[op] = append(k.opLat[op], took)
		}
	}
	k.mu.Unlock()
}

// takeWindow returns the latencies recorded since the last call.
func (k *soakBook) takeWindow() []int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	w := k.win
	k.win = nil
	return w
}

func (k *soakBook) sum(c *[nSoakOps]atomic.Int64) int64 {
	var n int64
	for i := range c {
		n += c[i].Load()
	}
	return n
}

func (k *soakBook) answered() int64 { return k.sum(&k.ok) + k.sum(&k.expected) }
func (k *soakBook) failures() int64 { return k.sum(&k.failed) + k.shed.Load() }

// livePost is a post the soak created, with its author (who alone may
// delete it).
type livePost struct {
	id     uuid.UUID
	author int
}

// pendingReq is a friend request the soak sent and has not resolved.
type pendingReq struct {
	id               string
	sender, receiver int
}

// soak is one soak run's state shared by the workers.
type soak struct {
	b      *bench
	seeded []uuid.UUID // seeded posts, like and comment targets

	mu      sync.Mutex
	live    []livePost // oldest first
	deleted []uuid.UUID
	gone    map[uuid.UUID]bool
	pending []pendingReq

	// The server's heap profiles; nil when it serves none (profErr says
	// why, when it is not --url without CAMPUS_PPROF_ADDR).
	prof    *soakProfiler
	profErr error

	// Sockets.
	sockOpen, sockOpened, sockClosed, sockFailed, sockDropped, sockFrames atomic.Int64
	sockErrOnce                                                           sync.Once
	sockFirstErr                                                          atomic.Value
}

// soakSample is one reading of the server.
type soakSample struct {
	AtS        float64 `json:"atSeconds"`
	RSSMiB     float64 `json:"rssMiB"`
	Goroutines float64 `json:"goroutines"`
	OpenFiles  float64 `json:"openFiles"`
	PGConns    float64 `json:"pgConns"`
	PGMiB      float64 `json:"pgPssMiB"` // proportional set size of the embedded Postgres' processes; -1 unknown
	P99Ms      float64 `json:"p99Ms"`
	OpsPerSec  float64 `json:"opsPerSec"`
	Failed     int64   `json:"failed"` // in the window
	Deliberate int64   `json:"deliberate4xx"`
	Sockets    int64   `json:"sockets"`
}

// soakReport is what the table prints under the rows.
type soakReport struct {
	Every    time.Duration `json:"-"`
	Warmup   time.Duration `json:"-"`
	EveryS   float64       `json:"sampleSeconds"`
	WarmupS  float64       `json:"warmupSeconds"`
	Capacity float64       `json:"capacityOpsPerSec"`
	Rate     float64       `json:"rateOpsPerSec"`
	Samples  []soakSample  `json:"samples"`

	ProfilesDir string        `json:"profilesDir,omitempty"`
	Heap        []heapProfile `json:"heapProfiles,omitempty"`
	HeapGrowth  []heapGrowth  `json:"heapGrowth,omitempty"` // the functions whose inuse_space grew most, start to end
}

// runSoak is the soak scenario: measure the capacity, then paced load at
// half of it for --soak.
func (b *bench) runSoak(ctx context.Context) {
	const sc = "soak"
	if err := b.need("feed", "likes", "search", "ws"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	s := &soak{b: b, gone: map[uuid.UUID]bool{}}
	if err := b.db.NewRaw("SELECT id FROM posts ORDER BY random() LIMIT 2000").Scan(ctx, &s.seeded); err != nil {
		b.rep.skip(sc, fmt.Errorf("soak: seeded posts: %w", err))
		return
	}
	if len(s.seeded) == 0 {
		b.rep.skip(sc, errors.New("soak: no seeded posts"))
		return
	}

	rate := b.o.soakRate
	var capacity float64
	if rate <= 0 {
		b.progress("soak: capacity probe, the mix closed-loop on %d connections for %s", soakProbeConc, soakProbeDur)
		done := b.cpu.phase("soak: capacity probe")
		probe := newSoakBook()
		capacity = s.closedLoop(ctx, probe, soakProbeConc, soakProbeDur)
		done()
		x := b.rep.add(sc, "capacity: the mix closed-loop", capacity, "req/s").note("%d connections, %s", soakProbeConc, soakProbeDur)
		if f := probe.failures(); f > 0 {
			x.note("%d failed: %s", f, firstFailures(probe))
		}
		rate = capacity / 2
	}
	if ctx.Err() != nil {
		return
	}
	if rate < 1 {
		b.rep.skip(sc, fmt.Errorf("soak: no rate to run at (capacity %.1f req/s)", capacity))
		return
	}

	dur, every := b.o.soak, b.o.soakSample
	warm := b.o.soakWarmup
	if warm <= 0 {
		// A fifth of the run or two minutes, whichever is longer, but at
		// most half: a short proof run keeps samples to fit a line to.
		warm = min(max(dur/5, 2*time.Minute), dur/2)
	}
	rep := &soakReport{Every: every, Warmup: warm, EveryS: every.Seconds(), WarmupS: warm.Seconds(), Capacity: capacity, Rate: rate}
	b.rep.soak = rep
	b.progress("soak: %.0f req/s open-loop and %d sockets coming and going for %s (warm-up %s, a sample every %s)",
		rate, b.o.soakSockets, dur, warm, every)
	if b.pprofAddr != "" {
		dir := b.o.soakProfiles
		if dir == "" {
			dir = filepath.Join("bench-out", "soak-"+time.Now().UTC().Format("20060102-150405"))
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			s.profErr = fmt.Errorf("heap profiles: %w", err)
		} else {
			s.prof = &soakProfiler{addr: b.pprofAddr, dir: dir}
			b.progress("soak: heap profiles from %s into %s at the end of the warm-up, mid-way and at the end", b.pprofAddr, dir)
		}
	}

	book := newSoakBook()
	done := b.cpu.phase("soak")
	sctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := 0; i < b.o.soakSockets; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.socketLoop(sctx, i)
		}()
	}
	tasks := make(chan soakTask, soakQueue)
	var workers sync.WaitGroup
	for w := 0; w < soakWorkers; w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			s.worker(ctx, book, w, tasks)
		}()
	}
	start := b.now()
	end := start + int64(dur)
	book.opFrom.Store(start + int64(warm))
	sampler := &soakSampler{s: s, book: book, start: start}
	rep.Samples = append(rep.Samples, sampler.take(ctx)) // before the load
	go s.schedule(sctx, book, rate, end, tasks)
	var profWG sync.WaitGroup
	if s.prof != nil {
		profWG.Add(1)
		go func() {
			defer profWG.Done()
			measured := start + int64(warm)
			if s.profileAt(sctx, start, measured, "start") {
				s.profileAt(sctx, start, measured+(end-measured)/2, "mid")
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		sampler.pollEvery(sctx, max(every/15, time.Second))
	}()
	t := time.NewTicker(every)
	for b.now() < end && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-t.C:
			x := sampler.take(ctx)
			rep.Samples = append(rep.Samples, x)
			b.progress("soak %s: RSS %.1f MiB, %d goroutines, %d fds, %d pg conns, %.0f req/s, p99 %.1f ms, %d failed, %d sockets",
				time.Duration(x.AtS*float64(time.Second)).Round(time.Second), x.RSSMiB, int(x.Goroutines), int(x.OpenFiles),
				int(x.PGConns), x.OpsPerSec, x.P99Ms, x.Failed, x.Sockets)
		}
	}
	t.Stop()
	profWG.Wait()
	if s.prof != nil && ctx.Err() == nil {
		// Still under load: the sockets are open and the last requests
		// in flight, as they were at the start profile.
		s.prof.take(ctx, "end", time.Duration(b.now()-start).Seconds())
	}
	stop()
	workers.Wait() // the scheduler closed tasks; in-flight requests finish
	wg.Wait()
	done()
	s.report(sc, book, rep, sampler.wins)
}

// profileAt takes the heap profile label at bench-clock time at (start:
// the soak's start); false when ctx ended first.
func (s *soak) profileAt(ctx context.Context, start, at int64, label string) bool {
	if !sleepCtx(ctx, time.Duration(at-s.b.now())) {
		return false
	}
	s.prof.take(ctx, label, time.Duration(s.b.now()-start).Seconds())
	return true
}

// firstFailures is one line per op that failed: the first failure of each.
func firstFailures(k *soakBook) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var parts []string
	for op := soakOp(0); op < nSoakOps; op++ {
		if why, ok := k.firstFail[op]; ok {
			parts = append(parts, soakOpNames[op]+": "+why)
		}
	}
	if n := k.shed.Load(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d shed by the bench (every worker busy)", n))
	}
	return strings.Join(parts, "; ")
}

// soakTask is one scheduled request.
type soakTask struct {
	due int64 // bench clock: latency counts from here, not from the send
	op  soakOp
}

// schedule sends tasks at exponentially distributed intervals (a Poisson
// arrival at rate per second) until end, then closes tasks.
func (s *soak) schedule(ctx context.Context, book *soakBook, rate float64, end int64, tasks chan<- soakTask) {
	defer close(tasks)
	rng := mrand.New(mrand.NewPCG(uint64(s.b.o.seed), 8001))
	next := s.b.now()
	for ctx.Err() == nil {
		next += int64(rng.ExpFloat64() * float64(time.Second) / rate)
		if next >= end {
			return
		}
		if wait := time.Duration(next - s.b.now()); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		select {
		case tasks <- soakTask{due: next, op: pickOp(rng)}:
		default:
			book.shed.Add(1)
		}
	}
}

// pickOp draws an op by soakWeights.
func pickOp(rng *mrand.Rand) soakOp {
	n := rng.IntN(100)
	for op := soakOp(0); op < nSoakOps; op++ {
		if n < soakWeights[op] {
			return op
		}
		n -= soakWeights[op]
	}
	return opFeed
}

// closedLoop runs the mix on conc connections for dur and answers the
// answered requests per second.
func (s *soak) closedLoop(ctx context.Context, book *soakBook, conc int, dur time.Duration) float64 {
	start := s.b.now()
	end := start + int64(dur)
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := s.b.client()
			defer c.CloseIdleConnections()
			rng := mrand.New(mrand.NewPCG(uint64(s.b.o.seed), uint64(7000+w)))
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			for ctx.Err() == nil && s.b.now() < end {
				s.exec(book, c, req, resp, rng, soakTask{due: s.b.now(), op: pickOp(rng)})
			}
		}()
	}
	wg.Wait()
	return float64(book.answered()) / time.Duration(s.b.now()-start).Seconds()
}

// worker sends the scheduled requests on its own keep-alive connection.
func (s *soak) worker(ctx context.Context, book *soakBook, w int, tasks <-chan soakTask) {
	c := s.b.client()
	defer c.CloseIdleConnections()
	rng := mrand.New(mrand.NewPCG(uint64(s.b.o.seed), uint64(9000+w)))
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	for t := range tasks {
		if ctx.Err() != nil {
			continue // drain: the scheduler closes tasks
		}
		s.exec(book, c, req, resp, rng, t)
	}
}

// judge classifies an answer.
type judge func(status int, body []byte) (soakClass, string)

// exec sends one request of the mix and records its outcome.
func (s *soak) exec(book *soakBook, c *fasthttp.HostClient, req *fasthttp.Request, resp *fasthttp.Response, rng *mrand.Rand, t soakTask) {
	req.Reset()
	op := t.op
	j := s.prepare(&op, req, rng)
	err := c.DoTimeout(req, resp, 20*time.Second)
	at := s.b.now()
	took := at - t.due
	if err != nil {
		book.record(op, clsFail, 0, at, took, err.Error())
		time.Sleep(5 * time.Millisecond) // a refused connection must not spin
		return
	}
	cls, why := j(resp.StatusCode(), resp.Body())
	if cls == clsFail && why == "" {
		why = describe(nil, resp)
	}
	book.record(op, cls, resp.StatusCode(), at, took, why)
}

func (s *soak) user(rng *mrand.Rand) int { return rng.IntN(len(s.b.w.users)) }

// expect accepts want; any other status fails.
func expect(want int, bodyHas string) judge {
	return func(st int, body []byte) (soakClass, string) {
		if st == want && (bodyHas == "" || bytes.Contains(body, []byte(bodyHas))) {
			return clsOK, ""
		}
		return clsFail, ""
	}
}

// prepare fills req for op (which it may change: a deletion with too few
// live posts becomes a feed read) and returns how to judge the answer.
func (s *soak) prepare(op *soakOp, req *fasthttp.Request, rng *mrand.Rand) judge {
	w := s.b.w
	switch *op {
	case opLike:
		id := s.target(rng)
		req.SetRequestURI(s.b.uri("/api/posts/" + id.String() + "/like"))
		if rng.IntN(2) == 0 {
			req.Header.SetMethod(fasthttp.MethodPost)
		} else {
			req.Header.SetMethod(fasthttp.MethodDelete)
		}
		req.Header.Set("Authorization", w.auth[s.user(rng)])
		return s.onPost(id, fasthttp.StatusOK, `"likesCount"`)
	case opComment:
		id := s.target(rng)
		req.SetRequestURI(s.b.uri("/api/posts/" + id.String() + "/comments"))
		req.Header.SetMethod(fasthttp.MethodPost)
		req.Header.Set("Authorization", w.auth[s.user(rng)])
		req.Header.SetContentType("application/json")
		req.SetBodyString(`{"content":"soak comment: ` + words(rng, 3+rng.IntN(6)) + `"}`)
		return s.onPost(id, fasthttp.StatusCreated, "")
	case opSearch:
		terms := w.common
		if rng.IntN(2) == 0 && len(w.rare) > 0 {
			terms = w.rare
		}
		req.SetRequestURI(s.b.uri("/api/search?q=" + url.QueryEscape(terms[rng.IntN(len(terms))]) + "&limit=20"))
		req.Header.Set("Authorization", w.auth[s.user(rng)])
		return expect(fasthttp.StatusOK, `"results"`)
	case opPost:
		return s.preparePost(req, rng)
	case opDelete:
		s.mu.Lock()
		if len(s.live) < soakMinLive {
			s.mu.Unlock()
			*op = opFeed
			return s.prepare(op, req, rng)
		}
		p := s.live[0]
		s.live = s.live[1:]
		// Marked gone before the request, so a like racing the deletion
		// and answered 404 counts as deliberate.
		s.gone[p.id] = true
		s.deleted = append(s.deleted, p.id)
		if len(s.deleted) > 1000 {
			s.deleted = s.deleted[len(s.deleted)-1000:]
		}
		s.mu.Unlock()
		req.SetRequestURI(s.b.uri("/api/posts/" + p.id.String()))
		req.Header.SetMethod(fasthttp.MethodDelete)
		req.Header.Set("Authorization", w.auth[p.author])
		return expect(fasthttp.StatusOK, "")
	case opFriend:
		return s.prepareFriend(req, rng)
	case opSignIn:
		u := s.user(rng)
		role := "student"
		if u%10 == 0 { // seed.go: every tenth user is faculty
			role = "faculty"
		}
		req.SetRequestURI(s.b.uri("/api/auth/login"))
		req.Header.SetMethod(fasthttp.MethodPost)
		req.Header.SetContentType("application/json")
		req.SetBodyString(fmt.Sprintf(`{"email":"b%s-u%d@bench.campus.test","password":"bench-password-%s","role":"%s"}`, w.run, u, w.run, role))
		return expect(fasthttp.StatusOK, `"token"`)
	}
	*op = opFeed
	req.SetRequestURI(s.b.uri("/api/posts/feed?limit=20"))
	req.Header.Set("Authorization", w.auth[s.user(rng)])
	return expect(fasthttp.StatusOK, `"posts"`)
}

// target picks a post to like or comment on: mostly the newest the soak
// created (the ones sockets watch), else a seeded one, and now and then a
// deleted one on purpose.
func (s *soak) target(rng *mrand.Rand) uuid.UUID {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := rng.Float64()
	switch {
	case r < soakDeletedP && len(s.deleted) > 0:
		return s.deleted[rng.IntN(len(s.deleted))]
	case r < 0.65 && len(s.live) > 0:
		return s.live[max(0, len(s.live)-1-rng.IntN(soakHot))].id
	}
	return s.seeded[rng.IntN(len(s.seeded))]
}

// onPost expects want, or 404 when the post was deleted (on purpose or by
// a deletion racing the request).
func (s *soak) onPost(id uuid.UUID, want int, bodyHas string) judge {
	return func(st int, body []byte) (soakClass, string) {
		if st == fasthttp.StatusNotFound {
			s.mu.Lock()
			gone := s.gone[id]
			s.mu.Unlock()
			if gone {
				return clsExpected, ""
			}
		}
		return expect(want, bodyHas)(st, body)
	}
}

// preparePost builds a multipart post with one small generated PNG.
func (s *soak) preparePost(req *fasthttp.Request, rng *mrand.Rand) judge {
	author := s.user(rng)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("content", "soak post: "+words(rng, 4+rng.IntN(8)))
	_ = mw.WriteField("visibility", "public")
	fw, _ := mw.CreateFormFile("images", "soak.png")
	_ = png.Encode(fw, smallImage(rng))
	_ = mw.Close()
	req.SetRequestURI(s.b.uri("/api/posts"))
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.Set("Authorization", s.b.w.auth[author])
	req.Header.SetContentType(mw.FormDataContentType())
	req.SetBody(buf.Bytes())
	return func(st int, body []byte) (soakClass, string) {
		if st != fasthttp.StatusCreated || !bytes.Contains(body, []byte(`"images"`)) {
			return clsFail, ""
		}
		id, err := uuid.Parse(jsonString(body, "id"))
		if err != nil {
			return clsFail, fmt.Sprintf("no post id in %.120s", body)
		}
		s.mu.Lock()
		s.live = append(s.live, livePost{id: id, author: author})
		s.mu.Unlock()
		return clsOK, ""
	}
}

// prepareFriend sends a request to a random user, or resolves one sent
// earlier (the receiver accepts or declines, or the sender cancels). A
// duplicate, a pair already friends, or a request resolved meanwhile by a
// crossing one is a deliberate 409 or 404.
func (s *soak) prepareFriend(req *fasthttp.Request, rng *mrand.Rand) judge {
	w := s.b.w
	s.mu.Lock()
	var p pendingReq
	resolve := rng.IntN(2) == 0 && len(s.pending) > 0
	if resolve {
		p = s.pending[0]
		s.pending = s.pending[1:]
	}
	s.mu.Unlock()
	deliberate := func(sts ...int) judge {
		return func(st int, body []byte) (soakClass, string) {
			if st == fasthttp.StatusOK {
				return clsOK, ""
			}
			if slices.Contains(sts, st) {
				return clsExpected, ""
			}
			return clsFail, ""
		}
	}
	if resolve {
		switch rng.IntN(3) {
		case 0:
			req.SetRequestURI(s.b.uri("/api/friends/accept-request/" + p.id))
			req.Header.SetMethod(fasthttp.MethodPatch)
			req.Header.Set("Authorization", w.auth[p.receiver])
		case 1:
			req.SetRequestURI(s.b.uri("/api/friends/decline-request/" + p.id))
			req.Header.SetMethod(fasthttp.MethodPatch)
			req.Header.Set("Authorization", w.auth[p.receiver])
		default:
			req.SetRequestURI(s.b.uri("/api/friends/cancel-request/" + p.id))
			req.Header.SetMethod(fasthttp.MethodDelete)
			req.Header.Set("Authorization", w.auth[p.sender])
		}
		return deliberate(fasthttp.StatusNotFound, fasthttp.StatusConflict)
	}
	from, to := s.user(rng), s.user(rng)
	for to == from {
		to = s.user(rng)
	}
	req.SetRequestURI(s.b.uri("/api/friends/send-request"))
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.Set("Authorization", w.auth[from])
	req.Header.SetContentType("application/json")
	req.SetBodyString(`{"receiverId":"` + w.users[to].String() + `"}`)
	dup := deliberate(fasthttp.StatusConflict)
	return func(st int, body []byte) (soakClass, string) {
		if st != fasthttp.StatusCreated {
			return dup(st, body) // 200: they had asked first, now friends
		}
		id := jsonString(body, "id")
		if id == "" {
			return clsFail, fmt.Sprintf("no request id in %.120s", body)
		}
		s.mu.Lock()
		s.pending = append(s.pending, pendingReq{id: id, sender: from, receiver: to})
		s.mu.Unlock()
		return clsOK, ""
	}
}

// words is n campus words.
func words(rng *mrand.Rand, n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(vocab[rng.IntN(len(vocab))])
	}
	return sb.String()
}

// smallImage is a 48×32 picture of a few random stripes.
func smallImage(rng *mrand.Rand) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 48, 32))
	for y := 0; y < 32; y++ {
		if y%8 == 0 {
			c := color.RGBA{R: uint8(rng.IntN(256)), G: uint8(rng.IntN(256)), B: uint8(rng.IntN(256)), A: 255}
			for yy := y; yy < y+8; yy++ {
				for x := 0; x < 48; x++ {
					img.SetRGBA(x, yy, c)
				}
			}
		}
	}
	return img
}

// socketLoop keeps one websocket coming and going: connect as a random
// user, watch a few of the newest posts, stay an exponentially distributed
// while, close, again.
func (s *soak) socketLoop(ctx context.Context, i int) {
	b := s.b
	rng := mrand.New(mrand.NewPCG(uint64(b.o.seed), uint64(11000+i)))
	d := &websocket.Dialer{NetDialContext: b.dial.dialContext, HandshakeTimeout: 20 * time.Second, ReadBufferSize: 1024, WriteBufferSize: 1024}
	// Staggered, so the sockets do not all come and go together.
	if !sleepCtx(ctx, time.Duration(rng.Float64()*float64(soakLifetime))) {
		return
	}
	for ctx.Err() == nil {
		watch := s.newest(rng)
		p := &pool{b: b, idx: map[string]int32{}}
		p.fanIdx.Store(-1)
		for k, id := range watch {
			p.idx[id.String()] = int32(k)
		}
		p.rec.Store(true)
		u := s.user(rng)
		v, err := p.dialOne(ctx, d, dialSpec{
			url:          "ws://" + b.addr + "/api/ws",
			token:        func(int) string { return b.w.tokens[u] },
			watch:        func(int) []uuid.UUID { return watch },
			readyTimeout: 15 * time.Second,
		}, 0)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.sockFailed.Add(1)
			s.sockErrOnce.Do(func() { s.sockFirstErr.Store(err.Error()) })
			sleepCtx(ctx, time.Second)
			continue
		}
		s.sockOpened.Add(1)
		s.sockOpen.Add(1)
		p.vs = []*viewer{v}
		sleepCtx(ctx, time.Duration(rng.ExpFloat64()*float64(soakLifetime)))
		p.close()
		s.sockOpen.Add(-1)
		s.sockClosed.Add(1)
		s.sockDropped.Add(p.dropped.Load())
		s.sockFrames.Add(int64(len(v.frames)))
	}
}

// newest is up to soakWatch of the soakHot newest live posts.
func (s *soak) newest(rng *mrand.Rand) []uuid.UUID {
	s.mu.Lock()
	defer s.mu.Unlock()
	hot := s.live[max(0, len(s.live)-soakHot):]
	if len(hot) == 0 {
		return []uuid.UUID{s.seeded[rng.IntN(len(s.seeded))]}
	}
	out := make([]uuid.UUID, 0, soakWatch)
	for _, k := range rng.Perm(len(hot)) {
		if len(out) == soakWatch {
			break
		}
		out = append(out, hot[k].id)
	}
	return out
}

// sleepCtx sleeps d or until ctx ends; false when ctx ended.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// soakSampler reads the server's resources and the last window's traffic.
type soakSampler struct {
	s                      *soak
	book                   *soakBook
	start                  int64
	answered, failed, expd int64     // totals at the last sample
	lastAt                 float64   // seconds since start of the last sample
	wins                   [][]int64 // latencies of each window, sorted

	mu                   sync.Mutex
	polls                int
	rss, goroutines, fds float64 // sums over the window's polls
}

func (m *soakSampler) take(ctx context.Context) soakSample {
	b := m.s.b
	m.poll()
	x := soakSample{AtS: time.Duration(b.now() - m.start).Seconds(), PGMiB: -1, Sockets: m.s.sockOpen.Load()}
	window := x.AtS - m.lastAt
	m.lastAt = x.AtS
	m.mu.Lock()
	if n := float64(m.polls); n > 0 {
		x.RSSMiB, x.Goroutines, x.OpenFiles = m.rss/n, m.goroutines/n, m.fds/n
	}
	m.polls, m.rss, m.goroutines, m.fds = 0, 0, 0, 0
	m.mu.Unlock()
	if pid := b.cpu.pid; pid > 0 {
		if pss, ok := descendantsPSS(pid); ok {
			x.PGMiB = float64(pss) / 1024
		}
	}
	// The server's connections: not the bench's own pool, not autovacuum.
	var n int
	if err := b.db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND backend_type = 'client backend' AND application_name <> 'campus-bench'`).Scan(&n); err == nil {
		x.PGConns = float64(n)
	}
	lat := m.book.takeWindow()
	slices.Sort(lat)
	m.wins = append(m.wins, lat)
	if len(lat) > 0 {
		x.P99Ms = ms(distOf(lat).p99)
	}
	ans, fail := m.book.answered(), m.book.failures()
	var expd int64
	for i := range m.book.expected {
		expd += m.book.expected[i].Load()
	}
	if window > 0 {
		x.OpsPerSec = float64(ans-m.answered) / window
	}
	x.Failed, x.Deliberate = fail-m.failed, expd-m.expd
	m.answered, m.failed, m.expd = ans, fail, expd
	return x
}

// pollEvery runs poll every d until ctx ends. A sample's RSS, goroutines
// and open files are the means of its window's polls: one reading every
// 30 s would land anywhere on the GC's sawtooth (tens of MiB) and bury a
// slow leak's slope in that noise.
func (m *soakSampler) pollEvery(ctx context.Context, d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.poll()
		}
	}
}

// poll reads the server's RSS, goroutines and open files once.
func (m *soakSampler) poll() {
	metrics := m.metrics()
	gor := metrics["go_goroutines"]
	// --url without --server-pid: the server's own account of itself.
	rss, fds := metrics["process_resident_memory_bytes"]/(1<<20), metrics["process_open_fds"]
	if pid := m.s.b.cpu.pid; pid > 0 {
		if kib, err := rssKiB(pid); err == nil {
			rss = float64(kib) / 1024
		}
		fds = float64(procOpenFiles(pid))
	}
	m.mu.Lock()
	m.polls++
	m.rss += rss
	m.goroutines += gor
	m.fds += fds
	m.mu.Unlock()
}

// metrics reads the plain series of the server's /metrics.
func (m *soakSampler) metrics() map[string]float64 {
	out := map[string]float64{}
	st, body, err := m.s.b.do("GET", "/metrics", "", nil)
	if err != nil || st != fasthttp.StatusOK {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || strings.HasPrefix(f[0], "#") || strings.Contains(f[0], "{") {
			continue
		}
		if v, err := strconv.ParseFloat(f[1], 64); err == nil {
			out[f[0]] = v
		}
	}
	return out
}

// descendantsPSS sums the proportional set size (KiB) of root's
// descendants — the embedded Postgres. PSS, not RSS: the backends share
// the buffer cache, which RSS would count once per process.
func descendantsPSS(root int) (int64, bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, ppid, err := procStat(pid); err == nil {
			parent[pid] = ppid
		}
	}
	var sum int64
	found := false
	for pid := range parent {
		under := false
		for p, hops := parent[pid], 0; p > 1 && hops < 16; p, hops = parent[p], hops+1 {
			if p == root {
				under = true
				break
			}
		}
		if !under {
			continue
		}
		if kib, ok := pssKiB(pid); ok {
			sum += kib
			found = true
		}
	}
	return sum, found
}

func pssKiB(pid int) (int64, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fl := strings.Fields(sc.Text()); len(fl) >= 2 && fl[0] == "Pss:" {
			v, err := strconv.ParseInt(fl[1], 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// report adds the soak's rows: load, errors and one verdict per series.
func (s *soak) report(sc string, book *soakBook, rep *soakReport, wins [][]int64) {
	b := s.b
	var ops []string
	for op := soakOp(0); op < nSoakOps; op++ {
		n := book.ok[op].Load() + book.expected[op].Load() + book.failed[op].Load()
		ops = append(ops, fmt.Sprintf("%s %s", soakOpNames[op], group(n)))
	}
	runS := 0.0
	if n := len(rep.Samples); n > 0 {
		runS = rep.Samples[n-1].AtS
	}
	x := b.rep.add(sc, "load: open-loop", rep.Rate, "req/s").note("%s", strings.Join(ops, ", "))
	if rep.Capacity > 0 {
		x.vs(fmt.Sprintf("capacity %s req/s", group(int64(rep.Capacity))), rep.Capacity)
	}
	if runS > 0 {
		b.rep.add(sc, "answered", float64(book.answered())/runS, "req/s").note("%s requests in %s", group(book.answered()), time.Duration(runS*float64(time.Second)).Round(time.Second))
	}

	fails := book.failures()
	book.mu.Lock()
	var statuses []string
	for _, st := range slices.Sorted(maps.Keys(book.status)) {
		name := strconv.Itoa(st)
		if st == 0 {
			name = "transport"
		}
		statuses = append(statuses, fmt.Sprintf("%s: %s", name, group(book.status[st])))
	}
	var delib []string
	for _, k := range slices.Sorted(maps.Keys(book.deliber)) {
		delib = append(delib, fmt.Sprintf("%s: %s", k, group(book.deliber[k])))
	}
	book.mu.Unlock()
	f := b.rep.add(sc, "failures (5xx, transport, unexpected 4xx)", float64(fails), "").check("0", fails == 0).note("by status %s", strings.Join(statuses, ", "))
	if fails > 0 {
		f.note("%s", firstFailures(book))
	}
	b.rep.add(sc, "deliberate 4xx", float64(book.sum(&book.expected)), "").note("%s", strings.Join(delib, ", "))

	sockFails := s.sockFailed.Load() + s.sockDropped.Load()
	y := b.rep.add(sc, "sockets opened and closed", float64(s.sockOpened.Load()), "").
		check("every dial answered, none dropped", sockFails == 0).
		note("%d closed; %d at a time, mean life %s; %d dials failed, %d dropped by the server; %s like pushes received",
			s.sockClosed.Load(), b.o.soakSockets, soakLifetime, s.sockFailed.Load(), s.sockDropped.Load(), group(s.sockFrames.Load()))
	if e, ok := s.sockFirstErr.Load().(string); ok {
		y.note("first: %s", e)
	}

	s.heapRows(sc, rep)

	after := rep.afterWarmup()
	if len(after) < 3 {
		b.rep.text(sc, "trends", fmt.Sprintf("%d samples after the warm-up: too few to fit a line", len(after))).Result = resMiss
		return
	}
	pick := func(f func(soakSample) float64) (xs, ys []float64) {
		for _, smp := range after {
			xs = append(xs, smp.AtS/60)
			ys = append(ys, f(smp))
		}
		return xs, ys
	}
	xs, ys := pick(func(x soakSample) float64 { return x.RSSMiB })
	sl, mean, ok := rssVerdict(xs, ys)
	b.rep.text(sc, "server RSS", trendText(mean, sl, "MiB")).
		target(fmt.Sprintf("slope within ±%.0f%% of mean per 10 min", rssTolerancePct), ok).
		note("min %.1f MiB, max %.1f MiB", slices.Min(ys), slices.Max(ys))
	level := func(figure string, f func(soakSample) float64, minTol float64) {
		xs, ys := pick(f)
		sl, mean := slope(xs, ys), meanOf(ys)
		// Only a rise is a leak: pools shrink and the index merges
		// segments (closing files) on their own schedule.
		tol := max(0.02*mean, minTol)
		b.rep.text(sc, figure, trendText(mean, sl, "")).
			target(fmt.Sprintf("rise per 10 min ≤ %.0f (2%% of mean or %.0f)", tol, minTol), sl*10 <= tol).
			note("min %.0f, max %.0f", slices.Min(ys), slices.Max(ys))
	}
	level("server goroutines", func(x soakSample) float64 { return x.Goroutines }, 20)
	level("server open files", func(x soakSample) float64 { return x.OpenFiles }, 10)
	level("server Postgres connections", func(x soakSample) float64 { return x.PGConns }, 2)
	if after[0].PGMiB >= 0 {
		xs, ys := pick(func(x soakSample) float64 { return x.PGMiB })
		b.rep.text(sc, "Postgres memory (PSS)", trendText(meanOf(ys), slope(xs, ys), "MiB")).
			note("information: grows while the buffer cache fills")
	}

	// p99: the pooled latencies of the first and the last third of the
	// windows after the warm-up.
	wins = rep.windowsAfterWarmup(wins)
	third := len(wins) / 3
	if third == 0 {
		b.rep.text(sc, "p99 trend", "too few windows").Result = resMiss
		return
	}
	first, last := distOf(concat(wins[:third])), distOf(concat(wins[len(wins)-third:]))
	ratio := 0.0
	if first.p99 > 0 {
		ratio = float64(last.p99) / float64(first.p99)
	}
	b.rep.add(sc, "p99, last third after warm-up", ms(last.p99), "ms").
		vs(fmt.Sprintf("first third %.1f ms", ms(first.p99)), ms(first.p99)).
		target("≤ 1.5× the first third", first.n > 0 && last.n > 0 && ratio <= 1.5).
		note("%d and %d requests; latency from the scheduled send", first.n, last.n)

	book.mu.Lock()
	var byOp []string
	for op := soakOp(0); op < nSoakOps; op++ {
		d := distOf(book.opLat[op])
		byOp = append(byOp, fmt.Sprintf("%s %.1f/%.1f", soakOpNames[op], ms(d.p50), ms(d.p99)))
	}
	book.mu.Unlock()
	all := distOf(concat(wins))
	b.rep.add(sc, "p99 after warm-up", ms(all.p99), "ms").note("p50 %.2f ms; p50/p99 ms by request: %s", ms(all.p50), strings.Join(byOp, ", "))
}

func concat(ls [][]int64) []int64 {
	var out []int64
	for _, l := range ls {
		out = append(out, l...)
	}
	return out
}

// afterWarmup is the samples taken after the warm-up.
func (r *soakReport) afterWarmup() []soakSample {
	var out []soakSample
	for _, x := range r.Samples {
		if x.AtS >= r.Warmup.Seconds()-r.Every.Seconds()/10 {
			out = append(out, x)
		}
	}
	return out
}

// windowsAfterWarmup keeps the latency windows (wins[i] ends at sample i)
// that began after the warm-up.
func (r *soakReport) windowsAfterWarmup(wins [][]int64) [][]int64 {
	var out [][]int64
	for i := 1; i < len(wins) && i < len(r.Samples); i++ {
		// Sample times run a little late; a window that began within a
		// tenth of a sample of the warm-up's end counts as after it.
		if r.Samples[i-1].AtS >= r.Warmup.Seconds()-r.Every.Seconds()/10 {
			out = append(out, wins[i])
		}
	}
	return out
}

// trendText is "mean M, slope S/min (P%/10 min)".
func trendText(mean, sl float64, unit string) string {
	u := unit
	if u != "" {
		u = " " + u
	}
	pct := 0.0
	if mean != 0 {
		pct = sl * 10 / mean * 100
	}
	return fmt.Sprintf("mean %.1f%s, slope %+.2f%s/min (%+.2f%%/10 min)", mean, u, sl, u, pct)
}

// slope is the least-squares slope of ys over xs.
func slope(xs, ys []float64) float64 {
	mx, my := meanOf(xs), meanOf(ys)
	var num, den float64
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	if den == 0 {
		return 0
	}
	return num / den
}

func meanOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// rssTolerancePct is how far, in percent of its mean, the server's RSS
// may move per 10 minutes after the warm-up (issue 31).
const rssTolerancePct = 5.0

// rssVerdict fits a line to the RSS samples (xs in minutes, ys in MiB) and
// judges it: the slope projected over 10 minutes within ±rssTolerancePct of
// the mean. A fall beyond that fails too: the RSS had not settled (a GC
// returning a transient's memory), and a slow leak would hide under it.
func rssVerdict(xs, ys []float64) (sl, mean float64, ok bool) {
	sl, mean = slope(xs, ys), meanOf(ys)
	return sl, mean, mean > 0 && math.Abs(sl*10) <= rssTolerancePct/100.0*mean
}

// print writes the samples under the table.
func (r *soakReport) print(w io.Writer) {
	fmt.Fprintf(w, "\nSoak samples, every %s (warm-up until %s; the verdicts use the samples after it).\n", r.Every, r.Warmup)
	fmt.Fprintf(w, "RSS, goroutines and open files are means of the window's readings (one every %s).\n", max(r.Every/15, time.Second))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "T\tRSS MiB\tGOROUTINES\tFDS\tPG CONNS\tPG PSS MiB\tSOCKETS\tREQ/S\tP99 MS\tFAILED\tDELIBERATE 4XX\t")
	for _, x := range r.Samples {
		mark := ""
		if x.AtS < r.Warmup.Seconds() {
			mark = "*"
		}
		pg := "n/a"
		if x.PGMiB >= 0 {
			pg = fmt.Sprintf("%.1f", x.PGMiB)
		}
		fmt.Fprintf(tw, "%s%s\t%.1f\t%.0f\t%.0f\t%.0f\t%s\t%d\t%.0f\t%.1f\t%d\t%d\t\n",
			mark, time.Duration(x.AtS*float64(time.Second)).Round(time.Second), x.RSSMiB, x.Goroutines, x.OpenFiles,
			x.PGConns, pg, x.Sockets, x.OpsPerSec, x.P99Ms, x.Failed, x.Deliberate)
	}
	tw.Flush()
	fmt.Fprintln(w, "(* warm-up)")
	if r.ProfilesDir == "" {
		return
	}
	fmt.Fprintf(w, "\nHeap profiles of the server (inuse_space after a forced GC) in %s:\n", r.ProfilesDir)
	for _, h := range r.Heap {
		if h.Err != "" {
			fmt.Fprintf(w, "  %-5s at %s: %s\n", h.Label, secs(h.AtS), h.Err)
			continue
		}
		fmt.Fprintf(w, "  %-5s at %s: %.1f MiB  %s\n", h.Label, secs(h.AtS), h.InuseMiB, h.Path)
	}
	if len(r.HeapGrowth) > 0 {
		fmt.Fprintln(w, "Functions whose inuse_space grew most, end − start:")
		for _, g := range r.HeapGrowth {
			fmt.Fprintf(w, "  %12s  %s\n", signedBytes(g.Bytes), g.Func)
		}
	}
	if cmd := r.pprofCommand(); cmd != "" {
		fmt.Fprintf(w, "By hand: %s\n", cmd)
	}
}

// pprofCommand is the command that shows the heap's growth between the
// start and end profiles; empty when either is missing.
func (r *soakReport) pprofCommand() string {
	var from, to string
	for _, h := range r.Heap {
		if h.Err != "" {
			continue
		}
		switch h.Label {
		case "start":
			from = h.Path
		case "end":
			to = h.Path
		}
	}
	if from == "" || to == "" {
		return ""
	}
	return "go tool pprof -top -diff_base " + from + " " + to
}

// secs renders seconds since the soak's start as a duration.
func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)).Round(time.Second) }

// heapRows adds the heap profiles' rows: the live heap at the end of the
// warm-up and at the end, and the functions whose live heap grew most.
func (s *soak) heapRows(sc string, rep *soakReport) {
	b := s.b
	if s.prof == nil {
		if s.profErr != nil {
			b.rep.text(sc, "heap profiles", s.profErr.Error()).Result = resError
			return
		}
		b.rep.text(sc, "heap profiles", "unavailable: no pprof listener (--url without CAMPUS_PPROF_ADDR)").Result = resNA
		return
	}
	rep.ProfilesDir = s.prof.dir
	rep.Heap = s.prof.all()
	var bad []string
	for _, h := range rep.Heap {
		if h.Err != "" {
			bad = append(bad, h.Label+": "+h.Err)
		}
	}
	if len(bad) > 0 {
		b.rep.text(sc, "heap profiles", strings.Join(bad, "; ")).Result = resError
	}
	first, ok := s.prof.get("start")
	if !ok || first.prof == nil {
		return
	}
	b.rep.add(sc, "heap in use, end of warm-up", first.InuseMiB, "MiB").
		note("inuse_space after a forced GC, at %s; %s", secs(first.AtS), first.Path)
	last, ok := s.prof.get("end")
	if !ok || last.prof == nil {
		return
	}
	x := b.rep.add(sc, "heap in use, end of run", last.InuseMiB, "MiB").
		vs(fmt.Sprintf("end of warm-up %.1f MiB", first.InuseMiB), first.InuseMiB)
	if mid, ok := s.prof.get("mid"); ok && mid.prof != nil {
		x.note("mid-way %.1f MiB at %s", mid.InuseMiB, secs(mid.AtS))
	}
	x.note("at %s; %s", secs(last.AtS), last.Path)
	top, err := heapGrowthTop(first.prof, last.prof, 5)
	if err != nil {
		b.rep.text(sc, "heap growth by function", err.Error()).Result = resError
		return
	}
	rep.HeapGrowth = top
	items := make([]string, 0, len(top))
	for _, g := range top {
		items = append(items, g.Func+" "+signedBytes(g.Bytes))
	}
	text := strings.Join(items, ", ")
	if text == "" {
		text = "no function's live heap grew"
	}
	b.rep.text(sc, "heap growth by function, end − start (flat inuse_space, top 5)", text).
		note("by hand: %s", rep.pprofCommand())
}
