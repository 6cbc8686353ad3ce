package realtime

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/actors"
	"campus/protocol"
)

// probeSession stands in for a realtime session: it registers user with
// the hub and hands every frame it gets to frames.
type probeSession struct {
	hub        *Hub
	user       uuid.UUID
	registered chan error
	frames     chan []byte
}

func (p *probeSession) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		p.hub.Register(ctx, p.user)
	case *Registered:
		p.registered <- m.Err
	case *SessionFrames:
		for _, f := range m.Frames {
			p.frames <- f
		}
	}
}

// TestHubDeliversToUsers: one DeliverToUsers reaches every local session of
// each listed user, once, and no one else's; malformed ids are skipped.
func TestHubDeliversToUsers(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	hub, err := StartHub(system, zerolog.Nop(), HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := uuid.New(), uuid.New(), uuid.New()
	session := func(user uuid.UUID) chan []byte {
		t.Helper()
		p := &probeSession{hub: hub, user: user, registered: make(chan error, 1), frames: make(chan []byte, 8)}
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
		{"a's first socket", session(a), true},
		{"a's second socket", session(a), true},
		{"b", session(b), true},
		{"c, not listed", session(c), false},
	}
	hubPID := actor.NewPID(system.Address(), actors.HubName)
	system.Root.Send(hubPID, &actors.DeliverToUsers{UserIds: []string{a.String(), "not-a-uuid", b.String()},
		Frames: [][]byte{[]byte(`{"event":"post:new"}`)}})
	// Then every socket gets a frame of its own: the fence after which a
	// socket that was not meant to get post:new will not.
	for _, u := range []uuid.UUID{a, b, c} {
		system.Root.Send(hubPID, &actors.DeliverToUser{UserId: u.String(), Frames: [][]byte{[]byte(`{"event":"fence"}`)}})
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
	if m, ok := ctx.Message().(*SessionFrames); ok {
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
	slots := protocol.CountSlots
	if slots < 5 {
		t.Fatalf("the tick is cut into %d slots: a campus event's frames would come in a few large bursts", slots)
	}
	period := int64(interval) / int64(slots)
	hub, err := StartHub(system, zerolog.Nop(), HubOptions{CountInterval: interval})
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
	hub, err := StartHub(system, zerolog.Nop(), HubOptions{CountInterval: 100 * time.Millisecond})
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

// TestHubPushesAConversationsSeqOnce: of a conversation's message:new
// pushes (conversation id and seqs set) the hub passes each seq at most
// once and never one at or below the highest it passed, per conversation:
// the push after the commit, a repair's re-push and a twin's late push
// reach a socket once and in order. Other pushes pass as they are.
func TestHubPushesAConversationsSeqOnce(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	hub, err := StartHub(system, zerolog.Nop(), HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	user := uuid.New()
	p := &probeSession{hub: hub, user: user, registered: make(chan error, 1), frames: make(chan []byte, 64)}
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p }))
	t.Cleanup(func() { system.Root.Stop(pid) })
	if err := <-p.registered; err != nil {
		t.Fatal(err)
	}
	hubPID := actor.NewPID(system.Address(), actors.HubName)
	convA, convB := uuid.New(), uuid.New()
	push := func(conv uuid.UUID, seqs ...int64) *actors.DeliverToUsers {
		m := &actors.DeliverToUsers{UserIds: []string{user.String()}, ConversationId: conv.String(), Seqs: seqs}
		for _, s := range seqs {
			m.Frames = append(m.Frames, fmt.Appendf(nil, "%s/%d", conv.String()[:4], s))
		}
		return m
	}
	frame := func(conv uuid.UUID, seq int64) string { return fmt.Sprintf("%s/%d", conv.String()[:4], seq) }
	steps := []struct {
		name string
		msg  *actors.DeliverToUsers
		want []string
	}{
		{"first push", push(convA, 1, 2), []string{frame(convA, 1), frame(convA, 2)}},
		{"the same seqs again (a repair)", push(convA, 1, 2), nil},
		{"a tail overlapping what was pushed", push(convA, 1, 2, 3, 4), []string{frame(convA, 3), frame(convA, 4)}},
		{"a higher seq skipping ahead", push(convA, 7), []string{frame(convA, 7)}},
		{"a lower seq after a higher (a twin's late push)", push(convA, 5, 6), nil},
		{"another conversation is its own", push(convB, 1), []string{frame(convB, 1)}},
		{"a push without a conversation passes", &actors.DeliverToUsers{UserIds: []string{user.String()},
			Frames: [][]byte{[]byte("other")}}, []string{"other"}},
		{"seqs that do not match the frames pass as they are", &actors.DeliverToUsers{UserIds: []string{user.String()},
			ConversationId: convA.String(), Seqs: []int64{1}, Frames: [][]byte{[]byte("x"), []byte("y")}}, []string{"x", "y"}},
		{"the first conversation goes on from its highest", push(convA, 6, 7, 8), []string{frame(convA, 8)}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			system.Root.Send(hubPID, s.msg)
			// A fence after each step: what the step let through comes
			// before it, and nothing of it after.
			system.Root.Send(hubPID, &actors.DeliverToUser{UserId: user.String(), Frames: [][]byte{[]byte("fence")}})
			var got []string
			for {
				select {
				case f := <-p.frames:
					if string(f) == "fence" {
						if !slices.Equal(got, s.want) {
							t.Fatalf("frames %q, want %q", got, s.want)
						}
						return
					}
					got = append(got, string(f))
				case <-time.After(10 * time.Second):
					t.Fatalf("no fence; frames so far %q", got)
				}
			}
		})
	}
}

// TestPushedSeqsBounded: the memory of pushed seqs keeps a conversation at
// least its keep after its last push and forgets it within twice that; a
// full generation is retired early.
func TestPushedSeqsBounded(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	a, b, c := uuid.New(), uuid.New(), uuid.New()
	p := newPushedSeqs(time.Minute, 1000)
	p.pushed(a, 5, t0)
	p.pushed(b, 3, t0.Add(59*time.Second))
	if p.last(a) != 5 || p.last(b) != 3 || p.last(c) != 0 {
		t.Fatalf("last a=%d b=%d c=%d", p.last(a), p.last(b), p.last(c))
	}
	p.pushed(c, 1, t0.Add(61*time.Second)) // a new generation: a and b kept
	if p.last(a) != 5 || p.last(b) != 3 || p.last(c) != 1 {
		t.Fatalf("after the first turn: a=%d b=%d c=%d", p.last(a), p.last(b), p.last(c))
	}
	p.pushed(c, 2, t0.Add(122*time.Second)) // and another: a and b forgotten
	if p.last(a) != 0 || p.last(b) != 0 || p.last(c) != 2 || p.len() != 1 {
		t.Fatalf("after the second turn: a=%d b=%d c=%d len=%d", p.last(a), p.last(b), p.last(c), p.len())
	}

	small := newPushedSeqs(time.Hour, 2)
	for i := range 10 {
		small.pushed(uuid.New(), int64(i+1), t0)
	}
	if n := small.len(); n > 4 {
		t.Fatalf("%d remembered, want at most two generations of 2", n)
	}
}
