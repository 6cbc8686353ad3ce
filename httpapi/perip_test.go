package httpapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// TestLimitPerIP: with a cap of 2, a third connection from the same address
// is answered 429 in the error envelope with Retry-After and closed; the
// accepted ones keep their descriptor (the websockets' non-blocking writes
// need it); a connection closed twice frees one place, after which a new
// connection is accepted again. A cap of 0 leaves the listener as it is.
func TestLimitPerIP(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if LimitPerIP(raw, 0) != raw {
		t.Fatal("a cap of 0 wrapped the listener")
	}
	ln := LimitPerIP(raw, 2).(*perIPListener)
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	next := func() net.Conn {
		t.Helper()
		select {
		case c := <-accepted:
			return c
		case <-time.After(10 * time.Second):
			t.Fatal("no connection accepted")
			return nil
		}
	}

	dial()
	first := next()
	dial()
	next()

	t.Run("the third is refused with 429", func(t *testing.T) {
		c := dial()
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		var env struct {
			Status     string `json:"status"`
			Message    string `json:"message"`
			RetryAfter int    `json:"retryAfter"`
		}
		if err := json.Unmarshal(body, &env); err != nil {
			t.Fatalf("body %q: %v", body, err)
		}
		if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1" ||
			env.Status != "error" || env.Message != MsgTooManyConns || env.RetryAfter != 1 {
			t.Fatalf("answer %d %v %+v", res.StatusCode, res.Header, env)
		}
		if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
			t.Fatalf("still open after the refusal: %d %v", n, err)
		}
		select {
		case c := <-accepted:
			t.Fatalf("a connection over the cap was accepted: %v", c.RemoteAddr())
		default:
		}
	})
	t.Run("an accepted connection keeps its descriptor", func(t *testing.T) {
		sc, ok := first.(syscall.Conn)
		if !ok {
			t.Fatalf("%T is not a syscall.Conn", first)
		}
		if _, err := sc.SyscallConn(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("closing twice frees one place", func(t *testing.T) {
		first.Close()
		first.Close()
		if got := ln.Open("127.0.0.1"); got != 1 {
			t.Fatalf("%d open, want 1", got)
		}
		dial()
		next()
		if got := ln.Open("127.0.0.1"); got != 2 {
			t.Fatalf("%d open, want 2", got)
		}
	})
}
