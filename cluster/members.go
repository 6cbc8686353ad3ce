package cluster

import (
	"sync/atomic"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
)

// members is this node's own copy of the member list: the remoting addresses
// of the members in the latest topology, replaced whole on every change and
// never modified after. protoactor's MemberList.Members hands out its set
// without a lock while a topology update replaces it (every join, leave or
// shutdown), so everything of ours that needs the members reads this copy
// instead; the race detector caught broadcasts reading the live set.
//
// Concurrency: set runs on the goroutine that publishes the topology (inside
// protoactor's member list lock, so updates come in order); addresses is safe
// from any goroutine.
type members struct {
	addrs atomic.Pointer[[]string]
	sub   *eventstream.Subscription
}

// follow subscribes to the system's topology events. Call it before the
// member starts, so that no topology is published unseen.
func (m *members) follow(es *eventstream.EventStream) {
	empty := []string{}
	m.addrs.Store(&empty)
	m.sub = es.Subscribe(func(evt any) {
		t, ok := evt.(*protocluster.ClusterTopology)
		if !ok {
			return
		}
		addrs := make([]string, 0, len(t.Members))
		for _, mb := range t.Members {
			addrs = append(addrs, mb.Address())
		}
		m.addrs.Store(&addrs)
	})
}

// addresses answers the members' remoting addresses; the slice is shared and
// must not be modified.
func (m *members) addresses() []string { return *m.addrs.Load() }
