package actors

import (
	"errors"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"

	"campus/domain"
	"campus/persistence"
)

// postGrain serializes one post's likes and comments (docs/architecture.md §4.1).
//
// Group commit: requests queue while a transaction is in flight; when it
// commits, everything queued (up to MaxBatch) goes into the next single
// transaction. Each request is answered only after the transaction holding
// it committed, with the counts Postgres returned.
//
// Concurrency: every field is owned by Receive. The transaction runs in a
// goroutine on a batch the grain no longer touches and reports back with a
// batchDone message.
type postGrain struct {
	live    *Live
	cluster *cluster.Cluster
	self    *actor.PID
	id      uuid.UUID
	idText  string

	queue   []*postOp
	writing bool
	// gone is set once the post is known not to exist; the grain then
	// answers everything "not found" until it passivates.
	gone bool
	// author is the post's author, learned from the first batch.
	author uuid.UUID
	// byRequest finds a like still queued or in flight by its request key
	// (requestKey), so that a retry joins it instead of toggling twice.
	byRequest map[string]*postOp
	// recent remembers the answers to the last likes for retries that
	// arrive after the answer was lost (or after the caller gave up).
	recent *answerCache
	// Live counts: the last ones committed and the last ones handed to the
	// node's count batcher.
	likes, comments, reposts             int
	version                              int64 // the post's counts_version with them
	sentLikes, sentComments, sentReposts int
	known                                bool // counts known (a batch committed)
	flushWaiters                         []*actor.PID
	// notified are the likers whose like notification this activation has
	// asked for (bounded by maxNotified).
	notified map[uuid.UUID]struct{}
}

// maxNotified bounds a post grain's memory of notified likers (a few MiB
// for a post liked by that many); past it, it starts over, and the
// database's unique index still keeps one notification per liker.
const maxNotified = 65_536

// postOp is one queued request and who waits for its answer.
type postOp struct {
	senders []*actor.PID
	like    *LikeRequest
	comment *AddCommentRequest
	remove  *RemoveCommentRequest
	userID  uuid.UUID
	// requestID is a like's request key (requestKey), "" for anything
	// else.
	requestID string
}

type batchDone struct {
	ops []*postOp
	res persistence.PostBatchResult
	// comments are the batch's new comments, in the order of the ops that
	// carry them.
	comments []*persistence.Comment
	err      error
}

func newPostGrain(l *Live) actor.Actor {
	return &postGrain{live: l, byRequest: make(map[string]*postOp), recent: newAnswerCache(1024)}
}

func (g *postGrain) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *cluster.ClusterInit:
		g.init(ctx, msg)
	case *LikeRequest:
		g.onLike(ctx, msg)
	case *AddCommentRequest:
		g.onComment(ctx, msg)
	case *RemoveCommentRequest:
		g.onRemove(ctx, msg)
	case *FlushRequest:
		if !g.writing && len(g.queue) == 0 {
			ctx.Respond(&FlushResponse{})
			return
		}
		g.flushWaiters = append(g.flushWaiters, ctx.Sender())
	case *batchDone:
		g.done(ctx, msg)
	case *actor.ReceiveTimeout:
		// Passivate only when idle: a write in flight or queued requests
		// would otherwise be dropped.
		if !g.writing && len(g.queue) == 0 {
			ctx.Poison(ctx.Self())
		}
	case *actor.Stopped:
		if g.self != nil {
			g.live.active.Delete(g.self)
		}
	case actor.SystemMessage, actor.AutoReceiveMessage:
	default:
		unknownMessage(g.live.cfg.Log, PostKind, msg)
	}
}

func (g *postGrain) init(ctx actor.Context, msg *cluster.ClusterInit) {
	g.cluster, g.self = msg.Cluster, ctx.Self()
	id, err := uuid.Parse(msg.Identity.GetIdentity())
	// Not a post id: answer "not found" to whatever comes, then go.
	g.gone = err != nil
	g.id, g.idText = id, id.String()
	g.live.active.Store(g.self, g.cluster)
	ctx.SetReceiveTimeout(g.live.cfg.Idle)
}

func (g *postGrain) onLike(ctx actor.Context, msg *LikeRequest) {
	user, err := uuid.Parse(msg.GetUserId())
	if err != nil || msg.GetOp() == LikeOp_LIKE_OP_UNSPECIFIED {
		ctx.Respond(&LikeResponse{Failure: Failure_FAILURE_INTERNAL})
		return
	}
	if g.gone {
		ctx.Respond(&LikeResponse{Failure: Failure_FAILURE_POST_NOT_FOUND})
		ctx.Poison(ctx.Self())
		return
	}
	// A retry of a like (the app's, or the client's after a 503 or a lost
	// answer) carries the original's request id: it joins the original
	// while that is queued or in flight, and gets its answer after. A toggle
	// is thus applied once; a like or unlike repeated late does not undo a
	// newer action. A refused or failed request is not remembered, so its
	// retry is a fresh attempt.
	rid := requestKey(msg, user)
	if rid != "" {
		if op := g.byRequest[rid]; op != nil {
			op.senders = append(op.senders, ctx.Sender())
			return
		}
		if r, ok := g.recent.get(rid); ok {
			ctx.Respond(r)
			return
		}
	}
	op := &postOp{senders: []*actor.PID{ctx.Sender()}, like: msg, userID: user, requestID: rid}
	if g.enqueue(ctx, op) && rid != "" {
		g.byRequest[rid] = op
	}
}

// requestKey names a like request across its retries: the caller's request
// id, scoped to the user and the action so that one user's id cannot
// answer another's, "" when the caller gave none.
func requestKey(msg *LikeRequest, user uuid.UUID) string {
	if msg.GetRequestId() == "" {
		return ""
	}
	return user.String() + "/" + msg.GetOp().String() + "/" + msg.GetRequestId()
}

func (g *postGrain) onComment(ctx actor.Context, msg *AddCommentRequest) {
	user, uerr := uuid.Parse(msg.GetUserId())
	_, cerr := uuid.Parse(msg.GetCommentId())
	if uerr != nil || cerr != nil {
		ctx.Respond(&AddCommentResponse{Failure: Failure_FAILURE_INTERNAL})
		return
	}
	if g.gone {
		ctx.Respond(&AddCommentResponse{Failure: Failure_FAILURE_POST_NOT_FOUND})
		ctx.Poison(ctx.Self())
		return
	}
	g.enqueue(ctx, &postOp{senders: []*actor.PID{ctx.Sender()}, comment: msg, userID: user})
}

func (g *postGrain) onRemove(ctx actor.Context, msg *RemoveCommentRequest) {
	user, uerr := uuid.Parse(msg.GetUserId())
	_, cerr := uuid.Parse(msg.GetCommentId())
	if uerr != nil || cerr != nil {
		ctx.Respond(&RemoveCommentResponse{Failure: Failure_FAILURE_COMMENT_NOT_FOUND})
		return
	}
	if g.gone {
		ctx.Respond(&RemoveCommentResponse{Failure: Failure_FAILURE_POST_NOT_FOUND})
		ctx.Poison(ctx.Self())
		return
	}
	g.enqueue(ctx, &postOp{senders: []*actor.PID{ctx.Sender()}, remove: msg, userID: user})
}

// enqueue queues op for the next transaction, or refuses it at once (and
// answers false) when the grain's queue or the node's backlog is full: a
// request that would wait past its caller's timeout is better answered
// "unavailable, retry" now (docs/architecture.md §4.1, backpressure).
func (g *postGrain) enqueue(ctx actor.Context, op *postOp) bool {
	l := g.live
	if len(g.queue) >= l.cfg.MaxQueue || l.pending.Load() >= int64(l.cfg.MaxPending) {
		l.refused.Add(1)
		send(ctx, op, failed(op, Failure_FAILURE_INTERNAL))
		return false
	}
	l.pending.Add(1)
	g.queue = append(g.queue, op)
	g.write(ctx)
	return true
}

// write starts the next transaction unless one is in flight: the group
// commit. Everything queued meanwhile waits for the next one.
func (g *postGrain) write(ctx actor.Context) {
	if g.writing || len(g.queue) == 0 {
		return
	}
	n := min(len(g.queue), g.live.cfg.MaxBatch)
	ops := g.queue[:n:n]
	g.queue = append([]*postOp(nil), g.queue[n:]...)

	b := persistence.PostBatch{PostID: g.id}
	var comments []*persistence.Comment
	for _, op := range ops {
		switch {
		case op.like != nil:
			b.Likes = append(b.Likes, persistence.LikeChange{UserID: op.userID, Op: likeAction(op.like.GetOp())})
		case op.comment != nil:
			c := &persistence.Comment{ID: uuid.MustParse(op.comment.GetCommentId()), PostID: g.id,
				UserID: op.userID, Content: op.comment.GetContent()}
			comments = append(comments, c)
		case op.remove != nil:
			b.Removals = append(b.Removals, persistence.CommentRemoval{
				CommentID: uuid.MustParse(op.remove.GetCommentId()), UserID: op.userID})
		}
	}
	b.Comments = comments
	g.writing = true
	g.live.batches.Add(1)
	g.live.likes.Add(int64(len(b.Likes)))

	// The batch is the writer's now; the grain touches only ops, and the
	// comments once the result is back.
	self, root := ctx.Self(), ctx.ActorSystem().Root
	g.live.writer.submit(&writeJob{batch: b, member: g.cluster, done: func(res persistence.PostBatchResult, err error) {
		root.Send(self, &batchDone{ops: ops, res: res, comments: comments, err: err})
	}})
}

func likeAction(op LikeOp) domain.LikeAction {
	switch op {
	case LikeOp_LIKE_OP_LIKE:
		return domain.Like
	case LikeOp_LIKE_OP_UNLIKE:
		return domain.Unlike
	default:
		return domain.ToggleLike
	}
}

// done answers every request of a finished batch, publishes the new counts,
// asks the author's user grain to notify, and starts the next batch.
func (g *postGrain) done(ctx actor.Context, d *batchDone) {
	g.writing = false
	for _, op := range d.ops {
		if op.requestID != "" {
			delete(g.byRequest, op.requestID)
		}
	}
	if d.err != nil {
		f := Failure_FAILURE_INTERNAL
		switch {
		case errors.Is(d.err, persistence.ErrPostGone):
			f, g.gone = Failure_FAILURE_POST_NOT_FOUND, true
		case errors.Is(d.err, errFenced):
			// The member logged why (dropped, replaced, unconfirmed).
			g.live.cfg.Log.Debug().Err(d.err).Str("post_id", g.idText).Int("requests", len(d.ops)).
				Msg("post batch not written")
		default:
			g.live.cfg.Log.Error().Err(d.err).Str("post_id", g.idText).Int("requests", len(d.ops)).
				Msg("post batch failed")
		}
		for _, op := range d.ops {
			g.answer(ctx, op, failed(op, f))
		}
	} else {
		g.committed(ctx, d)
	}
	if g.gone {
		// Answer the rest at once and stop: a grain for a missing post
		// (a deleted one, or an id made up) should not linger.
		for _, op := range g.queue {
			g.answer(ctx, op, failed(op, Failure_FAILURE_POST_NOT_FOUND))
		}
		g.queue = nil
		for _, w := range g.flushWaiters {
			ctx.Send(w, &FlushResponse{})
		}
		g.flushWaiters = nil
		ctx.Poison(ctx.Self())
		return
	}
	g.write(ctx)
	if !g.writing && len(g.queue) == 0 {
		for _, w := range g.flushWaiters {
			ctx.Send(w, &FlushResponse{})
		}
		g.flushWaiters = nil
	}
}

func (g *postGrain) committed(ctx actor.Context, d *batchDone) {
	res := d.res
	g.author, g.likes, g.comments, g.known = res.AuthorID, res.LikesCount, res.CommentsCount, true
	g.reposts = res.RepostsCount
	g.version = res.CountsVersion
	li, ci, ri := 0, 0, 0
	for _, op := range d.ops {
		switch {
		case op.like != nil:
			r := &LikeResponse{IsLiked: res.Liked[li], LikesCount: int64(res.LikesCount), CountsVersion: res.CountsVersion}
			li++
			if op.requestID != "" {
				g.recent.put(op.requestID, r)
			}
			g.answer(ctx, op, r)
		case op.comment != nil:
			c := d.comments[ci]
			ci++
			g.answer(ctx, op, &AddCommentResponse{CommentsCount: int64(res.CommentsCount), CreatedAtMicros: c.CreatedAt.UnixMicro(),
				CountsVersion: res.CountsVersion})
		case op.remove != nil:
			r := &RemoveCommentResponse{CommentsCount: int64(res.CommentsCount), CountsVersion: res.CountsVersion}
			if err := res.RemovalErrs[ri]; err != nil {
				r = &RemoveCommentResponse{Failure: removalFailure(err)}
			}
			ri++
			g.answer(ctx, op, r)
		}
	}
	g.publishCounts()
	g.notifyAuthor(res)
}

func removalFailure(err error) Failure {
	if errors.Is(err, domain.ErrForbidden) {
		return Failure_FAILURE_FORBIDDEN
	}
	return Failure_FAILURE_COMMENT_NOT_FOUND
}

func failed(op *postOp, f Failure) any {
	switch {
	case op.like != nil:
		return &LikeResponse{Failure: f}
	case op.comment != nil:
		return &AddCommentResponse{Failure: f}
	default:
		return &RemoveCommentResponse{Failure: f}
	}
}

// answer sends r to everyone waiting for op, which is done.
func (g *postGrain) answer(ctx actor.Context, op *postOp, r any) {
	g.live.pending.Add(-1)
	send(ctx, op, r)
}

func send(ctx actor.Context, op *postOp, r any) {
	for _, s := range op.senders {
		if s != nil {
			ctx.Send(s, r)
		}
	}
}

// publishCounts hands counts that changed since the grain last published
// them to the node's count batcher, which sends every changed post of the
// node to every hub at the next tick of the node-wide clock (CountInterval):
// a post's counts at most once per interval, the last one always, a change
// within an interval of it happening.
func (g *postGrain) publishCounts() {
	if !g.known || (g.likes == g.sentLikes && g.comments == g.sentComments && g.reposts == g.sentReposts) {
		return
	}
	g.sentLikes, g.sentComments, g.sentReposts = g.likes, g.comments, g.reposts
	g.live.publishCounts(g.idText, g.likes, g.comments, g.reposts, g.version)
}

// notifyAuthor asks the author's user grain to notify of new likes (which
// it rolls up per post) and comments by others, and the grains of the
// people new comments mention. The grain does not wait:
// notifications are live extras, and the like is already answered.
func (g *postGrain) notifyAuthor(res persistence.PostBatchResult) {
	if res.AuthorID == uuid.Nil {
		return
	}
	var items []*Notify
	for _, u := range res.NewLikers {
		if u == res.AuthorID {
			continue
		}
		// Likes roll up into one notification per post (the user grain
		// updates it in place); a liker this activation already notified
		// of is not sent again, so unlike-and-like-again neither costs a
		// statement nor makes a read roll-up unread.
		if _, ok := g.notified[u]; ok {
			continue
		}
		if g.notified == nil || len(g.notified) >= maxNotified {
			g.notified = make(map[uuid.UUID]struct{})
		}
		g.notified[u] = struct{}{}
		items = append(items, &Notify{Id: persistence.NewID().String(), Type: persistence.NotifyLike,
			SenderId: u.String(), PostId: g.idText})
	}
	for _, c := range res.NewComments {
		// The people the comment mentions, each by their own grain (the
		// batch stored the mentions and chose whom to notify). The post's
		// author, when among them, is told of the mention instead of the
		// comment: "mentioned you in a comment" says more, and once.
		mentioned := false
		for _, u := range c.MentionNotices {
			if u == res.AuthorID {
				mentioned = true
				items = append(items, mentionItem(c.UserID, g.id, c.ID))
				continue
			}
			g.live.notifying.Add(1)
			go g.live.notify(g.cluster, u, []*Notify{mentionItem(c.UserID, g.id, c.ID)})
		}
		if c.UserID != res.AuthorID && !mentioned {
			items = append(items, &Notify{Id: persistence.NewID().String(), Type: persistence.NotifyComment,
				SenderId: c.UserID.String(), PostId: g.idText, CommentId: c.ID.String()})
		}
	}
	if len(items) == 0 {
		return
	}
	live, c, author := g.live, g.cluster, res.AuthorID
	live.notifying.Add(1)
	go live.notify(c, author, items)
}

// answerCache remembers the answers to the last toggles by request id,
// oldest evicted first; it grows only as toggles come. Owned by its grain's
// Receive.
type answerCache struct {
	size int
	m    map[string]*LikeResponse
	ring []string
	next int
}

func newAnswerCache(size int) *answerCache { return &answerCache{size: size} }

func (c *answerCache) get(id string) (*LikeResponse, bool) {
	r, ok := c.m[id]
	return r, ok
}

func (c *answerCache) put(id string, r *LikeResponse) {
	if c.m == nil {
		c.m = make(map[string]*LikeResponse)
	}
	if len(c.ring) < c.size {
		c.ring = append(c.ring, id)
	} else {
		delete(c.m, c.ring[c.next])
		c.ring[c.next] = id
		c.next = (c.next + 1) % c.size
	}
	c.m[id] = r
}
