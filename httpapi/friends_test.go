package httpapi

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/persistence"
	"campus/protocol"
)

// ids lists the "id" of each object in l, or of its "user" when it wraps one.
func ids(l []any) []string {
	out := make([]string, 0, len(l))
	for _, v := range l {
		m := obj(v)
		if u := obj(m["user"]); u != nil {
			m = u
		}
		out = append(out, fmt.Sprint(m["id"]))
	}
	return out
}

func (s *social) check(t *testing.T, from member, to member) string {
	t.Helper()
	d := s.must(t, 200, "GET", "/api/friends/check/"+to.id, from.token, nil)
	return fmt.Sprintf("friend=%v sent=%v received=%v", d["isFriend"], d["requestSent"], d["requestReceived"])
}

// notificationTypes lists the types of a user's notifications, newest first.
func (s *social) notificationTypes(t *testing.T, m member) []string {
	t.Helper()
	var out []string
	for _, n := range list(s.must(t, 200, "GET", "/api/notifications", m.token, nil)["notifications"]) {
		out = append(out, fmt.Sprint(obj(n)["type"]))
	}
	return out
}

func TestFriendRequestLifecycle(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	ben := s.member(t, "Ben")
	cara := s.member(t, "Cara")

	d := s.must(t, 201, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": ben.id})
	req := obj(d["friendRequest"])
	reqID, _ := req["id"].(string)
	if req["status"] != "pending" || obj(req["sender"])["id"] != asha.id || obj(req["receiver"])["id"] != ben.id || req["createdAt"] == "" {
		t.Fatalf("send answer %v", d)
	}
	if _, leaked := obj(req["receiver"])["email"]; leaked {
		t.Fatal("a request leaks the receiver's e-mail")
	}

	// Ben is told live: friend:request from Asha, then the notification
	// with his unread count.
	events := s.pusher.take()
	if len(events) != 2 {
		t.Fatalf("pushes %+v, want friend:request and notification", events)
	}
	if e := events[0]; e.to != ben.ID || e.event != protocol.EventFriendRequest || e.data.(app.PersonalEvent).FromUser.ID != asha.id {
		t.Fatalf("first push %+v", e)
	}
	if e := events[1]; e.to != ben.ID || e.event != protocol.EventNotification {
		t.Fatalf("second push %+v", e)
	} else if n := e.data.(app.NotificationEvent); n.Type != "friend_request" || n.UnreadCount != 1 || n.Sender == nil || n.Sender.ID != asha.id || n.Message != "Asha sent you a friend request" {
		t.Fatalf("notification event %+v", n)
	}

	pending := list(s.must(t, 200, "GET", "/api/friends/pending-requests", ben.token, nil)["pendingRequests"])
	if len(pending) != 1 || obj(pending[0])["id"] != reqID || obj(obj(pending[0])["sender"])["name"] != "Asha" || obj(pending[0])["status"] != "pending" {
		t.Fatalf("Ben's pending requests %v", pending)
	}
	if sent := list(s.must(t, 200, "GET", "/api/friends/sent-requests", asha.token, nil)["sentRequests"]); len(sent) != 1 || obj(sent[0])["id"] != reqID {
		t.Fatalf("Asha's sent requests %v", sent)
	}
	if got := list(s.must(t, 200, "GET", "/api/friends/pending-requests", asha.token, nil)["pendingRequests"]); len(got) != 0 {
		t.Fatalf("the sender has no received request: %v", got)
	}
	if got := s.check(t, asha, ben); got != "friend=false sent=true received=false" {
		t.Fatalf("Asha→Ben %s", got)
	}
	if got := s.check(t, ben, asha); got != "friend=false sent=false received=true" {
		t.Fatalf("Ben→Asha %s", got)
	}
	if c := s.must(t, 200, "GET", "/api/friends/check/"+ben.id, asha.token, nil); c["requestId"] != reqID {
		t.Fatalf("check carries the request id: %v", c)
	}

	rules := []struct {
		name, method, path string
		who                member
		body               any
		status             int
		msg                string
	}{
		{"twice", "POST", "/api/friends/send-request", asha, map[string]any{"receiverId": ben.id}, 409, "Friend request already sent"},
		{"to yourself", "POST", "/api/friends/send-request", asha, map[string]any{"receiverId": asha.id}, 400, "You cannot send a friend request to yourself"},
		{"without receiver", "POST", "/api/friends/send-request", asha, map[string]any{}, 400, "receiverId is required"},
		{"to nobody", "POST", "/api/friends/send-request", asha, map[string]any{"receiverId": uuid.NewString()}, 404, "User not found"},
		{"to a malformed id", "POST", "/api/friends/send-request", asha, map[string]any{"receiverId": "bob"}, 404, "User not found"},
		{"accept someone else's", "PATCH", "/api/friends/accept-request/" + reqID, cara, nil, 403, "Only the person who received this friend request can answer it"},
		{"sender accepts own", "PATCH", "/api/friends/accept-request/" + reqID, asha, nil, 403, "Only the person who received this friend request can answer it"},
		{"decline someone else's", "PATCH", "/api/friends/decline-request/" + reqID, cara, nil, 403, "Only the person who received this friend request can answer it"},
		{"cancel someone else's", "DELETE", "/api/friends/cancel-request/" + reqID, cara, nil, 403, "Only the person who sent this friend request can cancel it"},
		{"receiver cancels", "DELETE", "/api/friends/cancel-request/" + reqID, ben, nil, 403, "Only the person who sent this friend request can cancel it"},
		{"accept unknown", "PATCH", "/api/friends/accept-request/" + uuid.NewString(), ben, nil, 404, "Friend request not found"},
		{"accept malformed", "PATCH", "/api/friends/accept-request/xyz", ben, nil, 404, "Friend request not found"},
		{"unfriend a stranger", "DELETE", "/api/friends/unfriend/" + cara.id, asha, nil, 404, "You are not friends with this user"},
	}
	for _, tt := range rules {
		t.Run(tt.name, func(t *testing.T) {
			s.fails(t, tt.status, tt.method, tt.path, tt.who.token, tt.body, tt.msg, "")
		})
	}
	if events := s.pusher.take(); len(events) != 0 {
		t.Fatalf("refused calls pushed %+v", events)
	}
	if got := s.check(t, ben, asha); got != "friend=false sent=false received=true" {
		t.Fatalf("refused calls changed the request: %s", got)
	}

	d = s.must(t, 200, "PATCH", "/api/friends/accept-request/"+reqID, ben.token, nil)
	if r := obj(d["friendRequest"]); r["status"] != "accepted" || r["id"] != reqID {
		t.Fatalf("accept answer %v", d)
	}
	events = s.pusher.take()
	if len(events) != 2 || events[0].to != asha.ID || events[0].event != protocol.EventFriendAccept ||
		events[0].data.(app.PersonalEvent).FromUser.ID != ben.id || events[1].event != protocol.EventNotification {
		t.Fatalf("accept pushes %+v", events)
	}
	if n := events[1].data.(app.NotificationEvent); n.Type != "friend_accepted" || n.UnreadCount != 1 || n.Sender.ID != ben.id {
		t.Fatalf("accept notification %+v", n)
	}
	// Accepting again answers the same and pushes nothing.
	if d := s.must(t, 200, "PATCH", "/api/friends/accept-request/"+reqID, ben.token, nil); obj(d["friendRequest"])["status"] != "accepted" {
		t.Fatalf("second accept %v", d)
	}
	if events := s.pusher.take(); len(events) != 0 {
		t.Fatalf("second accept pushed %+v", events)
	}
	s.fails(t, 409, "PATCH", "/api/friends/decline-request/"+reqID, ben.token, nil, "This friend request is no longer pending", "")

	for _, c := range []struct{ who, other member }{{asha, ben}, {ben, asha}} {
		friends := list(s.must(t, 200, "GET", "/api/friends/friends-list", c.who.token, nil)["friends"])
		if fmt.Sprint(ids(friends)) != "["+c.other.id+"]" {
			t.Fatalf("%s's friends %v", c.who.Name, friends)
		}
		f := obj(friends[0])
		if f["name"] != c.other.Name || f["role"] != "student" || f["universityId"] != c.other.UniversityID || obj(f["avatar"])["url"] != "" {
			t.Fatalf("friend summary %v", f)
		}
	}
	if got := list(s.must(t, 200, "GET", "/api/friends/user-friends/"+ben.id, cara.token, nil)["friends"]); fmt.Sprint(ids(got)) != "["+asha.id+"]" {
		t.Fatalf("Ben's friends seen by Cara %v", got)
	}
	if got := list(s.must(t, 200, "GET", "/api/friends/pending-requests", ben.token, nil)["pendingRequests"]); len(got) != 0 {
		t.Fatalf("accepted request still pending: %v", got)
	}
	if got := list(s.must(t, 200, "GET", "/api/friends/sent-requests", asha.token, nil)["sentRequests"]); len(got) != 0 {
		t.Fatalf("accepted request still in sent: %v", got)
	}
	if got := s.check(t, asha, ben); got != "friend=true sent=false received=false" {
		t.Fatalf("after accept %s", got)
	}
	if got := fmt.Sprint(s.notificationTypes(t, asha)); got != "[friend_accepted]" {
		t.Fatalf("Asha's notifications %s", got)
	}
	// Ben's request notification stays, read: he answered it.
	bens := s.must(t, 200, "GET", "/api/notifications", ben.token, nil)
	if n := list(bens["notifications"]); len(n) != 1 || obj(n[0])["isRead"] != true || obj(bens["pagination"])["unreadCount"] != 0.0 {
		t.Fatalf("Ben's notifications after accepting %v", bens)
	}
	if p := s.must(t, 200, "GET", "/api/profile/"+ben.id, asha.token, nil); p["friendsCount"] != 1.0 {
		t.Fatalf("friendsCount %v", p["friendsCount"])
	}

	s.fails(t, 409, "POST", "/api/friends/send-request", ben.token, map[string]any{"receiverId": asha.id}, "You are already friends with this user", "")

	d = s.must(t, 200, "DELETE", "/api/friends/unfriend/"+asha.id, ben.token, nil)
	if d["userId"] != asha.id {
		t.Fatalf("unfriend answer %v", d)
	}
	s.fails(t, 404, "DELETE", "/api/friends/unfriend/"+asha.id, ben.token, nil, "You are not friends with this user", "")
	if got := list(s.must(t, 200, "GET", "/api/friends/friends-list", asha.token, nil)["friends"]); len(got) != 0 {
		t.Fatalf("friends after unfriend %v", got)
	}
	// Friends again from scratch: a new request works after an unfriend.
	s.must(t, 201, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": ben.id})

	t.Run("unverified accounts cannot be asked", func(t *testing.T) {
		ghost := s.member(t, "Ghost", unverified())
		s.fails(t, 404, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": ghost.id}, "User not found", "")
		s.fails(t, 404, "GET", "/api/friends/user-friends/"+ghost.id, asha.token, nil, "User not found", "")
	})
	t.Run("signed-in only", func(t *testing.T) {
		for _, c := range [][2]string{{"GET", "/api/friends/friends-list"}, {"GET", "/api/friends/suggestions"},
			{"POST", "/api/friends/send-request"}, {"PATCH", "/api/friends/accept-request/" + reqID}, {"GET", "/api/friends/check/" + ben.id}} {
			if status, _ := s.call(t, c[0], c[1], "", nil); status != 401 {
				t.Fatalf("%s %s without token: %d", c[0], c[1], status)
			}
		}
	})
}

func TestDeclineAndCancelRemoveTheNotification(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	ben := s.member(t, "Ben")
	cara := s.member(t, "Cara")

	reqID := obj(s.must(t, 201, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": ben.id})["friendRequest"])["id"].(string)
	if got := fmt.Sprint(s.notificationTypes(t, ben)); got != "[friend_request]" {
		t.Fatalf("Ben's notifications %s", got)
	}
	d := s.must(t, 200, "PATCH", "/api/friends/decline-request/"+reqID, ben.token, nil)
	if obj(d["friendRequest"])["status"] != "declined" {
		t.Fatalf("decline answer %v", d)
	}
	if got := s.notificationTypes(t, ben); len(got) != 0 {
		t.Fatalf("declined request left notifications %v", got)
	}
	if got := s.check(t, asha, ben); got != "friend=false sent=false received=false" {
		t.Fatalf("after decline %s", got)
	}
	s.must(t, 200, "PATCH", "/api/friends/decline-request/"+reqID, ben.token, nil) // again: same answer
	s.fails(t, 409, "PATCH", "/api/friends/accept-request/"+reqID, ben.token, nil, "This friend request is no longer pending", "")
	s.fails(t, 409, "DELETE", "/api/friends/cancel-request/"+reqID, asha.token, nil, "This friend request is no longer pending", "")

	reqID = obj(s.must(t, 201, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": cara.id})["friendRequest"])["id"].(string)
	d = s.must(t, 200, "DELETE", "/api/friends/cancel-request/"+reqID, asha.token, nil)
	if obj(d["friendRequest"])["status"] != "cancelled" {
		t.Fatalf("cancel answer %v", d)
	}
	if got := s.notificationTypes(t, cara); len(got) != 0 {
		t.Fatalf("cancelled request left notifications %v", got)
	}
	if got := list(s.must(t, 200, "GET", "/api/friends/sent-requests", asha.token, nil)["sentRequests"]); len(got) != 0 {
		t.Fatalf("sent requests list only pending ones: %v", got)
	}

	// The path may also name the other person: accept by the sender's id,
	// cancel by the receiver's.
	s.must(t, 201, "POST", "/api/friends/send-request", cara.token, map[string]any{"receiverId": ben.id})
	if d := s.must(t, 200, "PATCH", "/api/friends/accept-request/"+cara.id, ben.token, nil); obj(d["friendRequest"])["status"] != "accepted" {
		t.Fatalf("accept by sender id %v", d)
	}
	s.must(t, 201, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": cara.id})
	if d := s.must(t, 200, "DELETE", "/api/friends/cancel-request/"+cara.id, asha.token, nil); obj(d["friendRequest"])["status"] != "cancelled" {
		t.Fatalf("cancel by receiver id %v", d)
	}
}

func TestCrossingRequestAccepts(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	ben := s.member(t, "Ben")
	s.must(t, 201, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": ben.id})
	s.pusher.take()

	d := s.must(t, 200, "POST", "/api/friends/send-request", ben.token, map[string]any{"receiverId": asha.id})
	r := obj(d["friendRequest"])
	if r["status"] != "accepted" || obj(r["sender"])["id"] != asha.id || obj(r["receiver"])["id"] != ben.id {
		t.Fatalf("crossing request answer %v", d)
	}
	if got := s.check(t, asha, ben); got != "friend=true sent=false received=false" {
		t.Fatalf("after crossing %s", got)
	}
	events := s.pusher.take()
	if len(events) != 2 || events[0].to != asha.ID || events[0].event != protocol.EventFriendAccept {
		t.Fatalf("crossing pushes %+v", events)
	}
}

func TestConcurrentRequestsAreSafe(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	ben := s.member(t, "Ben")
	cara := s.member(t, "Cara")

	// The same request ten times at once: one is made, nine are duplicates.
	statuses := make(chan int, 10)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _ := s.call(t, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": ben.id})
			statuses <- status
		}()
	}
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for st := range statuses {
		count[st]++
	}
	if count[201] != 1 || count[409] != 9 {
		t.Fatalf("statuses %v, want one 201 and nine 409", count)
	}

	// Asking each other at the same moment ends as friends, never as two
	// crossing requests.
	for range 5 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			s.call(t, "POST", "/api/friends/send-request", asha.token, map[string]any{"receiverId": cara.id})
		}()
		go func() {
			defer wg.Done()
			s.call(t, "POST", "/api/friends/send-request", cara.token, map[string]any{"receiverId": asha.id})
		}()
	}
	wg.Wait()
	if got := s.check(t, asha, cara); got != "friend=true sent=false received=false" {
		t.Fatalf("after crossing storm %s", got)
	}
	var pending, friendships, notes int
	ctx := context.Background()
	if err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM friend_requests WHERE status = 'pending'),
		(SELECT count(*) FROM friendships),
		(SELECT count(*) FROM notifications WHERE type = 'friend_request')`).Scan(&pending, &friendships, &notes); err != nil {
		t.Fatal(err)
	}
	if pending != 1 || friendships != 1 || notes != 2 {
		t.Fatalf("pending %d (want Asha→Ben), friendships %d, friend_request notifications %d", pending, friendships, notes)
	}
}

func TestSuggestionRanking(t *testing.T) {
	s := newSocial(t)
	// Me: a BCA student of batch 20.
	me := s.member(t, "Me", withCourse("BCA", "20"))
	friend := s.member(t, "Friend", withCourse("BCA", "20"))
	mutual := s.member(t, "Mutual", asFaculty("Physics"))            // a friend of my friend, nothing else shared
	course := s.member(t, "Course", withCourse("bca", "19"))         // same course (any case), other batch
	batch := s.member(t, "Batch", withCourse("BBA", "20"))           // same batch only
	student := s.member(t, "Student", withCourse("MCA", "21"))       // same role only
	faculty := s.member(t, "Faculty", asFaculty("Chemistry"))        // nothing shared
	asked := s.member(t, "Asked", withCourse("BCA", "20"))           // I asked them
	askedMe := s.member(t, "Asked me", withCourse("BCA", "20"))      // they asked me
	s.member(t, "Unverified", withCourse("BCA", "20"), unverified()) // not a real account yet

	befriend := func(a, b member) {
		t.Helper()
		if _, err := persistence.AddFriendship(context.Background(), s.db, a.ID, b.ID); err != nil {
			t.Fatal(err)
		}
	}
	befriend(me, friend)
	befriend(friend, mutual)
	befriend(friend, course) // the course user shares a friend too: 8+4
	s.must(t, 201, "POST", "/api/friends/send-request", me.token, map[string]any{"receiverId": asked.id})
	s.must(t, 201, "POST", "/api/friends/send-request", askedMe.token, map[string]any{"receiverId": me.id})

	got := s.call2(t, me)
	want := []struct {
		who       member
		mutual    int
		relevance string
		priority  int
	}{
		{course, 1, "[course role]", 13},
		{mutual, 1, "[]", 8},
		{batch, 0, "[batch role]", 3},
		{student, 0, "[role]", 1},
		{faculty, 0, "[]", 0},
	}
	if len(got) != len(want) {
		t.Fatalf("suggestions %v, want %d", got, len(want))
	}
	for i, w := range want {
		g := obj(got[i])
		u := obj(g["user"])
		if u["id"] != w.who.id || g["mutualFriends"] != float64(w.mutual) || fmt.Sprint(g["relevance"]) != w.relevance || g["priority"] != float64(w.priority) {
			t.Fatalf("suggestion %d = %v, want %s mutual %d relevance %s priority %d", i, g, w.who.Name, w.mutual, w.relevance, w.priority)
		}
		if u["name"] == "" || u["role"] == "" || u["avatar"] == nil {
			t.Fatalf("suggestion user %v", u)
		}
		if _, leaked := u["email"]; leaked {
			t.Fatal("suggestion leaks e-mail")
		}
	}

	// Mutual friends beat a shared course, a shared batch, a shared role:
	// another user sharing course, batch and role but no friend ranks below.
	twin := s.member(t, "Twin", withCourse("BCA", "20"))
	got = s.call2(t, me)
	if ids := ids(got); ids[0] != course.id || ids[1] != mutual.id || ids[2] != twin.id {
		t.Fatalf("order with twin %v", ids)
	}

	// Never empty while anyone else exists.
	lone := newSocial(t)
	a := lone.member(t, "A", withCourse("BCA", "20"))
	b := lone.member(t, "B", asFaculty("Law"))
	if got := lone.call2(t, a); len(got) != 1 || obj(obj(got[0])["user"])["id"] != b.id || obj(got[0])["priority"] != 0.0 {
		t.Fatalf("lone suggestions %v", got)
	}
}

// call2 is GET /friends/suggestions as m: a data array.
func (s *social) call2(t *testing.T, m member) []any {
	t.Helper()
	status, env := s.call(t, "GET", "/api/friends/suggestions", m.token, nil)
	l, ok := env["data"].([]any)
	if status != 200 || !ok {
		t.Fatalf("suggestions: %d %v", status, env)
	}
	return l
}

func TestFriendListsPaginate(t *testing.T) {
	s := newSocial(t)
	me := s.member(t, "Me")
	var names []string
	for i := range 5 {
		f := s.member(t, fmt.Sprintf("Friend %c", 'E'-i)) // created in reverse name order
		if _, err := persistence.AddFriendship(context.Background(), s.db, me.ID, f.ID); err != nil {
			t.Fatal(err)
		}
		names = append([]string{f.Name}, names...)
	}
	var seen []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		d := s.must(t, 200, "GET", "/api/friends/friends-list?limit=2&cursor="+cursor, me.token, nil)
		for _, f := range list(d["friends"]) {
			seen = append(seen, obj(f)["name"].(string))
		}
		next, _ := d["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	if fmt.Sprint(seen) != fmt.Sprint(names) {
		t.Fatalf("pages %v, want %v by name", seen, names)
	}
	s.fails(t, 400, "GET", "/api/friends/friends-list?cursor=garbage!", me.token, nil, "Invalid cursor", "cursor")
}

// The friend bodies join the request-body fuzz target.
func init() {
	bodyDecoders["send request"] = func(c *fasthttp.RequestCtx) error {
		var in app.SendRequestInput
		return decodeJSON(c, &in)
	}
}
