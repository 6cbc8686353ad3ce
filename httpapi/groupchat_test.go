package httpapi

import (
	"fmt"
	"testing"

	"campus/domain"
	"campus/httpapi/wstest"
	"campus/protocol"
)

// convUpdated matches conversation:updated of conv, with check on it.
func convUpdated(conv string, check func(c map[string]any) bool) func(wstest.Frame) bool {
	return func(f wstest.Frame) bool {
		if f.Event != protocol.EventConversationUpdated {
			return false
		}
		c, _ := f.Data["conversation"].(map[string]any)
		return c["id"] == conv && (check == nil || check(c))
	}
}

// convRemoved matches conversation:removed of conv.
func convRemoved(conv string) func(wstest.Frame) bool {
	return func(f wstest.Frame) bool {
		return f.Event == protocol.EventConversationRemoved && f.Data["conversationId"] == conv
	}
}

// memberRoles is a Conversation's members as id → role.
func memberRoles(c map[string]any) map[string]string {
	out := map[string]string{}
	ms, _ := c["members"].([]any)
	for _, m := range ms {
		mm := obj(m)
		out[mm["id"].(string)] = mm["role"].(string)
	}
	return out
}

// TestGroupChat walks a group's chat: its admins switch it on, its members
// are the group's (admins the group's owner and admins) and follow every
// join, role change, leave and removal in the same transaction, live
// (conversation:updated / conversation:removed); the conversation routes
// cannot change its members or name; renaming the group renames it;
// switching it off takes everyone out and on again brings the same
// conversation back with its history.
func TestGroupChat(t *testing.T) {
	sw := newSweepStack(t)
	tok, id := map[string]string{}, map[string]string{}
	for _, n := range []string{"owner", "ana", "ben", "cal"} {
		u, tk := sw.member(t, "Chat "+n)
		tok[n], id[n] = tk, u.ID.String()
	}
	g := sw.group(t, tok["owner"], map[string]any{"name": "Chat Club", "handle": "chat-club", "kind": "club", "visibility": "public"})
	group := "/api/groups/" + g["handle"].(string)
	for _, n := range []string{"ana", "ben"} {
		sw.must(t, 200, "POST", group+"/join", tok[n], nil)
	}
	sock := map[string]*wstest.Conn{}
	for _, n := range []string{"ana", "ben", "cal"} {
		sock[n] = sw.connect(t, tok[n])
	}
	var conv string
	convPath := func() string { return "/api/conversations/" + conv }
	get := func(t *testing.T, who string) (int, map[string]any) {
		t.Helper()
		status, env := sw.call(t, "GET", convPath(), tok[who], nil)
		return status, data(env)
	}
	send := func(t *testing.T, who, body string) int {
		t.Helper()
		status, _ := sw.call(t, "POST", convPath()+"/messages", tok[who], map[string]any{"clientId": fmt.Sprintf("%s-%s", who, body[:3]) + fmt.Sprint(len(body)), "body": body})
		return status
	}
	visible := func(t *testing.T, who string) []string {
		t.Helper()
		env := sw.must(t, 200, "GET", convPath()+"/messages", tok[who], nil)
		var bodies []string
		for _, m := range data(env)["messages"].([]any) {
			bodies = append(bodies, obj(m)["body"].(string))
		}
		return bodies
	}

	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"a member cannot switch it on", func(t *testing.T) {
			sw.must(t, 403, "PUT", group+"/chat", tok["ana"], map[string]any{"enabled": true})
			sw.must(t, 400, "PUT", group+"/chat", tok["owner"], map[string]any{})
		}},
		{"the owner switches it on: the group's members, its admins the group's", func(t *testing.T) {
			res := data(sw.must(t, 200, "PUT", group+"/chat", tok["owner"], map[string]any{"enabled": true}))
			conv, _ = res["conversationId"].(string)
			if res["enabled"] != true || conv == "" || obj(res["group"])["chatId"] != conv {
				t.Fatalf("switch on: %v", res)
			}
			until(t, sock["ana"], "the chat to reach ana", convUpdated(conv, nil))
			status, c := get(t, "ana")
			roles := memberRoles(c)
			if status != 200 || c["kind"] != "group" || c["title"] != "Chat Club" || obj(c["group"])["handle"] != "chat-club" ||
				len(roles) != 3 || roles[id["owner"]] != "admin" || roles[id["ana"]] != "member" || roles[id["ben"]] != "member" {
				t.Fatalf("chat as ana: %d %v", status, c)
			}
			if s, _ := get(t, "cal"); s != 404 {
				t.Fatalf("an outsider reads the chat: %d", s)
			}
			// A non-member sees that the group has one, not which.
			gv := data(sw.must(t, 200, "GET", group, tok["cal"], nil))
			if gv["chatEnabled"] != true || gv["chatId"] != nil {
				t.Fatalf("group as cal: %v", gv)
			}
		}},
		{"a message reaches the members", func(t *testing.T) {
			if s := send(t, "owner", "welcome all"); s != 201 {
				t.Fatalf("send: %d", s)
			}
			for _, n := range []string{"ana", "ben"} {
				until(t, sock[n], "the message", newMessage(conv, "welcome all"))
			}
		}},
		{"joining the group joins the chat, from now on", func(t *testing.T) {
			sw.must(t, 200, "POST", group+"/join", tok["cal"], nil)
			until(t, sock["cal"], "the chat to reach cal", convUpdated(conv, nil))
			until(t, sock["ana"], "ana to see cal join", convUpdated(conv, func(c map[string]any) bool { return len(memberRoles(c)) == 4 }))
			if got := visible(t, "cal"); len(got) != 0 {
				t.Fatalf("cal reads %v from before joining", got)
			}
			if s := send(t, "cal", "hello there"); s != 201 {
				t.Fatalf("cal sends: %d", s)
			}
		}},
		{"a group admin is a chat admin", func(t *testing.T) {
			sw.must(t, 200, "PATCH", group+"/members/"+id["ana"], tok["owner"], map[string]any{"role": "admin"})
			until(t, sock["ana"], "ana's new role", convUpdated(conv, func(c map[string]any) bool { return c["role"] == "admin" }))
		}},
		{"the conversation routes cannot change its members or name", func(t *testing.T) {
			for _, c := range []struct {
				method, path string
				body         any
				msg          string
			}{
				{"POST", convPath() + "/members", map[string]any{"userIds": []string{id["ben"]}}, domain.MsgGroupChatMembers},
				{"DELETE", convPath() + "/members/" + id["ben"], nil, domain.MsgGroupChatMembers},
				{"DELETE", convPath() + "/members/" + id["ana"], nil, domain.MsgGroupChatMembers},
				{"PATCH", convPath(), map[string]any{"title": "Renamed"}, domain.MsgGroupChatTitle},
			} {
				status, env := sw.call(t, c.method, c.path, tok["ana"], c.body)
				if status != 403 || env["message"] != c.msg {
					t.Errorf("%s %s: %d %v, want 403 %q", c.method, c.path, status, env, c.msg)
				}
			}
			sw.must(t, 200, "PATCH", convPath(), tok["ben"], map[string]any{"muted": true})
		}},
		{"leaving the group leaves the chat at once", func(t *testing.T) {
			sw.must(t, 200, "POST", group+"/leave", tok["ben"], nil)
			until(t, sock["ben"], "ben's removal", convRemoved(conv))
			if s := send(t, "ben", "still here?"); s != 403 {
				t.Fatalf("ben sends after leaving: %d", s)
			}
			if s := send(t, "ana", "after ben left"); s != 201 {
				t.Fatalf("ana sends: %d", s)
			}
			_, c := get(t, "ben")
			if c["readOnly"] != true || c["readOnlyReason"] != "left" {
				t.Fatalf("chat as ben: %v", c)
			}
			if got := visible(t, "ben"); len(got) != 2 || got[1] != "hello there" {
				t.Fatalf("ben reads %v, want up to his leaving", got)
			}
		}},
		{"a removal from the group removes from the chat", func(t *testing.T) {
			sw.must(t, 200, "DELETE", group+"/members/"+id["cal"], tok["owner"], nil)
			until(t, sock["cal"], "cal's removal", convRemoved(conv))
			list := data(sw.must(t, 200, "GET", "/api/conversations", tok["cal"], nil))
			if cs, _ := list["conversations"].([]any); len(cs) != 0 {
				t.Fatalf("cal's list keeps %v", cs)
			}
		}},
		{"renaming the group renames the chat", func(t *testing.T) {
			sw.must(t, 200, "PATCH", group, tok["owner"], map[string]any{"name": "Chess Club"})
			until(t, sock["ana"], "the new name", convUpdated(conv, func(c map[string]any) bool { return c["title"] == "Chess Club" }))
		}},
		{"switched off: everyone out, the history kept", func(t *testing.T) {
			res := data(sw.must(t, 200, "PUT", group+"/chat", tok["ana"], map[string]any{"enabled": false}))
			if res["enabled"] != false || res["conversationId"] != nil {
				t.Fatalf("switch off: %v", res)
			}
			until(t, sock["ana"], "ana's removal", convRemoved(conv))
			if s := send(t, "owner", "anyone?"); s != 403 {
				t.Fatalf("a send in a closed chat: %d", s)
			}
			if got := visible(t, "ana"); len(got) != 3 {
				t.Fatalf("ana reads %v after the switch-off", got)
			}
		}},
		{"switched on again: the same conversation with its history", func(t *testing.T) {
			res := data(sw.must(t, 200, "PUT", group+"/chat", tok["owner"], map[string]any{"enabled": true}))
			if res["conversationId"] != conv {
				t.Fatalf("reopened %v, want %s", res["conversationId"], conv)
			}
			until(t, sock["ana"], "the chat back", convUpdated(conv, nil))
			if got := visible(t, "ana"); len(got) != 3 || got[0] != "welcome all" {
				t.Fatalf("ana reads %v after reopening", got)
			}
			_, c := get(t, "ana")
			if roles := memberRoles(c); len(roles) != 2 || roles[id["ana"]] != "admin" || c["readOnly"] != false {
				t.Fatalf("reopened chat as ana: %v", c)
			}
		}},
	}
	for _, s := range steps {
		if !t.Run(s.name, s.run) {
			return
		}
	}
}
