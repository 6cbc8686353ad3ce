package realtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fasthttp/websocket"
	"github.com/google/uuid"

	"campus/actors"
)

// TestCountsOneFramePerSocketAndTick: the hub gets a tick's counts (from
// two nodes, as two CountsTick broadcasts) and every socket gets ONE
// post:counts frame holding exactly its watched posts that changed, with
// the last counts, and nothing for posts it does not watch or unwatched.
func TestCountsOneFramePerSocketAndTick(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{})
	posts := make([]string, 25)
	for i := range posts {
		posts[i] = uuid.NewString()
	}
	a, _ := n.dial(uuid.New())
	b, _ := n.dial(uuid.New())
	watch := func(c *websocket.Conn, event string, ids []string) {
		t.Helper()
		raw, _ := json.Marshal(map[string]any{"event": event, "data": map[string]any{"postIds": ids}})
		if err := c.WriteMessage(websocket.TextMessage, raw); err != nil {
			t.Fatal(err)
		}
		// The answer to a test frame after it proves the hub has the watch
		// in its mailbox before anything the test sends it next.
		if err := c.WriteMessage(websocket.TextMessage, []byte(`{"event":"test"}`)); err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, got, err := c.ReadMessage(); err != nil || !json.Valid(got) || string(got[:25]) != `{"event":"test:response",` {
			t.Fatalf("probe: %q %v", got, err)
		}
	}
	watch(a, "watch", posts[:20])     // a watches 0–19
	watch(b, "watch", posts[10:25])   // b watches 10–24 …
	watch(b, "unwatch", posts[10:12]) // … then scrolls 10 and 11 out

	hub := actor.NewPID(n.system.Address(), actors.HubName)
	var nodeA, nodeB actors.CountsTick
	for i := range 20 { // posts 0–19 change (20–24 do not), on two nodes
		c := &actors.PostCount{PostId: posts[i], Likes: int64(i), Comments: 1}
		if i%2 == 0 {
			nodeA.Counts = append(nodeA.Counts, c)
		} else {
			nodeB.Counts = append(nodeB.Counts, c)
		}
	}
	// A later count of post 0 in the same tick wins.
	nodeB.Counts = append(nodeB.Counts, &actors.PostCount{PostId: posts[0], Likes: 100, Comments: 2})
	n.system.Root.Send(hub, &nodeA)
	n.system.Root.Send(hub, &nodeB)

	expect := func(c *websocket.Conn, ids []string) {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, raw, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		got := countsOf(t, raw)
		want := map[string]string{}
		for _, id := range ids {
			for i, p := range posts {
				if p == id {
					want[id] = fmt.Sprint(i, 1)
				}
			}
		}
		if _, ok := want[posts[0]]; ok {
			want[posts[0]] = "100 2"
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("entries %v, want %v", got, want)
		}
		// One frame for the tick: the next frame is a probe's answer.
		if err := c.WriteMessage(websocket.TextMessage, []byte(`{"event":"test"}`)); err != nil {
			t.Fatal(err)
		}
		if _, got, err := c.ReadMessage(); err != nil || string(got[:25]) != `{"event":"test:response",` {
			t.Fatalf("after the tick's frame: %q %v", got, err)
		}
	}
	t.Run("socket a: posts 0–19", func(t *testing.T) { expect(a, posts[:20]) })
	t.Run("socket b: posts 12–19", func(t *testing.T) { expect(b, posts[12:20]) })
}

// countsOf reads a post:counts frame: each entry's "likes comments" by post
// id. It fails the test on another frame, an entry without counts or a post
// named twice.
func countsOf(t *testing.T, raw []byte) map[string]string {
	t.Helper()
	var f struct {
		Event string `json:"event"`
		Data  struct {
			Posts []struct {
				PostID        string `json:"postId"`
				LikesCount    *int   `json:"likesCount"`
				CommentsCount *int   `json:"commentsCount"`
			} `json:"posts"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &f); err != nil || f.Event != "post:counts" {
		t.Fatalf("frame %q: %v", raw, err)
	}
	got := map[string]string{}
	for _, p := range f.Data.Posts {
		if p.LikesCount == nil || p.CommentsCount == nil {
			t.Fatalf("entry without counts in %q", raw)
		}
		if _, dup := got[p.PostID]; dup {
			t.Fatalf("post twice in %q", raw)
		}
		got[p.PostID] = fmt.Sprint(*p.LikesCount, *p.CommentsCount)
	}
	return got
}

// TestWatchChecked: the posts of a watch frame reach the hub only once the
// client's Watchable check allowed them: refused posts and a post unwatched
// while its check ran get no counts; the allowed ones do (a check that
// fails is TestWatchCheckFailures'). The client's frames are answered in order: a probe sent after a
// watch is answered once the watch is with the hub, so the first tick after
// it carries the post.
func TestWatchChecked(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{})
	ok1, ok2, refused, gated := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	gate, gatedAsked := make(chan struct{}), make(chan struct{})
	check := func(_ context.Context, ids []uuid.UUID) ([]uuid.UUID, error) {
		var out []uuid.UUID
		for _, id := range ids {
			switch id {
			case gated:
				close(gatedAsked)
				<-gate
			case refused:
				continue
			}
			out = append(out, id)
		}
		return out, nil
	}
	n.watchable.Store(&check)
	c, _ := n.dial(uuid.New())
	send := func(event string, ids ...uuid.UUID) {
		t.Helper()
		raw, _ := json.Marshal(map[string]any{"event": event, "data": map[string]any{"postIds": ids}})
		if err := c.WriteMessage(websocket.TextMessage, raw); err != nil {
			t.Fatal(err)
		}
	}
	// A read that times out breaks the connection: frames are read in the
	// background and waited for here.
	frames := make(chan []byte, 64)
	go func() {
		defer close(frames)
		for {
			_, raw, err := c.ReadMessage()
			if err != nil {
				return
			}
			frames <- raw
		}
	}()
	next := func(what string) []byte {
		t.Helper()
		select {
		case raw := <-frames:
			if raw == nil {
				t.Fatalf("%s: the socket closed", what)
			}
			return raw
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no frame", what)
		}
		return nil
	}
	probe := func() {
		t.Helper()
		if err := c.WriteMessage(websocket.TextMessage, []byte(`{"event":"test"}`)); err != nil {
			t.Fatal(err)
		}
	}

	send("watch", ok1, refused)
	send("watch", gated)
	select {
	case <-gatedAsked:
	case <-time.After(5 * time.Second):
		t.Fatal("the watch was not checked")
	}
	send("unwatch", gated) // while its check runs
	probe()
	// The probe waits behind the check: nothing is answered until it is.
	select {
	case raw := <-frames:
		t.Fatalf("answered while a watch check ran: %q", raw)
	case <-time.After(200 * time.Millisecond):
	}
	close(gate)
	if raw := next("probe after the gated check"); !bytes.Contains(raw, []byte(`"test:response"`)) {
		t.Fatalf("probe: %q", raw)
	}
	send("watch", ok2)
	probe()
	if raw := next("probe after the last watch"); !bytes.Contains(raw, []byte(`"test:response"`)) {
		t.Fatalf("probe: %q", raw)
	}

	hub := actor.NewPID(n.system.Address(), actors.HubName)
	tick := &actors.CountsTick{}
	for _, id := range []uuid.UUID{ok1, ok2, refused, gated} {
		tick.Counts = append(tick.Counts, &actors.PostCount{PostId: id.String(), Likes: 1})
	}
	n.system.Root.Send(hub, tick)
	got := map[string]bool{}
	for id := range countsOf(t, next("the tick's frame")) {
		got[id] = true
	}
	want := map[string]bool{ok1.String(): true, ok2.String(): true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the tick's posts %v, want ok1 %s and ok2 %s only", got, ok1, ok2)
	}
}

// TestHeldFramesAreBounded: a client that floods frames while a watch check
// runs is disconnected (1008) rather than queued without end.
func TestHeldFramesAreBounded(t *testing.T) {
	n := newTestNode(t, Options{}, HubOptions{})
	gate := make(chan struct{})
	defer close(gate)
	check := func(_ context.Context, ids []uuid.UUID) ([]uuid.UUID, error) {
		<-gate
		return ids, nil
	}
	n.watchable.Store(&check)
	c, _ := n.dial(uuid.New())
	raw, _ := json.Marshal(map[string]any{"event": "watch", "data": map[string]any{"postIds": []uuid.UUID{uuid.New()}}})
	if err := c.WriteMessage(websocket.TextMessage, raw); err != nil {
		t.Fatal(err)
	}
	for range maxHeld + 1 {
		if err := c.WriteMessage(websocket.TextMessage, []byte(`{"event":"test"}`)); err != nil {
			t.Fatal(err)
		}
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, got, err := c.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != ClosePolicy {
		t.Fatalf("after %d held frames: %q %v, want close %d", maxHeld+1, got, err, ClosePolicy)
	}
}
