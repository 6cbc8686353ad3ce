package actors_test

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"

	"campus/actors"
)

// socketPair serves websockets on loopback, each wrapped in a Session, and
// hands the sessions to the test.
func socketPair(t *testing.T, o actors.SessionOptions) (dial func() (*websocket.Conn, *actors.Session)) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sessions := make(chan *actors.Session, 1)
	up := websocket.FastHTTPUpgrader{}
	srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		_ = up.Upgrade(ctx, func(c *websocket.Conn) {
			s := actors.NewSession(c, uuid.New(), o)
			sessions <- s
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					break
				}
			}
			s.Stop()
		})
	}}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown(); ln.Close() })
	return func() (*websocket.Conn, *actors.Session) {
		c, _, err := websocket.DefaultDialer.Dial("ws://"+ln.Addr().String()+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c, <-sessions
	}
}

// TestSlowConsumerIsDisconnected: a peer that stops reading is cut off once
// its queue is full; a peer that reads is not affected.
func TestSlowConsumerIsDisconnected(t *testing.T) {
	dial := socketPair(t, actors.SessionOptions{MaxQueue: 16, WriteTimeout: 30 * time.Second, Log: zerolog.Nop()})
	slowConn, slow := dial()
	fastConn, fast := dial()
	_ = slowConn // never read

	frame := bytes.Repeat([]byte("x"), 64<<10)
	sent := 0
	for ; sent < 2000; sent++ {
		if !slow.Send(frame) {
			break
		}
		if !fast.Send(frame) {
			t.Fatalf("the reading peer was refused at frame %d", sent)
		}
		_ = fastConn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, got, err := fastConn.ReadMessage(); err != nil || len(got) != len(frame) {
			t.Fatalf("reading peer, frame %d: %v", sent, err)
		}
	}
	if sent == 2000 {
		t.Fatal("a peer that never reads was never disconnected")
	}
	t.Logf("slow peer cut off after %d frames of 64 KiB", sent)
	if !slow.Closing() {
		t.Fatal("slow session still open")
	}
	// Its connection is gone: reading ends in an error, not a hang.
	_ = slowConn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		if _, _, err := slowConn.ReadMessage(); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("slow connection not closed")
			}
			break
		}
	}
	// The reading peer goes on.
	if !fast.Send([]byte(`{"event":"test:response","data":{}}`)) {
		t.Fatal("reading peer refused after the slow one was cut off")
	}
	if _, got, err := fastConn.ReadMessage(); err != nil || !bytes.Contains(got, []byte("test:response")) {
		t.Fatalf("reading peer: %q %v", got, err)
	}
}

// TestSessionClose sends the close frame after what is queued.
func TestSessionClose(t *testing.T) {
	dial := socketPair(t, actors.SessionOptions{Log: zerolog.Nop()})
	conn, s := dial()
	s.Send([]byte(`{"event":"a","data":{}}`))
	s.Close(actors.CloseGoingAway, "bye")
	if s.Send([]byte("late")) {
		t.Fatal("a closing session took a frame")
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, got, err := conn.ReadMessage(); err != nil || string(got) != `{"event":"a","data":{}}` {
		t.Fatalf("first frame %q %v", got, err)
	}
	_, _, err := conn.ReadMessage()
	if ce, ok := err.(*websocket.CloseError); !ok || ce.Code != actors.CloseGoingAway || ce.Text != "bye" {
		t.Fatalf("close: %v", err)
	}
}

// TestHubPingsSessions: the hub pings every registered socket on its
// interval (the reader drops peers whose pongs stop).
func TestHubPingsSessions(t *testing.T) {
	system := actor.NewActorSystem()
	hub, err := actors.StartLocalHub(system, zerolog.Nop(), actors.HubOptions{PingInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(system.Shutdown)
	conn, s := socketPair(t, actors.SessionOptions{Log: zerolog.Nop()})()
	if err := hub.Register(s); err != nil {
		t.Fatal(err)
	}
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
	hub.Unregister(s, nil)
	if n, err := hub.Sockets(); err != nil || n != 0 {
		t.Fatalf("%d sockets after unregister (%v)", n, err)
	}
}

// TestSessionBurstAndPong: a burst the server makes at once (a user grain's
// batch of notifications: up to 1,000 frames) reaches a reading peer whole
// and in order, frames of every size are framed right, and a client's ping
// is answered through the same queue.
func TestSessionBurstAndPong(t *testing.T) {
	conn, s := socketPair(t, actors.SessionOptions{Log: zerolog.Nop()})()
	sizes := []int{0, 1, 125, 126, 127, 65535, 65536, 70000}
	var want [][]byte
	for i := range 1000 {
		f := bytes.Repeat([]byte{'a' + byte(i%26)}, 40)
		if i < len(sizes) {
			f = bytes.Repeat([]byte{'x'}, sizes[i])
		}
		want = append(want, f)
	}
	for i, f := range want {
		if !s.Send(f) {
			t.Fatalf("frame %d refused", i)
		}
	}
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
	if s.Closing() {
		t.Fatal("a reading peer was taken for a slow one")
	}
}
