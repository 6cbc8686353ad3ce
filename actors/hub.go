package actors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
)

// HubOptions configure a node's hub.
type HubOptions struct {
	// MaxSocketsPerUser caps one user's sockets on this node (default 10);
	// a socket beyond it is refused with CloseTryAgainLater.
	MaxSocketsPerUser int
	// PingInterval is how often every socket is pinged (default 30 s).
	PingInterval time.Duration
}

// Defaults of HubOptions.
const (
	DefaultMaxSocketsPerUser = 10
	DefaultPingInterval      = 30 * time.Second
)

// Errors of Register.
var (
	ErrTooManySockets = errors.New("actors: too many sockets for this user")
	ErrGoingAway      = errors.New("actors: node is shutting down")
)

// Hub is the node's socket directory (DESIGN §4.3): which local sessions
// belong to which user and watch which post. Live events arrive from every
// node's grains as DeliverToUser / DeliverToWatchers and the hub hands each
// frame to the matching local sessions. Its methods are safe for concurrent
// use: they only send messages to the hub actor.
type Hub struct {
	root *actor.RootContext
	pid  *actor.PID
}

func startHub(system *actor.ActorSystem, log zerolog.Logger, o HubOptions) (*Hub, error) {
	if o.MaxSocketsPerUser <= 0 {
		o.MaxSocketsPerUser = DefaultMaxSocketsPerUser
	}
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	props := actor.PropsFromProducer(func() actor.Actor {
		return &hubActor{
			o:     o,
			log:   log,
			users: make(map[uuid.UUID][]*Session),
			posts: make(map[uuid.UUID]map[*Session]struct{}),
		}
	})
	pid, err := system.Root.SpawnNamed(props, HubName)
	if err != nil {
		return nil, fmt.Errorf("actors: spawn hub: %w", err)
	}
	return &Hub{root: system.Root, pid: pid}, nil
}

// StartLocalHub spawns a hub on a plain actor system, for a node without
// grains (tests of the socket protocol).
func StartLocalHub(system *actor.ActorSystem, log zerolog.Logger, o HubOptions) (*Hub, error) {
	return startHub(system, log, o)
}

// Local messages of the hub actor; they never leave the node.
type (
	hubRegister   struct{ s *Session }
	hubUnregister struct {
		s       *Session
		watched []uuid.UUID
	}
	hubWatch struct {
		s      *Session
		ids    []uuid.UUID
		remove bool
	}
	hubRevoked  struct{ user uuid.UUID }
	hubCloseAll struct {
		code   int
		reason string
	}
	hubPing  struct{}
	hubCount struct{}
	// hubFlush starts the writers of the sessions a burst of deliveries
	// touched; the hub sends it to itself flushDelay after the burst began.
	hubFlush struct{}
)

const hubAskTimeout = 5 * time.Second

// Register adds a session; ErrTooManySockets or ErrGoingAway refuse it.
func (h *Hub) Register(s *Session) error {
	res, err := h.root.RequestFuture(h.pid, &hubRegister{s: s}, hubAskTimeout).Result()
	if err != nil {
		return fmt.Errorf("actors: hub register: %w", err)
	}
	if err, ok := res.(error); ok {
		return err
	}
	return nil
}

// Unregister removes a session and its watches (the reader's watched set).
func (h *Hub) Unregister(s *Session, watched []uuid.UUID) {
	h.root.Send(h.pid, &hubUnregister{s: s, watched: watched})
}

// Watch makes the session receive the posts' live counts and deletion.
func (h *Hub) Watch(s *Session, ids []uuid.UUID) {
	if len(ids) > 0 {
		h.root.Send(h.pid, &hubWatch{s: s, ids: ids})
	}
}

// Unwatch stops what Watch started.
func (h *Hub) Unwatch(s *Session, ids []uuid.UUID) {
	if len(ids) > 0 {
		h.root.Send(h.pid, &hubWatch{s: s, ids: ids, remove: true})
	}
}

// UserRevoked is the hook for app.Sessions.OnRevoke: every local socket of
// the user re-checks its token and closes with ClosePolicy if it is revoked.
func (h *Hub) UserRevoked(user uuid.UUID) {
	h.root.Send(h.pid, &hubRevoked{user: user})
}

// CloseAll closes every local socket with code (CloseGoingAway on shutdown)
// and refuses new ones from then on.
func (h *Hub) CloseAll(ctx context.Context, code int, reason string) error {
	_, err := h.root.RequestFuture(h.pid, &hubCloseAll{code: code, reason: reason}, remaining(ctx, hubAskTimeout)).Result()
	if err != nil {
		return fmt.Errorf("actors: hub close all: %w", err)
	}
	return nil
}

// Sockets is the number of sessions registered on this node.
func (h *Hub) Sockets() (int, error) {
	res, err := h.root.RequestFuture(h.pid, &hubCount{}, hubAskTimeout).Result()
	if err != nil {
		return 0, fmt.Errorf("actors: hub count: %w", err)
	}
	return res.(int), nil
}

// hubActor holds the node's session directory. Concurrency: its fields are
// touched only inside Receive.
type hubActor struct {
	o       HubOptions
	log     zerolog.Logger
	users   map[uuid.UUID][]*Session
	posts   map[uuid.UUID]map[*Session]struct{}
	count   int
	closing bool
	ticker  *time.Ticker
	stop    chan struct{}
	// dirty are the sessions with frames queued since the last flush. Live
	// counts go out on a node-wide clock (post grains), so a tick's counts of
	// many posts arrive here together: queued first and flushed once behind
	// them, a socket watching twenty posts gets them in one write instead
	// of twenty (the writes were most of a node's CPU in a campus event).
	dirty        map[*Session]struct{}
	flushPending bool
}

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
		ctx.Respond(h.register(msg.s))
	case *hubUnregister:
		h.unregister(msg.s, msg.watched)
	case *hubWatch:
		h.watch(msg)
	case *DeliverToUser:
		id, err := uuid.Parse(msg.GetUserId())
		if err != nil {
			return
		}
		for _, s := range h.users[id] {
			h.deliver(ctx, s, msg.GetFrames())
		}
	case *DeliverToWatchers:
		id, err := uuid.Parse(msg.GetPostId())
		if err != nil {
			return
		}
		for s := range h.posts[id] {
			h.deliver(ctx, s, msg.GetFrames())
		}
		if msg.GetForget() {
			delete(h.posts, id)
		}
	case *hubFlush:
		h.flushPending = false
		for s := range h.dirty {
			s.Flush()
		}
		clear(h.dirty)
	case *hubRevoked:
		for _, s := range h.users[msg.user] {
			s.Revoked()
		}
	case *hubCloseAll:
		h.closing = true
		for _, ss := range h.users {
			for _, s := range ss {
				s.Close(msg.code, msg.reason)
			}
		}
		ctx.Respond(true)
	case *hubPing:
		for _, ss := range h.users {
			for _, s := range ss {
				s.Ping()
			}
		}
	case *hubCount:
		ctx.Respond(h.count)
	}
}

// deliver queues frames on s and makes sure a flush follows shortly.
func (h *hubActor) deliver(ctx actor.Context, s *Session, frames [][]byte) {
	for _, f := range frames {
		s.SendLater(f)
	}
	if h.dirty == nil {
		h.dirty = make(map[*Session]struct{})
	}
	h.dirty[s] = struct{}{}
	if !h.flushPending {
		h.flushPending = true
		self, root := ctx.Self(), ctx.ActorSystem().Root
		time.AfterFunc(flushDelay, func() { root.Send(self, &hubFlush{}) })
	}
}

// flushDelay is how long the hub collects a burst of deliveries before the
// sockets write it: the posts' ticks fire together, but their broadcasts
// reach the hub over a few milliseconds.
const flushDelay = 5 * time.Millisecond

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

func (h *hubActor) register(s *Session) any {
	if h.closing {
		return ErrGoingAway
	}
	if len(h.users[s.UserID]) >= h.o.MaxSocketsPerUser {
		return ErrTooManySockets
	}
	h.users[s.UserID] = append(h.users[s.UserID], s)
	h.count++
	return true
}

func (h *hubActor) unregister(s *Session, watched []uuid.UUID) {
	delete(h.dirty, s)
	ss := h.users[s.UserID]
	for i, x := range ss {
		if x == s {
			ss = append(ss[:i:i], ss[i+1:]...)
			h.count--
			break
		}
	}
	if len(ss) == 0 {
		delete(h.users, s.UserID)
	} else {
		h.users[s.UserID] = ss
	}
	for _, id := range watched {
		h.unwatch(s, id)
	}
}

func (h *hubActor) watch(m *hubWatch) {
	if !h.registered(m.s) {
		return
	}
	for _, id := range m.ids {
		if m.remove {
			h.unwatch(m.s, id)
			continue
		}
		set := h.posts[id]
		if set == nil {
			set = make(map[*Session]struct{}, 1)
			h.posts[id] = set
		}
		set[m.s] = struct{}{}
	}
}

func (h *hubActor) unwatch(s *Session, id uuid.UUID) {
	if set := h.posts[id]; set != nil {
		delete(set, s)
		if len(set) == 0 {
			delete(h.posts, id)
		}
	}
}

func (h *hubActor) registered(s *Session) bool {
	for _, x := range h.users[s.UserID] {
		if x == s {
			return true
		}
	}
	return false
}
