package httpapi

import (
	"testing"
	"time"
)

// TestLikeNotificationsRollUpInTheList: likes of one post are one
// notification in GET /notifications, newest liker first, with the count,
// the ready text and the post's snippet; reading it and a further like
// makes it unread again, once.
func TestLikeNotificationsRollUpInTheList(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, authorTok := st.user(t, "Rollup Author")
	_, asha := st.user(t, "Asha")
	_, ben := st.user(t, "Ben")
	_, chen := st.user(t, "Chen")
	id := st.post(t, authorTok, "Campus fest tonight")

	// list waits until the author's first notification counts want people.
	list := func(t *testing.T, want float64) (map[string]any, map[string]any) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			status, env := st.call(t, "GET", "/api/notifications", authorTok, nil)
			if status != 200 {
				t.Fatalf("list %d %v", status, env)
			}
			ns, _ := data(env)["notifications"].([]any)
			if len(ns) > 0 && ns[0].(map[string]any)["actorCount"] == want {
				if len(ns) != 1 {
					t.Fatalf("%d notifications, want the one roll-up: %v", len(ns), ns)
				}
				return ns[0].(map[string]any), data(env)["pagination"].(map[string]any)
			}
			if time.Now().After(deadline) {
				t.Fatalf("no roll-up of %v: %v", want, ns)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	actorNames := func(n map[string]any) []string {
		var out []string
		for _, a := range n["actors"].([]any) {
			out = append(out, a.(map[string]any)["name"].(string))
		}
		return out
	}

	steps := []struct {
		name    string
		liker   string
		count   float64
		message string
		actors  string
		unread  float64
		read    bool // mark it read after the step
	}{
		{"first like", asha, 1, "Asha liked your post", "[Asha]", 1, false},
		{"second like", ben, 2, "Ben and Asha liked your post", "[Ben Asha]", 1, true},
		{"a like after reading it", chen, 3, "Chen and 2 others liked your post", "[Chen Ben Asha]", 1, false},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if status, env := st.call(t, "POST", "/api/posts/"+id+"/like", s.liker, nil); status != 200 {
				t.Fatalf("like %d %v", status, env)
			}
			n, p := list(t, s.count)
			if n["type"] != "like" || n["message"] != s.message || n["isRead"] != false || p["unreadCount"] != s.unread ||
				fmtNames(actorNames(n)) != s.actors {
				t.Fatalf("roll-up %v, unread %v", n, p["unreadCount"])
			}
			if post := n["post"].(map[string]any); post["id"] != id || post["snippet"] != "Campus fest tonight" {
				t.Fatalf("post %v", post)
			}
			if s.read {
				status, env := st.call(t, "PATCH", "/api/notifications/mark-as-read", authorTok,
					map[string]any{"notificationIds": []string{n["id"].(string)}})
				if status != 200 || data(env)["unreadCount"] != 0.0 {
					t.Fatalf("mark read %d %v", status, env)
				}
			}
		})
	}
}

func fmtNames(ns []string) string {
	out := "["
	for i, n := range ns {
		if i > 0 {
			out += " "
		}
		out += n
	}
	return out + "]"
}
