package actors

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"
	"google.golang.org/protobuf/proto"

	"campus/domain"
	"campus/persistence"
	"campus/protocol"
)

// Grain kinds (docs/architecture.md §4.1, §4.2); a grain's identity is the post or user id.
const (
	PostKind = "post"
	UserKind = "user"
)

// HubName is the name of the hub actor on every member, so that any node can
// address every other node's hub from the member list alone.
const HubName = "campus-hub"

// Defaults of Config.
const (
	DefaultIdle          = 5 * time.Minute
	DefaultCountInterval = 250 * time.Millisecond
	DefaultMaxBatch      = 500
	DefaultCallTimeout   = 2 * time.Second
	DefaultWriteTimeout  = 10 * time.Second
	DefaultWriters       = 4
	DefaultMaxPending    = 4_000
)

// maxTxPosts caps the posts one shared transaction writes.
const maxTxPosts = 256

// RenderFunc renders what a new or rolled-up notification (with its actors,
// newest first) pushes to its user's sockets: the personal event (post:like,
// post:comment) if any, then the `notification` event carrying unread, the
// user's unread count. The app layer owns these JSON shapes; serve.go passes
// app.NotificationFrames.
type RenderFunc func(n *persistence.Notification, unread int) ([][]byte, error)

// Config configures the live core.
type Config struct {
	DB  bun.IDB
	Log zerolog.Logger
	// Render turns new notifications into frames. Required.
	Render RenderFunc
	// RenderMessages turns a conversation's new messages into message:new
	// frames; nil: the conversation grains store messages without pushing
	// them (tests of storage alone).
	RenderMessages MessageRenderFunc
	// Idle is how long a grain stays active without messages (default 5 min).
	Idle time.Duration
	// CountInterval is the node-wide clock of live counts: a socket gets
	// its watched posts' changed counts at most once per interval (default
	// 250 ms), at its own phase of it, and the last count always.
	CountInterval time.Duration
	// MaxBatch caps the actions one post transaction carries (default 500).
	MaxBatch int
	// CallTimeout bounds one grain call made by the app (default 2 s).
	CallTimeout time.Duration
	// WriteTimeout bounds one batch transaction (default 10 s).
	WriteTimeout time.Duration
	// Writers is how many shared transactions of post batches the node
	// runs at once (default 4: in the bench's campus event on the 2-core
	// machine, 1, 2 and 4 acknowledged 746, 722 and 958 likes/s, with 217,
	// 25 and 0 likes answered 503; commits wait on the disk more than on
	// the cores).
	Writers int
	// RepairWindow is how far back a repair after a lost member looks for
	// messages to push again (default 30 s, by the database's clock): the
	// loss is seen within seconds, so a message the lost member stored and
	// did not push is younger than that. It also bounds how old the
	// original of a retried send may be to be pushed again.
	RepairWindow time.Duration
	// MaxQueue bounds the requests one post grain holds waiting for a
	// transaction (default 2 × MaxBatch); MaxPending bounds the post
	// grains' requests accepted and not yet answered on the node (default
	// 4,000). Past either, a request is refused at once as unavailable
	// (503 + Retry-After) rather than queued to time out. The bench's
	// campus event committed ~900 likes/s on the loaded 2-core machine
	// (more when idle): 4,000 waiting is about the 2 s call timeout's worth
	// of commits, and above the event's 2,000 likers with one like each in
	// flight.
	MaxQueue, MaxPending int
}

// Stats count the post grains' work on this node, for tests, metrics and the
// benchmark: how many transactions carried how many like actions.
type Stats struct {
	Batches      int64 // post batches committed or failed
	Likes        int64 // like actions they carried
	Transactions int64 // shared transactions that carried the batches
	Refused      int64 // requests refused because a queue was full
	// Pending are the post grains' requests accepted and not yet answered;
	// WriterQueue the batches waiting for the node's writer. Both are
	// depths now, not counts so far.
	Pending     int64
	WriterQueue int
	// Repaired counts the conversations whose recent messages a repair
	// after a lost member pushed again from this node.
	Repaired int64
}

// Live is a node's live core: it builds the grain kinds, addresses the hubs, and
// is the app's client of the grains (app.PostGrains and app.Pusher). Safe for
// concurrent use once Start has returned.
type Live struct {
	cfg Config

	// cur is the cluster member this node is now (set by Start, again
	// after each rejoin); members holds every member Start was given, by
	// its cluster, so that a grain of a member that was replaced is
	// known as one (its writes are refused).
	cur     atomic.Pointer[member]
	members sync.Map // *cluster.Cluster → *member

	batches atomic.Int64
	likes   atomic.Int64
	// active holds the PIDs of this node's post grains, with the cluster
	// they run in, so that shutdown can ask each to flush.
	active sync.Map // *actor.PID → *cluster.Cluster
	// notifying counts the post grains' notification requests in flight,
	// which shutdown waits for too.
	notifying atomic.Int64
	// writer commits the post grains' batches, many posts per
	// transaction.
	writer *writer
	// pending counts the post grains' requests accepted and not yet
	// answered on this node; refused counts those turned away because a
	// queue was full (docs/architecture.md §4.1, backpressure).
	pending, refused atomic.Int64
	// counts batches the post grains' live counts into one broadcast per
	// tick (counts.go).
	counts countBatcher
	// repairing counts the repairs after lost members running; repaired the
	// conversations they pushed again (repair.go). dropPushes makes the
	// conversation grains skip their pushes, as a node killed between the
	// answer and the push would (tests only).
	repairing, repaired atomic.Int64
	dropPushes          atomic.Bool
}

// New makes the live core; pass Kinds to the cluster, then call Start.
func New(cfg Config) *Live {
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.CountInterval <= 0 {
		cfg.CountInterval = DefaultCountInterval
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = DefaultMaxBatch
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.Writers <= 0 {
		cfg.Writers = DefaultWriters
	}
	if cfg.MaxQueue <= 0 {
		cfg.MaxQueue = 2 * cfg.MaxBatch
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = DefaultMaxPending
	}
	if cfg.RepairWindow <= 0 {
		cfg.RepairWindow = DefaultRepairWindow
	}
	l := &Live{cfg: cfg, writer: newWriter(cfg.DB, cfg.WriteTimeout, cfg.Writers, maxTxPosts, 4*cfg.MaxBatch)}
	l.writer.confirm = l.mayWrite
	return l
}

// member is one cluster membership of this node as the live core uses it.
// A node the cluster dropped rejoins as a new member, with a new actor
// system (cluster.Node.Rejoin), and Start is called again with it.
type member struct {
	cluster *cluster.Cluster
	// addresses answers the remoting addresses of the members this node
	// sees: a copy kept from the topology events, never protoactor's own
	// member list, which a topology update replaces while it is read.
	addresses  func() []string
	departures *departures
	// repairs starts the repair after lost members (repair.go).
	repairs *eventstream.Subscription
	// confirm answers whether the member may write now (nil: always).
	confirm func(context.Context) error
	// retired is set once a newer member replaced this one.
	retired atomic.Bool
}

// Kinds are the grain kinds this node hosts.
func (l *Live) Kinds() []*cluster.Kind {
	return []*cluster.Kind{
		cluster.NewKind(PostKind, actor.PropsFromProducer(func() actor.Actor { return newPostGrain(l) })),
		cluster.NewKind(UserKind, actor.PropsFromProducer(func() actor.Actor { return newUserGrain(l) })),
		cluster.NewKind(ConversationKind, actor.PropsFromProducer(func() actor.Actor { return newConversationGrain(l) })),
	}
}

// Start makes the client usable. Call it after the cluster member has
// started: a PID made before carries the address "nonhost" and remote sends
// to it are dead letters (docs/architecture.md §4.3). members answers the remoting
// addresses of the members the node sees (cluster.Node.Addresses), whose
// hubs (realtime.StartHub, under HubName) get the live events; it must be
// safe from any goroutine. confirm (cluster.Node.Confirm; nil: none) is
// asked before every transaction of the member's post grains: after the
// node stalled it holds the writes until the peers confirm the node is
// still a member, so a node they dropped meanwhile does not commit
// requests its grains' new owners have answered since.
//
// Called again with a new member after the node rejoined the cluster: the
// client switches to it, and the grains of the replaced member may no
// longer write (their requests are answered "unavailable, retry").
func (l *Live) Start(c *cluster.Cluster, members func() []string, confirm func(context.Context) error) {
	m := &member{cluster: c, addresses: members, departures: newDepartures(c.ActorSystem.EventStream), confirm: confirm}
	m.repairs = l.followDepartures(m)
	l.members.Store(c, m)
	old := l.cur.Swap(m)
	if old == nil {
		return
	}
	old.retired.Store(true)
	old.cluster.ActorSystem.EventStream.Unsubscribe(old.departures.sub)
	old.cluster.ActorSystem.EventStream.Unsubscribe(old.repairs)
	l.active.Range(func(k, v any) bool {
		if v != c {
			l.active.Delete(k) // the replaced member's grains are not flushed at shutdown
		}
		return true
	})
}

// errRetired refuses the writes of a grain whose member a rejoin replaced.
var errRetired = errors.New("actors: this grain's cluster member was replaced")

// mayWrite answers whether the post grains of c may write now.
func (l *Live) mayWrite(ctx context.Context, c *cluster.Cluster) error {
	v, ok := l.members.Load(c)
	if !ok {
		// A member Start has not been given yet (its first grains may come
		// a moment before): not a replaced one, which are all known.
		return nil
	}
	m := v.(*member)
	if m.retired.Load() {
		return errRetired
	}
	if m.confirm == nil {
		return nil
	}
	return m.confirm(ctx)
}

// PostsBy answers which of ids are posts written by author, for the hub's
// drop of watches on a block (realtime.HubOptions.PostsBy).
func (l *Live) PostsBy(ctx context.Context, author uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	return persistence.PostsByAmong(ctx, l.cfg.DB, author, ids)
}

// Stats are the post grains' counters on this node so far.
func (l *Live) Stats() Stats {
	return Stats{Batches: l.batches.Load(), Likes: l.likes.Load(),
		Transactions: l.writer.txs.Load(), Refused: l.refused.Load(),
		Pending: l.pending.Load(), WriterQueue: l.writer.queued(), Repaired: l.repaired.Load()}
}

// Drain asks every post grain on this node to finish what it has queued and
// waits until they have (or ctx ends): graceful shutdown calls it after the
// HTTP server stopped taking requests and before the cluster leaves.
func (l *Live) Drain(ctx context.Context) {
	m := l.cur.Load()
	if m == nil {
		return
	}
	var wg sync.WaitGroup
	l.active.Range(func(k, v any) bool {
		if v != m.cluster {
			return true
		}
		pid := k.(*actor.PID)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = m.cluster.ActorSystem.Root.RequestFuture(pid, &FlushRequest{}, remaining(ctx, l.cfg.WriteTimeout)).Result()
		}()
		return true
	})
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return
	}
	// The flushed batches may have asked user grains to notify; those
	// answer once their notifications are committed.
	for l.notifying.Load() > 0 {
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// errBusy is a post grain's request that was not carried out: refused by a
// full queue, or its transaction failed. Sending it again is safe; callers
// test for it with errors.Is(err, domain.ErrWriteFailed).
var errBusy = domain.ErrWriteFailed

// ErrNotStarted means the live core is used before Start.
var ErrNotStarted = errors.New("actors: live core not started")

// request calls a grain and waits for its answer, within the call timeout
// and ctx's deadline.
func (l *Live) request(ctx context.Context, identity, kind string, msg proto.Message) (any, error) {
	m := l.cur.Load()
	if m == nil {
		return nil, ErrNotStarted
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("actors: %s grain: %w", kind, err)
	}
	res, err := l.call(m, identity, kind, msg, time.Now().Add(remaining(ctx, l.cfg.CallTimeout)))
	if err != nil {
		return nil, fmt.Errorf("actors: %s grain: %w", kind, err)
	}
	if res == nil {
		return nil, fmt.Errorf("actors: %s grain: no answer", kind)
	}
	return res, nil
}

// remaining is d, or less if ctx ends sooner.
func remaining(ctx context.Context, d time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < d {
			return max(left, time.Millisecond)
		}
	}
	return d
}

// failure maps a grain's refusal to the error the app shows. FAILURE_INTERNAL
// (a full queue, a transaction that failed) did nothing and is answered 503
// with Retry-After: the client sends it again, with the same request id.
func failure(f Failure) error {
	switch f {
	case Failure_FAILURE_NONE:
		return nil
	case Failure_FAILURE_POST_NOT_FOUND:
		return domain.NotFound(domain.MsgPostNotFound)
	case Failure_FAILURE_COMMENT_NOT_FOUND:
		return domain.NotFound(domain.MsgCommentGone)
	case Failure_FAILURE_FORBIDDEN:
		return domain.Forbidden(domain.MsgNotYourRemark)
	default:
		return errBusy
	}
}

// protoLikeOp and likeAction (post_grain.go) convert the like action to the
// grains' protobuf enum and back: the only place the two meet.
func protoLikeOp(a domain.LikeAction) LikeOp {
	switch a {
	case domain.Like:
		return LikeOp_LIKE_OP_LIKE
	case domain.Unlike:
		return LikeOp_LIKE_OP_UNLIKE
	case domain.ToggleLike:
		return LikeOp_LIKE_OP_TOGGLE
	}
	return LikeOp_LIKE_OP_UNSPECIFIED
}

// Like sends a like action to the post's grain and answers, once it is
// committed, whether the user likes the post, the post's like count and its
// counts version. requestID names the action across the app's retry.
func (l *Live) Like(ctx context.Context, postID, userID uuid.UUID, action domain.LikeAction, requestID string) (bool, int, int64, error) {
	res, err := l.request(ctx, postID.String(), PostKind,
		&LikeRequest{UserId: userID.String(), Op: protoLikeOp(action), RequestId: requestID})
	if err != nil {
		return false, 0, 0, err
	}
	r, ok := res.(*LikeResponse)
	if !ok {
		return false, 0, 0, fmt.Errorf("actors: post grain answered %T", res)
	}
	if err := failure(r.Failure); err != nil {
		return false, 0, 0, err
	}
	return r.IsLiked, int(r.LikesCount), r.CountsVersion, nil
}

// AddComment stores c (ID, PostID, UserID and Content set) through the
// post's grain, fills its CreatedAt, and answers the post's comment count
// and counts version.
func (l *Live) AddComment(ctx context.Context, c *persistence.Comment) (int, int64, error) {
	res, err := l.request(ctx, c.PostID.String(), PostKind,
		&AddCommentRequest{CommentId: c.ID.String(), UserId: c.UserID.String(), Content: c.Content})
	if err != nil {
		return 0, 0, err
	}
	r, ok := res.(*AddCommentResponse)
	if !ok {
		return 0, 0, fmt.Errorf("actors: post grain answered %T", res)
	}
	if err := failure(r.Failure); err != nil {
		return 0, 0, err
	}
	c.CreatedAt = time.UnixMicro(r.CreatedAtMicros).UTC()
	c.UpdatedAt = c.CreatedAt
	return int(r.CommentsCount), r.CountsVersion, nil
}

// RemoveComment deletes a comment through the post's grain if userID wrote
// it or the post, and answers the post's comment count and counts version.
func (l *Live) RemoveComment(ctx context.Context, postID, commentID, userID uuid.UUID) (int, int64, error) {
	res, err := l.request(ctx, postID.String(), PostKind,
		&RemoveCommentRequest{CommentId: commentID.String(), UserId: userID.String()})
	if err != nil {
		return 0, 0, err
	}
	r, ok := res.(*RemoveCommentResponse)
	if !ok {
		return 0, 0, fmt.Errorf("actors: post grain answered %T", res)
	}
	if err := failure(r.Failure); err != nil {
		return 0, 0, err
	}
	return int(r.CommentsCount), r.CountsVersion, nil
}

// PostDeleted tells every node's watchers of the post that it is gone.
func (l *Live) PostDeleted(_ context.Context, postID uuid.UUID) error {
	if l.cur.Load() == nil {
		return ErrNotStarted
	}
	f, err := protocol.Frame(protocol.EventPostDeleted, protocol.PostDeleted{PostID: postID.String()})
	if err != nil {
		return err
	}
	l.broadcast(&DeliverToWatchers{PostId: postID.String(), Frames: [][]byte{f}, Forget: true})
	return nil
}

// PushToUsers sends one event to every open socket of each of users, on
// every node: one DeliverToUsers broadcast, the frame encoded once, however
// many people get it (app.Fanout). Like PostDeleted it skips the user
// grains: nothing is stored, and an event for hundreds of friends would
// otherwise cost a grain call each. Who may receive it is the caller's
// decision (blocks, mutes).
func (l *Live) PushToUsers(_ context.Context, users []uuid.UUID, event string, data any) error {
	if l.cur.Load() == nil {
		return ErrNotStarted
	}
	if len(users) == 0 {
		return nil
	}
	f, err := protocol.Frame(event, data)
	if err != nil {
		return err
	}
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.String()
	}
	l.broadcast(&DeliverToUsers{UserIds: ids, Frames: [][]byte{f}})
	return nil
}

// PushToWatchers sends one event to every socket watching the post, on
// every node (app.Fanout): post:edited.
func (l *Live) PushToWatchers(_ context.Context, postID uuid.UUID, event string, data any) error {
	if l.cur.Load() == nil {
		return ErrNotStarted
	}
	f, err := protocol.Frame(event, data)
	if err != nil {
		return err
	}
	l.broadcast(&DeliverToWatchers{PostId: postID.String(), Frames: [][]byte{f}})
	return nil
}

// PushToUser sends an event to every open socket of the user on every node,
// through the user's grain (app.Pusher). It is not retried: a push that
// timed out may still have gone out, and a lost push loses nothing, since
// clients re-fetch on reconnect.
func (l *Live) PushToUser(ctx context.Context, userID uuid.UUID, event string, data any) error {
	f, err := protocol.Frame(event, data)
	if err != nil {
		return err
	}
	res, err := l.request(ctx, userID.String(), UserKind, &PushRequest{Frame: f})
	if err != nil {
		return err
	}
	if _, ok := res.(*PushResponse); !ok {
		return fmt.Errorf("actors: user grain answered %T", res)
	}
	return nil
}

// NotifyUser asks the user's grain to create one notification of typ from
// sender (app.Notifier: a profile like), and answers once it is committed
// and pushed. Like notify it may be repeated: the id is made here once.
func (l *Live) NotifyUser(ctx context.Context, userID uuid.UUID, typ string, sender uuid.UUID) error {
	msg := &NotifyRequest{Items: []*Notify{{Id: persistence.NewID().String(), Type: typ, SenderId: sender.String()}}}
	res, err := l.request(ctx, userID.String(), UserKind, msg)
	if err != nil {
		return err
	}
	r, ok := res.(*NotifyResponse)
	if !ok {
		return fmt.Errorf("actors: user grain answered %T", res)
	}
	return failure(r.Failure)
}

// NotifyMentioned asks the grain of each of users to notify them that
// author mentioned them in the post (commentID zero) or in one of its
// comments (app.PostGrains), all at once, and answers when every grain has
// committed or failed (the failures joined). The grain rolls the mention
// up per person and post and pushes it live.
func (l *Live) NotifyMentioned(ctx context.Context, author, postID, commentID uuid.UUID, users []uuid.UUID) error {
	errs := make([]error, len(users))
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Go(func() {
			errs[i] = l.requestNotify(ctx, u, mentionItem(author, postID, commentID))
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// mentionItem is the notification of a mention by author in the post or
// its comment (zero: none).
func mentionItem(author, postID, commentID uuid.UUID) *Notify {
	n := &Notify{Id: persistence.NewID().String(), Type: persistence.NotifyMention, SenderId: author.String(), PostId: postID.String()}
	if commentID != uuid.Nil {
		n.CommentId = commentID.String()
	}
	return n
}

// requestNotify asks user's grain for one notification and waits for it.
func (l *Live) requestNotify(ctx context.Context, user uuid.UUID, item *Notify) error {
	res, err := l.request(ctx, user.String(), UserKind, &NotifyRequest{Items: []*Notify{item}})
	if err != nil {
		return err
	}
	r, ok := res.(*NotifyResponse)
	if !ok {
		return fmt.Errorf("actors: user grain answered %T", res)
	}
	return failure(r.Failure)
}

// NotifyPost asks the user's grain to create one notification of typ
// about post from sender (app.PostGrains: a repost, rolled up per post like
// likes), and answers once it is committed and pushed.
func (l *Live) NotifyPost(ctx context.Context, userID uuid.UUID, typ string, sender, post uuid.UUID) error {
	return l.requestNotify(ctx, userID, &Notify{Id: persistence.NewID().String(), Type: typ, SenderId: sender.String(), PostId: post.String()})
}

// notify asks the user's grain to create notifications, retrying once: the
// ids make a repeat harmless. Called from a post grain's goroutine, after
// the grain counted it in notifying.
func (l *Live) notify(c *cluster.Cluster, userID uuid.UUID, items []*Notify) {
	defer l.notifying.Add(-1)
	msg := &NotifyRequest{Items: items}
	var err error
	for range 2 {
		var res any
		res, err = c.Request(userID.String(), UserKind, msg, cluster.WithTimeout(l.cfg.CallTimeout))
		if err == nil {
			if r, ok := res.(*NotifyResponse); ok && r.Failure == Failure_FAILURE_NONE {
				return
			}
			err = fmt.Errorf("actors: user grain answered %v", res)
		}
	}
	l.cfg.Log.Warn().Err(err).Str("user_id", userID.String()).Int("notifications", len(items)).
		Msg("notifications not created")
}

// broadcast sends msg to the hub of every cluster member, this one included
// even if the member list does not show it yet.
func (l *Live) broadcast(msg proto.Message) {
	m := l.cur.Load()
	root := m.cluster.ActorSystem.Root
	self := m.cluster.ActorSystem.Address()
	sawSelf := false
	for _, addr := range m.addresses() {
		sawSelf = sawSelf || addr == self
		root.Send(actor.NewPID(addr, HubName), msg)
	}
	if !sawSelf {
		root.Send(actor.NewPID(self, HubName), msg)
	}
}

// Online reports whether the user has a socket open on any member of the
// cluster: every member's hub is asked at once, within the call timeout and
// ctx. A member that does not answer (going away, or an older version in a
// rolling upgrade) counts as having none; an error means no member answered.
func (l *Live) Online(ctx context.Context, userID uuid.UUID) (bool, error) {
	m := l.cur.Load()
	if m == nil {
		return false, ErrNotStarted
	}
	root := m.cluster.ActorSystem.Root
	timeout := remaining(ctx, l.cfg.CallTimeout)
	msg := &SocketsOfUserRequest{UserId: userID.String()}
	addrs := []string{m.cluster.ActorSystem.Address()}
	for _, a := range m.addresses() {
		if a != addrs[0] {
			addrs = append(addrs, a)
		}
	}
	futures := make([]*actor.Future, len(addrs))
	for i, a := range addrs {
		futures[i] = root.RequestFuture(actor.NewPID(a, HubName), msg, timeout)
	}
	var lastErr error
	answered := 0
	for _, f := range futures {
		res, err := f.Result()
		if err != nil {
			lastErr = err
			continue
		}
		r, ok := res.(*SocketsOfUserResponse)
		if !ok {
			lastErr = fmt.Errorf("hub answered %T", res)
			continue
		}
		answered++
		if r.GetSockets() > 0 {
			return true, nil
		}
	}
	if answered == 0 {
		return false, fmt.Errorf("actors: sockets of user: %w", lastErr)
	}
	return false, nil
}
