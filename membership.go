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
// §4.4). When the cluster drops the node's member (cluster.Node.Dropped: it
// was paused, or cut off, for longer than the provider waits) the node is
// unready at once (the dropped member's Ready fails), closes its sockets
// with 1012 "service restart" (their clients reconnect, watch again, resume
// and re-read what they show: what they missed meanwhile is not lost),
// leaves, and joins again as a new member: the live core and the hub move
// to the new actor system, where the other members' broadcasts now arrive.
// It is ready again once the new member lists itself.
//
// Concurrency: node is safe from any goroutine; the rejoin loop is the only
// writer of cur. stop ends the loop and then the current member.
type membership struct {
	log  zerolog.Logger
	live *actors.Live
	cur  atomic.Pointer[cluster.Node]
	// failed reports a rejoin that cannot complete (the new hub could not
	// start): serve exits, and the supervisor starts the node afresh.
	failed chan error
	cancel context.CancelFunc
	done   chan struct{}
}

func newMembership(node *cluster.Node, live *actors.Live, log zerolog.Logger) *membership {
	m := &membership{log: log, live: live, failed: make(chan error, 1)}
	m.cur.Store(node)
	return m
}

// node is the current member.
func (m *membership) node() *cluster.Node { return m.cur.Load() }

// members is the number of members the current member sees.
func (m *membership) members() int { return m.node().Members() }

// run rejoins, until ctx ends, whenever the cluster drops the member.
func (m *membership) run(ctx context.Context, hub *realtime.Hub) {
	ctx, m.cancel = context.WithCancel(ctx)
	m.done = make(chan struct{})
	go func() {
		defer close(m.done)
		for {
			n := m.node()
			select {
			case <-ctx.Done():
				return
			case <-n.Dropped():
			}
			if err := m.rejoin(ctx, n, hub); err != nil {
				if ctx.Err() == nil {
					m.failed <- err
				}
				return
			}
		}
	}()
}

// rejoin replaces the dropped member n with a new one.
func (m *membership) rejoin(ctx context.Context, n *cluster.Node, hub *realtime.Hub) error {
	began := time.Now()
	m.log.Warn().Str("cluster_addr", n.Address()).
		Msg("cluster: this node was dropped by the cluster; unready, closing its sockets and rejoining as a new member")
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	if err := hub.CloseAll(cctx, realtime.CloseServiceRestart, realtime.RestartReason); err != nil {
		// The sockets still open go with the old member's actor system;
		// their clients reconnect when their pings go unanswered.
		m.log.Error().Err(err).Msg("cluster: close the sockets before rejoining")
	}
	cancel()
	next, err := n.Rejoin(ctx)
	if err != nil {
		return err
	}
	m.live.Start(next.Cluster, next.Addresses, next.Confirm)
	if err := hub.Move(next.System); err != nil {
		next.Stop()
		return fmt.Errorf("cluster: rejoined, but the hub did not start: %w", err)
	}
	m.cur.Store(next)
	m.log.Info().Str("cluster_addr", next.Address()).Int64("duration_ms", time.Since(began).Milliseconds()).
		Msg("cluster: rejoined as a new member")
	return nil
}

// stop ends the rejoin loop, then leaves the cluster with the current
// member (gracefully, docs/architecture.md §4.7).
func (m *membership) stop() {
	if m.cancel != nil {
		m.cancel()
		<-m.done
	}
	m.node().Stop()
}
