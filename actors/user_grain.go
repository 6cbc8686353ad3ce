package actors

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"

	"campus/persistence"
)

// maxNotifyBatch caps the notifications one user transaction creates.
const maxNotifyBatch = 500

// userGrain serializes what is personal to one user (DESIGN §4.2): it
// creates notifications (the database de-duplicates them), counts the
// unread ones, and only then broadcasts the user's events to every hub. It
// group-commits like the post grain: a post liked by thousands costs its
// author one transaction per batch of notifications.
//
// Concurrency: every field is owned by Receive; the transaction runs in a
// goroutine on its own copy of the batch and reports back with notifyDone.
type userGrain struct {
	live    *Live
	cluster *cluster.Cluster
	id      uuid.UUID
	idText  string
	bad     bool // the identity is not a user id

	queue   []notifyWaiter
	writing bool
}

type notifyWaiter struct {
	sender *actor.PID
	items  []*Notify
}

type notifyDone struct {
	waiters []notifyWaiter
	err     error
}

func newUserGrain(l *Live) actor.Actor { return &userGrain{live: l} }

func (g *userGrain) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *cluster.ClusterInit:
		g.cluster = msg.Cluster
		id, err := uuid.Parse(msg.Identity.GetIdentity())
		g.id, g.idText, g.bad = id, id.String(), err != nil
		ctx.SetReceiveTimeout(g.live.cfg.Idle)
	case *PushRequest:
		if !g.bad {
			broadcast(g.cluster, &DeliverToUser{UserId: g.idText, Frames: [][]byte{msg.GetFrame()}})
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
		}
		for _, w := range msg.waiters {
			if w.sender != nil {
				ctx.Send(w.sender, &NotifyResponse{Failure: f})
			}
		}
		g.write(ctx)
	case *actor.ReceiveTimeout:
		if !g.writing && len(g.queue) == 0 {
			ctx.Poison(ctx.Self())
		}
	}
}

// write starts the next notification transaction unless one is in flight.
func (g *userGrain) write(ctx actor.Context) {
	if g.writing || len(g.queue) == 0 {
		return
	}
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
	self, root, c, live, user := ctx.Self(), ctx.ActorSystem().Root, g.cluster, g.live, g.id
	go func() {
		err := live.createNotifications(c, user, ns)
		root.Send(self, &notifyDone{waiters: waiters, err: err})
	}()
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

// createNotifications stores ns and pushes what was new, each with the
// unread count as it stood after that notification.
func (l *Live) createNotifications(c *cluster.Cluster, user uuid.UUID, ns []*persistence.Notification) error {
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.WriteTimeout)
	defer cancel()
	res, err := persistence.CreateNotifications(ctx, l.cfg.DB, user, ns)
	if err != nil || len(res.Created) == 0 {
		return err
	}
	created, unread, senders := res.Created, res.Unread, res.Senders
	var frames [][]byte
	for i, n := range created {
		fs, err := l.cfg.Render(n, senders[n.SenderID], max(0, unread-(len(created)-1-i)))
		if err != nil {
			return fmt.Errorf("actors: render notification: %w", err)
		}
		frames = append(frames, fs...)
	}
	broadcast(c, &DeliverToUser{UserId: user.String(), Frames: frames})
	return nil
}
