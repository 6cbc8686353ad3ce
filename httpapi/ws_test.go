package httpapi

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"

	"campus/httpapi/wstest"
	"campus/persistence"
	"campus/realtime"
)

func TestLiveEventsReachSockets(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	author, authorTok := st.user(t, "Live Author")
	liker, likerTok := st.user(t, "Live Liker")
	_, watcherTok := st.user(t, "Live Watcher")
	id := st.post(t, authorTok, "watch me")

	authorWS := st.connect(t, authorTok)
	watcherWS := st.connect(t, watcherTok)
	watcherWS.Watch(t, id)

	status, env := st.call(t, "POST", "/api/posts/"+id+"/like", likerTok, nil)
	if status != 200 || data(env)["isLiked"] != true || data(env)["likesCount"] != 1.0 {
		t.Fatalf("like %d %v", status, env)
	}
	t.Run("watcher gets the count", func(t *testing.T) {
		f := watcherWS.Next(t, "post:counts")
		if c := wstest.Counts(t, f); len(c) != 1 || c[id].LikesCount != 1 || c[id].CommentsCount != 0 {
			t.Fatalf("post:counts %v", f.Data)
		}
	})
	t.Run("author gets post:like and a notification", func(t *testing.T) {
		f := authorWS.Next(t, "post:like")
		from := f.Data["fromUser"].(map[string]any)
		if f.Data["postId"] != id || from["id"] != liker.ID.String() || from["name"] != "Live Liker" || from["avatar"] == nil {
			t.Fatalf("post:like %v", f.Data)
		}
		n := authorWS.Next(t, "notification")
		if n.Data["type"] != "like" || n.Data["unreadCount"] != 1.0 || n.Data["post"].(map[string]any)["id"] != id ||
			n.Data["actorCount"] != 1.0 || f.Data["actorCount"] != 1.0 ||
			n.Data["sender"].(map[string]any)["id"] != liker.ID.String() || n.Data["message"] != "Live Liker liked your post" {
			t.Fatalf("notification %v", n.Data)
		}
		rows, err := st.db.NewSelect().Model((*persistence.Notification)(nil)).
			Where("user_id = ? AND ? = ANY (actor_ids) AND actor_count = 1 AND post_id = ? AND type = 'like'", author.ID, liker.ID, id).Count(context.Background())
		if err != nil || rows != 1 {
			t.Fatalf("notification rows %d %v", rows, err)
		}
	})
	t.Run("unlike and like again: no second notification", func(t *testing.T) {
		st.call(t, "DELETE", "/api/posts/"+id+"/like", likerTok, nil)
		st.call(t, "POST", "/api/posts/"+id+"/like", likerTok, nil)
		// The comment's notification arrives; no like one may come first.
		st.call(t, "POST", "/api/posts/"+id+"/comments", likerTok, map[string]any{"content": "Great post"})
		f := authorWS.Next(t, "notification")
		if f.Data["type"] != "comment" || f.Data["unreadCount"] != 2.0 {
			t.Fatalf("expected the comment notification, got %v", f.Data)
		}
		nextCount(t, watcherWS, id, func(c wstest.PostCount) bool { return c.CommentsCount == 1 })
	})
	t.Run("the author's own like notifies nobody", func(t *testing.T) {
		st.call(t, "POST", "/api/posts/"+id+"/like", authorTok, nil)
		authorWS.Send(t, "test", map[string]any{})
		for {
			f, err := authorWS.Read(2 * time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if f.Event == "post:like" || f.Event == "notification" {
				t.Fatalf("self-like pushed %v", f)
			}
			if f.Event == "test:response" {
				break
			}
		}
	})
	t.Run("deleting the post tells watchers", func(t *testing.T) {
		if status, env := st.call(t, "DELETE", "/api/posts/"+id, authorTok, nil); status != 200 {
			t.Fatalf("%d %v", status, env)
		}
		if f := watcherWS.Next(t, "post:deleted"); f.Data["postId"] != id {
			t.Fatalf("post:deleted %v", f.Data)
		}
	})
}

// TestLiveCountsAreCoalesced: many likes in a short time reach a watcher as
// at most one count per 250 ms, and the last count always arrives.
func TestLiveCountsAreCoalesced(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, aTok := st.user(t, "Coalesce Author")
	id := st.post(t, aTok, "busy")
	tokens := make([]string, 40)
	for i := range tokens {
		_, tokens[i] = st.user(t, fmt.Sprintf("Coalesce %d", i))
	}
	ws := st.connect(t, aTok)
	ws.Watch(t, id)
	start := time.Now()
	// 40 likes spread over about a second: uncoalesced, 40 frames.
	for _, tok := range tokens {
		if status, _ := st.call(t, "POST", "/api/posts/"+id+"/like", tok, nil); status != 200 {
			t.Fatalf("like %d", status)
		}
		time.Sleep(25 * time.Millisecond)
	}
	elapsed := time.Since(start)
	var counts []float64
	for {
		f, err := ws.Read(time.Second)
		if err != nil {
			break // a second of silence: the trailing count has gone out
		}
		if f.Event == "post:counts" {
			counts = append(counts, float64(wstest.Counts(t, f)[id].LikesCount))
		}
	}
	if len(counts) == 0 || counts[len(counts)-1] != float64(len(tokens)) {
		t.Fatalf("counts %v: the last must be %d", counts, len(tokens))
	}
	if limit := int(elapsed/(250*time.Millisecond)) + 2; len(counts) > limit {
		t.Fatalf("%d count frames in %v (at most %d)", len(counts), elapsed, limit)
	}
	t.Logf("%d likes in %v → %d post:counts frames", len(tokens), elapsed.Round(time.Millisecond), len(counts))
}

// nextCount reads post:counts frames until one carries post id with counts
// that satisfy ok (5 s at most).
func nextCount(t *testing.T, ws *wstest.Conn, id string, ok func(wstest.PostCount) bool) wstest.PostCount {
	t.Helper()
	for {
		f := ws.Next(t, "post:counts")
		if c, have := wstest.Counts(t, f)[id]; have && ok(c) {
			return c
		}
	}
}

// TestPostCountsOneFramePerTick: a socket watching 20 posts whose counts
// change within a tick gets one post:counts frame per tick, holding the
// changed posts with their last counts and none of the unchanged ones.
func TestPostCountsOneFramePerTick(t *testing.T) {
	// A long tick, so that the likes below, sent together right after a
	// tick, all fall into the next one.
	const tick = 2 * time.Second
	st := newLiveStack(t, liveOptions{countInterval: tick})
	_, authorTok := st.user(t, "Counts Author")
	_, watcherTok := st.user(t, "Counts Watcher")
	posts := make([]string, 20)
	for i := range posts {
		posts[i] = st.post(t, authorTok, fmt.Sprintf("post %d", i))
	}
	likers := make([]string, 3)
	for i := range likers {
		_, likers[i] = st.user(t, fmt.Sprintf("Counts Liker %d", i))
	}
	ws := st.connect(t, watcherTok)
	ws.Watch(t, posts...)

	changed := posts[:15] // posts[15:] stay as they are
	want := map[string]int{}
	time.Sleep(time.Until(time.Now().Truncate(tick).Add(tick + 50*time.Millisecond)))
	start := time.Now()
	var wg sync.WaitGroup
	for i, id := range changed {
		n := 1 + i%len(likers) // 1 to 3 likes: the frame must carry the last count
		want[id] = n
		for _, tok := range likers[:n] {
			wg.Go(func() {
				if status, env := st.call(t, "POST", "/api/posts/"+id+"/like", tok, nil); status != 200 {
					t.Errorf("like %d %v", status, env)
				}
			})
		}
	}
	wg.Wait()
	elapsed := time.Since(start)

	got := map[string]int{}
	frames := 0
	for len(got) < len(want) || !maps.Equal(got, want) {
		f := ws.Next(t, "post:counts")
		frames++
		for id, c := range wstest.Counts(t, f) {
			if _, ok := want[id]; !ok {
				t.Fatalf("unchanged post %s in %v", id, f.Data)
			}
			if c.CommentsCount != 0 {
				t.Fatalf("comments of %s: %d", id, c.CommentsCount)
			}
			got[id] = c.LikesCount
		}
	}
	if elapsed < tick-100*time.Millisecond && frames != 1 {
		t.Fatalf("likes within one tick (%v) came in %d frames", elapsed, frames)
	}
	t.Logf("%d posts changed in %v → %d post:counts frame(s)", len(changed), elapsed.Round(time.Millisecond), frames)
	// Nothing more follows: a probe's answer is next.
	ws.Send(t, "test", map[string]any{})
	if f, err := ws.Read(tick + time.Second); err != nil || f.Event != "test:response" {
		t.Fatalf("after the counts: %v %v", f, err)
	}
}

// TestUnwatchedPostStopsCounts: a post the client scrolled out of view
// (unwatch) sends it no more counts, while the posts still in view do.
func TestUnwatchedPostStopsCounts(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, authorTok := st.user(t, "Scroll Author")
	_, likerTok := st.user(t, "Scroll Liker")
	_, otherTok := st.user(t, "Scroll Other")
	_, watcherTok := st.user(t, "Scroll Watcher")
	gone, stays := st.post(t, authorTok, "scrolled out"), st.post(t, authorTok, "still in view")
	ws := st.connect(t, watcherTok)
	ws.Watch(t, gone, stays)

	st.call(t, "POST", "/api/posts/"+gone+"/like", likerTok, nil)
	nextCount(t, ws, gone, func(c wstest.PostCount) bool { return c.LikesCount == 1 })

	ws.Send(t, "unwatch", map[string]any{"postIds": []string{gone}})
	ws.Send(t, "test", map[string]any{})
	ws.Next(t, "test:response")
	st.call(t, "POST", "/api/posts/"+gone+"/like", otherTok, nil)
	st.call(t, "POST", "/api/posts/"+stays+"/like", likerTok, nil)
	// The watched post's count comes; the unwatched one's never did, not
	// in the same frame and not before.
	for {
		f := ws.Next(t, "post:counts")
		c := wstest.Counts(t, f)
		if _, ok := c[gone]; ok {
			t.Fatalf("unwatched post's count arrived: %v", f.Data)
		}
		if c[stays].LikesCount == 1 {
			break
		}
	}
}

func TestWebsocketAuth(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	u, tok := st.user(t, "Socket Owner")
	_, otherTok := st.user(t, "Socket Bystander")

	t.Run("bad token closes with 1008", func(t *testing.T) {
		for _, bad := range []string{"nonsense", tok + "x"} {
			c, _, err := st.dial(t, bad, nil)
			if err != nil {
				t.Fatal(err)
			}
			if code := c.CloseCode(t); code != websocket.ClosePolicyViolation {
				t.Fatalf("close code %d", code)
			}
		}
	})
	t.Run("token as the first frame", func(t *testing.T) {
		c, _, err := st.dial(t, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Send(t, "auth", map[string]any{"token": tok})
		if f := c.Next(t, "ready"); f.Data["userId"] != u.ID.String() || f.Data["unreadCount"] != 0.0 {
			t.Fatalf("ready %v", f.Data)
		}
	})
	t.Run("token in the query, from clients before the first-frame auth", func(t *testing.T) {
		c, _, err := wstest.DialQuery(t, st.addr, tok)
		if err != nil {
			t.Fatal(err)
		}
		if f := c.Next(t, "ready"); f.Data["userId"] != u.ID.String() {
			t.Fatalf("ready %v", f.Data)
		}
		bad, _, err := wstest.DialQuery(t, st.addr, tok+"x")
		if err != nil {
			t.Fatal(err)
		}
		if code := bad.CloseCode(t); code != websocket.ClosePolicyViolation {
			t.Fatalf("close code %d", code)
		}
	})
	t.Run("frames sent right after the auth frame reach the session", func(t *testing.T) {
		c, _, err := st.dial(t, tok, nil) // auth, then at once a test ping, before ready
		if err != nil {
			t.Fatal(err)
		}
		c.Send(t, "test", map[string]any{})
		c.Next(t, "ready")
		c.Next(t, "test:response")
	})
	t.Run("no token at all", func(t *testing.T) {
		c, _, err := st.dial(t, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Send(t, "test", map[string]any{})
		if code := c.CloseCode(t); code != websocket.ClosePolicyViolation {
			t.Fatalf("close code %d", code)
		}
	})
	t.Run("foreign origin refused", func(t *testing.T) {
		_, resp, err := st.dial(t, tok, http.Header{"Origin": {"https://evil.example"}})
		if err == nil || resp == nil || resp.StatusCode != 403 {
			t.Fatalf("dial from a foreign origin: %v %v", resp, err)
		}
		if _, _, err := st.dial(t, tok, http.Header{"Origin": {"http://" + st.addr}}); err != nil {
			t.Fatalf("own origin: %v", err)
		}
	})
	t.Run("logout closes the user's sockets", func(t *testing.T) {
		mine := st.connect(t, tok)
		other := st.connect(t, otherTok)
		if status, env := st.call(t, "POST", "/api/auth/logout", tok, nil); status != 200 {
			t.Fatalf("logout %d %v", status, env)
		}
		if code := mine.CloseCode(t); code != websocket.ClosePolicyViolation {
			t.Fatalf("close code %d", code)
		}
		other.Send(t, "test", map[string]any{})
		other.Next(t, "test:response")
		// The old token cannot connect again.
		c, _, err := st.dial(t, tok, nil)
		if err != nil {
			t.Fatal(err)
		}
		if code := c.CloseCode(t); code != websocket.ClosePolicyViolation {
			t.Fatalf("close code %d", code)
		}
	})
	t.Run("a revocation spares sockets whose token still holds", func(t *testing.T) {
		ctx := context.Background()
		u, oldTok := st.user(t, "Password Changer")
		old := st.connect(t, oldTok)
		if err := st.sessions.Revoke(ctx, st.db, u.ID); err != nil {
			t.Fatal(err)
		}
		if code := old.CloseCode(t); code != websocket.ClosePolicyViolation {
			t.Fatalf("old socket close code %d", code)
		}
		fresh, err := persistence.UserByID(ctx, st.db, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		newTok, err := st.sessions.Issue(fresh)
		if err != nil {
			t.Fatal(err)
		}
		c := st.connect(t, newTok)
		st.hub.UserRevoked(u.ID) // as if another NOTIFY came: the socket re-checks and stays
		time.Sleep(200 * time.Millisecond)
		c.Send(t, "test", map[string]any{})
		c.Next(t, "test:response")
	})
}

func TestWebsocketFrames(t *testing.T) {
	const msgBadFrame = `Invalid frame: send JSON {"event": "name", "data": {…}}.`
	st := newLiveStack(t, liveOptions{})
	_, tok := st.user(t, "Frame Sender")
	c := st.connect(t, tok)
	tests := []struct {
		name  string
		frame string
		event string // the answer; "" means none
		msg   string
	}{
		{"test", `{"event":"test","data":{}}`, "test:response", ""},
		{"test without data", `{"event":"test"}`, "test:response", ""},
		{"bad json", `{"event":`, "error", msgBadFrame},
		{"not an object", `[1,2]`, "error", msgBadFrame},
		{"no event", `{"data":{}}`, "error", msgBadFrame},
		{"unknown event", `{"event":"shout","data":{}}`, "error", "Unknown event."},
		{"too large", `{"event":"test","data":{"x":"` + strings.Repeat("a", 17<<10) + `"}}`, "error", "Frame too large: the limit is 16 KiB."},
		{"client post:like is ignored", `{"event":"post:like","data":{"postId":"x","postAuthorId":"y"}}`, "", ""},
		{"client friend:request is ignored", `{"event":"friend:request","data":{"toUserId":"x"}}`, "", ""},
		{"watch without ids", `{"event":"watch","data":{}}`, "error", `Invalid watch: send {"postIds": ["…"]}.`},
		{"watch with bad ids", `{"event":"watch","data":{"postIds":["nope","` + uuid.NewString() + `"]}}`, "error", "Some post ids are not valid and were ignored."},
		{"unwatch", `{"event":"unwatch","data":{"postIds":["` + uuid.NewString() + `"]}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.WriteMessage(websocket.TextMessage, []byte(tt.frame)); err != nil {
				t.Fatal(err)
			}
			// A test frame after it: its answer comes after the answer to
			// the frame under test, if any.
			c.Send(t, "test", map[string]any{})
			f, err := c.Read(5 * time.Second)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.event
			if want == "" {
				want = "test:response"
			}
			if f.Event != want || (tt.msg != "" && f.Data["message"] != tt.msg) {
				t.Fatalf("answer %v, want %s %q", f, want, tt.msg)
			}
			if tt.event != "" {
				c.Next(t, "test:response") // the probe's own answer
			}
		})
	}
	t.Run("at most 200 watched posts", func(t *testing.T) {
		ids := make([]string, 201)
		for i := range ids {
			ids[i] = uuid.NewString()
		}
		// One frame: the ids name no post, so a first frame's would be
		// refused by the watch check (and leave room) before a second is read.
		c.Send(t, "watch", map[string]any{"postIds": ids})
		if f := c.Next(t, "error"); f.Data["message"] != "You can watch at most 200 posts at once." {
			t.Fatalf("answer %v", f)
		}
	})
}

func TestTooManySockets(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, tok := st.user(t, "Many Tabs")
	for range realtime.DefaultMaxSocketsPerUser {
		st.connect(t, tok)
	}
	c, _, err := st.dial(t, tok, nil)
	if err != nil {
		t.Fatal(err)
	}
	if code := c.CloseCode(t); code != websocket.CloseTryAgainLater {
		t.Fatalf("close code %d", code)
	}
	if n, err := st.sockets.Count(); err != nil || n != realtime.DefaultMaxSocketsPerUser {
		t.Fatalf("hub has %d sockets (%v)", n, err)
	}
}

func TestShutdownClosesSocketsServiceRestart(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, tok := st.user(t, "Shutdown Watcher")
	c := st.connect(t, tok)
	if err := st.sockets.CloseAll(context.Background(), "bye"); err != nil {
		t.Fatal(err)
	}
	if code := c.CloseCode(t); code != websocket.CloseServiceRestart {
		t.Fatalf("close code %d", code)
	}
	// New sockets are turned away too.
	c2, _, err := st.dial(t, tok, nil)
	if err != nil {
		t.Fatal(err)
	}
	if code := c2.CloseCode(t); code != websocket.CloseServiceRestart {
		t.Fatalf("late socket close code %d", code)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, err := st.sockets.Count()
		if err == nil && n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sockets still registered", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
