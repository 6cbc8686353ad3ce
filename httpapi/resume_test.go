package httpapi

import (
	"testing"
	"time"
)

// TestResumeReplaysMissedNotification: a user's socket goes away, another
// user comments on their post meanwhile, and the reconnected socket's
// resume frame brings the missed notification, with the unread count.
func TestResumeReplaysMissedNotification(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, authorTok := st.user(t, "Resume Author")
	_, commenterTok := st.user(t, "Resume Commenter")
	postID := st.post(t, authorTok, "Resume me")

	c := st.connect(t, authorTok)
	// What the client saw last: a notification of before the disconnect.
	if status, env := st.call(t, "POST", "/api/posts/"+postID+"/comments", commenterTok, map[string]any{"content": "First"}); status != 201 {
		t.Fatalf("comment: %d %v", status, env)
	}
	seen := c.Next(t, "notification")
	since, err := time.Parse(time.RFC3339Nano, seen.Data["updatedAt"].(string))
	if err != nil {
		t.Fatalf("updatedAt of %v: %v", seen.Data, err)
	}
	_ = c.Close()

	if status, env := st.call(t, "POST", "/api/posts/"+postID+"/comments", commenterTok, map[string]any{"content": "While you were away"}); status != 201 {
		t.Fatalf("comment: %d %v", status, env)
	}
	// The notification is written by the author's user grain: wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for st.count(t, "notifications") < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the second notification was never written")
		}
		time.Sleep(20 * time.Millisecond)
	}

	r := st.connect(t, authorTok)
	r.Send(t, "resume", map[string]any{"since": since.Format(time.RFC3339Nano)})
	// The replay starts at since itself (the client knows that one by id),
	// then brings what was missed.
	var missed map[string]any
	for missed == nil {
		f := r.Next(t, "notification")
		if f.Data["id"] != seen.Data["id"] {
			missed = f.Data
		}
	}
	if missed["type"] != "comment" || missed["unreadCount"] != float64(2) {
		t.Fatalf("missed notification %v", missed)
	}

	// A bad cursor is answered with an error frame, and the socket lives on.
	r.Send(t, "resume", map[string]any{"since": "yesterday"})
	if f := r.Next(t, "error"); f.Data["message"] == "" {
		t.Fatalf("error frame %v", f)
	}
	r.Send(t, "test", map[string]any{})
	r.Next(t, "test:response")
}
