package cluster

import (
	"context"
	"syscall"
	"testing"
	"time"

	"campus/testlog"
)

// waitFor polls cond until it holds or the time is up.
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEtcdMembership runs nodes in this process against a real etcd: they
// join and leave, and an etcd outage longer than the lease does not make a
// node drop itself or its peers for good (it registers again).
func TestEtcdMembership(t *testing.T) {
	endpoint, etcd := startEtcd(t)
	start := func() *Node {
		n, err := Start(context.Background(), Options{Name: "etcd-test", Addr: "127.0.0.1:0", Provider: ProviderEtcd,
			EtcdEndpoints: []string{endpoint}, Log: testlog.New(t)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Stop)
		return n
	}
	a, b := start(), start()
	members := func(want int, nodes ...*Node) func() bool {
		return func() bool {
			for _, n := range nodes {
				if n.Ready() != nil || n.Members() != want {
					return false
				}
			}
			return true
		}
	}

	t.Run("two nodes see each other", func(t *testing.T) {
		waitFor(t, "2 members", 30*time.Second, members(2, a, b))
	})
	t.Run("an etcd outage longer than the lease heals", func(t *testing.T) {
		if err := etcd.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * defaultEtcdLease) // the leases expire meanwhile
		if err := etcd.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		// Both keys expire when etcd wakes; both nodes must register again
		// and see each other, and stay ready throughout.
		waitFor(t, "2 members after the outage", 30*time.Second, members(2, a, b))
		c := start()
		waitFor(t, "3 members with a newcomer", 30*time.Second, members(3, a, b, c))
	})
	t.Run("a stopped node leaves", func(t *testing.T) {
		b.Stop()
		waitFor(t, "2 members", 30*time.Second, func() bool { return a.Members() == 2 })
	})
}
