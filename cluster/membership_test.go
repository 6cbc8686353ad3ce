package cluster

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"campus/freeport"
	"campus/testlog"
)

// TestDroppedMemberRejoins runs two members in this process, found through
// a real etcd or listed for the automanaged provider. When a peer blocks a
// member (as protoactor does with one it dropped: a pause or partition
// longer than the provider waits), the member finds out by itself: Dropped
// closes, Ready and Confirm answer ErrDropped. Rejoin then makes it a
// member again under a new ID, listed by both, and a stall of the new
// member holds its writes (Confirm) only until a check confirms it.
func TestDroppedMemberRejoins(t *testing.T) {
	tests := []struct {
		name    string
		options func(t *testing.T) (a, b Options)
	}{
		{"etcd", func(t *testing.T) (Options, Options) {
			endpoint, _ := startEtcd(t)
			o := Options{Name: "rejoin-test", Addr: "127.0.0.1:0", Provider: ProviderEtcd, EtcdEndpoints: []string{endpoint}}
			return o, o
		}},
		{"automanaged", func(t *testing.T) (Options, Options) {
			ports := []int{freeTCPPort(t), freeTCPPort(t)}
			hosts := []string{"127.0.0.1:" + strconv.Itoa(ports[0]), "127.0.0.1:" + strconv.Itoa(ports[1])}
			o := Options{Name: "rejoin-test", Addr: "127.0.0.1:0", Provider: ProviderAutomanaged, Hosts: hosts}
			a, b := o, o
			a.ManagePort, b.ManagePort = ports[0], ports[1]
			return a, b
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oa, ob := tt.options(t)
			droppedRejoins(t, oa, ob)
		})
	}
}

func droppedRejoins(t *testing.T, oa, ob Options) {
	start := func(o Options) *Node {
		o.Log = testlog.New(t)
		n, err := Start(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Stop)
		return n
	}
	a, b := start(oa), start(ob)
	listed := func(want int, nodes ...*Node) func() bool {
		return func() bool {
			for _, n := range nodes {
				if n.Ready() != nil || n.Members() != want {
					return false
				}
			}
			return true
		}
	}
	waitFor(t, "2 members", 30*time.Second, listed(2, a, b))
	confirm := func(n *Node) error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return n.Confirm(ctx)
	}
	if err := confirm(b); err != nil {
		t.Fatalf("confirm a member nobody dropped: %v", err)
	}

	oldID := b.System.ID
	a.Cluster.Remote.BlockList().Block(oldID)
	select {
	case <-b.Dropped():
	case <-time.After(30 * time.Second):
		t.Fatal("the blocked member did not find out that it was dropped")
	}
	if err := b.Ready(); !errors.Is(err, ErrDropped) {
		t.Fatalf("ready of a dropped member: %v, want ErrDropped", err)
	}
	if err := confirm(b); !errors.Is(err, ErrDropped) {
		t.Fatalf("confirm of a dropped member: %v, want ErrDropped", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b2, err := b.Rejoin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b2.Stop)
	if b2.System.ID == oldID {
		t.Fatal("the new member kept the dropped member's ID")
	}
	waitFor(t, "2 members after the rejoin", 30*time.Second, listed(2, a, b2))
	if err := confirm(b2); err != nil {
		t.Fatalf("confirm the new member: %v", err)
	}

	// A stall (as the heartbeat records one) holds writes until a check
	// that started after it confirms the member.
	w := b2.watch
	stalled := w.now()
	w.suspect.Store(stalled)
	if err := confirm(b2); err != nil {
		t.Fatalf("confirm after a stall: %v", err)
	}
	if got := w.confirmed.Load(); got < stalled {
		t.Fatalf("confirmed by a check that started %s before the stall", time.Duration(stalled-got))
	}
}

// freeTCPPort picks a port below the ephemeral range (see freeport).
func freeTCPPort(t testing.TB) int { return freeport.Must(t) }
