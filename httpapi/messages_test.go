package httpapi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/app"
	"campus/cluster"
	"campus/cluster/etcdtest"
	"campus/httpapi/wstest"
	"campus/persistence"
	"campus/testlog"
)

// newMessagesStack is a live stack with the messages, safety and moderation
// routes.
func newMessagesStack(t *testing.T) *liveStack {
	t.Helper()
	return newLiveStack(t, liveOptions{mutate: messagesDeps(t)})
}

// until reads c's frames until one matches, and answers every frame read
// (the match last).
func until(t *testing.T, c *wstest.Conn, what string, match func(wstest.Frame) bool) []wstest.Frame {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var seen []wstest.Frame
	for {
		f, err := c.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting for %s: %v (read %v)", what, err, seen)
		}
		seen = append(seen, f)
		if match(f) {
			return seen
		}
	}
}

// newMessage matches message:new of conv with body.
func newMessage(conv, body string) func(wstest.Frame) bool {
	return func(f wstest.Frame) bool {
		if f.Event != "message:new" || f.Data["conversationId"] != conv {
			return false
		}
		m, _ := f.Data["message"].(map[string]any)
		return m["body"] == body
	}
}

// about reports whether any of frames concerns conversation conv.
func about(frames []wstest.Frame, conv string) bool {
	for _, f := range frames {
		if f.Data["conversationId"] == conv {
			return true
		}
		if c, ok := f.Data["conversation"].(map[string]any); ok && c["id"] == conv {
			return true
		}
	}
	return false
}

func (st *liveStack) conversation(t *testing.T, token string, body map[string]any, want int) map[string]any {
	t.Helper()
	status, env := st.call(t, "POST", "/api/conversations", token, body)
	if status != want {
		t.Fatalf("create conversation %v: %d %v", body, status, env)
	}
	return data(env)
}

func (st *liveStack) send(t *testing.T, token, conv, client, body string) (int, map[string]any) {
	t.Helper()
	return st.call(t, "POST", "/api/conversations/"+conv+"/messages", token, map[string]any{"clientId": client, "body": body})
}

func (st *liveStack) mustSend(t *testing.T, token, conv, body string) map[string]any {
	t.Helper()
	status, env := st.send(t, token, conv, uuid.NewString(), body)
	if status != 201 {
		t.Fatalf("send %q: %d %v", body, status, env)
	}
	return data(env)
}

func (st *liveStack) rows(t *testing.T, conv string) int {
	t.Helper()
	n, err := st.db.NewSelect().Model((*persistence.Message)(nil)).Where("conversation_id = ?", conv).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestMessagesLive walks direct and group conversations over HTTP and real
// sockets: delivery at once to every socket of every member (the sender's
// other one too), a retried clientId that never doubles, who may message
// whom, reads, typing, and what a block, a removal and a suspension stop.
func TestMessagesLive(t *testing.T) {
	st := newMessagesStack(t)
	ctx := context.Background()
	a, aTok := st.user(t, "Msg Asha")
	b, bTok := st.user(t, "Msg Bikram")
	c, cTok := st.user(t, "Msg Chitra")
	d, dTok := st.user(t, "Msg Dev")
	if _, err := persistence.AddFriendship(ctx, st.db, a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	aSock, aSock2 := st.connect(t, aTok), st.connect(t, aTok)
	bSock, cSock := st.connect(t, bTok), st.connect(t, cTok)

	// A direct conversation is one per pair, whoever starts it.
	ab := st.conversation(t, aTok, map[string]any{"kind": "direct", "userId": b.ID.String()}, 201)
	abID := ab["id"].(string)
	if again := st.conversation(t, bTok, map[string]any{"kind": "direct", "userId": a.ID.String()}, 200); again["id"] != abID ||
		again["title"] != "Msg Asha" {
		t.Fatalf("B's start found %v", again)
	}

	// A send reaches every socket of both at once, the sender's other one
	// included; its retry answers the original.
	status, env := st.send(t, aTok, abID, "client-1", "hello Bikram")
	if status != 201 || data(env)["seq"] != float64(1) || data(env)["clientId"] != "client-1" {
		t.Fatalf("send: %d %v", status, env)
	}
	for _, sock := range []*wstest.Conn{bSock, aSock, aSock2} {
		until(t, sock, "the first message", newMessage(abID, "hello Bikram"))
	}
	status, env = st.send(t, aTok, abID, "client-1", "hello Bikram")
	if status != 200 || data(env)["seq"] != float64(1) || st.rows(t, abID) != 1 {
		t.Fatalf("retry: %d %v, %d rows", status, env, st.rows(t, abID))
	}

	t.Run("who may message whom", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/conversations", cTok, map[string]any{"kind": "direct", "userId": a.ID.String()})
		if status != 403 || env["message"] != "This person only accepts messages from friends." {
			t.Fatalf("stranger: %d %v", status, env)
		}
		for _, tc := range []struct {
			allow  string
			status int
		}{{"department", 403}, {"everyone", 201}} {
			if s, e := st.call(t, "PUT", "/api/users/me/message-settings", aTok, map[string]any{"allowFrom": tc.allow}); s != 200 ||
				data(e)["allowFrom"] != tc.allow {
				t.Fatalf("settings: %d %v", s, e)
			}
			s, e := st.call(t, "POST", "/api/conversations", cTok, map[string]any{"kind": "direct", "userId": a.ID.String()})
			if s != tc.status {
				t.Fatalf("allowFrom %s: %d %v", tc.allow, s, e)
			}
		}
		if s, e := st.call(t, "POST", "/api/conversations", cTok, map[string]any{"kind": "direct", "userId": uuid.NewString()}); s != 404 {
			t.Fatalf("unknown user: %d %v", s, e)
		}
		if s, e := st.call(t, "POST", "/api/conversations", cTok, map[string]any{"kind": "direct", "userId": c.ID.String()}); s != 400 {
			t.Fatalf("self: %d %v", s, e)
		}
		// B never opened to strangers: a group with B made by C is
		// refused, naming B.
		s, e := st.call(t, "POST", "/api/conversations", cTok, map[string]any{"kind": "group", "title": "Club",
			"memberIds": []string{a.ID.String(), b.ID.String()}})
		errs, _ := e["errors"].([]any)
		if s != 403 || len(errs) != 1 || !strings.HasPrefix(errs[0].(map[string]any)["msg"].(string), "Msg Bikram") {
			t.Fatalf("group refused: %d %v", s, e)
		}
	})

	// The group: A (admin), B (a friend), C (who opens to everyone).
	if s, e := st.call(t, "PUT", "/api/users/me/message-settings", cTok, map[string]any{"allowFrom": "everyone"}); s != 200 {
		t.Fatalf("settings: %d %v", s, e)
	}
	g := st.conversation(t, aTok, map[string]any{"kind": "group", "title": "Study group",
		"memberIds": []string{b.ID.String(), c.ID.String()}}, 201)
	gID := g["id"].(string)
	if g["role"] != "admin" || len(g["members"].([]any)) != 3 {
		t.Fatalf("group %v", g)
	}
	until(t, cSock, "the group", func(f wstest.Frame) bool { return f.Event == "conversation:updated" && about([]wstest.Frame{f}, gID) })

	t.Run("bad input is a 400 with nothing written", func(t *testing.T) {
		before := st.rows(t, gID)
		for _, tc := range []struct {
			name, method, path string
			body               any
			field              string
		}{
			{"empty body", "POST", "/messages", map[string]any{"clientId": "x1", "body": "   "}, "body"},
			{"body too long", "POST", "/messages", map[string]any{"clientId": "x2", "body": strings.Repeat("a", 5001)}, "body"},
			{"no client id", "POST", "/messages", map[string]any{"body": "hi"}, "clientId"},
			{"bad client id", "POST", "/messages", map[string]any{"clientId": "a b", "body": "hi"}, "clientId"},
			{"reply to nothing", "POST", "/messages", map[string]any{"clientId": "x3", "body": "hi", "replyToSeq": 99}, "replyToSeq"},
			{"body of the wrong type", "POST", "/messages", map[string]any{"clientId": "x4", "body": 5}, "body"},
			{"two emoji", "PUT", "/messages/1/reaction", map[string]any{"emoji": "👍👍"}, "emoji"},
			{"a letter", "PUT", "/messages/1/reaction", map[string]any{"emoji": "a"}, "emoji"},
			{"read without seq", "POST", "/read", map[string]any{}, "seq"},
			{"title too long", "PATCH", "", map[string]any{"title": strings.Repeat("t", 81)}, "title"},
			{"bad before", "GET", "/messages?beforeSeq=x", nil, "beforeSeq"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				status, env := st.call(t, tc.method, "/api/conversations/"+gID+tc.path, aTok, tc.body)
				errs, _ := env["errors"].([]any)
				if status != 400 || env["status"] != "error" || len(errs) == 0 || errs[0].(map[string]any)["field"] != tc.field {
					t.Fatalf("%d %v", status, env)
				}
			})
		}
		if after := st.rows(t, gID); after != before {
			t.Fatalf("%d rows written by bad input", after-before)
		}
	})

	t.Run("typing and reads reach the others", func(t *testing.T) {
		m := st.mustSend(t, bTok, gID, "who has the notes?")
		until(t, aSock, "B's message", newMessage(gID, "who has the notes?"))
		bSock.Send(t, "typing", map[string]any{"conversationId": gID})
		f := until(t, aSock, "typing", func(f wstest.Frame) bool { return f.Event == "typing" })
		if f[len(f)-1].Data["userId"] != b.ID.String() || f[len(f)-1].Data["name"] != "Msg Bikram" {
			t.Fatalf("typing %v", f[len(f)-1])
		}
		status, env := st.call(t, "POST", "/api/conversations/"+gID+"/read", aTok, map[string]any{"seq": m["seq"]})
		if status != 200 || data(env)["readSeq"] != m["seq"] || data(env)["unreadCount"] != float64(0) {
			t.Fatalf("read: %d %v", status, env)
		}
		r := until(t, bSock, "A's read", func(f wstest.Frame) bool { return f.Event == "message:read" })
		if r[len(r)-1].Data["userId"] != a.ID.String() || r[len(r)-1].Data["seq"] != m["seq"] {
			t.Fatalf("read event %v", r[len(r)-1])
		}
		own := until(t, aSock2, "A's own read", func(f wstest.Frame) bool { return f.Event == "message:read" })
		if _, ok := own[len(own)-1].Data["unreadTotal"]; !ok {
			t.Fatalf("own read without unreadTotal: %v", own[len(own)-1])
		}
	})

	t.Run("a block stops the direct conversation both ways at once", func(t *testing.T) {
		if status, env := st.call(t, "POST", "/api/safety/blocks/"+b.ID.String(), aTok, nil); status != 200 {
			t.Fatalf("block: %d %v", status, env)
		}
		for _, tok := range []string{aTok, bTok} {
			status, env := st.send(t, tok, abID, uuid.NewString(), "after the block")
			if status != 403 || env["message"] != "You can't send messages in this conversation." {
				t.Fatalf("send across the block: %d %v", status, env)
			}
			_, env = st.call(t, "GET", "/api/conversations/"+abID, tok, nil)
			if d := data(env); d["readOnly"] != true || d["readOnlyReason"] != "blocked" {
				t.Fatalf("conversation after the block: %v", d)
			}
		}
		bSock.Send(t, "typing", map[string]any{"conversationId": abID})
		// C's message in the group is the marker: before it, nothing of
		// the direct conversation reached A.
		st.mustSend(t, cTok, gID, "marker after block")
		if seen := until(t, aSock, "the marker", newMessage(gID, "marker after block")); about(seen[:len(seen)-1], abID) &&
			!onlyConversationUpdates(seen[:len(seen)-1], abID) {
			t.Fatalf("A heard of the blocked conversation: %v", seen)
		}
		if st.rows(t, abID) != 1 {
			t.Fatalf("%d rows in the blocked conversation", st.rows(t, abID))
		}
	})

	t.Run("a removed member stops receiving at once", func(t *testing.T) {
		before := st.rows(t, gID)
		status, env := st.call(t, "DELETE", "/api/conversations/"+gID+"/members/"+c.ID.String(), aTok, nil)
		if status != 200 {
			t.Fatalf("remove: %d %v", status, env)
		}
		until(t, cSock, "conversation:removed", func(f wstest.Frame) bool {
			return f.Event == "conversation:removed" && f.Data["conversationId"] == gID
		})
		st.mustSend(t, bTok, gID, "after C left")
		until(t, aSock, "B's message", newMessage(gID, "after C left"))
		// A's direct message to C is the marker: before it, C heard
		// nothing of the group.
		ac := st.conversation(t, aTok, map[string]any{"kind": "direct", "userId": c.ID.String()}, 200)
		st.mustSend(t, aTok, ac["id"].(string), "marker for C")
		if seen := until(t, cSock, "the marker", newMessage(ac["id"].(string), "marker for C")); about(seen, gID) {
			t.Fatalf("C heard of the group after leaving it: %v", seen)
		}
		// C reads up to the leaving, read-only, and no longer lists it.
		_, env = st.call(t, "GET", "/api/conversations/"+gID, cTok, nil)
		if d := data(env); d["readOnly"] != true || d["readOnlyReason"] != "left" {
			t.Fatalf("C's view: %v", d)
		}
		_, env = st.call(t, "GET", "/api/conversations/"+gID+"/messages", cTok, nil)
		msgs := data(env)["messages"].([]any)
		if last := msgs[len(msgs)-1].(map[string]any); last["seq"] != float64(before) {
			t.Fatalf("C reads up to seq %v, left at %d", last["seq"], before)
		}
		if status, env := st.send(t, cTok, gID, uuid.NewString(), "let me in"); status != 403 {
			t.Fatalf("left member sends: %d %v", status, env)
		}
		_, env = st.call(t, "GET", "/api/conversations", cTok, nil)
		for _, cv := range data(env)["conversations"].([]any) {
			if cv.(map[string]any)["id"] == gID {
				t.Fatal("the left conversation is still listed")
			}
		}
	})

	t.Run("hidden from non-members", func(t *testing.T) {
		for _, tc := range []struct{ method, path string }{
			{"GET", ""}, {"GET", "/messages"}, {"POST", "/messages"}, {"POST", "/read"},
			{"POST", "/messages/1/report"}, {"PUT", "/messages/1/reaction"}, {"PATCH", ""},
		} {
			t.Run(tc.method+tc.path, func(t *testing.T) {
				body := map[string]any{"clientId": "d1", "body": "hi", "seq": 1, "emoji": "👍", "reason": "spam", "title": "x"}
				status, env := st.call(t, tc.method, "/api/conversations/"+gID+tc.path, dTok, body)
				if status != 404 {
					t.Fatalf("%d %v", status, env)
				}
			})
		}
	})

	t.Run("unsend, react and report", func(t *testing.T) {
		m := st.mustSend(t, aTok, gID, "oops")
		seq := fmt.Sprint(m["seq"])
		status, env := st.call(t, "PUT", "/api/conversations/"+gID+"/messages/"+seq+"/reaction", bTok, map[string]any{"emoji": "👍🏽"})
		if status != 200 || len(data(env)["reactions"].([]any)) != 1 {
			t.Fatalf("react: %d %v", status, env)
		}
		status, env = st.call(t, "PATCH", "/api/conversations/"+gID+"/messages/"+seq, aTok, map[string]any{"body": "oops, fixed"})
		if d := data(env); status != 200 || d["body"] != "oops, fixed" || d["editedAt"] == nil {
			t.Fatalf("edit: %d %v", status, env)
		}
		until(t, bSock, "the edit", func(f wstest.Frame) bool {
			mm, _ := f.Data["message"].(map[string]any)
			return f.Event == "message:updated" && mm["seq"] == m["seq"] && mm["body"] == "oops, fixed"
		})
		if status, env := st.call(t, "PATCH", "/api/conversations/"+gID+"/messages/"+seq, bTok, map[string]any{"body": "mine now"}); status != 403 {
			t.Fatalf("edit by another: %d %v", status, env)
		}
		status, env = st.call(t, "POST", "/api/conversations/"+gID+"/messages/"+seq+"/report", bTok,
			map[string]any{"reason": "spam"})
		if status != 200 {
			t.Fatalf("report: %d %v", status, env)
		}
		var snapshot string
		if err := st.db.NewRaw(`SELECT snapshot FROM reports WHERE item_type = 'message' AND item_id = ?`, m["id"]).
			Scan(ctx, &snapshot); err != nil || snapshot != "oops, fixed" {
			t.Fatalf("report snapshot %q %v", snapshot, err)
		}
		status, env = st.call(t, "DELETE", "/api/conversations/"+gID+"/messages/"+seq, bTok, nil)
		if status != 403 {
			t.Fatalf("unsend by another: %d %v", status, env)
		}
		status, env = st.call(t, "DELETE", "/api/conversations/"+gID+"/messages/"+seq, aTok, nil)
		if d := data(env); status != 200 || d["unsent"] != true || d["body"] != "" {
			t.Fatalf("unsend: %d %v", status, env)
		}
		u := until(t, bSock, "message:updated", func(f wstest.Frame) bool {
			mm, _ := f.Data["message"].(map[string]any)
			return f.Event == "message:updated" && mm["seq"] == m["seq"] && mm["unsent"] == true
		})
		if mm := u[len(u)-1].Data["message"].(map[string]any); mm["body"] != "" {
			t.Fatalf("unsent push carries %v", mm["body"])
		}
	})

	t.Run("a moderator removes a reported message, never browsing", func(t *testing.T) {
		if _, err := persistence.GrantCapability(ctx, st.db, d.ID, "moderator", uuid.Nil); err != nil {
			t.Fatal(err)
		}
		m := st.mustSend(t, bTok, gID, "buy cheap essays")
		id := m["id"].(string)
		// Not reported yet: the moderator cannot act on it, nor read the
		// conversation.
		if status, env := st.call(t, "POST", "/api/moderation/items/message/"+id+"/remove", dTok,
			map[string]any{"reason": "spam"}); status != 404 {
			t.Fatalf("remove unreported: %d %v", status, env)
		}
		if status, _ := st.call(t, "GET", "/api/conversations/"+gID+"/messages", dTok, nil); status != 404 {
			t.Fatalf("moderator browses: %d", status)
		}
		if status, env := st.call(t, "POST", "/api/conversations/"+gID+"/messages/"+fmt.Sprint(m["seq"])+"/report", aTok,
			map[string]any{"reason": "spam"}); status != 200 {
			t.Fatalf("report: %d %v", status, env)
		}
		_, env := st.call(t, "GET", "/api/moderation/queue", dTok, nil)
		found := false
		for _, it := range data(env)["items"].([]any) {
			item := it.(map[string]any)
			found = found || item["itemId"] == id && item["content"] == "buy cheap essays" && item["itemType"] == "message"
		}
		if !found {
			t.Fatalf("queue without the message's copy: %v", env)
		}
		if status, env := st.call(t, "POST", "/api/moderation/items/message/"+id+"/remove", dTok,
			map[string]any{"reason": "spam"}); status != 200 {
			t.Fatalf("remove: %d %v", status, env)
		}
		u := until(t, aSock, "the removal", func(f wstest.Frame) bool {
			mm, _ := f.Data["message"].(map[string]any)
			return f.Event == "message:updated" && mm["id"] == id
		})
		if mm := u[len(u)-1].Data["message"].(map[string]any); mm["unsent"] != true || mm["body"] != "" {
			t.Fatalf("removed message pushed as %v", mm)
		}
		var snapshot string
		if err := st.db.NewRaw(`SELECT snapshot FROM moderation_audit WHERE item_type = 'message' AND item_id = ?`, id).
			Scan(ctx, &snapshot); err != nil || snapshot != "buy cheap essays" {
			t.Fatalf("audit snapshot %q %v", snapshot, err)
		}
	})

	t.Run("a suspended account cannot send", func(t *testing.T) {
		if err := persistence.SuspendUser(ctx, st.db, b.ID, nil, "spam", uuid.Nil); err != nil {
			t.Fatal(err)
		}
		before := st.rows(t, gID)
		status, env := st.send(t, bTok, gID, uuid.NewString(), "from a suspended account")
		if status != 403 || !strings.HasPrefix(env["message"].(string), "Your account has been suspended") {
			t.Fatalf("suspended send: %d %v", status, env)
		}
		if st.rows(t, gID) != before {
			t.Fatal("a suspended account's message was stored")
		}
	})

	t.Run("the list and the ready greeting count unread", func(t *testing.T) {
		_, env := st.call(t, "GET", "/api/conversations", bTok, nil)
		d := data(env)
		total := 0
		for _, cv := range d["conversations"].([]any) {
			total += int(cv.(map[string]any)["unreadCount"].(float64))
		}
		if total == 0 || d["unreadTotal"] != float64(total) {
			t.Fatalf("B's list: unread total %v, per conversation %d", d["unreadTotal"], total)
		}
		// Paging one at a time walks the same list in the same order.
		var paged []any
		cursor := ""
		for range 10 {
			_, env := st.call(t, "GET", "/api/conversations?limit=1&cursor="+cursor, bTok, nil)
			paged = append(paged, data(env)["conversations"].([]any)...)
			next, _ := data(env)["nextCursor"].(string)
			if next == "" {
				break
			}
			cursor = next
		}
		all := d["conversations"].([]any)
		if len(paged) != len(all) || len(all) < 2 {
			t.Fatalf("paged %d, listed %d", len(paged), len(all))
		}
		for i := range all {
			if paged[i].(map[string]any)["id"] != all[i].(map[string]any)["id"] {
				t.Fatalf("page order differs at %d", i)
			}
		}
		sock, _, err := st.dial(t, bTok, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := sock.Next(t, "ready"); r.Data["unreadMessages"] != float64(total) {
			t.Fatalf("ready %v, want unreadMessages %d", r.Data, total)
		}
	})
}

// onlyConversationUpdates reports whether every frame of frames about conv
// is a conversation:updated (the block's own news of read-only), never a
// message, typing or read.
func onlyConversationUpdates(frames []wstest.Frame, conv string) bool {
	for _, f := range frames {
		if about([]wstest.Frame{f}, conv) && f.Event != "conversation:updated" {
			return false
		}
	}
	return true
}

// TestMessagesAcrossNodes runs two nodes of one cluster (etcd) over one
// database, with each person's socket on one node and their calls made on
// the other: a message reaches the other node's sockets at once, and a block
// or a removal made on one node stops what is sent through the other.
func TestMessagesAcrossNodes(t *testing.T) {
	endpoint, _ := etcdtest.Start(t)
	name := "campus-msg-" + uuid.NewString()[:8]
	withEtcd := func(o *cluster.Options) {
		o.Name, o.Provider, o.EtcdEndpoints = name, cluster.ProviderEtcd, []string{endpoint}
	}
	n1 := newLiveStack(t, liveOptions{cluster: withEtcd, mutate: messagesDeps(t)})
	n2 := newLiveStack(t, liveOptions{db: n1.db, cluster: withEtcd, mutate: messagesDeps(t)})
	deadline := time.Now().Add(30 * time.Second)
	for n1.node.Members() != 2 || n2.node.Members() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("members: %d and %d", n1.node.Members(), n2.node.Members())
		}
		time.Sleep(50 * time.Millisecond)
	}
	ctx := context.Background()
	a, aTok := n1.user(t, "Node Asha")
	b, bTok := n1.user(t, "Node Bikram")
	c, cTok := n1.user(t, "Node Chitra")
	if _, err := persistence.AddFriendship(ctx, n1.db, a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	for _, u := range []*persistence.User{b, c} {
		if err := persistence.SetAllowFrom(ctx, n1.db, u.ID, "everyone"); err != nil {
			t.Fatal(err)
		}
	}
	// Sockets on one node, calls on the other.
	aSock, bSock, cSock := n2.connect(t, aTok), n1.connect(t, bTok), n1.connect(t, cTok)

	ab := n1.conversation(t, aTok, map[string]any{"kind": "direct", "userId": b.ID.String()}, 201)["id"].(string)
	n1.mustSend(t, aTok, ab, "from node 1")
	until(t, bSock, "on node 1", newMessage(ab, "from node 1"))
	until(t, aSock, "the sender's socket on node 2", newMessage(ab, "from node 1"))
	n2.mustSend(t, bTok, ab, "from node 2")
	until(t, aSock, "on node 2", newMessage(ab, "from node 2"))
	until(t, bSock, "the sender's socket on node 1", newMessage(ab, "from node 2"))

	g := n2.conversation(t, aTok, map[string]any{"kind": "group", "title": "Nodes",
		"memberIds": []string{b.ID.String(), c.ID.String()}}, 201)["id"].(string)

	t.Run("a block on one node stops sends through the other", func(t *testing.T) {
		if status, env := n2.call(t, "POST", "/api/safety/blocks/"+b.ID.String(), aTok, nil); status != 200 {
			t.Fatalf("block: %d %v", status, env)
		}
		if status, env := n1.send(t, bTok, ab, uuid.NewString(), "through node 1"); status != 403 {
			t.Fatalf("send across the block on the other node: %d %v", status, env)
		}
		n1.mustSend(t, cTok, g, "marker 1")
		if seen := until(t, aSock, "the marker", newMessage(g, "marker 1")); !onlyConversationUpdates(seen[:len(seen)-1], ab) {
			t.Fatalf("A heard of the blocked conversation: %v", seen)
		}
	})

	t.Run("a removal on one node stops delivery through the other", func(t *testing.T) {
		if status, env := n2.call(t, "DELETE", "/api/conversations/"+g+"/members/"+c.ID.String(), aTok, nil); status != 200 {
			t.Fatalf("remove: %d %v", status, env)
		}
		until(t, cSock, "conversation:removed on node 1", func(f wstest.Frame) bool {
			return f.Event == "conversation:removed" && f.Data["conversationId"] == g
		})
		n1.mustSend(t, bTok, g, "after C left")
		until(t, aSock, "B's message on node 2", newMessage(g, "after C left"))
		ac := n2.conversation(t, aTok, map[string]any{"kind": "direct", "userId": c.ID.String()}, 201)["id"].(string)
		n2.mustSend(t, aTok, ac, "marker 2")
		if seen := until(t, cSock, "the marker", newMessage(ac, "marker 2")); about(seen, g) {
			t.Fatalf("C heard of the group after leaving it: %v", seen)
		}
	})
}

// messagesDeps wires the messages, safety, friends and moderation use cases
// into a live stack.
func messagesDeps(t *testing.T) func(st *liveStack, d *Deps) {
	return func(st *liveStack, d *Deps) {
		log := testlog.New(t)
		m := app.NewMessages(app.MessagesDeps{DB: st.db, Grains: st.live, Fanout: st.live,
			TypingLimit: app.NewTypingLimiter(), Media: st.media, Log: log})
		d.Messages = m
		d.Safety = app.NewSafety(app.SafetyDeps{DB: st.db, Messages: m, Log: log})
		d.Friends = app.NewFriends(app.FriendsDeps{DB: st.db, Pusher: st.live, Messages: m, Log: log})
		d.Moderation = app.NewModeration(app.ModerationDeps{DB: st.db, Sessions: st.sessions, Pusher: st.live,
			Fanout: st.live, Log: log})
	}
}
