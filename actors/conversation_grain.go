package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"

	"campus/domain"
	"campus/persistence"
)

// ConversationKind is the conversation grain's kind; its identity is the
// conversation id.
const ConversationKind = "conversation"

// MessageRenderFunc renders the message:new frames of a conversation's
// stored messages seqs (ascending) for every member's sockets, and answers
// each frame's seq (the messages that exist, ascending). The app layer owns
// the JSON shapes; serve.go passes app.MessageFrames.
type MessageRenderFunc func(ctx context.Context, conv uuid.UUID, seqs []int64) (frames [][]byte, rendered []int64, err error)

// repushTail caps the messages a repair pushes again per conversation: the
// newest ones; a client that missed older ones sees the seq skip ahead and
// reads the gap.
const repushTail = 100

// conversationGrain serializes one conversation's sends (docs/architecture.md
// §6.4): sends queue while a batch is being written and go together in the
// next one, through the node-wide writer's shared transaction. Postgres
// hands out the seqs (last_seq = last_seq + n RETURNING, under the
// conversation row's lock) and finds a retried client id, so a twin
// activation beside this one (a topology change) costs contention, never a
// gap, a duplicate or a seq handed out twice. Each sender is answered only
// after the commit; then the new messages go to every member's sockets on
// every node at once, in seq order (one render and broadcast at a time).
// Every push names the conversation and the seqs, so each node's hub
// pushes a seq once and never after a higher one; that lets the grain push
// again whatever may not have gone out: the original of a retried send
// (its first grain may have died before pushing it), and a repair's tail
// after a member was lost (RepushRequest, repair.go).
//
// Concurrency: every field is owned by Receive. The transaction and the
// render run in goroutines that report back with messages.
type conversationGrain struct {
	live    *Live
	cluster *cluster.Cluster
	self    *actor.PID
	id      uuid.UUID
	idText  string
	gone    bool

	queue   []*sendOp
	writing bool
	// inFlight finds a send queued or being written by sender and client
	// id, so that a retry joins it rather than waits for a second lookup.
	inFlight map[string]*sendOp

	// pushes are the committed batches' seqs waiting to be pushed, oldest
	// first; pushing is set while one is rendered and broadcast.
	pushes       []pushJob
	pushing      bool
	flushWaiters []*actor.PID
}

type sendOp struct {
	senders []*actor.PID
	req     *SendMessageRequest
	send    persistence.MessageSend
	key     string
}

// pushJob is one push: the seqs of a committed batch to its members, or
// (repush) a repair's tail, the messages stored since since, to the
// members now; waiter is answered once it went out.
type pushJob struct {
	seqs    []int64
	members []string
	repush  bool
	since   time.Time
	waiter  *actor.PID
}

type sendsDone struct {
	ops []*sendOp
	res persistence.MessageBatchResult
	err error
}

type pushDone struct{}

func newConversationGrain(l *Live) actor.Actor {
	return &conversationGrain{live: l, inFlight: make(map[string]*sendOp)}
}

func (g *conversationGrain) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *cluster.ClusterInit:
		g.cluster, g.self = msg.Cluster, ctx.Self()
		id, err := uuid.Parse(msg.Identity.GetIdentity())
		g.gone = err != nil
		g.id, g.idText = id, id.String()
		g.live.active.Store(g.self, g.cluster)
		ctx.SetReceiveTimeout(g.live.cfg.Idle)
	case *SendMessageRequest:
		g.onSend(ctx, msg)
	case *sendsDone:
		g.done(ctx, msg)
	case *RepushRequest:
		if g.gone {
			ctx.Respond(&RepushResponse{})
			return
		}
		g.pushes = append(g.pushes, pushJob{repush: true, since: time.UnixMicro(msg.GetSinceMicros()), waiter: ctx.Sender()})
		g.push(ctx)
	case *pushDone:
		g.pushing = false
		g.push(ctx)
		g.answerFlush(ctx)
	case *FlushRequest:
		if g.idle() {
			ctx.Respond(&FlushResponse{})
			return
		}
		g.flushWaiters = append(g.flushWaiters, ctx.Sender())
	case *actor.ReceiveTimeout:
		if g.idle() {
			ctx.Poison(ctx.Self())
		}
	case *actor.Stopped:
		if g.self != nil {
			g.live.active.Delete(g.self)
		}
	case actor.SystemMessage, actor.AutoReceiveMessage:
	default:
		unknownMessage(g.live.cfg.Log, ConversationKind, msg)
	}
}

// idle: nothing queued, written or waiting to be pushed.
func (g *conversationGrain) idle() bool {
	return !g.writing && len(g.queue) == 0 && !g.pushing && len(g.pushes) == 0
}

func (g *conversationGrain) onSend(ctx actor.Context, msg *SendMessageRequest) {
	sender, serr := uuid.Parse(msg.GetSenderId())
	id, ierr := uuid.Parse(msg.GetMessageId())
	if serr != nil || ierr != nil || !domain.ValidClientID(msg.GetClientId()) {
		ctx.Respond(&SendMessageResponse{Failure: Failure_FAILURE_INTERNAL})
		return
	}
	if g.gone {
		ctx.Respond(&SendMessageResponse{Failure: Failure_FAILURE_CONVERSATION_NOT_FOUND})
		ctx.Poison(ctx.Self())
		return
	}
	key := sender.String() + "/" + msg.GetClientId()
	if op := g.inFlight[key]; op != nil {
		op.senders = append(op.senders, ctx.Sender())
		return
	}
	op := &sendOp{senders: []*actor.PID{ctx.Sender()}, req: msg, key: key,
		send: persistence.MessageSend{ID: id, SenderID: sender, ClientID: msg.GetClientId(), Body: msg.GetBody(),
			ReplyToSeq: msg.GetReplyToSeq(), Images: imagesFromProto(msg.GetImages())}}
	l := g.live
	if len(g.queue) >= l.cfg.MaxQueue || l.pending.Load() >= int64(l.cfg.MaxPending) {
		l.refused.Add(1)
		ctx.Respond(&SendMessageResponse{Failure: Failure_FAILURE_INTERNAL})
		return
	}
	l.pending.Add(1)
	g.inFlight[key] = op
	g.queue = append(g.queue, op)
	g.write(ctx)
}

// write hands the queued sends to the node's writer unless a batch is in
// flight: the group commit. The grain never has two batches in flight, so
// its senders' order is its queue's.
func (g *conversationGrain) write(ctx actor.Context) {
	if g.writing || len(g.queue) == 0 {
		return
	}
	n := min(len(g.queue), g.live.cfg.MaxBatch)
	ops := g.queue[:n:n]
	g.queue = append([]*sendOp(nil), g.queue[n:]...)
	b := &persistence.MessageBatch{ConversationID: g.id, Sends: make([]persistence.MessageSend, n)}
	for i, op := range ops {
		b.Sends[i] = op.send
	}
	g.writing = true
	self, root := ctx.Self(), ctx.ActorSystem().Root
	g.live.writer.submit(&writeJob{messages: b, member: g.cluster,
		messagesDone: func(res persistence.MessageBatchResult, err error) {
			root.Send(self, &sendsDone{ops: ops, res: res, err: err})
		}})
}

// done answers a finished batch's senders, queues the push of what it
// stored, and starts the next batch.
func (g *conversationGrain) done(ctx actor.Context, d *sendsDone) {
	g.writing = false
	for _, op := range d.ops {
		delete(g.inFlight, op.key)
	}
	if d.err != nil {
		f := Failure_FAILURE_INTERNAL
		switch {
		case errors.Is(d.err, persistence.ErrConversationGone):
			f, g.gone = Failure_FAILURE_CONVERSATION_NOT_FOUND, true
		case errors.Is(d.err, errFenced):
			g.live.cfg.Log.Debug().Err(d.err).Str("conversation_id", g.idText).Int("sends", len(d.ops)).
				Msg("message batch not written")
		default:
			g.live.cfg.Log.Error().Err(d.err).Str("conversation_id", g.idText).Int("sends", len(d.ops)).
				Msg("message batch failed")
		}
		for _, op := range d.ops {
			g.answer(ctx, op, &SendMessageResponse{Failure: f})
		}
	} else {
		var fresh []int64
		recent := time.Now().Add(-g.live.cfg.RepairWindow)
		for i, op := range d.ops {
			if err := d.res.Errs[i]; err != nil {
				g.answer(ctx, op, &SendMessageResponse{Failure: Failure_FAILURE_FORBIDDEN})
				continue
			}
			m := d.res.Messages[i]
			// A retry's original is pushed again too, if recent: the grain
			// that stored it may have died before pushing it; the hubs
			// drop it where it went out.
			if (d.res.New[i] || m.CreatedAt.After(recent)) && !slices.Contains(fresh, m.Seq) {
				fresh = append(fresh, m.Seq)
			}
			g.answer(ctx, op, &SendMessageResponse{Seq: m.Seq, MessageId: m.ID.String(), Created: d.res.New[i],
				CreatedAtMicros: m.CreatedAt.UnixMicro()})
		}
		if len(fresh) > 0 {
			slices.Sort(fresh)
			members := make([]string, len(d.res.Members))
			for i, u := range d.res.Members {
				members[i] = u.String()
			}
			g.pushes = append(g.pushes, pushJob{seqs: fresh, members: members})
			g.push(ctx)
		}
	}
	if g.gone {
		for _, op := range g.queue {
			delete(g.inFlight, op.key)
			g.answer(ctx, op, &SendMessageResponse{Failure: Failure_FAILURE_CONVERSATION_NOT_FOUND})
		}
		g.queue = nil
	}
	g.write(ctx)
	g.answerFlush(ctx)
}

// answer sends r to everyone waiting for op. Of several callers of one
// send (a retry that joined it in flight) only the first is told it was
// created: the others are retries, answered with the original.
func (g *conversationGrain) answer(ctx actor.Context, op *sendOp, r *SendMessageResponse) {
	g.live.pending.Add(-1)
	for i, s := range op.senders {
		if i == 1 && r.Created {
			r = &SendMessageResponse{Seq: r.Seq, MessageId: r.MessageId, CreatedAtMicros: r.CreatedAtMicros}
		}
		if s != nil {
			ctx.Send(s, r)
		}
	}
}

func (g *conversationGrain) answerFlush(ctx actor.Context) {
	if !g.idle() {
		return
	}
	for _, w := range g.flushWaiters {
		ctx.Send(w, &FlushResponse{})
	}
	g.flushWaiters = nil
}

// push renders and broadcasts the oldest committed batch not yet pushed,
// unless one is being pushed: the pushes of one conversation go out in seq
// order. The messages go to every member at the commit (the transaction
// read them), on every node, at once: not on the counts tick. A repair's
// job reads its tail and the members now first.
func (g *conversationGrain) push(ctx actor.Context) {
	if g.pushing || len(g.pushes) == 0 {
		return
	}
	job := g.pushes[0]
	g.pushes = g.pushes[1:]
	render := g.live.cfg.RenderMessages
	if render == nil || (!job.repush && len(job.members) == 0) || g.live.dropPushes.Load() {
		if job.waiter != nil {
			ctx.Send(job.waiter, &RepushResponse{})
		}
		g.push(ctx)
		return
	}
	g.pushing = true
	self, root, live, conv := ctx.Self(), ctx.ActorSystem().Root, g.live, g.id
	go func() {
		defer func() {
			root.Send(self, &pushDone{})
			if job.waiter != nil {
				root.Send(job.waiter, &RepushResponse{})
			}
		}()
		rctx, cancel := context.WithTimeout(context.Background(), live.cfg.WriteTimeout)
		defer cancel()
		if job.repush {
			var err error
			if job.seqs, job.members, err = live.tail(rctx, conv, job.since); err != nil {
				live.cfg.Log.Warn().Err(err).Str("conversation_id", conv.String()).Msg("message repush not read")
				return
			}
			if len(job.seqs) == 0 || len(job.members) == 0 {
				return
			}
		}
		frames, seqs, err := render(rctx, conv, job.seqs)
		if err != nil {
			// The messages are stored and answered; members who missed the
			// push find them by seq when they next read the conversation.
			live.cfg.Log.Warn().Err(err).Str("conversation_id", conv.String()).Msg("message push not rendered")
			return
		}
		if len(frames) > 0 && len(frames) == len(seqs) && live.cur.Load() != nil {
			live.broadcast(&DeliverToUsers{UserIds: job.members, Frames: frames, ConversationId: conv.String(), Seqs: seqs})
		}
	}()
}

// tail is what a repair pushes of conv again: the seqs of its newest
// messages stored since since (at most repushTail) and its members now.
func (l *Live) tail(ctx context.Context, conv uuid.UUID, since time.Time) ([]int64, []string, error) {
	seqs, err := persistence.RecentMessageSeqs(ctx, l.cfg.DB, conv, since, repushTail)
	if err != nil || len(seqs) == 0 {
		return nil, nil, err
	}
	ids, err := persistence.CurrentMemberIDs(ctx, l.cfg.DB, conv)
	if err != nil {
		return nil, nil, err
	}
	members := make([]string, len(ids))
	for i, u := range ids {
		members[i] = u.String()
	}
	return seqs, members, nil
}

// SendMessage stores one message through its conversation's grain and
// answers, once committed, its seq, id and commit time and whether this call stored it
// (false: a retry of a message stored before, whose original it answers).
// A sender who may not send there (not a member now, a block across a
// direct conversation) is refused with domain's 403; a conversation that
// does not exist is 404.
func (l *Live) SendMessage(ctx context.Context, conv uuid.UUID, s persistence.MessageSend) (int64, uuid.UUID, time.Time, bool, error) {
	images, err := imagesToProto(s.Images)
	if err != nil {
		return 0, uuid.Nil, time.Time{}, false, err
	}
	res, err := l.request(ctx, conv.String(), ConversationKind, &SendMessageRequest{
		SenderId: s.SenderID.String(), ClientId: s.ClientID, Body: s.Body, ReplyToSeq: s.ReplyToSeq, MessageId: s.ID.String(),
		Images: images})
	if err != nil {
		return 0, uuid.Nil, time.Time{}, false, err
	}
	r, ok := res.(*SendMessageResponse)
	if !ok {
		return 0, uuid.Nil, time.Time{}, false, fmt.Errorf("actors: conversation grain answered %T", res)
	}
	switch r.Failure {
	case Failure_FAILURE_NONE:
	case Failure_FAILURE_FORBIDDEN:
		return 0, uuid.Nil, time.Time{}, false, domain.Forbidden(domain.MsgCantSendHere)
	case Failure_FAILURE_CONVERSATION_NOT_FOUND:
		return 0, uuid.Nil, time.Time{}, false, domain.NotFound(domain.MsgConversationNotFound)
	default:
		return 0, uuid.Nil, time.Time{}, false, errBusy
	}
	id, err := uuid.Parse(r.MessageId)
	if err != nil {
		return 0, uuid.Nil, time.Time{}, false, fmt.Errorf("actors: conversation grain answered message id %q", r.MessageId)
	}
	return r.Seq, id, time.UnixMicro(r.CreatedAtMicros).UTC(), r.Created, nil
}

// imagesToProto carries a send's images to its grain.
func imagesToProto(ims []persistence.MessageImage) ([]*MessageImage, error) {
	out := make([]*MessageImage, len(ims))
	for i, im := range ims {
		variants, err := json.Marshal(im.Variants)
		if err != nil {
			return nil, fmt.Errorf("actors: message image variants: %w", err)
		}
		out[i] = &MessageImage{StorageKey: im.StorageKey, Url: im.URL, Type: im.Type, ContentType: im.ContentType,
			Width: int32(im.Width), Height: int32(im.Height), SizeBytes: im.SizeBytes, Alt: im.Alt, VariantsJson: string(variants)}
	}
	return out, nil
}

// imagesFromProto reads a send's images back; variants that do not parse
// are left out (the original still shows).
func imagesFromProto(ims []*MessageImage) []persistence.MessageImage {
	if len(ims) == 0 {
		return nil
	}
	out := make([]persistence.MessageImage, len(ims))
	for i, im := range ims {
		var variants persistence.ImageVariants
		_ = variants.Scan(im.GetVariantsJson())
		out[i] = persistence.MessageImage{StorageKey: im.GetStorageKey(), URL: im.GetUrl(), Type: im.GetType(),
			ContentType: im.GetContentType(), Width: int(im.GetWidth()), Height: int(im.GetHeight()),
			SizeBytes: im.GetSizeBytes(), Alt: im.GetAlt(), Variants: variants}
	}
	return out
}
