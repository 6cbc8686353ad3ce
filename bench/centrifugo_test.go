package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
)

// startTestCentrifugo starts the cached Centrifugo build (skipping when it
// is not cached: tests do not build it) in a temp dir.
func startTestCentrifugo(t *testing.T, ctx context.Context) *centrifugoProc {
	t.Helper()
	if bin, ok := centrifugoCached(); !ok {
		t.Skipf("no Centrifugo %s build at %s: the bench builds it on its first peers run (go run ./bench --only peers)", centrifugoVersion, bin)
	}
	raiseNoFile()
	dir := t.TempDir()
	cf, err := startCentrifugo(ctx, dir, func(format string, args ...any) { t.Logf(format, args...) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cf.stop(10 * time.Second); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			if b, err := os.ReadFile(cf.logPath); err == nil {
				t.Logf("centrifugo log:\n%s", b)
			}
		}
	})
	return cf
}

// centrifugoPush is a publication as a subscriber receives it.
type centrifugoPush struct {
	channel string
	data    []byte
}

// readPushes reads c's pushes until one arrives on the channel until,
// answering pings on the way, and returns those before it.
func readPushes(t *testing.T, c *websocket.Conn, until string) []centrifugoPush {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	var out []centrifugoPush
	for {
		_, msg, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v (pushes so far: %d)", err, len(out))
		}
		if reply, _ := centrifugoPong(msg); reply != nil {
			if err := c.WriteMessage(websocket.TextMessage, reply); err != nil {
				t.Fatalf("pong: %v", err)
			}
		}
		for _, line := range bytes.Split(msg, []byte("\n")) {
			var r struct {
				Push *struct {
					Channel string `json:"channel"`
					Pub     *struct {
						Data json.RawMessage `json:"data"`
					} `json:"pub"`
				} `json:"push"`
			}
			if len(bytes.TrimSpace(line)) == 0 || bytes.Equal(bytes.TrimSpace(line), []byte("{}")) {
				continue
			}
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("message %q: %v", line, err)
			}
			if r.Push == nil || r.Push.Pub == nil {
				t.Fatalf("not a publication: %s", line)
			}
			if r.Push.Channel == until {
				return out
			}
			out = append(out, centrifugoPush{channel: r.Push.Channel, data: r.Push.Pub.Data})
		}
	}
}

// TestCentrifugoDelivers starts the cached Centrifugo, connects sockets
// the way the peers scenario does (a JWT, a subscription per watched
// post), publishes count frames through the batch API and checks that
// every socket receives exactly those frames, byte for byte: each
// publication once, none of another post. A last publication on a
// channel every socket also watches marks the end, so that "nothing
// else" needs no waiting.
func TestCentrifugoDelivers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cf := startTestCentrifugo(t, ctx)
	d := newBench(opts{}).wsDialer()
	end := uuid.New()

	cases := []struct {
		name    string
		sockets int
		watch   int   // posts each socket subscribes to (besides end)
		publish []int // posts (indices) published, in one batch, with their count
	}{
		{name: "two sockets, one frame", sockets: 2, watch: 1, publish: []int{0}},
		{name: "two sockets, a tick of three posts of five watched", sockets: 2, watch: 5, publish: []int{0, 2, 4}},
		{name: "two sockets, two ticks of the same post", sockets: 2, watch: 2, publish: []int{1, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			posts := make([]uuid.UUID, tc.watch)
			for i := range posts {
				posts[i] = uuid.New()
			}
			conns := make([]*websocket.Conn, tc.sockets)
			for i := range conns {
				tok, err := cf.token(fmt.Sprintf("user-%d", i))
				if err != nil {
					t.Fatal(err)
				}
				c, err := cf.open(ctx, d, tok, append(slices.Clone(posts), end), 15*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				conns[i] = c
			}
			var want []centrifugoPush
			for k, post := range tc.publish {
				frame := countFrame(posts[post], int32(10+k))
				if err := cf.publish([]centrifugoPublication{{channel: centrifugoChannel(posts[post]), data: frame}}); err != nil {
					t.Fatal(err)
				}
				want = append(want, centrifugoPush{channel: centrifugoChannel(posts[post]), data: frame})
			}
			if err := cf.publish([]centrifugoPublication{{channel: centrifugoChannel(end), data: countFrame(end, 1)}}); err != nil {
				t.Fatal(err)
			}
			for i, c := range conns {
				got := readPushes(t, c, centrifugoChannel(end))
				if len(got) != len(want) {
					t.Fatalf("socket %d: %d pushes, want %d: %q", i, len(got), len(want), got)
				}
				for j := range want {
					if got[j].channel != want[j].channel || !bytes.Equal(got[j].data, want[j].data) {
						t.Errorf("socket %d push %d: %s %s, want %s %s", i, j, got[j].channel, got[j].data, want[j].channel, want[j].data)
					}
				}
			}
		})
	}

	t.Run("a batch of frames reaches the pool's reader as count frames", func(t *testing.T) {
		b := newBench(opts{})
		posts := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
		// The end marker is the pool's fourth post: each reader notes when
		// its frame arrives, as the fan-out scenario's do.
		p, err := b.dialPool(ctx, dialSpec{
			label: "centrifugo test", n: 2, posts: append(slices.Clone(posts), end),
			open: func(ctx context.Context, d *websocket.Dialer, i int) (*websocket.Conn, error) {
				tok, err := cf.token(fmt.Sprintf("user-%d", i))
				if err != nil {
					return nil, err
				}
				return cf.open(ctx, d, tok, append(slices.Clone(posts), end), 15*time.Second)
			},
			pong: centrifugoPong,
		})
		defer p.close()
		if err != nil {
			t.Fatal(err)
		}
		p.rec.Store(true)
		p.fanLeft.Store(int64(len(p.vs)))
		p.fanTarget.Store(1)
		p.fanIdx.Store(int32(len(posts)))
		var pubs []centrifugoPublication
		for i, post := range posts {
			pubs = append(pubs, centrifugoPublication{channel: centrifugoChannel(post), data: countFrame(post, int32(100+i))})
		}
		if err := cf.publish(pubs); err != nil {
			t.Fatal(err)
		}
		if err := cf.publish([]centrifugoPublication{{channel: centrifugoChannel(end), data: countFrame(end, 1)}}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for p.fanLeft.Load() > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := p.fanLeft.Load(); n > 0 {
			t.Fatalf("%d sockets never got the end marker", n)
		}
		p.close() // the frames are safe to read once the readers stopped
		for i, v := range p.vs {
			var got []string
			for _, f := range v.frames {
				got = append(got, fmt.Sprintf("%d:%d", f.post, f.count))
			}
			slices.Sort(got)
			if want := []string{"0:100", "1:101", "2:102", "3:1"}; !slices.Equal(got, want) {
				t.Errorf("socket %d recorded %v, want %v", i, got, want)
			}
		}
		if n := p.badMsgs.Load(); n != 0 {
			t.Errorf("%d messages did not parse", n)
		}
		if n := p.dropped.Load(); n != 0 {
			t.Errorf("%d sockets closed by the server", n)
		}
	})
}

// TestCountSchedule: the like run's acknowledged counts become one
// publication per changed post and tick, with the tick's last count, and
// a post's counts never repeat.
func TestCountSchedule(t *testing.T) {
	tick := int64(countTick)
	op := func(ack int64, post, count int32) likeOp { return likeOp{ack: ack, post: post, count: count} }
	cases := []struct {
		name string
		ops  []likeOp
		want []countTickPubs
	}{
		{name: "nothing acknowledged", want: nil},
		{name: "one like in the first tick", ops: []likeOp{op(tick/2, 0, 1)},
			want: []countTickPubs{{posts: []int32{0}, counts: []int32{1}}}},
		{name: "three likes of a post in one tick: its last count", ops: []likeOp{op(10, 1, 1), op(tick-1, 1, 3), op(20, 1, 2)},
			want: []countTickPubs{{posts: []int32{1}, counts: []int32{3}}}},
		{name: "two posts, a quiet tick between", ops: []likeOp{op(1, 0, 1), op(2, 1, 1), op(2*tick+5, 1, 2)},
			want: []countTickPubs{{posts: []int32{0, 1}, counts: []int32{1, 1}}, {}, {posts: []int32{1}, counts: []int32{2}}}},
		{name: "an ack on a tick's edge belongs to the next tick", ops: []likeOp{op(tick, 0, 1)},
			want: []countTickPubs{{}, {posts: []int32{0}, counts: []int32{1}}}},
		{name: "a count that falls is published one above the last", ops: []likeOp{op(1, 0, 5), op(tick+1, 0, 4)},
			want: []countTickPubs{{posts: []int32{0}, counts: []int32{5}}, {posts: []int32{0}, counts: []int32{6}}}},
	}
	const runStart = int64(1_000_000)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lr := &likeRun{}
			for _, o := range tc.ops {
				o.ack += runStart
				lr.ops = append(lr.ops, o)
			}
			got := countSchedule(lr, 2, runStart)
			if len(got) != len(tc.want) {
				t.Fatalf("%d ticks, want %d: %+v", len(got), len(tc.want), got)
			}
			for k := range got {
				if !slices.Equal(got[k].posts, tc.want[k].posts) || !slices.Equal(got[k].counts, tc.want[k].counts) {
					t.Errorf("tick %d: %+v, want %+v", k+1, got[k], tc.want[k])
				}
			}
		})
	}
}

// TestCentrifugoPong: pings are answered, alone or beside pushes, and a
// push alone is not taken for one.
func TestCentrifugoPong(t *testing.T) {
	push := `{"push":{"channel":"posts:x","pub":{"data":{"event":"post:counts","data":{"posts":[{"postId":"x","likesCount":1,"commentsCount":0,"countsVersion":1}]}}}}}`
	cases := []struct {
		name      string
		msg       string
		wantReply bool
		wantOnly  bool
	}{
		{name: "a ping", msg: `{}`, wantReply: true, wantOnly: true},
		{name: "a push", msg: push},
		{name: "a ping before a push", msg: "{}\n" + push, wantReply: true},
		{name: "a push before a ping", msg: push + "\n{}", wantReply: true},
		{name: "two pushes", msg: push + "\n" + push},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reply, only := centrifugoPong([]byte(tc.msg))
			if (reply != nil) != tc.wantReply || only != tc.wantOnly {
				t.Errorf("reply %q only %v, want reply %v only %v", reply, only, tc.wantReply, tc.wantOnly)
			}
			if reply != nil && string(reply) != "{}" {
				t.Errorf("reply %q, want {}", reply)
			}
		})
	}
}
