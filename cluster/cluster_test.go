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
	tests := []struct {
		name, addr string
	}{
		{"bad address", "nonsense"},
		{"bad port", "127.0.0.1:x"},
		{"port taken", ln.Addr().String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Start(context.Background(), Options{Addr: tt.addr, Log: zerolog.Nop()})
			if err == nil {
				n.Stop()
				t.Fatal("want error")
			}
		})
	}
}
