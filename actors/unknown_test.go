package actors_test

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"campus/actors"
	"campus/domain"
)

// TestUnknownMessageDropped: in a rolling upgrade a newer node sends
// message types this version does not handle. A post grain, a user grain
// and the hub drop them, and the node keeps working: the same post takes a
// like, and the hub answers.
func TestUnknownMessageDropped(t *testing.T) {
	n := startNode(t)
	ctx := context.Background()
	us := n.users(t, 2)
	postID := n.post(t, us[0])
	if _, _, _, err := n.live.Like(ctx, postID, us[1].ID, domain.Like, uuid.NewString()); err != nil {
		t.Fatal(err) // the grain is active before the unknown message comes
	}
	unknown := wrapperspb.String("a message of a newer version")
	c := n.node.Cluster
	hubPID := actor.NewPID(c.ActorSystem.Address(), actors.HubName)

	cases := []struct {
		name string
		send func(t *testing.T)
	}{
		{"post grain request", func(t *testing.T) {
			// Nobody answers an unknown request: the caller times out.
			if _, err := c.Request(postID.String(), actors.PostKind, unknown, cluster.WithTimeout(time.Second)); err == nil {
				t.Fatal("an unknown request was answered")
			}
		}},
		{"user grain request", func(t *testing.T) {
			if _, err := c.Request(us[0].ID.String(), actors.UserKind, unknown, cluster.WithTimeout(time.Second)); err == nil {
				t.Fatal("an unknown request was answered")
			}
		}},
		{"hub", func(t *testing.T) { c.ActorSystem.Root.Send(hubPID, unknown) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.send(t)
			// The author likes and unlikes: the grain still answers.
			for _, want := range []int{2, 1} {
				_, count, _, err := n.live.Like(ctx, postID, us[0].ID, domain.ToggleLike, uuid.NewString())
				if err != nil || count != want {
					t.Fatalf("like after an unknown message: %d %v, want %d", count, err, want)
				}
			}
			if _, err := n.hub.Sockets(); err != nil {
				t.Fatalf("hub after an unknown message: %v", err)
			}
		})
	}
	n.exact(t, postID, 1)
}
