package actors_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"

	"campus/cluster"
	"campus/domain"
	"campus/testlog"
)

// TestWriteFence: the post grains of a member write only while the member
// may (cluster.Node.Confirm, given to Live.Start): a like that its member's
// fence refuses is answered "unavailable, retry" (503) and nothing of it is
// written; once the fence lets writes through again the like commits. After
// Start is given a new member (the node rejoined the cluster), the grains of
// the replaced member may never write again.
func TestWriteFence(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 2)
	author, liker := us[0], us[1]
	post := n.post(t, author)

	var refuse atomic.Bool
	fence := func(context.Context) error {
		if refuse.Load() {
			return cluster.ErrDropped
		}
		return nil
	}
	n.live.Start(n.node.Cluster, n.node.Addresses, fence)

	t.Run("a refused like is not written", func(t *testing.T) {
		refuse.Store(true)
		_, _, _, err := n.live.Like(context.Background(), post, liker.ID, domain.Like, uuid.NewString())
		if !errors.Is(err, domain.ErrWriteFailed) {
			t.Fatalf("like while the fence refuses: %v, want ErrWriteFailed", err)
		}
		n.exact(t, post, 0)
	})
	t.Run("the like commits once the fence lets it", func(t *testing.T) {
		refuse.Store(false)
		liked, count, _, err := n.live.Like(context.Background(), post, liker.ID, domain.Like, uuid.NewString())
		if err != nil || !liked || count != 1 {
			t.Fatalf("like: %v %d %v", liked, count, err)
		}
		n.exact(t, post, 1)
	})

	// A second member stands for the one a rejoin starts.
	next, err := cluster.Start(context.Background(), cluster.Options{
		Name: "campus-" + uuid.NewString()[:8], Addr: "127.0.0.1:0", Kinds: n.live.Kinds(), Log: testlog.New(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(next.Stop)
	other, err := cluster.Start(context.Background(), cluster.Options{
		Name: "campus-" + uuid.NewString()[:8], Addr: "127.0.0.1:0", Log: testlog.New(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Stop)
	old := n.node.Cluster
	n.live.Start(next.Cluster, next.Addresses, next.Confirm)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tests := []struct {
		name  string
		c     *protocluster.Cluster
		write bool
	}{
		{"the current member writes", next.Cluster, true},
		{"the replaced member never writes again", old, false},
		{"a member Start has not been given yet writes", other.Cluster, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := n.live.MayWrite(ctx, tt.c); (err == nil) != tt.write {
				t.Fatalf("may write: %v, want writes allowed: %v", err, tt.write)
			}
		})
	}
	liked, count, _, err := n.live.Like(context.Background(), post, liker.ID, domain.Unlike, uuid.NewString())
	if err != nil || liked || count != 0 {
		t.Fatalf("unlike through the new member: %v %d %v", liked, count, err)
	}
	n.exact(t, post, 0)
}
