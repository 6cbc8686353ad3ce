package actors_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/actors"
)

// probeSession stands in for a realtime session: it registers user with
// the hub and hands every frame it gets to frames.
type probeSession struct {
	hub        *actors.Hub
	user       uuid.UUID
	registered chan error
	frames     chan []byte
}

func (p *probeSession) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		p.hub.Register(ctx, p.user)
	case *actors.Registered:
		p.registered <- m.Err
	case *actors.SessionFrames:
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

// TestHubDeliversToUsers: one DeliverToUsers reaches every local session of
// each listed user, once, and no one else's; malformed ids are skipped.
func TestHubDeliversToUsers(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 3)
	a, b, c := us[0], us[1], us[2]
	system := n.node.Cluster.ActorSystem
	session := func(user uuid.UUID) chan []byte {
		t.Helper()
		p := &probeSession{hub: n.hub, user: user, registered: make(chan error, 1), frames: make(chan []byte, 8)}
		pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p }))
		t.Cleanup(func() { system.Root.Stop(pid) })
		if err := <-p.registered; err != nil {
			t.Fatal(err)
		}
		return p.frames
	}
	socks := []struct {
		name string
		ch   chan []byte
		want bool
	}{
		{"a's first socket", session(a.ID), true},
		{"a's second socket", session(a.ID), true},
		{"b", session(b.ID), true},
		{"c, not listed", session(c.ID), false},
	}
	hub := actor.NewPID(system.Address(), actors.HubName)
	system.Root.Send(hub, &actors.DeliverToUsers{UserIds: []string{a.ID.String(), "not-a-uuid", b.ID.String()},
		Frames: [][]byte{[]byte(`{"event":"post:new"}`)}})
	// Then every socket gets a frame of its own: the fence after which a
	// socket that was not meant to get post:new will not.
	for _, u := range []uuid.UUID{a.ID, b.ID, c.ID} {
		system.Root.Send(hub, &actors.DeliverToUser{UserId: u.String(), Frames: [][]byte{[]byte(`{"event":"fence"}`)}})
	}
	for _, s := range socks {
		t.Run(s.name, func(t *testing.T) {
			var got []string
			for len(got) == 0 || got[len(got)-1] != `{"event":"fence"}` {
				select {
				case f := <-s.ch:
					got = append(got, string(f))
				case <-time.After(10 * time.Second):
					t.Fatalf("frames so far %v", got)
				}
			}
			if heard := len(got) == 2 && got[0] == `{"event":"post:new"}`; heard != s.want || (!s.want && len(got) != 1) {
				t.Fatalf("frames %v, want post:new: %v", got, s.want)
			}
		})
	}
}

// stampSession stands in for a realtime session that runs on its sender's
// goroutine, as they do: it notes when each frame came.
type stampSession struct {
	probeSession
	stamps chan time.Time
}

func (p *stampSession) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*actors.SessionFrames); ok {
		for _, f := range m.Frames {
			p.stamps <- time.Now()
			p.frames <- f
		}
		return
	}
	p.probeSession.Receive(ctx)
}

// TestCountsSpreadOverTheTick: sessions watching one post each get ONE
// post:counts frame with its last count, but not all at once: the sessions
// are spread over the tick's slots (a session's frame is written during
// its slot's period), so a campus event's thousands of frames are not one
// burst of writes. Twice as many sessions as slots fill every slot twice:
// their frames come in as many different periods as there are slots, two
// sessions in each. (A 1 s interval keeps each period 100 ms wide, so a busy
// machine's late frame stays in its period; a flush later than that serves
// two slots at once, which the test allows.)
// Counts older than the ones taken (by version: another node's tick that
// came late) are dropped.
func TestCountsSpreadOverTheTick(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	interval := time.Second
	slots := actors.CountSlots
	if slots < 5 {
		t.Fatalf("the tick is cut into %d slots: a campus event's frames would come in a few large bursts", slots)
	}
	period := int64(interval) / int64(slots)
	hub, err := actors.StartLocalHub(system, zerolog.Nop(), actors.HubOptions{CountInterval: interval})
	if err != nil {
		t.Fatal(err)
	}
	post := uuid.New()
	n := 2 * slots
	sessions := make([]*stampSession, n)
	for i := range sessions {
		p := &stampSession{
			probeSession: probeSession{hub: hub, user: uuid.New(), registered: make(chan error, 1), frames: make(chan []byte, 8)},
			stamps:       make(chan time.Time, 8),
		}
		pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p },
			actor.WithDispatcher(actor.NewSynchronizedDispatcher(64))))
		if err := <-p.registered; err != nil {
			t.Fatal(err)
		}
		hub.Watch(pid, []uuid.UUID{post})
		sessions[i] = p
	}
	// The watches are in the hub's mailbox before the counts: Watch sends.
	self := actor.NewPID(system.Address(), actors.HubName)
	system.Root.Send(self, &actors.CountsTick{Counts: []*actors.PostCount{{PostId: post.String(), Likes: 1, Version: 1}}})
	system.Root.Send(self, &actors.CountsTick{Counts: []*actors.PostCount{{PostId: post.String(), Likes: 2, Comments: 3, Version: 2}}})
	// Another node's older counts, late: the newer ones stand.
	system.Root.Send(self, &actors.CountsTick{Counts: []*actors.PostCount{{PostId: post.String(), Likes: 9, Version: 1}}})

	periods := map[int64][]int{}
	for i, s := range sessions {
		select {
		case at := <-s.stamps:
			periods[at.UnixNano()/period] = append(periods[at.UnixNano()/period], i)
			want := `{"event":"post:counts","data":{"posts":[{"postId":"` + post.String() + `","likesCount":2,"commentsCount":3,"countsVersion":2}]}}`
			if got := string(<-s.frames); got != want {
				t.Fatalf("session %d: frame %s, want %s", i, got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("session %d got no frame", i)
		}
	}
	// Nothing more: one frame each for the two counts.
	time.Sleep(2 * interval)
	for i, s := range sessions {
		if len(s.stamps) != 0 {
			t.Fatalf("session %d got a second frame", i)
		}
	}
	// A flush that comes late serves the slots it missed with the next one
	// (hub.flush), so on a busy machine two slots can share a period: what
	// must hold is that each slot's two sessions come together, and that the
	// frames come spread over the tick rather than in one burst.
	if len(periods) < slots/2 {
		t.Fatalf("frames came in %d periods (%v), want about %d slots of 2 sessions", len(periods), periods, slots)
	}
	for p, ss := range periods {
		in := map[int]bool{}
		for _, i := range ss {
			in[i] = true
		}
		for _, i := range ss {
			if !in[(i+slots)%n] {
				t.Fatalf("period %d served sessions %v: session %d without its slot's other (i and i+%d come together)", p, ss, i, slots)
			}
		}
	}
}

// TestCountsFramesHoldEachSessionsPosts: in every slot, sessions watching
// the same changed posts (who share one frame) and sessions watching others
// each get exactly the entries of their own watched posts that changed, with
// their last counts; an unwatched post reaches nobody.
func TestCountsFramesHoldEachSessionsPosts(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	hub, err := actors.StartLocalHub(system, zerolog.Nop(), actors.HubOptions{CountInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	posts := []uuid.UUID{uuid.New(), uuid.New(), uuid.New(), uuid.New()} // the last one nobody watches
	watchSets := [][]int{{0, 1, 2}, {0, 1, 2}, {1, 2}, {0}, {2, 0, 1}, {1}, {0, 1, 2}, {2}, {0, 2}, {0, 1, 2}, {1, 2}, {}}
	sessions := make([]*probeSession, len(watchSets))
	for i, set := range watchSets {
		p := &probeSession{hub: hub, user: uuid.New(), registered: make(chan error, 1), frames: make(chan []byte, 8)}
		pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p }))
		if err := <-p.registered; err != nil {
			t.Fatal(err)
		}
		ids := make([]uuid.UUID, len(set))
		for j, k := range set {
			ids[j] = posts[k]
		}
		hub.Watch(pid, ids)
		sessions[i] = p
	}
	self := actor.NewPID(system.Address(), actors.HubName)
	tick := &actors.CountsTick{}
	for k, id := range posts {
		tick.Counts = append(tick.Counts, &actors.PostCount{PostId: id.String(), Likes: int64(10 + k), Comments: int64(k)})
	}
	system.Root.Send(self, tick)
	for i, s := range sessions {
		want := map[string]int64{}
		for _, k := range watchSets[i] {
			want[posts[k].String()] = int64(10 + k)
		}
		if len(want) == 0 {
			continue
		}
		select {
		case f := <-s.frames:
			var frame struct {
				Event string `json:"event"`
				Data  struct {
					Posts []struct {
						PostID     string `json:"postId"`
						LikesCount int64  `json:"likesCount"`
					} `json:"posts"`
				} `json:"data"`
			}
			if err := json.Unmarshal(f, &frame); err != nil || frame.Event != "post:counts" {
				t.Fatalf("session %d: frame %s: %v", i, f, err)
			}
			got := map[string]int64{}
			for _, p := range frame.Data.Posts {
				got[p.PostID] = p.LikesCount
			}
			if len(got) != len(frame.Data.Posts) || len(got) != len(want) {
				t.Fatalf("session %d watching %v: frame %s", i, watchSets[i], f)
			}
			for id, n := range want {
				if got[id] != n {
					t.Fatalf("session %d watching %v: frame %s", i, watchSets[i], f)
				}
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("session %d got no frame", i)
		}
	}
	time.Sleep(300 * time.Millisecond)
	for i, s := range sessions {
		if len(s.frames) != 0 {
			t.Fatalf("session %d got %d more frames: %s", i, len(s.frames), <-s.frames)
		}
	}
}
