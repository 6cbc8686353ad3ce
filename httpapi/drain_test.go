package httpapi

import (
	"context"
	"testing"

	"github.com/fasthttp/websocket"
)

// TestDrain is the SIGTERM sequence of serve.go on a live node: ready turns
// 503 first, a new socket is refused with 503 + Retry-After, and the open
// socket closes with 1012 "service restart" and the reconnect hint.
func TestDrain(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, tok := st.user(t, "Drain Watcher")
	c := st.connect(t, tok)

	if status, env := st.call(t, "GET", "/api/ready", "", nil); status != 200 {
		t.Fatalf("ready before the drain: %d %v", status, env)
	}
	st.srv.Drain()

	status, env := st.call(t, "GET", "/api/ready", "", nil)
	if status != 503 {
		t.Fatalf("ready while draining: %d %v", status, env)
	}
	if errs, _ := env["errors"].([]any); len(errs) != 1 || errs[0].(map[string]any)["field"] != "draining" {
		t.Fatalf("ready while draining names no check: %v", env)
	}

	// A new socket is refused before the upgrade: the client tries again
	// (another node, behind the load balancer).
	c2, resp, err := st.dial(t, tok, nil)
	if err == nil {
		c2.CloseCode(t)
		t.Fatal("a new socket was upgraded while draining")
	}
	if resp == nil || resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("upgrade while draining: %v %v", resp, err)
	}

	if err := st.sockets.CloseAll(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	code, reason := c.CloseCodeReason(t)
	if code != websocket.CloseServiceRestart || reason == "" {
		t.Fatalf("open socket closed with %d %q", code, reason)
	}
}
