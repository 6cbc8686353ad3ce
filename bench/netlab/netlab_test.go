package netlab

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// newLab is a lab with hosts a and b, or a skip naming why this machine
// cannot build one.
func newLab(t *testing.T) (*Lab, *Host, *Host) {
	t.Helper()
	if err := Check(); err != nil {
		if errors.Is(err, ErrUnavailable) {
			t.Skipf("no network lab on this machine: %v", err)
		}
		t.Fatal(err)
	}
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		names := l.Namespaces()
		if err := l.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		for _, ns := range names {
			if _, err := os.Stat("/run/netns/" + ns); err == nil {
				t.Errorf("namespace %s left behind", ns)
			}
		}
	})
	a, err := l.AddHost("a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.AddHost("b")
	if err != nil {
		t.Fatal(err)
	}
	return l, a, b
}

// echo listens on h's address and echoes every connection.
func echo(t *testing.T, h *Host) string {
	t.Helper()
	var ln net.Listener
	if err := inNamespace(h.path(), func() error {
		var err error
		ln, err = net.Listen("tcp4", h.IP+":7000")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// dialFrom connects from h's namespace (nil: ours) within d.
func dialFrom(h *Host, addr string, d time.Duration) (net.Conn, error) {
	if h == nil {
		return net.DialTimeout("tcp4", addr, d)
	}
	var c net.Conn
	err := inNamespace(h.path(), func() error {
		// The socket is made here, in h's namespace; the connect it starts
		// goes on from there whatever thread waits for it.
		var err error
		c, err = net.DialTimeout("tcp4", addr, d)
		return err
	})
	return c, err
}

// roundTrip sends a line over c and waits for it to come back.
func roundTrip(c net.Conn, within time.Duration) (time.Duration, error) {
	start := time.Now()
	_ = c.SetDeadline(start.Add(within))
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return 0, err
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(c, buf); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestCut(t *testing.T) {
	l, a, b := newLab(t)
	addr := echo(t, b)
	c, err := dialFrom(a, addr, 5*time.Second)
	if err != nil {
		t.Fatalf("a → b before the cut: %v", err)
	}
	defer c.Close()
	if _, err := roundTrip(c, 5*time.Second); err != nil {
		t.Fatalf("round trip before the cut: %v", err)
	}
	heal, err := l.Cut(a, b)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		do   func() error
	}{
		{"a new connection times out", func() error {
			c2, err := dialFrom(a, addr, time.Second)
			if err == nil {
				c2.Close()
			}
			return err
		}},
		{"an open connection times out", func() error {
			_, err := roundTrip(c, time.Second)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if !isTimeout(err) {
				t.Fatalf("got %v, want a timeout (not a refusal)", err)
			}
		})
	}
	t.Run("the caller still reaches b", func(t *testing.T) {
		c3, err := dialFrom(nil, addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		c3.Close()
	})
	if err := heal(); err != nil {
		t.Fatal(err)
	}
	// The open connection carries on: TCP resends what was lost.
	c.Close()
	c, err = dialFrom(a, addr, 5*time.Second)
	if err != nil {
		t.Fatalf("a → b after healing: %v", err)
	}
	defer c.Close()
	if _, err := roundTrip(c, 5*time.Second); err != nil {
		t.Fatalf("round trip after healing: %v", err)
	}
}

func TestDegrade(t *testing.T) {
	const delay = 100 * time.Millisecond
	l, a, b := newLab(t)
	addr := echo(t, b)
	c, err := dialFrom(a, addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	method, heal, err := l.Degrade([]*Host{a, b}, delay, 0)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("this kernel cannot delay packets: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if HasNetem() != (method == "netem") {
		t.Errorf("method %q, but HasNetem() = %v", method, HasNetem())
	}
	// Every packet waits delay each way: no round trip can be quicker than
	// two of them (a lower bound, which no load on the machine can break).
	for i := range 5 {
		rtt, err := roundTrip(c, 10*time.Second)
		if err != nil {
			t.Fatalf("round trip %d: %v", i, err)
		}
		t.Logf("rtt %s", rtt)
		if rtt < 2*delay {
			t.Fatalf("round trip %d took %s under a %s delay each way", i, rtt, delay)
		}
	}
	// The caller is not between a and b: its packets are not held.
	c2, err := dialFrom(nil, addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := heal(); err != nil {
		t.Fatal(err)
	}
	if _, err := roundTrip(c, 5*time.Second); err != nil {
		t.Fatalf("round trip after healing: %v", err)
	}

	t.Run("loss", func(t *testing.T) {
		// A loss of 1 drops everything: the statistic match works.
		_, heal, err := l.Degrade([]*Host{a, b}, time.Millisecond, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer heal()
		c3, err := dialFrom(a, addr, time.Second)
		if err == nil {
			c3.Close()
		}
		if !isTimeout(err) {
			t.Fatalf("got %v with every packet dropped, want a timeout", err)
		}
	})
}

func TestTwoLabs(t *testing.T) {
	// Parallel test processes each build a lab: their subnets and names
	// must not collide.
	l1, _, _ := newLab(t)
	l2, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if l1.Subnet() == l2.Subnet() {
		t.Fatalf("both labs on %s", l1.Subnet())
	}
	h, err := l2.AddHost("a")
	if err != nil {
		t.Fatal(err)
	}
	// Nothing listens on port 9: a refusal proves the route to the second
	// lab's host. A new host's first packets may wait for its link and ARP on
	// a busy machine, so a dial that times out is tried again; the route is
	// wrong only if no refusal ever comes.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := dialFrom(nil, net.JoinHostPort(h.IP, "9"), 2*time.Second)
		if err == nil {
			c.Close()
			return
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			return
		}
		if !isTimeout(err) || time.Now().After(deadline) {
			t.Fatalf("the second lab's host: %v, want a refusal", err)
		}
	}
}
