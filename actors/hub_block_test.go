package actors_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/uuid"

	"campus/actors"
)

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
