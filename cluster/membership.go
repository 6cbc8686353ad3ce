package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/automanaged"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// How a member finds out that the cluster dropped it (docs/architecture.md
// §4.4, "A member the cluster dropped").
//
// protoactor never takes a member back once it left a peer's topology: the
// peer blocks its ID for good. A member that was paused (SIGSTOP, a VM
// pause, a long stall) or cut off for longer than the provider waits (etcd:
// its lease and a grace; automanaged: one failed health check; Kubernetes:
// a failed readiness probe) comes back to peers that will never list it or
// send it a broadcast again, while it still lists them and answers
// readiness. Nothing in protoactor tells it so. So every member asks each
// peer it lists, every checkEvery, whether that peer blocks it (a small actor
// on every member answers); one that does means this member was dropped:
// Dropped is closed, Ready fails, and the owner of the Node rejoins as a new
// member (Rejoin: a new actor system, hence a new ID) after closing its
// sockets.
//
// The same check fences the writes of a member that was stalled: after a
// stall, its grains must not commit what waited in them (or in its sockets'
// buffers) before it knows it still owns them, since a peer may have taken
// the grains over and committed newer requests of the same users meanwhile.
// Confirm answers that.

const (
	// membershipName is the actor on every member that answers whether it
	// blocks a member.
	membershipName = "campus-membership"
	// checkEvery paces the checks; checkTimeout bounds one peer's answer.
	checkEvery   = time.Second
	checkTimeout = time.Second
	// beatEvery paces the heartbeat that notices a stall of this process;
	// stallAfter is a gap between two heartbeats that counts as one.
	beatEvery  = 100 * time.Millisecond
	stallAfter = time.Second
	// rejoinRetry paces attempts to start the new member of a Rejoin.
	rejoinRetry = time.Second
)

// ErrDropped means the cluster dropped this member: a peer blocks it, so it
// can come back only as a new member (Rejoin).
var ErrDropped = errors.New("cluster: the cluster dropped this member")

// watchdog is a member's side of the membership check. Times are
// nanoseconds since epoch on the monotonic clock, which runs on while the
// process is stopped.
//
// Concurrency: the atomics and channels are safe from any goroutine; wait
// is guarded by mu. The heartbeat and check goroutines end when quit closes.
type watchdog struct {
	epoch time.Time
	// beat is the last heartbeat; suspect the heartbeat that ended the
	// last stall (0: none yet); confirmed the start of the latest check
	// that every peer answered without blocking this member.
	beat, suspect, confirmed atomic.Int64

	dropped  chan struct{}
	dropOnce sync.Once
	wake     chan struct{} // asks the checker for a check now
	quit     chan struct{}
	quitOnce sync.Once
	done     sync.WaitGroup

	mu   sync.Mutex
	wait chan struct{} // closed at the next confirmation, then replaced
}

func (w *watchdog) now() int64 { return int64(time.Since(w.epoch)) }

// watchMembership spawns this member's membership actor and starts its
// heartbeat and checks; Stop and Rejoin end them.
func (n *Node) watchMembership() error {
	w := &watchdog{epoch: time.Now(), dropped: make(chan struct{}), wake: make(chan struct{}, 1),
		quit: make(chan struct{}), wait: make(chan struct{})}
	n.watch = w
	c := n.Cluster
	props := actor.PropsFromProducer(func() actor.Actor { return &membershipActor{cluster: c, database: n.o.Database} })
	if _, err := n.System.Root.SpawnNamed(props, membershipName); err != nil {
		return fmt.Errorf("cluster: spawn membership actor: %w", err)
	}
	w.done.Add(2)
	go n.heartbeat()
	go n.checks()
	return nil
}

// stopWatching ends the heartbeat and the checks and waits for them.
func (n *Node) stopWatching() {
	w := n.watch
	w.quitOnce.Do(func() { close(w.quit) })
	w.done.Wait()
}

// heartbeat notices when this process did not run for a while (stopped,
// paused, starved): the peers may have dropped it meanwhile, so its writes
// wait for a check that started after it resumed (Confirm).
func (n *Node) heartbeat() {
	w := n.watch
	defer w.done.Done()
	t := time.NewTicker(beatEvery)
	defer t.Stop()
	last := w.now()
	w.beat.Store(last)
	for {
		select {
		case <-w.quit:
			return
		case <-t.C:
		}
		now := w.now()
		if gap := time.Duration(now - last); gap > stallAfter {
			// suspect before beat: Confirm reads them in the other order,
			// so a fresh beat always comes with its suspicion.
			w.suspect.Store(now)
			n.log.Warn().Int64("stalled_ms", gap.Milliseconds()).
				Msg("cluster: this process did not run for a while; writes wait until the peers confirm it is still a member")
			w.nudge()
		}
		w.beat.Store(now)
		last = now
	}
}

// nudge asks the checker for a check now.
func (w *watchdog) nudge() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// checks runs a membership check every checkEvery, or at once when nudged,
// until the member stops or finds itself dropped.
func (n *Node) checks() {
	w := n.watch
	defer w.done.Done()
	t := time.NewTicker(checkEvery)
	defer t.Stop()
	for {
		select {
		case <-w.quit:
			return
		case <-w.dropped:
			return
		case <-t.C:
		case <-w.wake:
		}
		n.check()
	}
}

// check asks every peer this member lists whether it blocks this member.
// One that does drops it; when every peer answered and none does, the
// membership is confirmed from the check's start. A peer that does not
// answer (slow, gone, or an older version without the membership actor)
// proves nothing either way.
func (n *Node) check() {
	w := n.watch
	start := w.now()
	self, peers := n.selfAndPeers()
	futures := make([]*actor.Future, len(peers))
	for i, p := range peers {
		futures[i] = n.System.Root.RequestFuture(actor.NewPID(p.Address(), membershipName), self, checkTimeout)
	}
	answered := 0
	for i, f := range futures {
		res, err := f.Result()
		if err != nil {
			continue
		}
		t, ok := res.(*protocluster.ClusterTopology)
		if !ok {
			continue
		}
		answered++
		if slices.Contains(t.Blocked, self.Id) {
			n.drop(peers[i], len(t.Members))
			return
		}
	}
	if answered == len(peers) {
		w.confirm(start)
	}
}

// selfAndPeers answers this member as its provider lists it (the
// Kubernetes provider names members with IDs of its own; matched by
// address) and the other members it lists.
func (n *Node) selfAndPeers() (*protocluster.Member, []*protocluster.Member) {
	addr := n.System.Address()
	var self *protocluster.Member
	var peers []*protocluster.Member
	for _, m := range n.members.list() {
		if m.Address() == addr {
			self = m
		} else {
			peers = append(peers, m)
		}
	}
	if self == nil {
		host, port, _ := n.System.GetHostPort()
		self = &protocluster.Member{Id: n.System.ID, Host: host, Port: int32(port)}
	}
	return self, peers
}

// confirm records a check that started at start and confirmed the
// membership, and wakes the writes waiting for one.
func (w *watchdog) confirm(start int64) {
	for {
		cur := w.confirmed.Load()
		if start <= cur || w.confirmed.CompareAndSwap(cur, start) {
			break
		}
	}
	w.mu.Lock()
	close(w.wait)
	w.wait = make(chan struct{})
	w.mu.Unlock()
}

// next answers a channel closed at the next confirmation.
func (w *watchdog) next() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.wait
}

// drop records that peer blocks this member.
func (n *Node) drop(peer *protocluster.Member, peerMembers int) {
	w := n.watch
	w.dropOnce.Do(func() {
		n.log.Warn().Str("member", n.System.ID).Str("peer", peer.Address()).Int("peer_members", peerMembers).
			Msg("cluster: a peer blocks this member: the cluster dropped it, it must rejoin as a new member")
		close(w.dropped)
	})
}

// Dropped is closed once this member finds that the cluster dropped it
// (a peer blocks it). It never comes back: the node must Rejoin.
func (n *Node) Dropped() <-chan struct{} { return n.watch.dropped }

// fresh reports whether this member's writes may go ahead without a new
// check: its process has not stalled since the last confirmation.
func (w *watchdog) fresh() bool {
	beat := w.beat.Load()
	if time.Duration(w.now()-beat) > stallAfter {
		return false // stalled now, or just resumed and the heartbeat has not run yet
	}
	return w.suspect.Load() <= w.confirmed.Load()
}

// Confirm answers nil when this member may write: it has not stalled since
// its membership was last confirmed. After a stall it waits for a check
// that started after the stall (a few milliseconds when the peers answer)
// and answers ErrDropped if that check found the member dropped, or ctx's
// error if none confirmed it in time. The post grains' writer asks it
// before every transaction (actors.Live), so a member the cluster dropped
// while it was stopped does not commit, when it resumes, requests its
// peers have long answered 503 and may since have seen retried or
// superseded on the grains' new owners.
func (n *Node) Confirm(ctx context.Context) error {
	w := n.watch
	for {
		select {
		case <-w.dropped:
			return ErrDropped
		default:
		}
		select {
		case <-w.quit:
			return nil // stopped (Stop), not dropped: the drain's last batches still write
		default:
		}
		if w.fresh() {
			return nil
		}
		wait := w.next()
		if w.fresh() {
			return nil
		}
		w.nudge()
		t := time.NewTimer(beatEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("cluster: membership not confirmed after a stall: %w", ctx.Err())
		case <-w.dropped:
		case <-w.quit:
		case <-wait:
		case <-t.C:
		}
		t.Stop()
	}
}

// Rejoin makes a node the cluster dropped a member again: it leaves for
// good (its provider registration goes, its remoting port closes) and
// starts a new member with the same options, trying again every
// rejoinRetry until one starts or ctx ends. The new member has a new actor
// system, so everything bound to the old one (grains, the hub, sessions)
// must be started again on the new one.
func (n *Node) Rejoin(ctx context.Context) (*Node, error) {
	n.leave()
	return n.Restart(ctx)
}

// Restart starts a new member with n's options after n left (Stop or
// Rejoin), trying again every rejoinRetry until one starts or ctx ends.
func (n *Node) Restart(ctx context.Context) (*Node, error) {
	for {
		next, err := Start(ctx, n.o)
		if err == nil {
			return next, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		n.log.Warn().Err(err).Msg("cluster: rejoin failed, trying again")
		sleep(ctx, rejoinRetry)
	}
}

// manageWait bounds the wait for the automanaged provider's health server
// to serve a member that just started.
const manageWait = 3 * time.Second

// awaitProvider makes sure the provider serves this member before Start
// returns. protoactor's automanaged provider starts its health server in a
// goroutine and only logs when it cannot listen (its port taken: by the
// member a rejoin replaced, for a moment, or by anything else): the member
// would run unseen by every peer, for good. So its health endpoint must
// answer with this member's ID.
func (n *Node) awaitProvider(ctx context.Context) error {
	if _, ok := n.Cluster.Config.ClusterProvider.(*automanaged.AutoManagedProvider); !ok {
		return nil
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/_health", n.o.ManagePort)
	client := &http.Client{Timeout: 500 * time.Millisecond}
	deadline := time.Now().Add(manageWait)
	var last error
	for time.Now().Before(deadline) && ctx.Err() == nil {
		var node struct {
			ID string `json:"id"`
		}
		resp, err := client.Get(url)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&node)
			resp.Body.Close()
		}
		if err == nil && node.ID == n.System.ID {
			return nil
		}
		if err == nil {
			err = fmt.Errorf("it serves member %q", node.ID)
		}
		last = err
		sleep(ctx, 100*time.Millisecond)
	}
	return fmt.Errorf("cluster: the automanaged port %d does not serve this member: %w", n.o.ManagePort, last)
}

// leave ends a member that is not coming back, at once: no graceful
// hand-over (its peers dropped it already).
func (n *Node) leave() {
	if !n.stopped.CompareAndSwap(false, true) {
		return
	}
	n.stopWatching()
	// Cluster.Shutdown(false) leaves the provider running: ours would keep
	// the old member's key alive.
	if err := n.Cluster.Config.ClusterProvider.Shutdown(false); err != nil {
		n.log.Warn().Err(err).Msg("cluster: provider shutdown")
	}
	// Its remoting server stops at once (the peers' connections to it
	// break, and they connect to the new member instead); its own
	// connections to the peers are closed after that, which only the
	// graceful remoting shutdown does (the server, already stopped, is not
	// waited for).
	n.Cluster.Shutdown(false)
	n.Cluster.Remote.Shutdown(true)
}

// databaseQuestion asks a peer's membership actor whether it reaches its
// database (PeerReachesDatabase).
const databaseQuestion = "campus: do you reach the database?"

// PeerReachesDatabase reports whether some peer this member lists answers
// that it reaches its database (a good ping in its last few seconds), and
// how many of its peers answered at all. A node that cannot reach the
// database hands its grains over only then (the README's Network faults):
// when the database is out of reach for every node, leaving would only
// move the same failures around and close every socket. A peer that does
// not answer (cut off too, or an older version) counts as not reaching it.
func (n *Node) PeerReachesDatabase() (reaches bool, answered, peers int) {
	_, list := n.selfAndPeers()
	futures := make([]*actor.Future, len(list))
	for i, p := range list {
		futures[i] = n.System.Root.RequestFuture(actor.NewPID(p.Address(), membershipName),
			wrapperspb.String(databaseQuestion), checkTimeout)
	}
	for _, f := range futures {
		res, err := f.Result()
		if err != nil {
			continue
		}
		if b, ok := res.(*wrapperspb.BoolValue); ok {
			answered++
			reaches = reaches || b.GetValue()
		}
	}
	return reaches, answered, len(list)
}

// membershipActor answers a member's question "do you block me?" (a
// *protocluster.Member) with this member's topology: its members, and in
// Blocked the asker's ID if this member blocks it; and "do you reach the
// database?" (databaseQuestion) with Options.Database's answer, when the
// node set one. protoactor's own messages and protobuf's well-known
// wrappers carry them, so no message type of ours has to be known by every
// version in a rolling upgrade.
//
// Concurrency: it reads the member list and the block list, both safe from
// any goroutine, and calls database, which must not block.
type membershipActor struct {
	cluster  *protocluster.Cluster
	database func() bool
}

func (a *membershipActor) Receive(ctx actor.Context) {
	if ctx.Sender() == nil {
		return
	}
	if q, ok := ctx.Message().(*wrapperspb.StringValue); ok {
		if q.GetValue() == databaseQuestion && a.database != nil {
			ctx.Respond(wrapperspb.Bool(a.database()))
		}
		return
	}
	m, ok := ctx.Message().(*protocluster.Member)
	if !ok {
		return
	}
	t := &protocluster.ClusterTopology{Members: a.cluster.MemberList.Members().Members()}
	if a.cluster.Remote.BlockList().IsBlocked(m.GetId()) {
		t.Blocked = []string{m.GetId()}
	}
	ctx.Respond(t)
}
