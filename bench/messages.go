package main

import (
	"context"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Targets of issue 29's messages (2-core machine; server, Postgres and bench
// together).
const (
	tgtMsgPacedP99   = 100 * time.Millisecond // send → every recipient, one node
	tgtMsgClusterP99 = 150 * time.Millisecond // sender and recipient on different nodes
	tgtMsgVsPeer     = 10.0                   // closed loop, × the peer's on the same workload
	tgtMsgVsCeiling  = 0.20                   // closed loop, × the HTTP ceiling
	tgtMsgHistoryP99 = 50 * time.Millisecond  // first screen of a 10,000-message history
)

// msgDirectOffsets make the direct conversations: person i with person
// i+d (mod people) for each d, so that everyone is in 2·len of them. A few
// each, not one pair each: a person's socket then carries several
// conversations at once (the order check sees them interleaved on one
// connection), and a person picking one of their conversations at random
// sends most messages to one other person, as in DMs, rather than two
// thirds of them into 200-member groups.
var msgDirectOffsets = []int{1, 37}

// peerTargets make the peers the messages scenario runs the same one-node
// workload on after Campus. A peer's file registers its constructor from
// init (bench/dendrite*.go: newDendriteTarget); a constructor's error is
// reported as that peer's "unavailable" row.
var peerTargets []func(ctx context.Context, b *bench) (msgTarget, error)

// msgProcess is implemented by a target that can name its server's process,
// so that the closed loop's CPU per message is measured for it too.
type msgProcess interface {
	serverPID() int
}

// checkMessages validates the messages scenario's settings after preset.
func (o *opts) checkMessages() error {
	maxOff := slices.Max(msgDirectOffsets)
	switch {
	case o.msgPeople < 2*maxOff+2 || o.msgPeople > o.users:
		return fmt.Errorf("--msg-people: between %d and --users (%d)", 2*maxOff+2, o.users)
	case o.msgGroups < 0:
		return errors.New("--msg-groups: not negative")
	case o.msgGroups > 0 && (o.msgGroupSize < 2 || o.msgGroupSize > 256 || o.msgGroupSize > o.msgPeople):
		return errors.New("--msg-group-size: 2-256 and at most --msg-people")
	case o.msgPace <= 0 || o.msgLevel <= 0:
		return errors.New("--msg-pace, --msg-level: above zero")
	case o.msgHistory < 31:
		return errors.New("--msg-history: at least 31 (more than one screen)")
	}
	return nil
}

// msgWorkload is who is in which conversation: the same for every target.
type msgWorkload struct {
	people  int
	direct  [][2]int
	groups  [][]int
	members [][]int // conversation → its members (direct ones first, as msgTarget numbers them)
	convsOf [][]int // person → their conversations
}

// newMsgWorkload makes the direct pairs (msgDirectOffsets) and the groups:
// each group takes the next members of a stream of shuffles of everyone, so
// that each person is in about groups×size/people of them.
func newMsgWorkload(o opts) *msgWorkload {
	P := o.msgPeople
	w := &msgWorkload{people: P, convsOf: make([][]int, P)}
	for _, d := range msgDirectOffsets {
		for i := range P {
			w.direct = append(w.direct, [2]int{i, (i + d) % P})
		}
	}
	rng := mrand.New(mrand.NewPCG(uint64(o.seed), 29))
	var stream []int
	next := 0
	for range o.msgGroups {
		in := map[int]bool{}
		var m []int
		for len(m) < o.msgGroupSize {
			if next == len(stream) {
				stream = append(stream, rng.Perm(P)...)
			}
			x := stream[next]
			next++
			if !in[x] {
				in[x] = true
				m = append(m, x)
			}
		}
		w.groups = append(w.groups, m)
	}
	for _, d := range w.direct {
		w.members = append(w.members, []int{d[0], d[1]})
	}
	w.members = append(w.members, w.groups...)
	for c, m := range w.members {
		for _, p := range m {
			w.convsOf[p] = append(w.convsOf[p], c)
		}
	}
	return w
}

// groupSize is the members of each group conversation (0 with none).
func (w *msgWorkload) groupSize() int {
	if len(w.groups) == 0 {
		return 0
	}
	return len(w.groups[0])
}

func (w *msgWorkload) isMember(p, c int) bool { return slices.Contains(w.convsOf[p], c) }

// msgRec is one message the bench sent. The sending goroutine writes it;
// the analysis reads it after that goroutine has stopped.
type msgRec struct {
	send, ack int64 // bench clock: when it was due (paced) or sent, when answered
	seq       int64 // the answer's (0: none)
	conv      int32
	sender    int32
	phase     int8
	node      int8 // the node of the last attempt (the cluster), else 0
	retried   bool // an attempt failed before the last
	acked     bool
	win       bool // sent inside its phase's measured window
}

const msgChunk = 1 << 14

// msgBook holds every message sent in a run, indexed by the number in its
// clientId ("b<run>-<index>"): a delivery names its record without a map.
// Chunks never move, so a record's address is stable while others are
// added.
type msgBook struct {
	prefix string
	mu     sync.Mutex
	chunks []*[msgChunk]msgRec
	n      int
}

func newMsgBook(run string) *msgBook { return &msgBook{prefix: "b" + run + "-"} }

func (bk *msgBook) add() (int, *msgRec) {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	if bk.n == len(bk.chunks)*msgChunk {
		bk.chunks = append(bk.chunks, new([msgChunk]msgRec))
	}
	i := bk.n
	bk.n++
	return i, &bk.chunks[i/msgChunk][i%msgChunk]
}

func (bk *msgBook) len() int {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return bk.n
}

func (bk *msgBook) get(i int) *msgRec {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return &bk.chunks[i/msgChunk][i%msgChunk]
}

func (bk *msgBook) clientID(i int) string { return bk.prefix + strconv.Itoa(i) }

// index is the record number in a clientId, -1 for one the bench did not make.
func (bk *msgBook) index(clientID string) int32 {
	if !strings.HasPrefix(clientID, bk.prefix) {
		return -1
	}
	n, err := strconv.ParseInt(clientID[len(bk.prefix):], 10, 32)
	if err != nil || n < 0 {
		return -1
	}
	return int32(n)
}

// msgGot is one message reaching a person: pushed on a connection, or
// read by a gap fill.
type msgGot struct {
	at   int64 // bench clock
	seq  int64 // the target's order key, 0 if it has none
	msg  int32 // book index; -1: a clientId the bench did not make
	conv int32
	conn int16 // which of the person's connections (a reconnect opens another)
	node int8  // that connection's node (the cluster), else 0
	gap  bool  // read by a gap fill (GET …/messages?afterSeq=), not pushed
}

// msgInbox is what reached one person, in arrival order.
type msgInbox struct {
	mu  sync.Mutex
	got []msgGot
}

func (in *msgInbox) add(g msgGot) {
	in.mu.Lock()
	in.got = append(in.got, g)
	in.mu.Unlock()
}

// snapshot is the records so far; appends after it do not touch them.
func (in *msgInbox) snapshot() []msgGot {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.got[:len(in.got):len(in.got)]
}

// msgRun is one target under the workload: its books and deliveries.
type msgRun struct {
	b      *bench
	sc     string
	t      msgTarget
	prefix string // row prefix: "" for Campus, the peer's name
	wl     *msgWorkload
	book   *msgBook
	inbox  []msgInbox
	cpu    *cpuMeter // the target server's (nil: unknown)

	failMu   sync.Mutex
	firstErr string
	// killedAt is when the run killed a node (bench clock), 0: never.
	killedAt int64
}

// Phases of a run (msgRec.phase).
const (
	phPaced int8 = iota
	phClosed
	phClusterSteady
	phClusterKill
)

// msgVia is how a send went: the node of its last attempt (the cluster;
// else 0) and how many attempts failed before it.
type msgVia struct{ node, retries int }

// msgSendFunc sends one message of person p into conversation c and answers
// the server's acknowledgement and how it went.
type msgSendFunc func(ctx context.Context, p, c int, clientID, body string) (msgAck, msgVia, error)

func (r *msgRun) label(s string) string {
	if r.prefix == "" {
		return s
	}
	return r.prefix + ": " + s
}

func (r *msgRun) noteErr(err error) {
	r.failMu.Lock()
	if r.firstErr == "" {
		r.firstErr = err.Error()
	}
	r.failMu.Unlock()
}

// deliver records a delivery from the msgTarget interface (one connection
// per person, pushed).
func (r *msgRun) deliver(p int, d msgDelivery) {
	r.inbox[p].add(msgGot{at: int64(d.at.Sub(r.b.t0)), seq: d.seq, msg: r.book.index(d.clientID), conv: int32(d.conv)})
}

// listenAll opens every person's live connection, 64 at a time.
func (r *msgRun) listenAll(ctx context.Context, what string, listen func(ctx context.Context, p int) error) error {
	var (
		open     atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	stop := r.b.ticker(func() string {
		return fmt.Sprintf("%s: %s/%s connections open", what, group(open.Load()), group(int64(r.wl.people)))
	})
	defer stop()
	sem := make(chan struct{}, 64)
	for p := range r.wl.people {
		mu.Lock()
		failed := firstErr != nil
		mu.Unlock()
		if failed || ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := listen(ctx, p); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = fmt.Errorf("person %d: %w", p, err)
				}
				mu.Unlock()
				return
			}
			open.Add(1)
		}()
	}
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// msgPhase is one timed phase of a run.
type msgPhase struct {
	id               int8
	name             string
	winStart, winEnd int64
	acked, failed    atomic.Int64 // sends in the window
}

func (ph *msgPhase) secs() float64 {
	if s := time.Duration(ph.winEnd - ph.winStart).Seconds(); s > 0 {
		return s
	}
	return 1
}

func (ph *msgPhase) rate() float64 { return float64(ph.acked.Load()) / ph.secs() }

// msgBody is a message's text: short, like most messages.
func msgBody(i int) string { return "Bench message " + strconv.Itoa(i) + ": see you at the library?" }

// pick chooses one of person p's conversations.
func (r *msgRun) pick(rng *mrand.Rand, p int) int {
	cs := r.wl.convsOf[p]
	return cs[rng.IntN(len(cs))]
}

// sendOne sends one message of person p and books it.
func (r *msgRun) sendOne(ctx context.Context, ph *msgPhase, send msgSendFunc, rng *mrand.Rand, p int, at int64) {
	c := r.pick(rng, p)
	i, rec := r.book.add()
	rec.conv, rec.sender, rec.phase, rec.send = int32(c), int32(p), ph.id, at
	rec.win = at >= ph.winStart && at < ph.winEnd
	ack, via, err := send(ctx, p, c, r.book.clientID(i), msgBody(i))
	rec.ack, rec.node, rec.retried = r.b.now(), int8(via.node), via.retries > 0
	if err != nil {
		if rec.win {
			ph.failed.Add(1)
		}
		r.noteErr(err)
		return
	}
	rec.acked, rec.seq = true, ack.seq
	if rec.win {
		ph.acked.Add(1)
	}
}

// paced runs the open-loop phase: every person sends at exponentially
// distributed intervals of mean --msg-pace for warm + dur, whether or not
// their last send was answered (a late answer delays the next send, not
// the clock: a message's latency counts from when it was due). tick, when
// set, is called every 10 ms with the bench clock.
func (r *msgRun) paced(ctx context.Context, ph *msgPhase, warm, dur time.Duration, send msgSendFunc, tick func(now int64)) {
	b := r.b
	start := b.now()
	ph.winStart, ph.winEnd = start+int64(warm), start+int64(warm+dur)
	var stop atomic.Bool
	var wg sync.WaitGroup
	pace := float64(b.o.msgPace)
	for p := range r.wl.people {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := mrand.New(mrand.NewPCG(uint64(b.o.seed), uint64(p)+uint64(ph.id)*1_000_000+20_000))
			due := start + int64(rng.ExpFloat64()*pace)
			for {
				for wait := time.Duration(due - b.now()); wait > 0; wait = time.Duration(due - b.now()) {
					if stop.Load() || ctx.Err() != nil {
						return
					}
					time.Sleep(min(wait, 50*time.Millisecond))
				}
				if stop.Load() || ctx.Err() != nil || due >= ph.winEnd {
					return
				}
				at := min(b.now(), due)
				due += int64(rng.ExpFloat64() * pace)
				r.sendOne(ctx, ph, send, rng, p, at)
			}
		}()
	}
	r.wait(ctx, ph, tick)
	stop.Store(true)
	wg.Wait()
}

// wait runs until the phase's window ends, calling tick every 10 ms and
// printing progress every second.
func (r *msgRun) wait(ctx context.Context, ph *msgPhase, tick func(now int64)) {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	last := time.Now()
	for r.b.now() < ph.winEnd && ctx.Err() == nil {
		<-t.C
		if tick != nil {
			tick(r.b.now())
		}
		if time.Since(last) >= time.Second {
			last = time.Now()
			r.b.progress("%s: %s messages acknowledged in the window, %d failed", r.label(ph.name), group(ph.acked.Load()), ph.failed.Load())
		}
	}
}

// closedLevel runs conc senders in a closed loop for warm + dur: sender w
// speaks for persons w, w+conc, … in turn, so that no person ever has two
// sends in flight. It answers the acknowledged messages per second of the
// window and the CPU row of the level.
func (r *msgRun) closedLevel(ctx context.Context, ph *msgPhase, conc int, warm, dur time.Duration, send msgSendFunc) (float64, cpuRow, bool) {
	b := r.b
	var measure func() (cpuRow, bool)
	if r.cpu != nil {
		measure = r.cpu.measure(fmt.Sprintf("messages%s: closed loop, %d in flight", r.peerSuffix(), conc))
	}
	start := b.now()
	winStart, winEnd := start+int64(warm), start+int64(warm+dur)
	ph.winStart, ph.winEnd = winStart, winEnd
	before := ph.acked.Load()
	var wg sync.WaitGroup
	for w := range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := mrand.New(mrand.NewPCG(uint64(b.o.seed), uint64(w)+uint64(conc)*10_000+40_000))
			mine := (r.wl.people - w + conc - 1) / conc // persons w, w+conc, … below people
			for i := 0; ctx.Err() == nil; i++ {
				p := w + i%mine*conc
				now := b.now()
				if now >= winEnd {
					return
				}
				r.sendOne(ctx, ph, send, rng, p, now)
			}
		}()
	}
	r.wait(ctx, ph, nil)
	wg.Wait()
	rate := float64(ph.acked.Load()-before) / ph.secs()
	if measure == nil {
		return rate, cpuRow{}, false
	}
	row, ok := measure()
	if ok {
		b.cpu.rows = append(b.cpu.rows, row)
	}
	return rate, row, ok
}

func (r *msgRun) peerSuffix() string {
	if r.prefix == "" {
		return ""
	}
	return ", " + r.prefix
}

// msgLevel is one closed-loop level's figures.
type msgLevel struct {
	conc  int
	rate  float64
	cpu   cpuRow
	cpuOK bool
}

// closedLoop finds the number of sends in flight that gives the best rate:
// 16, 32, 64, … (at most one per person) until a level gains less than 5 %
// over the best so far.
func (r *msgRun) closedLoop(ctx context.Context, ph *msgPhase, send msgSendFunc) (best msgLevel, all []msgLevel) {
	o := r.b.o
	warm := min(o.warmup, time.Second)
	for conc := 16; ctx.Err() == nil; conc *= 2 {
		conc = min(conc, r.wl.people)
		r.b.progress("%s: closed loop, %d sends in flight, %s", r.label("messages"), conc, o.msgLevel)
		rate, row, ok := r.closedLevel(ctx, ph, conc, warm, o.msgLevel, send)
		lv := msgLevel{conc: conc, rate: rate, cpu: row, cpuOK: ok}
		all = append(all, lv)
		improved := rate > best.rate*1.05
		if rate > best.rate {
			best = lv
		}
		if !improved || conc == r.wl.people {
			break
		}
	}
	return best, all
}

// drain waits until the messages of phases have reached every member (as
// many deliveries as acknowledged messages × members) and none came for a
// second (copies a client drops count too, so a gap fill may still be
// running at that count), or none came for 3 s, or 30 s passed.
func (r *msgRun) drain(ctx context.Context, phases ...int8) {
	want := 0
	n := r.book.len()
	for i := range n {
		if rec := r.book.get(i); rec.acked && slices.Contains(phases, rec.phase) {
			want += len(r.wl.members[rec.conv])
		}
	}
	count := func() int {
		got := 0
		for p := range r.inbox {
			for _, g := range r.inbox[p].snapshot() {
				if g.msg >= 0 && int(g.msg) < n && slices.Contains(phases, r.book.get(int(g.msg)).phase) {
					got++
				}
			}
		}
		return got
	}
	start, last, lastChange := time.Now(), -1, time.Now()
	for time.Since(start) < 30*time.Second && ctx.Err() == nil {
		got := count()
		if got != last {
			last, lastChange = got, time.Now()
		}
		quiet := time.Since(lastChange)
		if got >= want && quiet >= time.Second || quiet >= 3*time.Second {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// msgCheck is the consistency check of some phases' messages: the stored
// ones against the answers, and what reached every member against the
// stored ones.
type msgCheck struct {
	sent, acked, unanswered int
	// Stored: acknowledged but not stored, stored more than once, stored
	// with a clientId the bench did not send (or in another
	// conversation), stored with another seq than the answer's, and
	// conversations whose seqs are not 1..last.
	stored, lostStored, dupStored, phantomStored, wrongSeq, gapConvs, convs int
	seqs                                                                    bool // the target numbers its messages
	// Delivered: (message, member) pairs expected, held in the end, never
	// held; the same message twice on one connection; an older one after a
	// newer one on one connection; a message delivered that is not stored
	// in that conversation or to a non-member; pushed copies of a message
	// already held from another connection or a gap fill (the client drops
	// them: no error); messages held from a gap fill.
	expected, held, lost, dup, reordered, phantomGot, dropped, filled int
	// Of the messages some member never held: how many, how many no
	// socket was pushed at all (the push never went out), and how many
	// were answered only after a retry.
	lostMsgs, unpushed, lostRetried int
	// When the unpushed ones were answered, relative to a kill (ms; set
	// when the run killed a node).
	unpushedFrom, unpushedTo float64
	killed                   bool
	lat, cross, same         dist // pushed, first copy, to another member than the sender
	ack                      dist // send → answer of the acknowledged ones sent in the window
}

func (c msgCheck) storedOK() bool {
	return c.lostStored == 0 && c.dupStored == 0 && c.phantomStored == 0 && c.wrongSeq == 0 && c.gapConvs == 0
}

func (c msgCheck) deliveredOK() bool {
	return c.lost == 0 && c.dup == 0 && c.reordered == 0 && c.phantomGot == 0
}

func (c msgCheck) storedText() string {
	s := fmt.Sprintf("lost=%d duplicated=%d phantom=%d (%s acknowledged of %s sent, %s stored",
		c.lostStored, c.dupStored, c.phantomStored, group(int64(c.acked)), group(int64(c.sent)), group(int64(c.stored)))
	if c.unanswered > 0 {
		s += fmt.Sprintf(", %d unanswered: either is right", c.unanswered)
	}
	if c.wrongSeq > 0 {
		s += fmt.Sprintf(", %d stored or pushed with another seq than answered", c.wrongSeq)
	}
	if c.seqs {
		s += fmt.Sprintf("; seqs gapless 1..last in %d of %d conversations", c.convs-c.gapConvs, c.convs)
	} else {
		s += "; no seqs to check"
	}
	return s + ")"
}

func (c msgCheck) deliveredText() string {
	s := fmt.Sprintf("lost=%d duplicated=%d reordered=%d (%s of %s member deliveries",
		c.lost, c.dup, c.reordered, group(int64(c.held)), group(int64(c.expected)))
	if c.filled > 0 {
		s += fmt.Sprintf(", %s from gap fills", group(int64(c.filled)))
	}
	if c.dropped > 0 {
		s += fmt.Sprintf(", %s copies already held dropped", group(int64(c.dropped)))
	}
	if c.phantomGot > 0 {
		s += fmt.Sprintf(", %d deliveries of messages not stored there or to non-members", c.phantomGot)
	}
	if c.lostMsgs > 0 {
		s += fmt.Sprintf("; %d messages missed by someone: %d pushed to no socket at all, %d answered after a retry",
			c.lostMsgs, c.unpushed, c.lostRetried)
		if c.killed && c.unpushed > 0 {
			s += fmt.Sprintf("; the unpushed answered %+.0f..%+.0f ms from the kill", c.unpushedFrom, c.unpushedTo)
		}
	}
	return s + ")"
}

// check runs the consistency check over the messages of phases: the target's
// stored messages of every conversation, the answers, and the deliveries.
func (r *msgRun) check(ctx context.Context, phases ...int8) (msgCheck, error) {
	in := func(ph int8) bool { return slices.Contains(phases, ph) }
	C := len(r.wl.members)
	stored := make([][]msgStored, C)
	{
		var (
			wg       sync.WaitGroup
			next     atomic.Int64
			mu       sync.Mutex
			firstErr error
		)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := int(next.Add(1) - 1); c < C && ctx.Err() == nil; c = int(next.Add(1) - 1) {
					s, err := r.t.stored(ctx, c)
					if err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = fmt.Errorf("stored messages of conversation %d: %w", c, err)
						}
						mu.Unlock()
						return
					}
					stored[c] = s
				}
			}()
		}
		wg.Wait()
		if firstErr == nil {
			firstErr = ctx.Err()
		}
		if firstErr != nil {
			return msgCheck{}, firstErr
		}
	}
	n := r.book.len()
	recs := make([]*msgRec, n)
	for i := range recs {
		recs[i] = r.book.get(i)
	}
	pos := make([]int32, n) // position in its conversation's stored list
	cnt := make([]uint8, n) // times stored
	c := msgCheck{convs: C, seqs: true}
	for cv, list := range stored {
		gap := false
		for k, s := range list {
			if s.seq == 0 {
				c.seqs = false
			} else if s.seq != int64(k+1) {
				gap = true
			}
			m := r.book.index(s.clientID)
			if m < 0 || int(m) >= n || int(recs[m].conv) != cv {
				c.phantomStored++
				continue
			}
			if cnt[m] < 255 {
				cnt[m]++
			}
			if cnt[m] == 1 {
				pos[m] = int32(k)
			} else if in(recs[m].phase) {
				c.dupStored++
			}
		}
		if gap && c.seqs {
			c.gapConvs++
		}
	}
	var acks []int64
	for m, rec := range recs {
		if !in(rec.phase) {
			continue
		}
		if rec.acked && rec.win {
			acks = append(acks, rec.ack-rec.send)
		}
		c.sent++
		if rec.acked {
			c.acked++
		} else {
			c.unanswered++
		}
		if cnt[m] > 0 {
			c.stored++
		}
		switch {
		case rec.acked && cnt[m] == 0:
			c.lostStored++
		case rec.acked && rec.seq != 0 && cnt[m] > 0 && stored[rec.conv][pos[m]].seq != rec.seq:
			c.wrongSeq++
		}
	}

	// Deliveries, person by person in arrival order. Each (person,
	// conversation) keeps, per stored position, where the person first got
	// it (0: not yet; conn+1; -1: a gap fill) and, per connection, the
	// newest position it carried.
	type convState struct {
		src  []int16
		last map[int16]int32
	}
	var lat, cross, same []int64
	pushed := make([]bool, n) // some socket got it pushed
	missed := make([]bool, n) // some member never held it
	for p := range r.inbox {
		states := map[int32]*convState{}
		for _, g := range r.inbox[p].snapshot() {
			m := g.msg
			if m < 0 || int(m) >= n || cnt[m] == 0 || recs[m].conv != g.conv || !r.wl.isMember(p, int(g.conv)) {
				c.phantomGot++
				continue
			}
			rec := recs[m]
			counted := in(rec.phase)
			k := pos[m]
			if g.seq != 0 && g.seq != stored[g.conv][k].seq && counted {
				c.wrongSeq++
			}
			st := states[g.conv]
			if st == nil {
				st = &convState{src: make([]int16, len(stored[g.conv])), last: map[int16]int32{}}
				states[g.conv] = st
			}
			src := int16(-1)
			if !g.gap {
				pushed[m] = true
				src = g.conn + 1
				if last, seen := st.last[g.conn]; seen && k <= last {
					if counted {
						if k == last || st.src[k] == src {
							c.dup++
						} else {
							c.reordered++
						}
					}
				} else {
					st.last[g.conn] = k
				}
			}
			if st.src[k] != 0 {
				if st.src[k] != src && counted {
					c.dropped++
				}
				continue
			}
			st.src[k] = src
			if !counted {
				continue
			}
			if g.gap {
				c.filled++
			} else if rec.win && int(rec.sender) != p {
				d := g.at - rec.send
				lat = append(lat, d)
				if g.node != rec.node {
					cross = append(cross, d)
				} else {
					same = append(same, d)
				}
			}
		}
		for _, cv := range r.wl.convsOf[p] {
			st := states[int32(cv)]
			for k, s := range stored[cv] {
				m := r.book.index(s.clientID)
				if m < 0 || int(m) >= n || pos[m] != int32(k) || int(recs[m].conv) != cv || !in(recs[m].phase) {
					continue
				}
				c.expected++
				if st != nil && st.src[k] != 0 {
					c.held++
				} else {
					c.lost++
					missed[m] = true
				}
			}
		}
	}
	c.killed = r.killedAt != 0
	for m, x := range missed {
		if x {
			c.lostMsgs++
			if !pushed[m] {
				rel := ms(time.Duration(recs[m].ack - r.killedAt))
				if c.unpushed == 0 {
					c.unpushedFrom, c.unpushedTo = rel, rel
				}
				c.unpushedFrom, c.unpushedTo = min(c.unpushedFrom, rel), max(c.unpushedTo, rel)
				c.unpushed++
			}
			if recs[m].retried {
				c.lostRetried++
			}
		}
	}
	c.lat, c.cross, c.same, c.ack = distOf(lat), distOf(cross), distOf(same), distOf(acks)
	return c, nil
}

// consistencyRows adds a check's two rows; for Campus a failure fails the
// run (a peer's rows only inform).
func (r *msgRun) consistencyRows(label string, c msgCheck) bool {
	rep := r.b.rep
	s := rep.text(r.sc, r.label(label+" stored"), c.storedText())
	d := rep.text(r.sc, r.label(label+" delivered to every online member"), c.deliveredText())
	if r.prefix == "" {
		s.check("each acknowledged message stored once, seqs gapless", c.storedOK())
		d.check("lost = duplicated = reordered = 0", c.deliveredOK())
	} else {
		s.note("the peer's own figure: no target")
		d.note("the peer's own figure: no target")
	}
	r.b.progress("%s stored %s; delivered %s", r.label(label), c.storedText(), c.deliveredText())
	return c.storedOK() && c.deliveredOK()
}

// msgResult is what the comparison rows need from a target's one-node run.
type msgResult struct {
	pacedP99  time.Duration
	pacedRate float64
	closed    msgLevel
	failed    int64 // sends that failed after their retries, both phases
	ok        bool  // it ran to the end
}

// carried reports whether a target carried the workload: it ran to the end,
// acknowledged messages in the closed loop and failed none.
func (m msgResult) carried() bool { return m.ok && m.failed == 0 && m.closed.rate > 0 }

// runOneNode drives target t through the one-node workload: set-up, every
// person's live connection, the paced phase and the closed loop, each with
// its rows and its consistency check.
func (b *bench) runOneNode(ctx context.Context, sc, prefix string, t msgTarget, wl *msgWorkload, cpu *cpuMeter) (*msgRun, msgResult) {
	r := &msgRun{b: b, sc: sc, t: t, prefix: prefix, wl: wl, book: newMsgBook(b.w.run), inbox: make([]msgInbox, wl.people), cpu: cpu}
	var res msgResult
	fail := func(what string, err error) (*msgRun, msgResult) {
		x := b.rep.text(sc, r.label(what), err.Error())
		if isUnavailable(err) || prefix != "" {
			x.Result = resNA
		} else {
			x.Result = resError
		}
		return r, res
	}
	setupStart := time.Now()
	b.progress("%s: set-up: %d people, %d direct and %d group conversations", r.label("messages"), wl.people, len(wl.direct), len(wl.groups))
	if err := t.setup(ctx, wl.people, wl.direct, wl.groups); err != nil {
		return fail("set-up", err)
	}
	setupTook := time.Since(setupStart)
	lctx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	if err := r.listenAll(lctx, r.label("messages: live connections"), func(ctx context.Context, p int) error {
		return t.listen(ctx, p, func(d msgDelivery) { r.deliver(p, d) })
	}); err != nil {
		return fail("live connections", err)
	}
	time.Sleep(500 * time.Millisecond)
	groupsOf := 0
	for _, cs := range wl.convsOf {
		for _, c := range cs {
			if c >= len(wl.direct) {
				groupsOf++
			}
		}
	}
	b.rep.text(sc, r.label("workload"), fmt.Sprintf("%s people, %s direct + %d groups of %d", group(int64(wl.people)),
		group(int64(len(wl.direct))), len(wl.groups), wl.groupSize())).
		note("each person in %d direct and %.1f group conversations on average, every socket open; a send goes to one of the sender's conversations at random; set-up %.1f s",
			2*len(msgDirectOffsets), float64(groupsOf)/float64(wl.people), setupTook.Seconds())
	send := func(ctx context.Context, p, c int, clientID, body string) (msgAck, msgVia, error) {
		a, err := t.send(ctx, p, c, clientID, body)
		return a, msgVia{}, err
	}

	// a) paced.
	ph := &msgPhase{id: phPaced, name: "messages: paced, one node"}
	dur := b.o.duration
	b.progress("%s: each person every %s on average (Poisson), %s (+%s warm-up)", r.label(ph.name), b.o.msgPace, dur, b.o.warmup)
	var measure func() (cpuRow, bool)
	if cpu != nil {
		measure = cpu.measure(ph.name + r.peerSuffix())
	}
	r.paced(ctx, ph, b.o.warmup, dur, send, nil)
	if measure != nil {
		if row, ok := measure(); ok {
			b.cpu.rows = append(b.cpu.rows, row)
		}
	}
	r.drain(ctx, phPaced)
	c, err := r.check(ctx, phPaced)
	if err != nil {
		return fail("a) paced: consistency check", err)
	}
	res.pacedRate, res.pacedP99 = ph.rate(), c.lat.p99
	rate := b.rep.add(sc, r.label("a) paced, one node: messages"), ph.rate(), "msgs/s").
		note("each person every %.0f s on average (Poisson): %.0f msgs/s offered", b.o.msgPace.Seconds(), float64(wl.people)/b.o.msgPace.Seconds())
	if n := ph.failed.Load(); n > 0 {
		rate.note("%d failed: %s", n, r.firstErr)
		res.failed += n
	}
	b.rep.add(sc, r.label("a) paced: send → recipient p50"), ms(c.lat.p50), "ms").
		note("per (message, online member other than the sender), from when the send was due; %s deliveries; send → answer p50 %.1f ms, p99 %.1f ms",
			group(int64(c.lat.n)), ms(c.ack.p50), ms(c.ack.p99))
	p99 := b.rep.add(sc, r.label("a) paced: send → recipient p99"), ms(c.lat.p99), "ms")
	if prefix == "" {
		p99.target(fmt.Sprintf("≤ %.0f ms", ms(tgtMsgPacedP99)), c.lat.n > 0 && c.lat.p99 <= tgtMsgPacedP99)
	}
	if c.lat.n == 0 {
		p99.note("no deliveries")
	}
	r.consistencyRows("a) paced:", c)

	// b) closed loop.
	ph = &msgPhase{id: phClosed, name: "messages: closed loop, one node"}
	best, levels := r.closedLoop(ctx, ph, send)
	r.drain(ctx, phClosed)
	c, err = r.check(ctx, phClosed)
	if err != nil {
		return fail("b) closed loop: consistency check", err)
	}
	res.closed = best
	var lv []string
	for _, l := range levels {
		lv = append(lv, fmt.Sprintf("%d: %s", l.conc, group(int64(l.rate))))
	}
	x := b.rep.add(sc, r.label("b) closed loop, one node: messages"), best.rate, "msgs/s").
		note("best of %s in flight (msgs/s by level: %s)", group(int64(best.conc)), strings.Join(lv, ", "))
	if prefix == "" {
		x.against("ceiling", b.base.ceiling, tgtMsgVsCeiling, fmt.Sprintf("≥ %.0f%% of ceiling", tgtMsgVsCeiling*100))
	}
	if n := ph.failed.Load(); n > 0 {
		x.note("%d failed: %s", n, r.firstErr)
		res.failed += n
	}
	if best.cpuOK && best.rate > 0 && best.cpu.Server >= 0 {
		per := best.cpu.Server * 1e6 / best.rate
		y := b.rep.add(sc, r.label("b) closed loop: server CPU per message"), per, "µs")
		if best.cpu.Postgres >= 0 {
			y.note("Postgres %.0f µs more; %.2f cores server, %.2f Postgres, %.2f bench at the best level",
				best.cpu.Postgres*1e6/best.rate, best.cpu.Server, best.cpu.Postgres, best.cpu.Bench)
		}
	} else {
		b.rep.text(sc, r.label("b) closed loop: server CPU per message"), "n/a: the server's process is unknown")
	}
	b.rep.add(sc, r.label("b) closed loop: send → recipient p99"), ms(c.lat.p99), "ms").
		note("p50 %.1f ms, send → answer p50 %.1f ms; every sender busy: the queue's length, no target (the paced phase has it)", ms(c.lat.p50), ms(c.ack.p50))
	r.consistencyRows("b) closed loop:", c)
	res.ok = true
	return r, res
}

// messages: issue 29's scenario. Campus's one-node workload (paced, then a
// closed loop), a long conversation's history, the same one-node workload
// on each peer, the comparison, then the paced workload on three nodes with
// a kill -9 in the middle.
func (b *bench) messages(ctx context.Context) {
	const sc = "8 messages"
	if err := b.need("ws"); err != nil {
		b.rep.skip(sc, err)
		return
	}
	if ok, err := b.hasTable(ctx, "conversations"); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: no conversations table (a server from before messages)", errUnavailable)
		}
		b.rep.skip(sc, err)
		return
	}
	wl := newMsgWorkload(b.o)
	campus := newCampusTarget(b)
	defer campus.close()
	run, res := b.runOneNode(ctx, sc, "", campus, wl, b.cpu)
	if !res.ok || ctx.Err() != nil {
		return
	}
	b.messageHistory(ctx, sc, campus)
	b.messagePeers(ctx, sc, wl, res)
	b.messagesCluster(ctx, run, campus)
}

// messagePeers runs the one-node workload on every peer and sets the
// comparison rows.
func (b *bench) messagePeers(ctx context.Context, sc string, wl *msgWorkload, campus msgResult) {
	switch {
	case !b.o.peers:
		why := "--peers=false"
		if b.o.quick {
			why = "--quick (--peers runs them)"
		}
		b.rep.text(sc, "peers", "skipped: "+why)
		return
	case len(peerTargets) == 0:
		b.rep.text(sc, "peers", "unavailable: no peer in this build (the Dendrite target is bench/dendrite*.go)").Result = resNA
		return
	}
	for _, mk := range peerTargets {
		if ctx.Err() != nil {
			return
		}
		name, res, started := b.messagePeer(ctx, sc, mk, wl, "")
		if !started {
			continue
		}
		if res.carried() || b.o.msgPeerPeople <= 0 || b.o.msgPeerPeople >= wl.people {
			b.messageRatios(sc, name, "", campus, res)
			continue
		}
		// The peer could not carry the full size: its rows above stay as it
		// behaved, and both run again at a size it can, so that the ratio
		// compares two systems doing the same work rather than one failing.
		small := b.o
		small.msgPeople = b.o.msgPeerPeople
		small.msgGroupSize = min(b.o.msgGroupSize, max(2, small.msgPeople/5))
		small.msgGroups = max(1, b.o.msgGroups*small.msgPeople/wl.people)
		swl := newMsgWorkload(small)
		at := fmt.Sprintf(" at %s people", group(int64(swl.people)))
		b.progress("messages: %s did not carry %s people; Campus and %s again%s", name, group(int64(wl.people)), name, at)
		ct := newCampusTarget(b)
		_, cres := b.runOneNode(ctx, sc, "Campus"+at, ct, swl, b.cpu)
		ct.close()
		if !cres.ok || ctx.Err() != nil {
			continue
		}
		if _, pres, ok := b.messagePeer(ctx, sc, mk, swl, at); ok {
			b.messageRatios(sc, name, at, cres, pres)
		}
	}
}

// messagePeer starts one peer, runs the one-node workload on it with its name
// (and suffix) as the rows' prefix, and stops it. started is false when the
// peer could not start (its row says why).
func (b *bench) messagePeer(ctx context.Context, sc string, mk func(context.Context, *bench) (msgTarget, error), wl *msgWorkload, suffix string) (name string, res msgResult, started bool) {
	t, err := mk(ctx, b)
	if err != nil {
		b.rep.text(sc, "peer"+suffix, "unavailable: "+err.Error()).Result = resNA
		b.progress("messages: a peer could not start: %v", err)
		return "", res, false
	}
	defer t.close()
	name = t.name()
	var cpu *cpuMeter
	if pp, ok := t.(msgProcess); ok && pp.serverPID() > 0 {
		cpu = newCPUMeter(pp.serverPID())
	}
	_, res = b.runOneNode(ctx, sc, name+suffix, t, wl, cpu)
	return name, res, true
}

// messageRatios sets the comparison rows of Campus against one peer on the
// same workload (at: "" at full size, else the smaller size both ran at).
func (b *bench) messageRatios(sc, name, at string, campus, peer msgResult) {
	if !peer.ok {
		return
	}
	b.rep.add(sc, "a) paced p99: Campus vs "+name+at, ms(campus.pacedP99), "ms").
		vs(fmt.Sprintf("%s %.1f ms", name, ms(peer.pacedP99)), ms(peer.pacedP99)).
		note("ratio: Campus's latency as a share of the peer's")
	x := b.rep.add(sc, "b) closed loop: Campus vs "+name+at, campus.closed.rate, "msgs/s")
	if peer.failed > 0 {
		x.note("%s failed %d sends after retries", name, peer.failed)
	}
	if peer.closed.rate > 0 {
		x.against(name, peer.closed.rate, tgtMsgVsPeer, fmt.Sprintf("≥ %.0fx %s", tgtMsgVsPeer, name))
	} else {
		x.Baseline, x.Target = name+": no message acknowledged", fmt.Sprintf("≥ %.0fx %s", tgtMsgVsPeer, name)
	}
}
