package actors_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/uuid"

	"campus/actors"
	"campus/realtime"
)

// probeSession stands in for a realtime session: it registers user with
// the hub and hands every frame it gets to frames.
type probeSession struct {
	hub        *realtime.Hub
	user       uuid.UUID
	registered chan error
	frames     chan []byte
}

func (p *probeSession) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		p.hub.Register(ctx, p.user)
	case *realtime.Registered:
		p.registered <- m.Err
	case *realtime.SessionFrames:
		for _, f := range m.Frames {
			p.frames <- f
		}
	}
}

// TestHubDropsWatchesOnBlock: after a block between a and b, a's session
// no longer gets the counts of b's post nor b's of a's, while each still
// gets a third person's post, and that third person still gets both.
func TestHubDropsWatchesOnBlock(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 3)
	a, b, c := us[0], us[1], us[2]
	pa, pb, pc := n.post(t, a), n.post(t, b), n.post(t, c)
	system := n.node.Cluster.ActorSystem

	session := func(user uuid.UUID, watch ...uuid.UUID) chan []byte {
		t.Helper()
		p := &probeSession{hub: n.hub, user: user, registered: make(chan error, 1), frames: make(chan []byte, 64)}
		pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p }))
		t.Cleanup(func() { system.Root.Stop(pid) })
		if err := <-p.registered; err != nil {
			t.Fatal(err)
		}
		n.hub.Watch(pid, watch)
		return p.frames
	}
	sa := session(a.ID, pb, pc)
	sb := session(b.ID, pa, pc)
	sc := session(c.ID, pa, pb)

	hub := actor.NewPID(system.Address(), actors.HubName)
	likes := int64(0)
	// tick sends the hub a change of all three posts and answers the post
	// ids of each session's frame, in the order a, b, c.
	tick := func() [3]map[string]bool {
		t.Helper()
		likes++
		system.Root.Send(hub, &actors.CountsTick{Counts: []*actors.PostCount{
			{PostId: pa.String(), Likes: likes}, {PostId: pb.String(), Likes: likes}, {PostId: pc.String(), Likes: likes}}})
		var out [3]map[string]bool
		for i, frames := range []chan []byte{sa, sb, sc} {
			select {
			case raw := <-frames:
				var f struct {
					Event string `json:"event"`
					Data  struct {
						Posts []struct {
							PostID string `json:"postId"`
						} `json:"posts"`
					} `json:"data"`
				}
				if err := json.Unmarshal(raw, &f); err != nil || f.Event != "post:counts" {
					t.Fatalf("frame %q: %v", raw, err)
				}
				out[i] = map[string]bool{}
				for _, p := range f.Data.Posts {
					out[i][p.PostID] = true
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("session %d got no frame", i)
			}
		}
		return out
	}

	if got := tick(); !got[0][pb.String()] || !got[1][pa.String()] {
		t.Fatalf("before the block: %v", got)
	}
	n.hub.UsersBlocked(a.ID, b.ID)
	// The hub looks the authors up off its actor: wait for the drop.
	deadline := time.Now().Add(10 * time.Second)
	for got := tick(); got[0][pb.String()] || got[1][pa.String()]; got = tick() {
		if time.Now().After(deadline) {
			t.Fatalf("the block dropped nothing: %v", got)
		}
	}
	got := tick()
	checks := []struct {
		name string
		got  map[string]bool
		want []uuid.UUID
	}{
		{"a: only c's post", got[0], []uuid.UUID{pc}},
		{"b: only c's post", got[1], []uuid.UUID{pc}},
		{"c: both still", got[2], []uuid.UUID{pa, pb}},
	}
	for _, tc := range checks {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.got) != len(tc.want) {
				t.Fatalf("posts %v, want %v", tc.got, tc.want)
			}
			for _, id := range tc.want {
				if !tc.got[id.String()] {
					t.Fatalf("posts %v, want %v", tc.got, tc.want)
				}
			}
		})
	}
}

// TestHubDropsAWatchThatFollowsABlock: a watch that reaches the hub just
// after a block (its check read the database before the block committed)
// of a post by the other is dropped too, while a third person's post
// stays watched.
func TestHubDropsAWatchThatFollowsABlock(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 3)
	a, b, c := us[0], us[1], us[2]
	pb, pc := n.post(t, b), n.post(t, c)
	system := n.node.Cluster.ActorSystem
	p := &probeSession{hub: n.hub, user: a.ID, registered: make(chan error, 1), frames: make(chan []byte, 64)}
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p }))
	t.Cleanup(func() { system.Root.Stop(pid) })
	if err := <-p.registered; err != nil {
		t.Fatal(err)
	}
	n.hub.Watch(pid, []uuid.UUID{pc})
	n.hub.UsersBlocked(a.ID, b.ID)
	n.hub.Watch(pid, []uuid.UUID{pb}) // checked before the block, arriving after it

	hub := actor.NewPID(system.Address(), actors.HubName)
	likes := int64(0)
	tick := func() map[string]bool {
		t.Helper()
		likes++
		system.Root.Send(hub, &actors.CountsTick{Counts: []*actors.PostCount{
			{PostId: pb.String(), Likes: likes}, {PostId: pc.String(), Likes: likes}}})
		select {
		case raw := <-p.frames:
			var f struct {
				Data struct {
					Posts []struct {
						PostID string `json:"postId"`
					} `json:"posts"`
				} `json:"data"`
			}
			if err := json.Unmarshal(raw, &f); err != nil {
				t.Fatalf("frame %q: %v", raw, err)
			}
			out := map[string]bool{}
			for _, p := range f.Data.Posts {
				out[p.PostID] = true
			}
			return out
		case <-time.After(10 * time.Second):
			t.Fatal("no frame")
			return nil
		}
	}
	// The drop is looked up off the hub: wait for it (bounded), then it
	// must hold.
	deadline := time.Now().Add(10 * time.Second)
	for got := tick(); got[pb.String()]; got = tick() {
		if time.Now().After(deadline) {
			t.Fatalf("the watch after the block was not dropped: %v", got)
		}
	}
	if got := tick(); got[pb.String()] || !got[pc.String()] {
		t.Fatalf("posts %v, want only the third person's %s", got, pc)
	}
}
