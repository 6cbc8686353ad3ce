package actors

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/google/uuid"

	"campus/persistence"
)

// DefaultRepairWindow is Config.RepairWindow's default.
const DefaultRepairWindow = 30 * time.Second

// repairParallel bounds the conversation grains a repair asks at once, and
// repairTimeout the whole repair.
const (
	repairParallel = 8
	repairTimeout  = 2 * time.Minute
)

// followDepartures starts the repair after lost members (repair) on m's
// topology events; the subscription ends when a rejoin replaces m.
//
// A conversation grain answers its senders after the commit and pushes
// after that: a member killed in between (kill -9, a crash, a machine lost)
// leaves its acknowledged messages pushed to nobody. So when members leave
// the topology, ONE survivor, the one with the lowest address, asks the
// grain (activated on a survivor now) of every conversation the departed
// members owned that stored a message within the repair window to push its
// recent messages again to every member on every node. The hubs drop the
// seqs they already pushed, so nobody gets a copy twice and whoever missed
// one gets it.
//
// Every departure is repaired, a graceful leave too: the topology does not
// tell a kill from a leave, and a leave whose drain ran out of time loses
// pushes as a kill does. A drained member's conversations cost a query and
// a render each, and the hubs drop every frame.
func (l *Live) followDepartures(m *member) *eventstream.Subscription {
	es := m.cluster.ActorSystem.EventStream
	return es.Subscribe(func(evt any) {
		t, ok := evt.(*cluster.ClusterTopology)
		if !ok || len(t.Left) == 0 || m.retired.Load() {
			return
		}
		self := m.cluster.ActorSystem.Address()
		lowest := ""
		for _, mb := range t.Members {
			if a := mb.Address(); lowest == "" || a < lowest {
				lowest = a
			}
		}
		if lowest != self {
			return
		}
		// The members before this change: now's, less the ones that
		// joined with it, plus the ones that left.
		joined := make(map[string]bool, len(t.Joined))
		for _, mb := range t.Joined {
			joined[mb.Id] = true
		}
		var before []*cluster.Member
		for _, mb := range t.Members {
			if !joined[mb.Id] {
				before = append(before, mb)
			}
		}
		gone := make(map[string]bool, len(t.Left))
		for _, mb := range t.Left {
			before = append(before, mb)
			gone[mb.Address()] = true
		}
		l.repairing.Add(1)
		go func() {
			defer l.repairing.Add(-1)
			l.repair(m, before, gone)
		}()
	})
}

// repair pushes again the recent messages of the conversations whose
// grains the departed members (gone, by address) owned among before.
func (l *Live) repair(m *member, before []*cluster.Member, gone map[string]bool) {
	ctx, cancel := context.WithTimeout(context.Background(), repairTimeout)
	defer cancel()
	ids, since, err := persistence.RecentConversations(ctx, l.cfg.DB, l.cfg.RepairWindow)
	if err != nil {
		l.cfg.Log.Error().Err(err).Msg("messages: repair after a lost member: conversations not read")
		return
	}
	owner := cluster.NewRendezvous()
	owner.UpdateMembers(before)
	var theirs []uuid.UUID
	for _, id := range ids {
		if gone[owner.GetByClusterIdentity(cluster.NewClusterIdentity(id.String(), ConversationKind))] {
			theirs = append(theirs, id)
		}
	}
	if len(theirs) == 0 {
		return
	}
	var (
		wg     sync.WaitGroup
		next   atomic.Int64
		failed atomic.Int64
		first  atomic.Value
	)
	msg := &RepushRequest{SinceMicros: since.UnixMicro()}
	for range min(repairParallel, len(theirs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(theirs) && ctx.Err() == nil && !m.retired.Load(); i = int(next.Add(1) - 1) {
				res, err := l.request(ctx, theirs[i].String(), ConversationKind, msg)
				if err == nil {
					if _, ok := res.(*RepushResponse); !ok {
						err = fmt.Errorf("actors: conversation grain answered %T", res)
					}
				}
				if err != nil {
					failed.Add(1)
					first.CompareAndSwap(nil, err.Error())
				}
			}
		}()
	}
	wg.Wait()
	ev := l.cfg.Log.Info()
	if n := failed.Load(); n > 0 {
		ev = l.cfg.Log.Warn().Int64("failed", n).Interface("first_error", first.Load())
	}
	ev.Int("conversations", len(theirs)).Int("departed", len(gone)).Msg("messages: recent messages pushed again after a lost member")
	l.repaired.Add(int64(len(theirs)) - failed.Load())
}
