package cluster

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func TestClusterOfOne(t *testing.T) {
	n, err := Start(context.Background(), Options{Name: "campus-test", Addr: "127.0.0.1:0", Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for n.Ready() != nil && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if err := n.Ready(); err != nil {
		t.Fatalf("not ready: %v", err)
	}
	if got := n.Members(); got != 1 {
		t.Fatalf("members = %d, want 1", got)
	}
	host, _, err := net.SplitHostPort(n.Address())
	if err != nil || host != "127.0.0.1" {
		t.Fatalf("address %q: %v", n.Address(), err)
	}
	n.Stop()
	n.Stop() // idempotent
	if err := n.Ready(); err == nil {
		t.Fatal("ready after stop")
	}
}

func TestStartErrors(t *testing.T) {
	// A taken port makes protoactor panic inside StartMember; Start must turn
	// that into an error.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Nothing listens on this port: etcd there is down.
	down, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	downAddr := down.Addr().String()
	down.Close()
	tests := []struct {
		name string
		o    Options
	}{
		{"bad address", Options{Addr: "nonsense"}},
		{"bad port", Options{Addr: "127.0.0.1:x"}},
		{"port taken", Options{Addr: ln.Addr().String()}},
		// The provider's health server cannot listen: the member would run
		// unseen by every peer.
		{"automanaged port taken", Options{Addr: "127.0.0.1:0", Provider: ProviderAutomanaged,
			Hosts: []string{ln.Addr().String()}, ManagePort: ln.Addr().(*net.TCPAddr).Port}},
		{"unknown provider", Options{Addr: "127.0.0.1:0", Provider: "consul"}},
		{"automanaged without hosts", Options{Addr: "127.0.0.1:0", Provider: ProviderAutomanaged}},
		{"etcd without endpoints", Options{Addr: "127.0.0.1:0", Provider: ProviderEtcd}},
		// Fails within the dial timeout instead of hanging in the provider.
		{"etcd unreachable", Options{Addr: "127.0.0.1:0", Provider: ProviderEtcd, EtcdEndpoints: []string{downAddr}}},
		// Without -tags k8s there is no provider; with it, no in-cluster config.
		{"k8s outside kubernetes", Options{Addr: "127.0.0.1:0", Provider: ProviderKubernetes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Log = zerolog.Nop()
			n, err := Start(context.Background(), tt.o)
			if err == nil {
				n.Stop()
				t.Fatal("want error")
			}
		})
	}
}
