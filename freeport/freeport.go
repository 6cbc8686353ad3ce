// Package freeport picks TCP ports for servers that tests and the bench
// start and that bind the port themselves a moment later (a campus serve
// process, protoactor's automanaged health server, etcd).
//
// It picks below the kernel's ephemeral range. Asking the kernel for port 0
// and closing the listener hands out a port from that range, and until the
// server binds it any outgoing connection on the machine may take it as its
// local port; on a busy machine one does ("bind: address already in use" in
// the cluster tests beside a bench). Below the range only another picker
// can collide, and picks are random.
package freeport

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// floor is the lowest port handed out: well above the registered services
// a development machine runs (Postgres 5432, etcd 2379, 8080…).
const floor = 10_000

var (
	mu    sync.Mutex
	given = map[int]bool{} // ports this process handed out, never twice
)

// Get returns a port that was free on every address just now, below the
// ephemeral range.
func Get() (int, error) {
	lo, hi := floor, ephemeralLow()
	if hi-lo < 1_000 {
		return kernel()
	}
	mu.Lock()
	defer mu.Unlock()
	for range 200 {
		p := lo + rand.IntN(hi-lo)
		if given[p] {
			continue
		}
		// Bind every address, as the widest server bind does (protoactor's
		// health server listens on 0.0.0.0).
		l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		_ = l.Close()
		given[p] = true
		return p, nil
	}
	return 0, errors.New("freeport: no free port below the ephemeral range after 200 tries")
}

// Must is Get for tests: it fails t when no port is found.
func Must(t testing.TB) int {
	t.Helper()
	p, err := Get()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ephemeralLow is the first port of the kernel's ephemeral range (Linux's
// default 32768 when it cannot be read).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return 32768
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 32768
	}
	return n
}

// kernel is the fallback where the range leaves no room below it.
func kernel() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("freeport: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
