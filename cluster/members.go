package cluster

import (
	"sync/atomic"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
)

// members is this node's own copy of the member list: the members of the
// latest topology and their remoting addresses, replaced whole on every
// change and never modified after. protoactor's MemberList.Members hands
// out its set without a lock while a topology update replaces it (every
// join, leave or shutdown), so everything of ours that needs the members
// reads this copy instead; the race detector caught broadcasts reading the
// live set.
//
// Concurrency: set runs on the goroutine that publishes the topology (inside
// protoactor's member list lock, so updates come in order); addresses and
// list are safe from any goroutine.
type members struct {
	cur atomic.Pointer[memberSnapshot]
	sub *eventstream.Subscription
}

// memberSnapshot is one topology's members; never modified once stored.
type memberSnapshot struct {
	list  []*protocluster.Member
	addrs []string
}

// follow subscribes to the system's topology events. Call it before the
// member starts, so that no topology is published unseen.
func (m *members) follow(es *eventstream.EventStream) {
	m.cur.Store(&memberSnapshot{addrs: []string{}})
	m.sub = es.Subscribe(func(evt any) {
		t, ok := evt.(*protocluster.ClusterTopology)
		if !ok {
			return
		}
		s := &memberSnapshot{list: t.Members, addrs: make([]string, 0, len(t.Members))}
		for _, mb := range t.Members {
			s.addrs = append(s.addrs, mb.Address())
		}
		m.cur.Store(s)
	})
}

// addresses answers the members' remoting addresses; the slice is shared and
// must not be modified.
func (m *members) addresses() []string { return m.cur.Load().addrs }

// list answers the members; the slice and the members are shared and must
// not be modified.
func (m *members) list() []*protocluster.Member { return m.cur.Load().list }
