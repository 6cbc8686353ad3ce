package actors_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/actors"
	"campus/app"
	"campus/persistence"
	"campus/persistence/testdb"
	"campus/realtime"
	"campus/testlog"
)

// peer is one member of an in-process cluster whose members find each
// other through a shared in-memory agent, so that a test can take one out
// of the topology without a graceful leave, as kill -9 does.
type peer struct {
	system   *actor.ActorSystem
	cluster  *protocluster.Cluster
	provider *test.Provider
	live     *actors.Live
	hub      *realtime.Hub
	addrs    atomic.Pointer[[]string]
	killed   bool
}

func startPeer(t *testing.T, db *bun.DB, agent *test.InMemAgent, name string) *peer {
	t.Helper()
	log := testlog.New(t)
	p := &peer{}
	empty := []string{}
	p.addrs.Store(&empty)
	p.live = actors.New(actors.Config{DB: db, Log: log, Render: app.NotificationFrames,
		RenderMessages: app.MessageFrames(db), CallTimeout: 10 * time.Second})
	p.system = actor.NewActorSystem()
	p.provider = test.NewTestProvider(agent)
	cfg := protocluster.Configure(name, p.provider, disthash.New(), remote.Configure("127.0.0.1", 0),
		protocluster.WithKinds(p.live.Kinds()...))
	p.cluster = protocluster.New(p.system, cfg)
	p.system.EventStream.Subscribe(func(evt any) {
		if tp, ok := evt.(*protocluster.ClusterTopology); ok {
			as := make([]string, 0, len(tp.Members))
			for _, m := range tp.Members {
				as = append(as, m.Address())
			}
			p.addrs.Store(&as)
		}
	})
	p.cluster.StartMember()
	p.live.Start(p.cluster, func() []string { return *p.addrs.Load() }, nil)
	hub, err := realtime.StartHub(p.system, log, realtime.HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.hub = hub
	t.Cleanup(func() {
		if !p.killed {
			p.cluster.Shutdown(false)
			_ = p.provider.Shutdown(false)
		}
	})
	return p
}

// kill takes the member away as kill -9 does: nothing it holds goes out,
// and it leaves the topology without a graceful leave.
func (p *peer) kill() {
	p.killed = true
	p.cluster.Remote.Shutdown(false)
	p.system.Shutdown()
	_ = p.provider.Shutdown(false) // the provider sees it gone
}

// session registers a probe session of user on the peer's hub.
func (p *peer) session(t *testing.T, user uuid.UUID) chan []byte {
	t.Helper()
	s := &probeSession{hub: p.hub, user: user, registered: make(chan error, 1), frames: make(chan []byte, 64)}
	p.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return s }))
	if err := <-s.registered; err != nil {
		t.Fatal(err)
	}
	return s.frames
}

// TestRepairAfterLostMember: a conversation's grain commits a message and
// answers its sender, and its member dies before pushing it (the grain's
// push is dropped, then the member leaves the topology without a graceful
// leave). The survivor pushes the conversation's recent messages again:
// the recipient's socket on the survivor gets the message, once, before the
// next one.
func TestRepairAfterLostMember(t *testing.T) {
	db := testdb.New(t)
	agent := test.NewInMemAgent()
	name := "campus-" + uuid.NewString()[:8]
	a := startPeer(t, db, agent, name)
	b := startPeer(t, db, agent, name)
	waitFor(t, "two members", func() (bool, error) {
		return len(*a.addrs.Load()) == 2 && len(*b.addrs.Load()) == 2, nil
	})

	n := &node{db: db}
	us := n.users(t, 3)
	sender, recipient := us[0], us[1]
	// A conversation whose grain a owns.
	owner := protocluster.NewRendezvous()
	owner.UpdateMembers(b.cluster.MemberList.Members().Members())
	var conv uuid.UUID
	for {
		conv = n.group(t, us)
		if owner.GetByClusterIdentity(protocluster.NewClusterIdentity(conv.String(), actors.ConversationKind)) == a.system.Address() {
			break
		}
	}
	frames := b.session(t, recipient.ID)

	send := func(via *peer, client string) int64 {
		t.Helper()
		seq, _, _, created, err := via.live.SendMessage(context.Background(), conv, persistence.MessageSend{
			ID: persistence.NewID(), SenderID: sender.ID, ClientID: client, Body: "hello " + client})
		if err != nil || !created {
			t.Fatalf("send %s: seq %d created %v: %v", client, seq, created, err)
		}
		return seq
	}
	// The grain on a commits and answers, and pushes nothing: a dies
	// between the answer and the push.
	a.live.DropPushes(true)
	if seq := send(b, "c-1"); seq != 1 {
		t.Fatalf("first message got seq %d", seq)
	}
	a.kill()

	seqOf := func(f []byte) int64 {
		t.Helper()
		var ev struct {
			Event string `json:"event"`
			Data  struct {
				ConversationID string `json:"conversationId"`
				Message        struct {
					Seq int64 `json:"seq"`
				} `json:"message"`
			} `json:"data"`
		}
		if err := json.Unmarshal(f, &ev); err != nil || ev.Event != "message:new" || ev.Data.ConversationID != conv.String() {
			t.Fatalf("frame %s: %v", f, err)
		}
		return ev.Data.Message.Seq
	}
	select {
	case f := <-frames:
		if s := seqOf(f); s != 1 {
			t.Fatalf("the survivor's socket got seq %d first, want 1", s)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the message the lost member stored never reached the survivor's socket")
	}
	waitFor(t, "the repair to end", func() (bool, error) {
		return b.live.Repairing() == 0 && b.live.Stats().Repaired == 1, nil
	})

	// The next message, through the grain now on b, comes next: the first
	// reached the socket once.
	if seq := send(b, "c-2"); seq != 2 {
		t.Fatalf("second message got seq %d", seq)
	}
	// A repair again (as a second survivor would run it) pushes nothing new.
	res, err := b.cluster.Request(conv.String(), actors.ConversationKind,
		&actors.RepushRequest{SinceMicros: time.Now().Add(-time.Minute).UnixMicro()}, protocluster.WithTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.(*actors.RepushResponse); !ok {
		t.Fatalf("repush answered %T", res)
	}
	b.system.Root.Send(actor.NewPID(b.system.Address(), actors.HubName),
		&actors.DeliverToUser{UserId: recipient.ID.String(), Frames: [][]byte{[]byte("fence")}})
	var got []int64
	for {
		select {
		case f := <-frames:
			if string(f) == "fence" {
				if len(got) != 1 || got[0] != 2 {
					t.Fatalf("after the repair the socket got seqs %v, want [2]", got)
				}
				return
			}
			got = append(got, seqOf(f))
		case <-time.After(30 * time.Second):
			t.Fatalf("no fence; seqs so far %v", got)
		}
	}
}
