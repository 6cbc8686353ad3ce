package realtime

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/actors"
	"campus/protocol"
)

// testNode is a plain actor system with a hub and the sockets endpoint,
// serving websockets on loopback: every upgraded connection becomes a
// session actor, whose PID the test gets.
type testNode struct {
	t       *testing.T
	system  *actor.ActorSystem
	hub     *Hub
	sockets *Sockets
	addr    string
	pids    chan *actor.PID
	// watchable is the Client.Watchable of the sockets dialled from now on
	// (unset: none).
	watchable atomic.Pointer[func(context.Context, []uuid.UUID) ([]uuid.UUID, error)]
}

func newTestNode(t *testing.T, o Options, ho HubOptions) *testNode {
	t.Helper()
	n := &testNode{t: t, system: quietSystem(), pids: make(chan *actor.PID, 1)}
	t.Cleanup(n.system.Shutdown)
	if ho.PingInterval == 0 {
		ho.PingInterval = 24 * time.Hour
	}
	var err error
	if n.hub, err = StartHub(n.system, zerolog.Nop(), ho); err != nil {
		t.Fatal(err)
	}
	n.sockets = New(n.hub, zerolog.Nop(), o)
	up := websocket.Upgrader{ReadBufferSize: 256}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user := uuid.MustParse(r.URL.Query().Get("user"))
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		// The session owns the hijacked connection from here.
		client := Client{UserID: user, Ready: map[string]string{"userId": user.String()}}
		if w := n.watchable.Load(); w != nil {
			client.Watchable = *w
		}
		n.pids <- n.sockets.spawn(c, client)
	}))
	t.Cleanup(srv.Close)
	n.addr = srv.Listener.Addr().String()
	return n
}

// quietSystem is an actor system that logs nothing: a test's sessions end
// while messages are still on their way to them (dead letters).
func quietSystem() *actor.ActorSystem {
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
}

// dial connects a socket of user and reads its ready frame.
func (n *testNode) dial(user uuid.UUID) (*websocket.Conn, *actor.PID) {
	n.t.Helper()
	c, _, err := websocket.DefaultDialer.Dial("ws://"+n.addr+"/?user="+user.String(), nil)
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { c.Close() })
	pid := <-n.pids
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, got, err := c.ReadMessage(); err != nil || !bytes.Contains(got, []byte(`"event":"ready"`)) {
		n.t.Fatalf("ready: %q %v", got, err)
	}
	return c, pid
}

func (n *testNode) send(pid *actor.PID, frames ...[]byte) {
	n.system.Root.Send(pid, &SessionFrames{Frames: frames})
}

// waitSockets waits until the hub counts want sockets.
func (n *testNode) waitSockets(want int) {
	n.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := n.hub.Sockets()
		if err == nil && got == want {
			return
		}
		if time.Now().After(deadline) {
			n.t.Fatalf("hub has %d sockets (%v), want %d", got, err, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSlowConsumerIsDisconnected: a peer that stops reading is cut off once
// its queue is full; a peer that reads is not affected.
func TestSlowConsumerIsDisconnected(t *testing.T) {
	n := newTestNode(t, Options{MaxQueue: 16, WriteTimeout: 30 * time.Second}, HubOptions{})
	slowConn, slow := n.dial(uuid.New())
	fastConn, fast := n.dial(uuid.New())

	frame := bytes.Repeat([]byte("x"), 64<<10)
	for i := range 2000 {
		n.send(slow, frame)
		n.send(fast, frame)
		_ = fastConn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, got, err := fastConn.ReadMessage(); err != nil || len(got) != len(frame) {
			t.Fatalf("reading peer, frame %d: %v", i, err)
		}
	}
	// The slow connection is gone: reading ends in an error, not a hang.
	_ = slowConn.SetReadDeadline(time.Now().Add(10 * time.Second))
	read := 0
	for {
		if _, _, err := slowConn.ReadMessage(); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("slow connection not closed after %d frames read", read)
			}
			break
		}
		read++
	}
	if read >= 2000 {
		t.Fatal("the slow peer got every frame: it was never cut off")
	}
	t.Logf("slow peer cut off; %d frames of 64 KiB had reached it", read)
	n.waitSockets(1)
	// The reading peer goes on.
	n.send(fast, []byte(`{"event":"test:response","data":{}}`))
	if _, got, err := fastConn.ReadMessage(); err != nil || !bytes.Contains(got, []byte("test:response")) {
		t.Fatalf("reading peer: %q %v", got, err)
	}
}

// TestSessionClose sends the close frame after what is queued, and nothing
// after it.
func TestSessionClose(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{})
	conn, s := n.dial(uuid.New())
	n.send(s, []byte(`{"event":"a","data":{}}`))
	n.system.Root.Send(s, &SessionClose{Code: CloseGoingAway, Reason: "bye"})
	n.send(s, []byte("late"))
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, got, err := conn.ReadMessage(); err != nil || string(got) != `{"event":"a","data":{}}` {
		t.Fatalf("first frame %q %v", got, err)
	}
	_, got, err := conn.ReadMessage()
	if ce, ok := err.(*websocket.CloseError); !ok || ce.Code != CloseGoingAway || ce.Text != "bye" {
		t.Fatalf("close: %q %v", got, err)
	}
	n.waitSockets(0)
}

// TestHubPingsSessions: the hub pings every registered socket on its
// interval (the reader drops peers whose pongs stop).
func TestHubPingsSessions(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{PingInterval: 50 * time.Millisecond})
	conn, _ := n.dial(uuid.New())
	pings := make(chan struct{}, 16)
	conn.SetPingHandler(func(string) error {
		select {
		case pings <- struct{}{}:
		default:
		}
		return nil
	})
	go func() { // control frames are handled while reading
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
		}
	}()
	for i := range 3 {
		select {
		case <-pings:
		case <-time.After(2 * time.Second):
			t.Fatalf("ping %d never came", i+1)
		}
	}
	conn.Close()
	n.waitSockets(0)
}

// TestSessionBurstAndPong: a burst the server makes at once (a user grain's
// batch of notifications: up to 1,000 frames) reaches a reading peer whole
// and in order, frames of every size are framed right, and a client's ping
// is answered through the same queue.
func TestSessionBurstAndPong(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{})
	conn, s := n.dial(uuid.New())
	sizes := []int{0, 1, 125, 126, 127, 65535, 65536, 70000}
	var want [][]byte
	for i := range 1000 {
		f := bytes.Repeat([]byte{'a' + byte(i%26)}, 40)
		if i < len(sizes) {
			f = bytes.Repeat([]byte{'x'}, sizes[i])
		}
		want = append(want, f)
	}
	n.send(s, want...)
	pong := make(chan string, 1)
	conn.SetPongHandler(func(data string) error { pong <- data; return nil })
	if err := conn.WriteControl(websocket.PingMessage, []byte("hello"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for i, f := range want {
		typ, got, err := conn.ReadMessage()
		if err != nil || typ != websocket.TextMessage || !bytes.Equal(got, f) {
			t.Fatalf("frame %d: type %d, %d bytes, %v", i, typ, len(got), err)
		}
	}
	go func() { _, _, _ = conn.ReadMessage() }() // control frames are handled while reading
	select {
	case got := <-pong:
		if got != "hello" {
			t.Fatalf("pong %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no pong")
	}
	if got, err := n.hub.Sockets(); err != nil || got != 1 {
		t.Fatalf("a reading peer was taken for a slow one: %d sockets (%v)", got, err)
	}
}

// TestTooManySocketsPerUser: the hub refuses a user's socket past the cap
// with 1013 and keeps the others.
func TestTooManySocketsPerUser(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{MaxSocketsPerUser: 2})
	user := uuid.New()
	n.dial(user)
	n.dial(user)
	c, _, err := websocket.DefaultDialer.Dial("ws://"+n.addr+"/?user="+user.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	<-n.pids
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, got, err := c.ReadMessage()
	if ce, ok := err.(*websocket.CloseError); !ok || ce.Code != CloseTryAgainLater {
		t.Fatalf("third socket: %q %v", got, err)
	}
	n.waitSockets(2)
}

// TestWatchFrames: the answers to the client's frames, on a real socket.
func TestWatchFrames(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{})
	conn, _ := n.dial(uuid.New())
	send := func(frame string) {
		if err := conn.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
			t.Fatal(err)
		}
	}
	ids := make([]string, protocol.MaxWatched+1)
	for i := range ids {
		ids[i] = `"` + uuid.NewString() + `"`
	}
	tests := []struct {
		name, frame, want string
	}{
		{"test", `{"event":"test"}`, `"test:response"`},
		{"watch at the cap", `{"event":"watch","data":{"postIds":[` + strings.Join(ids[:protocol.MaxWatched], ",") + `]}}`, `"test:response"`},
		{"one more", `{"event":"watch","data":{"postIds":[` + ids[protocol.MaxWatched] + `]}}`, msgTooManyWatch},
		{"unwatch one, then it fits", `{"event":"unwatch","data":{"postIds":[` + ids[0] + `]}}`, `"test:response"`},
		{"watch again", `{"event":"watch","data":{"postIds":[` + ids[protocol.MaxWatched] + `]}}`, `"test:response"`},
		{"bad json", `{"event":`, "Invalid frame"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			send(tt.frame)
			if tt.frame != `{"event":"test"}` {
				send(`{"event":"test"}`) // its answer follows the answer to tt.frame, if any
			}
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, got, err := conn.ReadMessage()
			if err != nil || !bytes.Contains(got, []byte(tt.want)) {
				t.Fatalf("answer %q %v, want %s", got, err, tt.want)
			}
			if !bytes.Contains(got, []byte(`"test:response"`)) {
				if _, got, err := conn.ReadMessage(); err != nil || !bytes.Contains(got, []byte(`"test:response"`)) {
					t.Fatalf("probe answer %q %v", got, err)
				}
			}
		})
	}
}

// TestWatchCheckFailures: a watch whose check fails is tried again, and
// watched when a later try answers; one whose every try fails closes the
// socket with 1011, so its client reconnects and watches again (a socket
// left open without its watches would show stale counts for good).
func TestWatchCheckFailures(t *testing.T) {
	tests := []struct {
		name     string
		failures int32 // checks that fail before one answers
		closed   bool
	}{
		{"a check that fails once is tried again", 1, false},
		{"a check that always fails closes the socket", 1 << 30, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newTestNode(t, Options{}, HubOptions{})
			var calls atomic.Int32
			check := func(_ context.Context, ids []uuid.UUID) ([]uuid.UUID, error) {
				if calls.Add(1) <= tt.failures {
					return nil, errors.New("database out of reach")
				}
				return ids, nil
			}
			n.watchable.Store(&check)
			conn, _ := n.dial(uuid.New())
			post := uuid.New()
			for _, f := range []string{`{"event":"watch","data":{"postIds":["` + post.String() + `"]}}`, `{"event":"test"}`} {
				if err := conn.WriteMessage(websocket.TextMessage, []byte(f)); err != nil {
					t.Fatal(err)
				}
			}
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, got, err := conn.ReadMessage()
			if tt.closed {
				var ce *websocket.CloseError
				if !errors.As(err, &ce) || ce.Code != CloseInternal {
					t.Fatalf("after checks that all failed: %q %v, want a close with %d", got, err, CloseInternal)
				}
				return
			}
			if err != nil || !bytes.Contains(got, []byte(`"test:response"`)) {
				t.Fatalf("answer %q %v, want the test answer after the watch", got, err)
			}
			if calls.Load() != 2 {
				t.Fatalf("%d checks, want 2 (one failed, one answered)", calls.Load())
			}
			// The watch took effect: a frame for the post's watchers reaches
			// the socket.
			frame := []byte(`{"event":"post:deleted","data":{"postId":"` + post.String() + `"}}`)
			r := n.hub.ref()
			r.root.Send(r.pid, &actors.DeliverToWatchers{PostId: post.String(), Frames: [][]byte{frame}})
			_, got, err = conn.ReadMessage()
			if err != nil || !bytes.Equal(got, frame) {
				t.Fatalf("after the watch: %q %v, want the watchers' frame", got, err)
			}
		})
	}
}

// TestSilentPeerIsDropped: a peer that answers no ping (and sends nothing)
// for PongWait is dropped at a ping; one that answers stays.
func TestSilentPeerIsDropped(t *testing.T) {
	n := newTestNode(t, Options{PongWait: 300 * time.Millisecond}, HubOptions{PingInterval: 50 * time.Millisecond})
	silent, _ := n.dial(uuid.New()) // never reads again: no pongs
	alive, _ := n.dial(uuid.New())
	go func() { // reading answers the pings
		for {
			if _, _, err := alive.ReadMessage(); err != nil {
				return
			}
		}
	}()
	n.waitSockets(1)
	_ = silent.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := silent.ReadMessage(); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("the silent peer's connection stayed open")
			}
			break
		}
	}
	time.Sleep(time.Second) // many more PongWaits: the reading peer stays
	n.waitSockets(1)
}

// TestHubMove: when the node rejoins the cluster as a new member, the hub
// moves to the new actor system. The old hub's sockets were closed with
// 1012 first; a socket that connects afterwards lives in the new system,
// registers with the new hub and gets what the other members send there by
// name; the old hub is gone.
func TestHubMove(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{})
	oldConn, _ := n.dial(uuid.New())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := n.hub.CloseAll(ctx, CloseServiceRestart, RestartReason); err != nil {
		t.Fatal(err)
	}
	_ = oldConn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := oldConn.ReadMessage(); !websocket.IsCloseError(err, CloseServiceRestart) {
		t.Fatalf("the old hub's socket: %v, want a 1012 close", err)
	}

	oldSystem, next := n.system, quietSystem()
	t.Cleanup(next.Shutdown)
	if err := n.hub.Move(next); err != nil {
		t.Fatal(err)
	}
	n.system = next
	user := uuid.New()
	conn, _ := n.dial(user)
	n.waitSockets(1)
	frame := []byte(`{"event":"moved","data":{}}`)
	next.Root.Send(actor.NewPID(next.Address(), actors.HubName), &actors.DeliverToUser{UserId: user.String(), Frames: [][]byte{frame}})
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, got, err := conn.ReadMessage(); err != nil || !bytes.Equal(got, frame) {
		t.Fatalf("a frame for the user through the new hub: %q %v", got, err)
	}
	if _, err := oldSystem.Root.RequestFuture(actor.NewPID(oldSystem.Address(), actors.HubName), &hubCount{}, time.Second).Result(); err == nil {
		t.Fatal("the old hub still answers")
	}
}
