package actors

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/asynkron/protoactor-go/remote"
)

// departures tells grain calls in flight that members left the topology.
// A call whose grain lived on a member that died waits for an answer that
// cannot come: protoactor's own Request waits out its whole timeout and
// only then retries, so a kill turned every call in flight to the dead
// node, and every call made before the topology changed, into a 503. With
// this, such a call is sent again as soon as the topology drops the member
// (in well under a second with the etcd provider's dead-peer probe), to the
// grain's new owner, within the same deadline.
type departures struct {
	mu      sync.Mutex
	next    chan struct{}       // closed at the next departure, then replaced
	members map[string]struct{} // addresses of the current members; nil before the first topology
	sub     *eventstream.Subscription
}

func newDepartures(es *eventstream.EventStream) *departures {
	d := &departures{next: make(chan struct{})}
	d.sub = es.Subscribe(func(evt any) {
		t, ok := evt.(*cluster.ClusterTopology)
		if !ok {
			return
		}
		members := make(map[string]struct{}, len(t.Members))
		for _, m := range t.Members {
			members[m.Address()] = struct{}{}
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		// By current membership, not by the departures seen: a node
		// restarted on the same address is a member again.
		d.members = members
		if len(t.Left) > 0 {
			close(d.next)
			d.next = make(chan struct{})
		}
	})
	return d
}

// wait answers a channel closed at the next departure.
func (d *departures) wait() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.next
}

// gone reports whether the member at addr is not in the topology.
func (d *departures) gone(addr string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.members == nil {
		return false
	}
	_, ok := d.members[addr]
	return !ok
}

// errNoOwner means no member hosts the grain's kind right now (the
// topology is changing); the request was not sent and may be sent again.
var errNoOwner = errors.New("no member to host the grain")

// call sends msg to the grain and waits for its answer until deadline,
// sending it again when the member it was sent to leaves the topology
// meanwhile. A message is sent again only when its target is gone, so a
// live grain never sees it twice from here; the dead one may have handled
// it before it died, which the request ids of likes cover (docs/architecture.md §4.1:
// the same as the client's retry after a 503).
func (l *Live) call(m *member, identity, kind string, msg any, deadline time.Time) (any, error) {
	c := m.cluster
	for {
		moved := m.departures.wait()
		pid, err := lookup(c, identity, kind, deadline, moved)
		if err != nil {
			return nil, err
		}
		if pid == nil {
			continue // a member left during the lookup: look up again
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, context.DeadlineExceeded
		}
		f := c.ActorSystem.Root.RequestFuture(pid, msg, left)
		// The answer comes on a channel from the goroutine that resolves
		// the future (no goroutine parked in Result per call: it was one
		// spawn and one wake-up more per like).
		answers := make(chan answer, 1)
		f.ContinueWith(func(res any, err error) { answers <- answer{res, err} })
		a, resend := m.departures.await(answers, moved, pid)
		if resend {
			c.PidCache.RemoveByValue(identity, kind, pid)
			continue
		}
		res, err := a.res, a.err
		switch {
		case err == nil:
			return res, nil
		case errors.Is(err, actor.ErrTimeout) || errors.Is(err, remote.ErrTimeout):
			return nil, context.DeadlineExceeded
		case errors.Is(err, actor.ErrDeadLetter) || errors.Is(err, remote.ErrDeadLetter):
			// The grain stopped (idle, or its member is leaving) between
			// the lookup and the send: activate it again.
			c.PidCache.RemoveByValue(identity, kind, pid)
			if !sleepUntil(deadline, 10*time.Millisecond) {
				return nil, context.DeadlineExceeded
			}
			continue
		default:
			return nil, err
		}
	}
}

// answer is a grain's answer to one send.
type answer struct {
	res any
	err error
}

// await waits for the answer to a message sent to pid; resend when pid's
// member left the topology first (the answer cannot come).
func (d *departures) await(answers <-chan answer, moved <-chan struct{}, pid *actor.PID) (a answer, resend bool) {
	for {
		select {
		case a = <-answers:
			return a, false
		case <-moved:
			// Watch for the next departure before checking this one, so
			// none slips between the two.
			moved = d.wait()
			if d.gone(pid.Address) {
				return answer{}, true
			}
		}
	}
}

// lookup finds the grain's PID (activating it on its owner), giving up at
// the deadline; nil, nil when a member left meanwhile (the owner may have
// been it). disthash's activation request waits up to 5 s for an owner
// that may be dead, so it runs aside.
func lookup(c *cluster.Cluster, identity, kind string, deadline time.Time, moved <-chan struct{}) (*actor.PID, error) {
	for {
		if pid, ok := c.PidCache.Get(identity, kind); ok && pid != nil {
			return pid, nil
		}
		got := make(chan *actor.PID, 1)
		go func() { got <- c.Get(identity, kind) }()
		timer := time.NewTimer(time.Until(deadline))
		select {
		case pid := <-got:
			timer.Stop()
			if pid != nil {
				c.PidCache.Set(identity, kind, pid)
				return pid, nil
			}
			// No owner now: wait a little for the topology to settle.
			if !sleepUntil(deadline, 20*time.Millisecond) {
				return nil, fmt.Errorf("%w: %w", errNoOwner, context.DeadlineExceeded)
			}
		case <-moved:
			timer.Stop()
			return nil, nil
		case <-timer.C:
			return nil, context.DeadlineExceeded
		}
	}
}

// sleepUntil sleeps d unless that passes the deadline; false if it would.
func sleepUntil(deadline time.Time, d time.Duration) bool {
	if time.Until(deadline) <= d {
		return false
	}
	time.Sleep(d)
	return true
}
