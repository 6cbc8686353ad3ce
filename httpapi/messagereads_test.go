package httpapi

import (
	"context"
	"testing"

	"campus/persistence"
)

// memberReads is a Conversation's members' read pointers as id → seq; a
// member whose pointer the reader may not see is missing.
func memberReads(c map[string]any) map[string]float64 {
	out := map[string]float64{}
	ms, _ := c["members"].([]any)
	for _, m := range ms {
		mm := obj(m)
		if r, ok := mm["readSeq"].(float64); ok {
			out[mm["id"].(string)] = r
		}
	}
	return out
}

// TestMessageReadPointers: a conversation answers each member's read
// pointer, so "Seen" survives a reload, and crosses a block no more than
// message:read does: none across a direct conversation's block, and in a
// group none between the two people a block stands between (the others
// still see both). A member who left sees nobody's pointer past their
// leaving.
func TestMessageReadPointers(t *testing.T) {
	st := newMessagesStack(t)
	ctx := context.Background()
	a, aTok := st.user(t, "Seen Asha")
	b, bTok := st.user(t, "Seen Bikram")
	c, cTok := st.user(t, "Seen Chitra")
	for _, pair := range [][2]*persistence.User{{a, b}, {a, c}} {
		if _, err := persistence.AddFriendship(ctx, st.db, pair[0].ID, pair[1].ID); err != nil {
			t.Fatal(err)
		}
	}
	direct := st.conversation(t, aTok, map[string]any{"kind": "direct", "userId": b.ID.String()}, 201)["id"].(string)
	group := st.conversation(t, aTok, map[string]any{"kind": "group", "title": "Seen club",
		"memberIds": []string{b.ID.String(), c.ID.String()}}, 201)["id"].(string)
	for _, conv := range []string{direct, group} {
		st.mustSend(t, aTok, conv, "one")
		st.mustSend(t, aTok, conv, "two")
	}
	read := func(t *testing.T, tok, conv string, seq int) {
		t.Helper()
		if status, env := st.call(t, "POST", "/api/conversations/"+conv+"/read", tok, map[string]any{"seq": seq}); status != 200 {
			t.Fatalf("read: %d %v", status, env)
		}
	}
	read(t, bTok, direct, 2)
	read(t, bTok, group, 2)
	read(t, cTok, group, 1)
	id := func(u *persistence.User) string { return u.ID.String() }

	// What each reader sees of each member's pointer: GET one and the list
	// answer the same.
	check := func(t *testing.T, tok, conv string, want map[string]float64) {
		t.Helper()
		_, env := st.call(t, "GET", "/api/conversations/"+conv, tok, nil)
		views := []map[string]any{data(env)}
		_, env = st.call(t, "GET", "/api/conversations", tok, nil)
		for _, cv := range data(env)["conversations"].([]any) {
			if obj(cv)["id"] == conv {
				views = append(views, obj(cv))
			}
		}
		if len(views) != 2 {
			t.Fatalf("%s not listed", conv)
		}
		for _, v := range views {
			got := memberReads(v)
			if len(got) != len(want) {
				t.Fatalf("read pointers %v, want %v", got, want)
			}
			for k, w := range want {
				if got[k] != w {
					t.Fatalf("read pointers %v, want %v", got, want)
				}
			}
		}
	}

	t.Run("after a reload, each member's pointer", func(t *testing.T) {
		check(t, aTok, direct, map[string]float64{id(a): 0, id(b): 2})
		check(t, aTok, group, map[string]float64{id(a): 0, id(b): 2, id(c): 1})
		check(t, cTok, group, map[string]float64{id(a): 0, id(b): 2, id(c): 1})
	})

	if status, env := st.call(t, "POST", "/api/safety/blocks/"+id(b), cTok, nil); status != 200 {
		t.Fatalf("C blocks B: %d %v", status, env)
	}
	t.Run("a block in a group hides the two people's pointers from each other only", func(t *testing.T) {
		check(t, bTok, group, map[string]float64{id(a): 0, id(b): 2})
		check(t, cTok, group, map[string]float64{id(a): 0, id(c): 1})
		check(t, aTok, group, map[string]float64{id(a): 0, id(b): 2, id(c): 1})
	})

	if status, env := st.call(t, "POST", "/api/safety/blocks/"+id(b), aTok, nil); status != 200 {
		t.Fatalf("A blocks B: %d %v", status, env)
	}
	t.Run("a block across a direct conversation hides the other's pointer both ways", func(t *testing.T) {
		check(t, aTok, direct, map[string]float64{id(a): 0})
		check(t, bTok, direct, map[string]float64{id(b): 2})
	})

	t.Run("a member who left sees no pointer past their leaving", func(t *testing.T) {
		if status, env := st.call(t, "DELETE", "/api/conversations/"+group+"/members/"+id(c), cTok, nil); status != 200 {
			t.Fatalf("C leaves: %d %v", status, env)
		}
		st.mustSend(t, aTok, group, "three")
		read(t, aTok, group, 3)
		_, env := st.call(t, "GET", "/api/conversations/"+group, cTok, nil)
		if got := memberReads(data(env)); got[id(a)] != 2 || got[id(c)] != 1 {
			t.Fatalf("C's view after leaving: %v (A read 3, C left at 2)", got)
		}
	})
}

// TestMessagesFriendshipChange: in a direct conversation whose other person
// takes messages from friends only, ending the friendship turns it
// read-only (not_accepted) for the one they no longer accept while they
// have not written there, and making it again opens it; both people are
// told at once (conversation:updated), and nobody is told of a
// conversation their list does not hold.
func TestMessagesFriendshipChange(t *testing.T) {
	st := newMessagesStack(t)
	ctx := context.Background()
	a, aTok := st.user(t, "Friend Asha")
	b, bTok := st.user(t, "Friend Bikram")
	c, cTok := st.user(t, "Friend Chitra")
	for _, u := range []*persistence.User{b, c} {
		if _, err := persistence.AddFriendship(ctx, st.db, a.ID, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	ab := st.conversation(t, aTok, map[string]any{"kind": "direct", "userId": b.ID.String()}, 201)["id"].(string)
	st.mustSend(t, aTok, ab, "hi Bikram")
	// A to C: started, never written in (C's list does not hold it).
	ac := st.conversation(t, aTok, map[string]any{"kind": "direct", "userId": c.ID.String()}, 201)["id"].(string)
	aSock, bSock, cSock := st.connect(t, aTok), st.connect(t, bTok), st.connect(t, cTok)
	readOnly := func(reason string) func(map[string]any) bool {
		return func(cv map[string]any) bool {
			got, _ := cv["readOnlyReason"].(string)
			return cv["readOnly"] == (reason != "") && got == reason
		}
	}

	t.Run("unfriended: read-only for the one not accepted, both told", func(t *testing.T) {
		if status, env := st.call(t, "DELETE", "/api/friends/unfriend/"+a.ID.String(), bTok, nil); status != 200 {
			t.Fatalf("unfriend: %d %v", status, env)
		}
		until(t, aSock, "A's conversation:updated", convUpdated(ab, readOnly("not_accepted")))
		// B takes A's messages no more; B may still answer, as A wrote
		// there.
		until(t, bSock, "B's conversation:updated", convUpdated(ab, readOnly("")))
		if status, env := st.send(t, aTok, ab, "c-1", "still there?"); status != 403 ||
			env["message"] != "You can't send messages in this conversation." {
			t.Fatalf("A sends after the unfriend: %d %v", status, env)
		}
	})

	t.Run("friends again: open again, both told", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/friends/send-request", aTok, map[string]any{"receiverId": b.ID.String()})
		if status >= 300 {
			t.Fatalf("request: %d %v", status, env)
		}
		reqID := obj(data(env)["friendRequest"])["id"].(string)
		if status, env := st.call(t, "PATCH", "/api/friends/accept-request/"+reqID, bTok, nil); status != 200 {
			t.Fatalf("accept: %d %v", status, env)
		}
		until(t, aSock, "A's conversation:updated", convUpdated(ab, readOnly("")))
		until(t, bSock, "B's conversation:updated", convUpdated(ab, readOnly("")))
	})

	t.Run("once both wrote it stays open", func(t *testing.T) {
		st.mustSend(t, bTok, ab, "yes, I am")
		if status, env := st.call(t, "DELETE", "/api/friends/unfriend/"+b.ID.String(), aTok, nil); status != 200 {
			t.Fatalf("unfriend: %d %v", status, env)
		}
		until(t, bSock, "B's conversation:updated", convUpdated(ab, readOnly("")))
		until(t, aSock, "A's conversation:updated", convUpdated(ab, readOnly("")))
		if status, env := st.send(t, aTok, ab, "c-2", "still friends here"); status != 201 {
			t.Fatalf("A sends once both wrote: %d %v", status, env)
		}
	})

	t.Run("a conversation nobody wrote in is told to its starter only", func(t *testing.T) {
		if status, env := st.call(t, "DELETE", "/api/friends/unfriend/"+a.ID.String(), cTok, nil); status != 200 {
			t.Fatalf("unfriend: %d %v", status, env)
		}
		until(t, aSock, "A's conversation:updated", convUpdated(ac, readOnly("not_accepted")))
		// A message in A and B's conversation is the marker: before it, C
		// heard nothing of a conversation C's list does not hold.
		if s, e := st.call(t, "PUT", "/api/users/me/message-settings", cTok, map[string]any{"allowFrom": "everyone"}); s != 200 {
			t.Fatalf("settings: %d %v", s, e)
		}
		bc := st.conversation(t, bTok, map[string]any{"kind": "direct", "userId": c.ID.String()}, 201)["id"].(string)
		st.mustSend(t, bTok, bc, "marker for C")
		if seen := until(t, cSock, "the marker", newMessage(bc, "marker for C")); about(seen, ac) {
			t.Fatalf("C heard of a conversation not in C's list: %v", seen)
		}
	})
}
