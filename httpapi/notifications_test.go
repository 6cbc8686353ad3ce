package httpapi

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/persistence"
)

// notify files a notification for m from sender, created at.
func (s *social) notify(t *testing.T, m member, sender member, typ string, at time.Time) uuid.UUID {
	t.Helper()
	n := &persistence.Notification{UserID: m.ID, Type: typ, SenderID: sender.ID, CreatedAt: at}
	if err := persistence.InsertNotification(context.Background(), s.db, n); err != nil {
		t.Fatal(err)
	}
	return n.ID
}

func (s *social) isRead(t *testing.T, id uuid.UUID) (bool, bool) {
	t.Helper()
	var read bool
	err := s.db.QueryRowContext(context.Background(), "SELECT is_read FROM notifications WHERE id = ?", id).Scan(&read)
	if err != nil {
		return false, false
	}
	return read, true
}

func TestNotifications(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	ben := s.member(t, "Ben")
	cara := s.member(t, "Cara")

	empty := s.must(t, 200, "GET", "/api/notifications", asha.token, nil)
	if l, ok := empty["notifications"].([]any); !ok || len(l) != 0 {
		t.Fatalf("empty list %v", empty)
	}
	if p := obj(empty["pagination"]); p["unreadCount"] != 0.0 || p["nextCursor"] != nil || p["limit"] != 20.0 {
		t.Fatalf("empty pagination %v", p)
	}

	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	var mine []uuid.UUID // newest first
	for i := range 5 {
		typ := persistence.NotifyLike
		if i%2 == 1 {
			typ = persistence.NotifyFriendRequest
		}
		mine = append([]uuid.UUID{s.notify(t, asha, ben, typ, base.Add(time.Duration(i)*time.Minute))}, mine...)
	}
	// Two at the same instant: the id breaks the tie, none is lost.
	same := base.Add(-time.Minute)
	x, y := s.notify(t, asha, cara, persistence.NotifyComment, same), s.notify(t, asha, cara, persistence.NotifyComment, same)
	if x.String() > y.String() {
		x, y = y, x
	}
	mine = append(mine, y, x)
	bens := s.notify(t, ben, asha, persistence.NotifyFriendAccepted, base)

	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		d := s.must(t, 200, "GET", "/api/notifications?limit=2&cursor="+cursor, asha.token, nil)
		p := obj(d["pagination"])
		if p["unreadCount"] != 7.0 || p["limit"] != 2.0 {
			t.Fatalf("pagination %v", p)
		}
		for _, n := range list(d["notifications"]) {
			got = append(got, obj(n)["id"].(string))
		}
		next, _ := p["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	if fmt.Sprint(got) != fmt.Sprint(mine) {
		t.Fatalf("pages %v\nwant  %v (newest first, nothing from Ben's list)", got, mine)
	}

	first := list(s.must(t, 200, "GET", "/api/notifications?limit=1", asha.token, nil)["notifications"])
	n := obj(first[0])
	if n["type"] != "like" || n["isRead"] != false || n["createdAt"] == "" || n["message"] != "Ben liked your post" {
		t.Fatalf("notification %v", n)
	}
	if snd := obj(n["sender"]); snd["id"] != ben.id || snd["name"] != "Ben" || obj(snd["avatar"])["url"] != "" {
		t.Fatalf("sender %v", snd)
	}
	if d := s.must(t, 200, "GET", "/api/notifications?limit=1000", asha.token, nil); obj(d["pagination"])["limit"] != 100.0 {
		t.Fatalf("limit is capped at 100: %v", d["pagination"])
	}
	s.fails(t, 400, "GET", "/api/notifications?cursor=not-a-cursor", asha.token, nil, "Invalid cursor", "cursor")

	// Marking read: many ids at once; Ben's id in the list is ignored.
	d := s.must(t, 200, "PATCH", "/api/notifications/mark-as-read", asha.token,
		map[string]any{"notificationIds": []string{mine[0].String(), mine[1].String(), bens.String(), "junk"}})
	if d["updated"] != 2.0 || d["unreadCount"] != 5.0 {
		t.Fatalf("mark-as-read %v", d)
	}
	if read, _ := s.isRead(t, bens); read {
		t.Fatal("marking touched another user's notification")
	}
	if d := s.must(t, 200, "PATCH", "/api/notifications/mark-as-read", asha.token, map[string]any{"notificationIds": []string{mine[0].String()}}); d["updated"] != 0.0 {
		t.Fatalf("marking a read one again %v", d)
	}
	s.fails(t, 400, "PATCH", "/api/notifications/mark-as-read", asha.token, map[string]any{"notificationIds": []string{}}, "", "notificationIds")
	if d := s.must(t, 200, "PATCH", "/api/notifications/mark-as-read", ben.token, map[string]any{"notificationIds": []string{mine[2].String()}}); d["updated"] != 0.0 {
		t.Fatalf("Ben marked Asha's: %v", d)
	}
	if read, _ := s.isRead(t, mine[2]); read {
		t.Fatal("Ben's call marked Asha's notification read")
	}

	d = s.must(t, 200, "PATCH", "/api/notifications/mark-all-as-read", asha.token, nil)
	if d["updated"] != 5.0 || d["unreadCount"] != 0.0 {
		t.Fatalf("mark-all %v", d)
	}
	if read, _ := s.isRead(t, bens); read {
		t.Fatal("mark-all touched another user's notification")
	}
	if p := obj(s.must(t, 200, "GET", "/api/notifications", asha.token, nil)["pagination"]); p["unreadCount"] != 0.0 {
		t.Fatalf("after mark-all %v", p)
	}

	// Deleting: one's own goes; another's is 404 and stays.
	d = s.must(t, 200, "DELETE", "/api/notifications/"+mine[0].String(), asha.token, nil)
	if d["id"] != mine[0].String() {
		t.Fatalf("delete answer %v", d)
	}
	s.fails(t, 404, "DELETE", "/api/notifications/"+mine[0].String(), asha.token, nil, "Notification not found", "")
	s.fails(t, 404, "DELETE", "/api/notifications/"+bens.String(), asha.token, nil, "Notification not found", "")
	s.fails(t, 404, "DELETE", "/api/notifications/nope", asha.token, nil, "Notification not found", "")
	if _, ok := s.isRead(t, bens); !ok {
		t.Fatal("Asha deleted Ben's notification")
	}
	if got := list(s.must(t, 200, "GET", "/api/notifications?limit=100", asha.token, nil)["notifications"]); len(got) != 6 {
		t.Fatalf("after delete %d notifications, want 6", len(got))
	}
	d = s.must(t, 200, "DELETE", "/api/notifications/"+bens.String(), ben.token, nil)
	if d["unreadCount"] != 0.0 {
		t.Fatalf("Ben's delete %v", d)
	}

	t.Run("signed-in only", func(t *testing.T) {
		for _, c := range [][2]string{{"GET", "/api/notifications"}, {"PATCH", "/api/notifications/mark-as-read"},
			{"PATCH", "/api/notifications/mark-all-as-read"}, {"DELETE", "/api/notifications/" + mine[1].String()}} {
			if status, _ := s.call(t, c[0], c[1], "", nil); status != 401 {
				t.Fatalf("%s %s without token: %d", c[0], c[1], status)
			}
		}
	})
}

// The notification bodies join the request-body fuzz target.
func init() {
	bodyDecoders["mark read"] = func(c *fasthttp.RequestCtx) error {
		var in app.MarkReadInput
		return decodeJSON(c, &in)
	}
}
