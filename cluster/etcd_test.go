package cluster

import (
	"context"
	"errors"
	"strings"
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
		// What etcd lists and what each node sees agree (readiness
		// checks this).
		for _, n := range []*Node{a, b} {
			if err := n.Membership(); err != nil {
				t.Fatalf("%s: %v", n.Address(), err)
			}
		}
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
		waitFor(t, "the three agree with etcd", 30*time.Second, func() bool {
			return a.Membership() == nil && b.Membership() == nil && c.Membership() == nil
		})
	})
	t.Run("a stopped node leaves", func(t *testing.T) {
		b.Stop()
		waitFor(t, "2 members", 30*time.Second, func() bool { return a.Members() == 2 })
	})
}

// TestCompareMembership is the rule of Node.Membership: etcd must list this
// node, and every member etcd lists must be among those this node sees,
// unless this node blocked it (it must rejoin under a new ID).
func TestCompareMembership(t *testing.T) {
	none := func(string) bool { return false }
	for _, tc := range []struct {
		name    string
		view    *etcdView
		seen    []string
		blocked func(string) bool
		wantErr string
	}{
		{"before the first list", nil, nil, none, ""},
		{"agree", &etcdView{selfListed: true, listed: map[string]string{"b": "10.0.0.2:6331"}},
			[]string{"10.0.0.1:6331", "10.0.0.2:6331"}, none, ""},
		{"a member in its grace period is seen, not listed", &etcdView{selfListed: true, listed: map[string]string{}},
			[]string{"10.0.0.1:6331", "10.0.0.2:6331"}, none, ""},
		{"lease lost", &etcdView{selfListed: false, listed: map[string]string{"b": "10.0.0.2:6331"}},
			[]string{"10.0.0.1:6331", "10.0.0.2:6331"}, none, "etcd does not list this node"},
		{"a listed member unseen", &etcdView{selfListed: true, listed: map[string]string{"b": "10.0.0.2:6331", "c": "10.0.0.3:6331"}},
			[]string{"10.0.0.1:6331", "10.0.0.2:6331"}, none, "etcd lists 10.0.0.3:6331 (c)"},
		{"a listed member this node blocked", &etcdView{selfListed: true, listed: map[string]string{"c": "10.0.0.3:6331"}},
			[]string{"10.0.0.1:6331"}, func(id string) bool { return id == "c" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := compareMembership(tc.view, tc.seen, tc.blocked)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("got %v, want agreement", err)
				}
				return
			}
			if !errors.Is(err, ErrMembership) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want ErrMembership with %q", err, tc.wantErr)
			}
		})
	}
}
