package realtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/actors"
	"campus/protocol"
)

// HubOptions configure a node's hub.
type HubOptions struct {
	// MaxSocketsPerUser caps one user's sockets on this node (default 10);
	// a socket beyond it is refused with ErrTooManySockets.
	MaxSocketsPerUser int
	// PingInterval is how often every socket is pinged (default 30 s).
	PingInterval time.Duration
	// PostsBy answers which of ids are posts written by author: on a block
	// the hub drops the posts of each of the two from the other's watches
	// with it (a watch frame carries only post ids). Nil: a block drops
	// nothing (serve.go reads them from the database).
	PostsBy func(ctx context.Context, author uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error)
	// CountInterval is how often at most a socket gets a post:counts frame
	// (default actors.DefaultCountInterval, as the grains' count batcher,
	// which ticks protocol.CountSlots times as often: give both the same).
	CountInterval time.Duration
	// Members answers how many nodes the cluster has (cluster.Node.Members);
	// alone, the hub sends a period's counts as they come instead of
	// waiting flushDelay for other nodes'. Nil: always wait.
	Members func() int
}

// Defaults of HubOptions.
const (
	DefaultMaxSocketsPerUser = 10
	DefaultPingInterval      = 30 * time.Second
)

// Errors of Register.
var (
	ErrTooManySockets = errors.New("realtime: too many sockets for this user")
	ErrGoingAway      = errors.New("realtime: node is shutting down")
)

// Messages the hub sends to a session actor (package realtime). They never
// leave the node.
type (
	// SessionFrames are websocket text frames (whole JSON payloads) for the
	// session's socket, in order.
	SessionFrames struct {
		Frames [][]byte
		// wire, when set, is the websocket encoding of the one frame in
		// Frames (which points into it), built once by the hub for every
		// session it goes to; one holds Frames' single element, so the
		// message is one allocation.
		wire []byte
		one  [1][]byte
	}
	// SessionPing asks the session to ping its peer.
	SessionPing struct{}
	// SessionRevoked says the user's tokens were revoked on some node: the
	// session re-checks its own token.
	SessionRevoked struct{}
	// SessionClose asks the session to close its socket with Code.
	SessionClose struct {
		Code   int
		Reason string
	}
	// Registered answers a session's Register: Err is nil, ErrTooManySockets
	// or ErrGoingAway.
	Registered struct{ Err error }
)

// Hub is the node's socket directory (docs/architecture.md §4.3): which local session
// actors belong to which user and watch which post. Live events arrive from
// every node as actors.DeliverToUser, actors.DeliverToWatchers and actors.CountsTick; the hub
// hands them to the matching local sessions as messages: a user's frames
// as they come, and the watched posts' counts as ONE post:counts frame per
// session and tick, each post's entry encoded once. The sessions are spread
// over protocol.CountSlots phases of the tick (see flush). Its methods are safe for
// concurrent use: they only send messages to the hub actor.
//
// The hub actor lives in the node's actor system. When the node rejoins the
// cluster as a new member (a new actor system), Move starts a new hub actor
// there; the Hub then addresses that one, and every socket connected from
// then on is the new hub's.
type Hub struct {
	o   HubOptions
	log zerolog.Logger
	cur atomic.Pointer[hubRef] // the hub actor of the node's current actor system
}

// hubRef is one hub actor and the root context of its actor system. A
// session keeps the one it registered with for its whole life.
type hubRef struct {
	root *actor.RootContext
	pid  *actor.PID
}

// StartHub spawns the node's hub on system under actors.HubName, where every
// node's grains and batcher address it (actors.Live broadcasts).
func StartHub(system *actor.ActorSystem, log zerolog.Logger, o HubOptions) (*Hub, error) {
	if o.MaxSocketsPerUser <= 0 {
		o.MaxSocketsPerUser = DefaultMaxSocketsPerUser
	}
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.CountInterval <= 0 {
		o.CountInterval = actors.DefaultCountInterval
	}
	h := &Hub{o: o, log: log}
	r, err := h.spawn(system)
	if err != nil {
		return nil, err
	}
	h.cur.Store(r)
	return h, nil
}

func (h *Hub) spawn(system *actor.ActorSystem) (*hubRef, error) {
	o, log := h.o, h.log
	props := actor.PropsFromProducer(func() actor.Actor {
		return &hubActor{
			o:        o,
			log:      log,
			users:    make(map[uuid.UUID][]*hubSession),
			sessions: make(map[string]*hubSession),
			posts:    make(map[uuid.UUID]*watchers),
			pushed:   newPushedSeqs(pushedKeep, pushedMax),
		}
	}, actor.WithDispatcher(newWarmDispatcher(hubThroughput, hubWorkerIdle)))
	pid, err := system.Root.SpawnNamed(props, actors.HubName)
	if err != nil {
		return nil, fmt.Errorf("realtime: spawn hub: %w", err)
	}
	return &hubRef{root: system.Root, pid: pid}, nil
}

// Move starts the hub again, empty, on system: the node's new actor system
// after it rejoined the cluster as a new member, where the other members'
// broadcasts now arrive. Close the old hub's sockets first (CloseAll; their
// clients reconnect and resume): the old hub is stopped, and sockets
// connected from now on register with the new one.
func (h *Hub) Move(system *actor.ActorSystem) error {
	r, err := h.spawn(system)
	if err != nil {
		return err
	}
	old := h.cur.Swap(r)
	old.root.Stop(old.pid)
	return nil
}

func (h *Hub) ref() *hubRef { return h.cur.Load() }

// The hub's mailbox runs on a goroutine that waits a while for its next
// run (warmDispatcher) instead of a new goroutine each time: a slot's
// flush writes a thousand sockets from deep in that goroutine's stack, and
// a new goroutine grew its stack by copying, step by step, on every one of
// the forty flushes a second (about half of the 2.5 % of the server's CPU
// that went to growing stacks in the paced event's profile).
const (
	hubThroughput = 300 // protoactor's default: messages before a yield
	hubWorkerIdle = time.Second
)

// warmDispatcher runs a mailbox on a goroutine that, once a run is done,
// waits up to idle for the next one before it ends. The mailbox never has
// two runs at once; should a run be scheduled while the last one's
// goroutine is still finishing, a second goroutine takes it and the two
// end after their idle waits.
type warmDispatcher struct {
	throughput int
	idle       time.Duration
	work       chan func() // unbuffered: a send succeeds only to a waiting goroutine
}

func newWarmDispatcher(throughput int, idle time.Duration) *warmDispatcher {
	return &warmDispatcher{throughput: throughput, idle: idle, work: make(chan func())}
}

func (d *warmDispatcher) Schedule(fn func()) {
	select {
	case d.work <- fn:
	default:
		go d.run(fn)
	}
}

func (d *warmDispatcher) Throughput() int { return d.throughput }

func (d *warmDispatcher) run(fn func()) {
	t := time.NewTimer(d.idle)
	defer t.Stop()
	for {
		fn()
		t.Reset(d.idle)
		select {
		case fn = <-d.work:
		case <-t.C:
			return
		}
	}
}

// Local messages of the hub actor; they never leave the node.
type (
	hubRegister   struct{ user uuid.UUID }
	hubUnregister struct {
		pid     *actor.PID
		watched []uuid.UUID
	}
	hubWatch struct {
		pid    *actor.PID
		ids    []uuid.UUID
		remove bool
	}
	hubRevoked struct{ user uuid.UUID }
	// hubBlocked is a block between a and b, made on any node.
	hubBlocked struct{ a, b uuid.UUID }
	// hubDrop ends the watches of user's local sessions of the posts ids.
	hubDrop struct {
		user uuid.UUID
		ids  []uuid.UUID
	}
	hubCloseAll struct {
		code   int
		reason string
	}
	hubPing  struct{}
	hubCount struct{}
	// hubFlush sends one slot's sessions their post:counts frames; the hub
	// sends it to itself flushDelay after counts come, and after each slot
	// period while some slot has counts to send.
	hubFlush struct{}
)

const hubAskTimeout = 5 * time.Second

// Register adds the session actor ctx.Self() of user; the hub answers it
// with a *Registered message (ErrTooManySockets or ErrGoingAway refuse it).
// Called from the session's Receive, so that nothing the hub delivers can
// overtake the answer.
func (h *Hub) Register(ctx actor.SenderContext, user uuid.UUID) { h.ref().register(ctx, user) }

func (r *hubRef) register(ctx actor.SenderContext, user uuid.UUID) {
	ctx.Request(r.pid, &hubRegister{user: user})
}

// Unregister removes a session and its watches (the session's watched set).
func (h *Hub) Unregister(pid *actor.PID, watched []uuid.UUID) { h.ref().unregister(pid, watched) }

func (r *hubRef) unregister(pid *actor.PID, watched []uuid.UUID) {
	r.root.Send(r.pid, &hubUnregister{pid: pid, watched: watched})
}

// Watch makes the session receive the posts' live counts and deletion.
func (h *Hub) Watch(pid *actor.PID, ids []uuid.UUID) { h.ref().watch(pid, ids) }

func (r *hubRef) watch(pid *actor.PID, ids []uuid.UUID) {
	if len(ids) > 0 {
		r.root.Send(r.pid, &hubWatch{pid: pid, ids: ids})
	}
}

// Unwatch stops what Watch started.
func (h *Hub) Unwatch(pid *actor.PID, ids []uuid.UUID) { h.ref().unwatch(pid, ids) }

func (r *hubRef) unwatch(pid *actor.PID, ids []uuid.UUID) {
	if len(ids) > 0 {
		r.root.Send(r.pid, &hubWatch{pid: pid, ids: ids, remove: true})
	}
}

// UserRevoked is the hook for app.Sessions.OnRevoke: every local socket of
// the user re-checks its token and closes if it is revoked.
func (h *Hub) UserRevoked(user uuid.UUID) {
	r := h.ref()
	r.root.Send(r.pid, &hubRevoked{user: user})
}

// UsersBlocked is the hook for app.Sessions.OnBlock: the local sessions of
// each of the two stop receiving the live counts and events of the posts of
// the other that they watch. The posts' authors are looked up (one query
// per side, among the watched posts only) off the hub actor; the drop
// follows at once.
func (h *Hub) UsersBlocked(a, b uuid.UUID) {
	r := h.ref()
	r.root.Send(r.pid, &hubBlocked{a: a, b: b})
}

// CloseAll closes every local socket with code (1001 "going away" on
// shutdown) and refuses new ones from then on.
func (h *Hub) CloseAll(ctx context.Context, code int, reason string) error {
	r := h.ref()
	_, err := r.root.RequestFuture(r.pid, &hubCloseAll{code: code, reason: reason}, askTimeout(ctx, hubAskTimeout)).Result()
	if err != nil {
		return fmt.Errorf("realtime: hub close all: %w", err)
	}
	return nil
}

// Sockets is the number of sessions registered on this node.
func (h *Hub) Sockets() (int, error) {
	r := h.ref()
	res, err := r.root.RequestFuture(r.pid, &hubCount{}, hubAskTimeout).Result()
	if err != nil {
		return 0, fmt.Errorf("realtime: hub count: %w", err)
	}
	return res.(int), nil
}

// hubSession is a registered session actor as the hub knows it.
type hubSession struct {
	pid  *actor.PID
	user uuid.UUID
	// owed are the positions, in its slot's flush order, of the changed
	// posts the session watches: its frame's entries. Kept between flushes
	// (emptied, not freed) so a flush allocates nothing per session.
	owed []int32
	// slot is the phase of the tick at which the session gets its frame.
	slot int
	// proc is the session's mailbox as the process registry had it at
	// registration: a flush posts each frame there directly, instead of
	// resolving pid again for every frame. The PID's pointers to its
	// process were 3.3 % of the server's CPU in the paced event's profile
	// (a cache miss or two per socket); most of that moved to the
	// mailbox's first touch, about 1 % is saved. A stopped session's
	// mailbox drops what comes, as the dead letters would; the session
	// unregisters as it stops. Nil: send through pid.
	proc actor.Process
}

// send posts m to the session.
func (s *hubSession) send(ctx actor.Context, m any) {
	if s.proc != nil {
		s.proc.SendUserMessage(s.pid, m)
		return
	}
	ctx.Send(s.pid, m)
}

// watchers are the local sessions watching one post, by their slot: a
// slot's flush walks only its own sessions (at a campus event every post on
// the shared page has thousands of watchers, a protocol.CountSlots-th of them per slot).
type watchers struct {
	n      int
	bySlot [protocol.CountSlots]map[*hubSession]struct{}
	// version is the counts_version of the last counts taken: of two
	// nodes' ticks the older counts of a post may come second.
	version int64
}

// each calls f for every watcher, in every slot.
func (w *watchers) each(f func(*hubSession)) {
	for _, set := range w.bySlot {
		for s := range set {
			f(s)
		}
	}
}

// hubActor holds the node's session directory. Concurrency: its fields are
// touched only inside Receive.
type hubActor struct {
	o        HubOptions
	log      zerolog.Logger
	users    map[uuid.UUID][]*hubSession
	sessions map[string]*hubSession // by PID id
	posts    map[uuid.UUID]*watchers
	closing  bool
	stop     chan struct{}
	// pushed remembers each conversation's highest seq pushed here.
	pushed *pushedSeqs
	// entries holds the encoded count entry of every changed post that
	// has watchers here and is still owed to some slot; dirty[k] the posts
	// slot k's sessions have not been sent since they changed. A flush
	// walks its slot's dirty posts' watchers.
	entries      map[uuid.UUID][]byte
	dirty        [protocol.CountSlots]map[uuid.UUID]struct{}
	flushPending bool
	// plan is the first slot period the pending flush is to serve, served
	// the last one served; nextSlot the slot the next session registered
	// gets (round robin keeps the slots even).
	plan, served int64
	nextSlot     int
	// recentBlocks are the blocks of the last recentBlockWindow whose
	// users had sessions here, by user: a watch whose check (which runs
	// off the session, before the watch reaches the hub) may have read the
	// database before the block committed is dropped again (watch).
	recentBlocks map[uuid.UUID][]recentBlock
	// Scratch of flushSlot, reused between flushes: the slot's changed
	// posts in order and their entries, the sessions that get a frame, and
	// the frames shared by the sessions owed the same posts (by a hash of
	// the positions).
	order   []uuid.UUID
	orderE  [][]byte
	touched []*hubSession
	shared  map[uint64]sharedFrame
}

// sharedFrame is a frame built in a flush and the owed positions it holds
// (the first session's, which stay as they are until the flush ends).
type sharedFrame struct {
	owed []int32
	wire []byte // the frame's websocket encoding
}

// recentBlock is a block of other by or of a user, heard at at.
type recentBlock struct {
	other uuid.UUID
	at    time.Time
}

// recentBlockWindow outlasts a session's watch check (bounded by its call
// timeout of 10 s) with room to spare.
const recentBlockWindow = 30 * time.Second

func (h *hubActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		h.startPings(ctx)
	case *actor.Stopping:
		if h.stop != nil {
			close(h.stop)
			h.stop = nil
		}
	case *hubRegister:
		if s := ctx.Sender(); s != nil {
			ctx.Respond(&Registered{Err: h.register(ctx, s, msg.user)})
		}
	case *hubUnregister:
		h.unregister(msg.pid, msg.watched)
	case *hubWatch:
		h.watch(msg)
		h.rewatchAfterBlocks(ctx, msg)
	case *actors.DeliverToUser:
		id, err := uuid.Parse(msg.GetUserId())
		if err != nil || len(h.users[id]) == 0 {
			return
		}
		m := &SessionFrames{Frames: msg.GetFrames()}
		for _, s := range h.users[id] {
			ctx.Send(s.pid, m)
		}
	case *actors.DeliverToUsers:
		frames := h.unpushed(msg)
		if len(frames) == 0 {
			return
		}
		var m *SessionFrames
		for _, text := range msg.GetUserIds() {
			id, err := uuid.Parse(text)
			if err != nil {
				continue
			}
			for _, s := range h.users[id] {
				if m == nil {
					m = &SessionFrames{Frames: frames}
				}
				ctx.Send(s.pid, m)
			}
		}
	case *actors.DeliverToWatchers:
		id, err := uuid.Parse(msg.GetPostId())
		if err != nil {
			return
		}
		m := &SessionFrames{Frames: msg.GetFrames()}
		if w := h.posts[id]; w != nil {
			w.each(func(s *hubSession) { ctx.Send(s.pid, m) })
		}
		if msg.GetForget() {
			delete(h.posts, id)
			h.forgetEntry(id)
		}
	case *actors.CountsTick:
		h.counts(ctx, msg)
	case *hubFlush:
		h.flush(ctx)
	case *hubBlocked:
		h.rememberBlock(msg)
		h.blocked(ctx, msg)
	case *hubDrop:
		for _, s := range h.users[msg.user] {
			for _, id := range msg.ids {
				h.unwatch(s, id)
			}
		}
	case *hubRevoked:
		for _, s := range h.users[msg.user] {
			ctx.Send(s.pid, &SessionRevoked{})
		}
	case *hubCloseAll:
		h.closing = true
		m := &SessionClose{Code: msg.code, Reason: msg.reason}
		for _, s := range h.sessions {
			ctx.Send(s.pid, m)
		}
		ctx.Respond(true)
	case *hubPing:
		for _, s := range h.sessions {
			ctx.Send(s.pid, &SessionPing{})
		}
		h.forgetOldBlocks()
	case *hubCount:
		ctx.Respond(len(h.sessions))
	case *actors.SocketsOfUserRequest:
		n := 0
		if id, err := uuid.Parse(msg.GetUserId()); err == nil {
			n = len(h.users[id])
		}
		ctx.Respond(&actors.SocketsOfUserResponse{Sockets: int32(n)})
	}
}

// unpushed answers the frames of msg to push: all of them, or of a
// conversation's message:new push (conversation id and seqs set), the ones
// whose seq is above the highest this node pushed of the conversation, in
// order. Each seq reaches the sockets here at most once and never after a
// higher one: a client that sees a seq skip ahead reads the gap (docs/protocol.md).
func (h *hubActor) unpushed(msg *actors.DeliverToUsers) [][]byte {
	frames, seqs := msg.GetFrames(), msg.GetSeqs()
	if msg.GetConversationId() == "" || len(seqs) != len(frames) {
		return frames
	}
	conv, err := uuid.Parse(msg.GetConversationId())
	if err != nil {
		return frames
	}
	last := h.pushed.last(conv)
	var out [][]byte
	for i, f := range frames {
		if seqs[i] <= last {
			continue
		}
		if out == nil {
			out = make([][]byte, 0, len(frames)-i)
		}
		out = append(out, f)
		last = seqs[i]
	}
	if len(out) > 0 {
		h.pushed.pushed(conv, last, time.Now())
	}
	return out
}

// counts keeps the entries of changed posts that are watched here, each
// encoded once however many sessions watch it, owed to every slot, and
// makes sure a flush follows. A later count of the same post replaces its
// entry.
func (h *hubActor) counts(ctx actor.Context, msg *actors.CountsTick) {
	for _, c := range msg.GetCounts() {
		id, err := uuid.Parse(c.GetPostId())
		w := h.posts[id]
		if err != nil || w == nil || c.GetVersion() < w.version {
			continue
		}
		w.version = c.GetVersion()
		if h.entries == nil {
			h.entries = make(map[uuid.UUID][]byte)
		}
		reposts := int64(-1) // unknown: an older node's counts (PostCount.reposts)
		if c.Reposts != nil {
			reposts = c.GetReposts()
		}
		h.entries[id] = protocol.AppendCountEntry(h.entries[id][:0], id.String(), c.GetLikes(), c.GetComments(), reposts, c.GetVersion())
		for k := range h.dirty {
			if len(w.bySlot[k]) == 0 {
				continue // no session of slot k watches it
			}
			if h.dirty[k] == nil {
				h.dirty[k] = make(map[uuid.UUID]struct{})
			}
			h.dirty[k][id] = struct{}{}
		}
	}
	if len(h.entries) > 0 && !h.flushPending {
		h.plan = time.Now().UnixNano() / int64(h.o.CountInterval/protocol.CountSlots)
		h.scheduleFlush(ctx, h.flushDelay())
	}
}

// scheduleFlush makes a hubFlush come after d unless one is on its way.
func (h *hubActor) scheduleFlush(ctx actor.Context, d time.Duration) {
	if h.flushPending {
		return
	}
	h.flushPending = true
	self, root := ctx.Self(), ctx.ActorSystem().Root
	time.AfterFunc(d, func() { root.Send(self, &hubFlush{}) })
}

// forgetEntry drops a post's owed counts (the post is gone).
func (h *hubActor) forgetEntry(id uuid.UUID) {
	delete(h.entries, id)
	for k := range h.dirty {
		delete(h.dirty[k], id)
	}
}

// flushDelay is how long the hub collects counts before it sends them:
// every node's batcher ticks at the same instant, but their broadcasts
// reach this hub over a few milliseconds, and a socket should get one
// frame per tick, not one per node.
const flushDelay = 5 * time.Millisecond

// flushDelay is flushDelay, or nothing on a node alone: no other batcher's
// counts are on their way.
func (h *hubActor) flushDelay() time.Duration {
	if h.o.Members != nil && h.o.Members() <= 1 {
		return 0
	}
	return flushDelay
}

// flush serves the slot of the current period (CountInterval/protocol.CountSlots
// long, on the wall clock like the batchers' ticks, flushDelay late): it
// assembles each of the slot's sessions' post:counts frame by appending the
// entries of its watched posts that changed since its last frame, and
// sends each ONE message with its finished frame. A flush that comes late
// (a busy node) also serves the planned periods it missed, so their slots
// wait a little longer rather than a whole tick more. While a slot is owed
// counts, the next period's flush is scheduled.
func (h *hubActor) flush(ctx actor.Context) {
	h.flushPending = false
	period := int64(h.o.CountInterval / protocol.CountSlots)
	now := time.Now()
	delay := h.flushDelay()
	p := now.Add(-delay).UnixNano() / period
	if p < h.plan { // the timer fired a hair early
		h.scheduleFlush(ctx, max(0, time.Unix(0, h.plan*period).Add(delay).Sub(now)))
		return
	}
	for q := max(h.plan, p-protocol.CountSlots+1, h.served+1); q <= p; q++ {
		h.flushSlot(ctx, int(q%protocol.CountSlots))
		h.served = q
	}
	for k := range h.dirty {
		if len(h.dirty[k]) > 0 {
			h.plan = p + 1
			h.scheduleFlush(ctx, max(0, time.Unix(0, h.plan*period).Add(delay).Sub(now)))
			return
		}
	}
}

// flushSlot sends slot k's sessions their frames. The slot's changed posts
// are walked in one order for all its sessions, so a session's frame is
// the entries of the ones it watches in that order: sessions that watch
// the same changed posts (a shared event page) get byte-identical frames,
// and share one. Each frame is allocated once at its exact size; the
// sessions only read it (they copy it into their write buffer).
func (h *hubActor) flushSlot(ctx actor.Context, k int) {
	order, orderE := h.order[:0], h.orderE[:0]
	touched := h.touched[:0]
	for id := range h.dirty[k] {
		w := h.posts[id]
		if w == nil {
			continue
		}
		i := int32(len(order))
		order = append(order, id)
		orderE = append(orderE, h.entries[id])
		for s := range w.bySlot[k] {
			if len(s.owed) == 0 {
				touched = append(touched, s)
			}
			s.owed = append(s.owed, i)
		}
	}
	// Sessions with the same owed positions share a frame, found by a hash
	// of them and confirmed by comparing them.
	if h.shared == nil {
		h.shared = make(map[uint64]sharedFrame)
	}
	for _, s := range touched {
		key := owedKey(s.owed)
		var wire []byte
		if first, ok := h.shared[key]; ok && slices.Equal(first.owed, s.owed) {
			wire = first.wire
		} else {
			wire = countsWire(orderE, s.owed)
			if !ok {
				h.shared[key] = sharedFrame{owed: s.owed, wire: wire}
			}
		}
		s.send(ctx, wireFrames(wire))
	}
	clear(h.shared) // before the owed positions it points at are reused
	for _, s := range touched {
		s.owed = s.owed[:0]
	}
	clear(touched) // no session kept alive by the reused slice
	clear(orderE)  // nor an entry that is replaced or forgotten
	h.order, h.orderE, h.touched = order[:0], orderE[:0], touched[:0]
	// An entry no slot still owes is done with.
	for id := range h.dirty[k] {
		owed := false
		for j := range h.dirty {
			if j != k {
				_, owed = h.dirty[j][id]
				if owed {
					break
				}
			}
		}
		if !owed {
			delete(h.entries, id)
		}
	}
	clear(h.dirty[k])
}

// countsWire is the websocket encoding of the post:counts frame of the
// entries at positions owed, built at its exact size.
func countsWire(entries [][]byte, owed []int32) []byte {
	entry := func(i int) []byte { return entries[owed[i]] }
	wire, _ := wireText(protocol.CountsFrameSize(len(owed), entry), func(b []byte) []byte {
		return protocol.AppendCountsFrame(b, len(owed), entry)
	})
	return wire
}

// wireFrames is the message of one text frame already encoded (wireText):
// Frames holds its payload, for a reader of Frames.
func wireFrames(wire []byte) *SessionFrames {
	m := &SessionFrames{wire: wire}
	m.one[0] = wirePayload(wire)
	m.Frames = m.one[:]
	return m
}

// owedKey hashes owed positions (FNV-1a); equal keys are confirmed by
// comparing the positions.
func owedKey(owed []int32) uint64 {
	k := uint64(14695981039346656037)
	for _, i := range owed {
		k ^= uint64(uint32(i))
		k *= 1099511628211
	}
	return k
}

// blocked looks up, off the actor, which of the posts the local sessions of
// each side watch the other wrote, and sends the hub the drops. Walking
// every watch is fine for an event as rare as a block.
func (h *hubActor) blocked(ctx actor.Context, msg *hubBlocked) {
	if h.o.PostsBy == nil || msg.a == msg.b || (len(h.users[msg.a]) == 0 && len(h.users[msg.b]) == 0) {
		return
	}
	var byA, byB []uuid.UUID // posts watched by a's and b's sessions
	for id, w := range h.posts {
		var a, b bool
		w.each(func(s *hubSession) {
			a, b = a || s.user == msg.a, b || s.user == msg.b
		})
		if a {
			byA = append(byA, id)
		}
		if b {
			byB = append(byB, id)
		}
	}
	if len(byA) == 0 && len(byB) == 0 {
		return
	}
	self, root, postsBy, log := ctx.Self(), ctx.ActorSystem().Root, h.o.PostsBy, h.log
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), hubAskTimeout)
		defer cancel()
		for _, side := range []struct {
			user, other uuid.UUID
			watched     []uuid.UUID
		}{{msg.a, msg.b, byA}, {msg.b, msg.a, byB}} {
			if len(side.watched) == 0 {
				continue
			}
			ids, err := postsBy(ctx, side.other, side.watched)
			if err != nil {
				log.Warn().Err(err).Str("user_id", side.user.String()).Msg("block: watched posts not dropped")
				continue
			}
			if len(ids) > 0 {
				root.Send(self, &hubDrop{user: side.user, ids: ids})
			}
		}
	}()
}

// rememberBlock keeps a block for recentBlockWindow, for each of its users
// who has sessions here (a session that registers later checks its watches
// after the block committed).
func (h *hubActor) rememberBlock(msg *hubBlocked) {
	if msg.a == msg.b {
		return
	}
	now := time.Now()
	for _, side := range [][2]uuid.UUID{{msg.a, msg.b}, {msg.b, msg.a}} {
		if len(h.users[side[0]]) == 0 {
			continue
		}
		if h.recentBlocks == nil {
			h.recentBlocks = make(map[uuid.UUID][]recentBlock)
		}
		h.recentBlocks[side[0]] = append(h.recentBlocks[side[0]], recentBlock{other: side[1], at: now})
	}
}

// forgetOldBlocks drops the blocks older than recentBlockWindow.
func (h *hubActor) forgetOldBlocks() {
	cutoff := time.Now().Add(-recentBlockWindow)
	for user, bs := range h.recentBlocks {
		bs = slices.DeleteFunc(bs, func(b recentBlock) bool { return b.at.Before(cutoff) })
		if len(bs) == 0 {
			delete(h.recentBlocks, user)
		} else {
			h.recentBlocks[user] = bs
		}
	}
}

// rewatchAfterBlocks runs the drop of each recent block of the watching
// session's user again: the watch's check may have read the database just
// before the block committed, and the block's first drop ran before the
// watch arrived. Only a user blocked (or blocking) in the last
// recentBlockWindow pays for it.
func (h *hubActor) rewatchAfterBlocks(ctx actor.Context, m *hubWatch) {
	s := h.sessions[m.pid.Id]
	if m.remove || s == nil || len(h.recentBlocks[s.user]) == 0 {
		return
	}
	cutoff := time.Now().Add(-recentBlockWindow)
	for _, b := range h.recentBlocks[s.user] {
		if b.at.After(cutoff) {
			h.blocked(ctx, &hubBlocked{a: s.user, b: b.other})
		}
	}
}

// startPings sends the hub a ping tick every PingInterval until it stops:
// one timer for the whole node rather than one per socket.
func (h *hubActor) startPings(ctx actor.Context) {
	stop := make(chan struct{})
	h.stop = stop
	system, self, every := ctx.ActorSystem(), ctx.Self(), h.o.PingInterval
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				// A system shut down without stopping its actors first
				// (cluster shutdown) sends no Stopping: end here then.
				if system.IsStopped() {
					return
				}
				system.Root.Send(self, &hubPing{})
			}
		}
	}()
}

func (h *hubActor) register(ctx actor.Context, pid *actor.PID, user uuid.UUID) error {
	if h.closing {
		return ErrGoingAway
	}
	if _, ok := h.sessions[pid.Id]; ok {
		return nil
	}
	if len(h.users[user]) >= h.o.MaxSocketsPerUser {
		return ErrTooManySockets
	}
	s := &hubSession{pid: pid, user: user, slot: h.nextSlot}
	if proc, ok := ctx.ActorSystem().ProcessRegistry.Get(pid); ok {
		s.proc = proc
	}
	h.nextSlot = (h.nextSlot + 1) % protocol.CountSlots
	h.sessions[pid.Id] = s
	h.users[user] = append(h.users[user], s)
	return nil
}

func (h *hubActor) unregister(pid *actor.PID, watched []uuid.UUID) {
	s := h.sessions[pid.Id]
	if s == nil {
		return
	}
	delete(h.sessions, pid.Id)
	ss := h.users[s.user]
	for i, x := range ss {
		if x == s {
			ss = append(ss[:i:i], ss[i+1:]...)
			break
		}
	}
	if len(ss) == 0 {
		delete(h.users, s.user)
	} else {
		h.users[s.user] = ss
	}
	for _, id := range watched {
		h.unwatch(s, id)
	}
}

func (h *hubActor) watch(m *hubWatch) {
	s := h.sessions[m.pid.Id]
	if s == nil {
		return
	}
	for _, id := range m.ids {
		if m.remove {
			h.unwatch(s, id)
			continue
		}
		w := h.posts[id]
		if w == nil {
			w = &watchers{}
			h.posts[id] = w
		}
		set := w.bySlot[s.slot]
		if set == nil {
			set = make(map[*hubSession]struct{}, 1)
			w.bySlot[s.slot] = set
		}
		if _, dup := set[s]; !dup {
			set[s] = struct{}{}
			w.n++
		}
	}
}

func (h *hubActor) unwatch(s *hubSession, id uuid.UUID) {
	w := h.posts[id]
	if w == nil {
		return
	}
	if set := w.bySlot[s.slot]; set != nil {
		if _, ok := set[s]; ok {
			delete(set, s)
			w.n--
			if len(set) == 0 {
				w.bySlot[s.slot] = nil
			}
		}
	}
	if w.n == 0 {
		delete(h.posts, id)
	}
}

// askTimeout is d, or less if ctx ends sooner.
func askTimeout(ctx context.Context, d time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < d {
			return max(left, time.Millisecond)
		}
	}
	return d
}
