package actors

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/persistence"
)

// maxNotifyBatch caps the notifications one user transaction creates.
const maxNotifyBatch = 500

// likeWriteEvery spaces a user's like-only notification statements: the
// likes that arrive meanwhile wait and go in the next one. At a campus event
// the author of a hot post was sent a batch after every commit of the post
// (a statement back to back, 2 ms of Postgres each, most of its work in the
// event); a roll-up is pushed on the tick anyway, so a like's notification
// waits at most this long more. Well under DefaultCallTimeout, which the
// waiting NotifyRequest is bounded by.
const likeWriteEvery = time.Second

// userGrain serializes what is personal to one user (docs/architecture.md §4.2): it
// creates notifications (the database de-duplicates them), counts the
// unread ones, and only then broadcasts the user's events to every hub. It
// group-commits like the post grain: a post liked by thousands costs its
// author one transaction per batch of notifications.
//
// Like notifications roll up (one row per post, docs/architecture.md §6.1) and so do their
// pushes: a roll-up that changed goes out on the node-wide tick clock
// (Config.CountInterval), at most once per post and tick, as the post:like
// of its newest liker and the `notification` with the rolled-up form. Other
// notifications are pushed as soon as they commit.
//
// Concurrency: every field is owned by Receive; the transaction runs in a
// goroutine on its own copy of the batch and reports back with notifyDone;
// the tick timer reports back with likeTick.
type userGrain struct {
	live   *Live
	id     uuid.UUID
	idText string
	bad    bool // the identity is not a user id

	queue   []notifyWaiter
	writing bool

	// rollups are the like roll-ups changed since the last tick, by post,
	// each in its latest state; unread the unread count the latest batch
	// answered, which they go out with.
	rollups     map[uuid.UUID]*persistence.Notification
	unread      int
	tickPending bool

	// lastWrite is when the last notification statement started; a write of
	// likes only waits until likeWriteEvery after it (writeDue pending).
	lastWrite       time.Time
	writeDuePending bool
}

// writeDue is the timer of a like-only write that waited for likeWriteEvery.
type writeDue struct{}

type notifyWaiter struct {
	sender *actor.PID
	items  []*Notify
}

type notifyDone struct {
	waiters []notifyWaiter
	res     persistence.CreatedNotifications
	err     error
}

// likeTick is the tick on which the pending roll-ups are pushed.
type likeTick struct{}

func newUserGrain(l *Live) actor.Actor { return &userGrain{live: l} }

func (g *userGrain) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *cluster.ClusterInit:
		id, err := uuid.Parse(msg.Identity.GetIdentity())
		g.id, g.idText, g.bad = id, id.String(), err != nil
		ctx.SetReceiveTimeout(g.live.cfg.Idle)
	case *PushRequest:
		if !g.bad {
			g.live.broadcast(&DeliverToUser{UserId: g.idText, Frames: [][]byte{msg.GetFrame()}})
		}
		ctx.Respond(&PushResponse{})
	case *NotifyRequest:
		if g.bad {
			ctx.Respond(&NotifyResponse{})
			return
		}
		g.queue = append(g.queue, notifyWaiter{sender: ctx.Sender(), items: msg.GetItems()})
		g.write(ctx)
	case *notifyDone:
		g.writing = false
		f := Failure_FAILURE_NONE
		if msg.err != nil {
			f = Failure_FAILURE_INTERNAL
			g.live.cfg.Log.Error().Err(msg.err).Str("user_id", g.idText).Msg("notification batch failed")
		} else {
			g.push(ctx, msg.res)
		}
		for _, w := range msg.waiters {
			if w.sender != nil {
				ctx.Send(w.sender, &NotifyResponse{Failure: f})
			}
		}
		g.write(ctx)
	case *likeTick:
		g.tickPending = false
		g.pushRollups()
	case *writeDue:
		g.writeDuePending = false
		g.write(ctx)
	case *actor.ReceiveTimeout:
		if !g.writing && len(g.queue) == 0 && !g.tickPending && !g.writeDuePending {
			ctx.Poison(ctx.Self())
		}
	case actor.SystemMessage, actor.AutoReceiveMessage:
	default:
		unknownMessage(g.live.cfg.Log, UserKind, msg)
	}
}

// unknownMessage drops a message a grain does not know. In a rolling
// upgrade a newer node may send a type this version has never heard of
// (one that deserialized: the type is known to the process, not to the
// grain); it is logged and dropped, and a caller waiting for an answer
// times out as it would with a node going away.
func unknownMessage(log zerolog.Logger, kind string, msg any) {
	log.Warn().Str("kind", kind).Str("type", fmt.Sprintf("%T", msg)).Msg("grain: unknown message dropped")
}

// write starts the next notification transaction unless one is in flight.
func (g *userGrain) write(ctx actor.Context) {
	if g.writing || len(g.queue) == 0 {
		return
	}
	if wait := likeWriteEvery - time.Since(g.lastWrite); wait > 0 && g.likesOnly() {
		if !g.writeDuePending {
			g.writeDuePending = true
			self, root := ctx.Self(), ctx.ActorSystem().Root
			time.AfterFunc(wait, func() { root.Send(self, &writeDue{}) })
		}
		return
	}
	g.lastWrite = time.Now()
	var waiters []notifyWaiter
	var ns []*persistence.Notification
	for len(g.queue) > 0 && (len(ns) == 0 || len(ns)+len(g.queue[0].items) <= maxNotifyBatch) {
		w := g.queue[0]
		g.queue = g.queue[1:]
		waiters = append(waiters, w)
		for _, it := range w.items {
			if n, ok := g.notification(it); ok {
				ns = append(ns, n)
			}
		}
	}
	g.writing = true
	self, root, live, user := ctx.Self(), ctx.ActorSystem().Root, g.live, g.id
	go func() {
		res, err := live.createNotifications(user, ns)
		root.Send(self, &notifyDone{waiters: waiters, res: res, err: err})
	}()
}

// likesOnly reports whether every queued notification is a like (which
// may wait for likeWriteEvery; anything else is written at once).
func (g *userGrain) likesOnly() bool {
	for _, w := range g.queue {
		for _, it := range w.items {
			if it.GetType() != persistence.NotifyLike {
				return false
			}
		}
	}
	return true
}

// push sends what a committed batch created: other kinds at once, like
// roll-ups at the next tick.
func (g *userGrain) push(ctx actor.Context, res persistence.CreatedNotifications) {
	if len(res.Created) == 0 {
		return
	}
	g.unread = res.Unread
	var frames [][]byte
	for _, n := range res.Created {
		if n.Type == persistence.NotifyLike {
			if g.rollups == nil {
				g.rollups = make(map[uuid.UUID]*persistence.Notification)
			}
			g.rollups[n.PostID] = n
			continue
		}
		fs, err := g.live.cfg.Render(n, g.unread)
		if err != nil {
			g.live.cfg.Log.Error().Err(err).Str("user_id", g.idText).Msg("render notification")
			continue
		}
		frames = append(frames, fs...)
	}
	if len(frames) > 0 {
		g.live.broadcast(&DeliverToUser{UserId: g.idText, Frames: frames})
	}
	if len(g.rollups) > 0 && !g.tickPending {
		// The node-wide clock of the post grains' counts: the next
		// multiple of the interval.
		interval := g.live.cfg.CountInterval
		now := time.Now()
		g.tickPending = true
		self, root := ctx.Self(), ctx.ActorSystem().Root
		time.AfterFunc(now.Truncate(interval).Add(interval).Sub(now), func() { root.Send(self, &likeTick{}) })
	}
}

// pushRollups sends the roll-ups changed since the last tick, in one
// delivery, each with the latest unread count.
func (g *userGrain) pushRollups() {
	var frames [][]byte
	for _, n := range g.rollups {
		fs, err := g.live.cfg.Render(n, g.unread)
		if err != nil {
			g.live.cfg.Log.Error().Err(err).Str("user_id", g.idText).Msg("render notification")
			continue
		}
		frames = append(frames, fs...)
	}
	clear(g.rollups)
	if len(frames) > 0 {
		g.live.broadcast(&DeliverToUser{UserId: g.idText, Frames: frames})
	}
}

// notification reads one request item; malformed ones are dropped.
func (g *userGrain) notification(it *Notify) (*persistence.Notification, bool) {
	id, err := uuid.Parse(it.GetId())
	if err != nil {
		return nil, false
	}
	n := &persistence.Notification{ID: id, UserID: g.id, Type: it.GetType()}
	for _, f := range []struct {
		text string
		dst  *uuid.UUID
	}{{it.GetSenderId(), &n.SenderID}, {it.GetPostId(), &n.PostID}, {it.GetCommentId(), &n.CommentID}} {
		if f.text == "" {
			continue
		}
		v, err := uuid.Parse(f.text)
		if err != nil {
			return nil, false
		}
		*f.dst = v
	}
	return n, true
}

// createNotifications stores ns: other kinds as rows, likes rolled up per
// post, mentions per post too (persistence.CreateNotifications).
func (l *Live) createNotifications(user uuid.UUID, ns []*persistence.Notification) (persistence.CreatedNotifications, error) {
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.WriteTimeout)
	defer cancel()
	res, err := persistence.CreateNotifications(ctx, l.cfg.DB, user, ns)
	if err != nil {
		return res, fmt.Errorf("actors: notify %s: %w", user, err)
	}
	return res, nil
}
