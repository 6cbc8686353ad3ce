package httpapi

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/actors"
	"campus/persistence"
)

// likeCall sends a like request with the given X-Request-Id and answers the
// status, the Retry-After header and the envelope.
func (st *liveStack) likeCall(t *testing.T, method, postID, token, requestID string) (int, string, map[string]any) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + st.addr + "/api/posts/" + postID + "/like")
	req.Header.SetMethod(method)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Request-Id", requestID)
	if err := st.client.DoTimeout(req, resp, 30*time.Second); err != nil {
		t.Fatalf("%s like: %v", method, err)
	}
	var env map[string]any
	if err := json.Unmarshal(resp.Body(), &env); err != nil {
		t.Fatalf("%s like: not JSON (%d): %q", method, resp.StatusCode(), resp.Body())
	}
	return resp.StatusCode(), string(resp.Header.Peek("Retry-After")), env
}

// TestLikeBackpressure: a like the node cannot take (its backlog is full)
// is answered 503 with Retry-After, not 500; the client's retries of a
// toggle with the same X-Request-Id toggle once.
func TestLikeBackpressure(t *testing.T) {
	st := newLiveStack(t, liveOptions{live: func(c *actors.Config) { c.Writers, c.MaxPending = 1, 1 }})
	_, aTok := st.user(t, "Busy Author")
	_, uTok := st.user(t, "Busy Liker")
	held, target := st.post(t, aTok, "held"), st.post(t, aTok, "target")

	// The node's one writer waits on the held post's row with the only
	// request the backlog takes.
	tx, err := st.db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(context.Background(), "SELECT 1 FROM posts WHERE id = ? FOR UPDATE", held); err != nil {
		t.Fatal(err)
	}
	first := make(chan int, 1)
	go func() {
		status, _, _ := st.likeCall(t, "POST", held, uTok, uuid.NewString())
		first <- status
	}()
	for deadline := time.Now().Add(10 * time.Second); st.live.Stats().Batches < 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first like never reached the writer")
		}
	}

	rid := uuid.NewString()
	steps := []struct {
		name       string
		release    bool
		status     int
		retryAfter string
		liked      bool
		count      float64
	}{
		{"refused while the backlog is full", false, 503, "1", false, 0},
		{"the retry is a fresh attempt", true, 200, "", true, 1},
		{"a second retry toggles nothing", false, 200, "", true, 1},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.release {
				_ = tx.Rollback()
				if status := <-first; status != 200 {
					t.Fatalf("the held like answered %d", status)
				}
			}
			status, retryAfter, env := st.likeCall(t, "PATCH", target, uTok, rid)
			if status != s.status || retryAfter != s.retryAfter {
				t.Fatalf("answered %d (Retry-After %q) %v, want %d (%q)", status, retryAfter, env, s.status, s.retryAfter)
			}
			if status == 503 {
				if env["retryAfter"] != 1.0 || env["message"] == "" {
					t.Fatalf("503 envelope %v", env)
				}
				return
			}
			d := data(env)
			if d["isLiked"] != s.liked || d["likesCount"] != s.count {
				t.Fatalf("answered %v, want liked %v count %v", d, s.liked, s.count)
			}
		})
	}
	var counter int
	if err := st.db.NewSelect().Model((*persistence.Post)(nil)).Column("likes_count").Where("id = ?", target).
		Scan(context.Background(), &counter); err != nil || counter != 1 {
		t.Fatalf("likes_count %d (%v), want 1", counter, err)
	}
}
