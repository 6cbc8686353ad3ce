package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"campus/actors"
	"campus/cluster"
	"campus/realtime"
)

// membership keeps this node a member of the cluster (docs/architecture.md
// §4.4), and out of it while it cannot serve its grains.
//
// When the cluster drops the node's member (cluster.Node.Dropped: it was
// paused, or cut off, for longer than the provider waits) the node is
// unready at once (the dropped member's Ready fails), closes its sockets
// with 1012 "service restart" (their clients reconnect, watch again, resume
// and re-read what they show: what they missed meanwhile is not lost),
// leaves, and joins again as a new member: the live core and the hub move
// to the new actor system, where the other members' broadcasts now arrive.
// It is ready again once the new member lists itself.
//
// When the node cannot reach the database for stepOutAfter while a peer
// can, it steps out the same way, but leaves gracefully (its grains go to
// the peers, which can write them) and joins again only once the database
// answers. Otherwise every like on a post whose grain it owns would wait
// for the write timeout and fail, through whichever node it came, for the
// whole outage (15.9 s of 503s in the README's network-fault table). When
// no peer reaches the database either, it stays: leaving would only move
// the failures and close every socket of the cluster.
//
// Concurrency: node and reach are safe from any goroutine; the rejoin
// loop is the only writer of cur; the database watch the only writer of
// reach. stop ends both loops and then the current member.
type membership struct {
	log  zerolog.Logger
	live *actors.Live
	cur  atomic.Pointer[cluster.Node]
	// ping asks the database whether it answers (nil: never stepped out).
	ping func(context.Context) error
	// reach keeps the pings' answers; peers read it through their
	// membership check (cluster.Options.Database).
	reach *dbReach
	// lastStay is when the watch last logged that it stays although the
	// database is out of reach (no peer reaches it either).
	lastStay time.Time
	// cutOff wakes the rejoin loop when the database is out of reach and
	// a peer reaches it; away is set while the node is out (stepOut), when
	// the watch only keeps reachable.
	cutOff chan struct{}
	away   atomic.Bool
	// failed reports a rejoin that cannot complete (the new hub could not
	// start): serve exits, and the supervisor starts the node afresh.
	failed chan error
	cancel context.CancelFunc
	done   chan struct{}
}

// The database watch: a ping every pingEvery, each bounded by pingTimeout;
// out of reach for stepOutAfter (every ping since failed) makes the node
// step out if a peer reaches it.
const (
	pingEvery    = time.Second
	pingTimeout  = 2 * time.Second
	stepOutAfter = 4 * time.Second
	// reachWindow is how recent a good ping must be for this node to tell
	// a peer that it reaches the database. One slow ping on a loaded
	// machine is not an outage, and a peer asking whether to step out
	// needs "I reached it a moment ago", not "my very last ping was in
	// time" (a fresh clone beside a busy machine saw a cut node stay for
	// a minute, its peers' last pings late).
	reachWindow = 5 * time.Second
	// stayLogEvery paces the log line of a node that stays cut off.
	stayLogEvery = 10 * time.Second
)

// dbReach is what the database watch learned: the last ping's answer, and
// when a ping last succeeded. Safe from any goroutine.
type dbReach struct {
	last     atomic.Bool
	lastGood atomic.Int64 // unix nanoseconds
}

// newDBReach starts as reaching: a node starts only after its database
// answered.
func newDBReach() *dbReach {
	r := &dbReach{}
	r.record(nil)
	return r
}

func (r *dbReach) record(err error) {
	r.last.Store(err == nil)
	if err == nil {
		r.lastGood.Store(time.Now().UnixNano())
	}
}

// now reports whether the last ping succeeded.
func (r *dbReach) now() bool { return r.last.Load() }

// recently reports whether a ping succeeded within reachWindow: the answer
// peers get (cluster.Options.Database).
func (r *dbReach) recently() bool {
	return time.Since(time.Unix(0, r.lastGood.Load())) < reachWindow
}

// newMembership keeps node a member; reachable is the flag the node's
// membership actor answers peers with (cluster.Options.Database).
func newMembership(node *cluster.Node, live *actors.Live, log zerolog.Logger,
	ping func(context.Context) error, reach *dbReach) *membership {
	m := &membership{log: log, live: live, ping: ping, reach: reach,
		cutOff: make(chan struct{}, 1), failed: make(chan error, 1)}
	m.cur.Store(node)
	return m
}

// node is the current member.
func (m *membership) node() *cluster.Node { return m.cur.Load() }

// members is the number of members the current member sees.
func (m *membership) members() int { return m.node().Members() }

// run rejoins, until ctx ends, whenever the cluster drops the member, and
// steps out while the database is out of reach of this node only.
func (m *membership) run(ctx context.Context, hub *realtime.Hub) {
	ctx, m.cancel = context.WithCancel(ctx)
	m.done = make(chan struct{})
	if m.ping != nil {
		go m.watchDatabase(ctx)
	}
	go func() {
		defer close(m.done)
		for {
			n := m.node()
			var err error
			select {
			case <-ctx.Done():
				return
			case <-n.Dropped():
				err = m.rejoin(ctx, n, hub)
			case <-m.cutOff:
				err = m.stepOut(ctx, n, hub)
			}
			if err != nil {
				if ctx.Err() == nil {
					m.failed <- err
				}
				return
			}
		}
	}()
}

// watchDatabase pings the database until ctx ends, keeps reachable, and
// wakes the rejoin loop (cutOff) when every ping for stepOutAfter failed
// and a peer reaches the database.
func (m *membership) watchDatabase(ctx context.Context) {
	var downSince time.Time // the start of the first failed ping since the last good one
	for {
		began := time.Now()
		pctx, cancel := context.WithTimeout(ctx, pingTimeout)
		err := m.ping(pctx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		m.reach.record(err)
		switch {
		case err == nil:
			downSince = time.Time{}
		case downSince.IsZero():
			downSince = began
		case m.away.Load():
		case time.Since(downSince) >= stepOutAfter:
			m.decideStepOut(err, time.Since(downSince), &downSince)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pingEvery):
		}
	}
}

// decideStepOut asks the peers whether they reach the database, after this
// node failed to for down, and wakes the rejoin loop's step-out if one
// does; else it stays, and says so now and then (an operator looking at a
// node cut from the database wants to know why it is still a member).
func (m *membership) decideStepOut(err error, down time.Duration, downSince *time.Time) {
	reaches, answered, peers := m.node().PeerReachesDatabase()
	if reaches {
		m.log.Warn().Err(err).Int64("down_ms", down.Milliseconds()).
			Msg("cluster: the database is out of reach of this node but not of its peers; handing the grains over")
		select {
		case m.cutOff <- struct{}{}:
		default:
		}
		*downSince = time.Time{}
		return
	}
	if time.Since(m.lastStay) >= stayLogEvery {
		m.lastStay = time.Now()
		m.log.Warn().Err(err).Int64("down_ms", down.Milliseconds()).Int("peers", peers).Int("peers_answered", answered).
			Msg("cluster: the database is out of reach of this node, and no peer reports reaching it; staying a member")
	}
}

// rejoin replaces the dropped member n with a new one.
func (m *membership) rejoin(ctx context.Context, n *cluster.Node, hub *realtime.Hub) error {
	began := time.Now()
	m.log.Warn().Str("cluster_addr", n.Address()).
		Msg("cluster: this node was dropped by the cluster; unready, closing its sockets and rejoining as a new member")
	m.closeSockets(ctx, hub)
	next, err := n.Rejoin(ctx)
	if err != nil {
		return err
	}
	return m.replace(next, hub, began, "cluster: rejoined as a new member")
}

// stepOut takes n out of the cluster gracefully (its grains go to the
// peers), waits until the database answers again, and joins as a new
// member.
func (m *membership) stepOut(ctx context.Context, n *cluster.Node, hub *realtime.Hub) error {
	began := time.Now()
	m.away.Store(true)
	defer m.away.Store(false)
	m.closeSockets(ctx, hub)
	n.Stop()
	m.log.Warn().Str("cluster_addr", n.Address()).
		Msg("cluster: out of the cluster until the database answers again")
	for !m.reach.now() {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(pingEvery / 4):
		}
	}
	next, err := n.Restart(ctx)
	if err != nil {
		return err
	}
	return m.replace(next, hub, began, "cluster: the database answers again; back in the cluster as a new member")
}

// closeSockets closes every socket of the node with 1012, so its clients
// reconnect to a node that serves them.
func (m *membership) closeSockets(ctx context.Context, hub *realtime.Hub) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := hub.CloseAll(cctx, realtime.CloseServiceRestart, realtime.RestartReason); err != nil {
		// The sockets still open go with the old member's actor system;
		// their clients reconnect when their pings go unanswered.
		m.log.Error().Err(err).Msg("cluster: close the sockets before leaving")
	}
}

// replace makes next the current member: the live core and the hub move to
// its actor system.
func (m *membership) replace(next *cluster.Node, hub *realtime.Hub, began time.Time, msg string) error {
	m.live.Start(next.Cluster, next.Addresses, next.Confirm)
	if err := hub.Move(next.System); err != nil {
		next.Stop()
		return fmt.Errorf("cluster: rejoined, but the hub did not start: %w", err)
	}
	m.cur.Store(next)
	m.log.Info().Str("cluster_addr", next.Address()).Int64("duration_ms", time.Since(began).Milliseconds()).Msg(msg)
	return nil
}

// stop ends the loops, then leaves the cluster with the current member
// (gracefully, docs/architecture.md §4.7).
func (m *membership) stop() {
	if m.cancel != nil {
		m.cancel()
		<-m.done
	}
	m.node().Stop()
}
