// Package wstest is a websocket client for tests of the realtime protocol
// (docs/protocol.md §2): dial /api/ws, send frames, wait for named events, read the
// close code. It is used by tests only.
package wstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
)

// wait bounds Next and CloseCode.
const wait = 5 * time.Second

// Conn is a client socket; it is closed when the test ends.
type Conn struct {
	*websocket.Conn
}

// Frame is one frame of the protocol.
type Frame struct {
	Event string         `json:"event"`
	Data  map[string]any `json:"data"`
}

// Dial opens ws://addr/api/ws with extra headers and, given a token, sends
// it as the first frame ({"event":"auth"}), as the browser client does: the
// token never goes in the URL.
func Dial(t testing.TB, addr, token string, header http.Header) (*Conn, *http.Response, error) {
	t.Helper()
	c, resp, err := dial(t, url.URL{Scheme: "ws", Host: addr, Path: "/api/ws"}, header)
	if err != nil || token == "" {
		return c, resp, err
	}
	if err := c.WriteJSON(map[string]any{"event": "auth", "data": map[string]any{"token": token}}); err != nil {
		return nil, resp, fmt.Errorf("send auth: %w", err)
	}
	return c, resp, nil
}

// DialQuery opens ws://addr/api/ws?token=…, the form clients before the
// first-frame auth used; the server still accepts it for their sake.
func DialQuery(t testing.TB, addr, token string) (*Conn, *http.Response, error) {
	t.Helper()
	return dial(t, url.URL{Scheme: "ws", Host: addr, Path: "/api/ws", RawQuery: "token=" + url.QueryEscape(token)}, nil)
}

func dial(t testing.TB, u url.URL, header http.Header) (*Conn, *http.Response, error) {
	d := websocket.Dialer{HandshakeTimeout: wait}
	c, resp, err := d.Dial(u.String(), header)
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { c.Close() })
	return &Conn{Conn: c}, resp, nil
}

// Connect dials and waits for the ready frame.
func Connect(t testing.TB, addr, token string) *Conn {
	t.Helper()
	c, _, err := Dial(t, addr, token, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	if f := c.Next(t, "ready"); f.Data["userId"] == "" {
		t.Fatalf("ready %v", f)
	}
	return c
}

// Read answers the next frame within d.
func (c *Conn) Read(d time.Duration) (Frame, error) {
	_ = c.SetReadDeadline(time.Now().Add(d))
	var f Frame
	_, raw, err := c.ReadMessage()
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, fmt.Errorf("frame %q: %w", raw, err)
	}
	return f, nil
}

// Next skips frames until one named event arrives (5 s at most).
func (c *Conn) Next(t testing.TB, event string) Frame {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		f, err := c.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting for %q: %v", event, err)
		}
		if f.Event == event {
			return f
		}
	}
}

// Send writes one frame.
func (c *Conn) Send(t testing.TB, event string, data any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"event": event, "data": data})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteMessage(websocket.TextMessage, b); err != nil {
		t.Fatal(err)
	}
}

// CloseCode reads until the server closes and answers the close code.
func (c *Conn) CloseCode(t testing.TB) int {
	t.Helper()
	code, _ := c.CloseCodeReason(t)
	return code
}

// CloseCodeReason reads until the server closes and answers the close code
// and reason.
func (c *Conn) CloseCodeReason(t testing.TB) (int, string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		_ = c.SetReadDeadline(deadline)
		if _, _, err := c.ReadMessage(); err != nil {
			if ce, ok := err.(*websocket.CloseError); ok {
				return ce.Code, ce.Text
			}
			t.Fatalf("no close frame: %v", err)
		}
	}
}

// Watch watches posts. The session answers a socket's frames in order, and
// a frame after a watch only once the watch's check let it through to the
// hub; so the test round trip after it proves the hub's mailbox has the
// watch, and any event caused after that reaches the hub behind it.
func (c *Conn) Watch(t testing.TB, ids ...string) {
	t.Helper()
	c.Send(t, "watch", map[string]any{"postIds": ids})
	c.Send(t, "test", map[string]any{})
	c.Next(t, "test:response")
}

// PostCount is one entry of a post:counts frame.
type PostCount struct {
	PostID        string
	LikesCount    int
	CommentsCount int
	RepostsCount  int
}

// Counts answers the entries of a post:counts frame by post id; it fails
// the test if the frame is not one or names a post twice.
func Counts(t testing.TB, f Frame) map[string]PostCount {
	t.Helper()
	posts, ok := f.Data["posts"].([]any)
	if f.Event != "post:counts" || !ok {
		t.Fatalf("not a post:counts frame: %v", f)
	}
	out := make(map[string]PostCount, len(posts))
	for _, p := range posts {
		m, _ := p.(map[string]any)
		id, _ := m["postId"].(string)
		likes, ok1 := m["likesCount"].(float64)
		comments, ok2 := m["commentsCount"].(float64)
		reposts, ok3 := m["repostsCount"].(float64)
		if id == "" || !ok1 || !ok2 || !ok3 {
			t.Fatalf("bad post:counts entry %v", p)
		}
		if _, dup := out[id]; dup {
			t.Fatalf("post %s twice in one post:counts frame: %v", id, f)
		}
		out[id] = PostCount{PostID: id, LikesCount: int(likes), CommentsCount: int(comments), RepostsCount: int(reposts)}
	}
	return out
}
