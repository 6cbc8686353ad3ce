package httpapi

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/httpapi/wstest"
	"campus/persistence"
)

// ids answers the ids of the posts of a feed or list answer.
func postIDs(env map[string]any) map[string]bool {
	out := map[string]bool{}
	list, _ := data(env)["posts"].([]any)
	for _, p := range list {
		out[p.(map[string]any)["id"].(string)] = true
	}
	return out
}

// searchIDs answers the ids of a search answer's results.
func searchIDs(env map[string]any) map[string]bool {
	out := map[string]bool{}
	list, _ := data(env)["results"].([]any)
	for _, r := range list {
		out[r.(map[string]any)["id"].(string)] = true
	}
	return out
}

// waitFor applies the search outbox and polls cond until it holds (10 s at
// most).
func (sw *sweepStack) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := sw.idx.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noPersonalFrame proves nothing personal reached c before a test round trip.
func noPersonalFrame(t *testing.T, c *wstest.Conn) {
	t.Helper()
	c.Send(t, "test", map[string]any{})
	for {
		f, err := c.Read(5 * time.Second)
		if err != nil {
			t.Fatalf("waiting for test:response: %v", err)
		}
		switch f.Event {
		case "test:response":
			return
		case "post:like", "post:comment", "notification", "friend:request":
			t.Fatalf("a %s frame reached the socket: %v", f.Event, f.Data)
		}
	}
}

func TestBlockHidesBothSides(t *testing.T) {
	sw := newSweepStack(t)
	a, aTok := sw.member(t, "Block Asha")
	b, bTok := sw.member(t, "Block Bikram")
	_, cTok := sw.member(t, "Block Chitra")
	aPost := sw.post(t, aTok, "zanzibar from asha")
	bPost := sw.post(t, bTok, "zanzibar from bikram")
	// They are friends first: the block must end it.
	status, env := sw.call(t, "POST", "/api/friends/send-request", aTok, map[string]any{"receiverId": b.ID.String()})
	if status != 201 {
		t.Fatalf("request: %d %v", status, env)
	}
	reqID := data(env)["friendRequest"].(map[string]any)["id"].(string)
	if status, env := sw.call(t, "PATCH", "/api/friends/accept-request/"+reqID, bTok, nil); status != 200 {
		t.Fatalf("accept: %d %v", status, env)
	}
	sw.waitFor(t, "the index to hold both posts", func() bool {
		_, env := sw.call(t, "GET", "/api/search?q=zanzibar", cTok, nil)
		ids := searchIDs(env)
		return ids[aPost] && ids[bPost]
	})
	aSock := sw.connect(t, aTok)

	if status, env := sw.call(t, "POST", "/api/safety/blocks/"+b.ID.String(), aTok, nil); status != 200 {
		t.Fatalf("block: %d %v", status, env)
	}

	type view struct{ tok, self, other, otherPost string }
	for _, v := range []view{{aTok, a.ID.String(), b.ID.String(), bPost}, {bTok, b.ID.String(), a.ID.String(), aPost}} {
		t.Run("as "+v.self[:8], func(t *testing.T) {
			if _, env := sw.call(t, "GET", "/api/posts/feed", v.tok, nil); postIDs(env)[v.otherPost] {
				t.Error("feed shows the other's post")
			}
			for _, path := range []string{"/api/profile/" + v.other, "/api/users/" + v.other, "/api/posts/user/" + v.other,
				"/api/posts/" + v.otherPost, "/api/posts/" + v.otherPost + "/comments"} {
				if status, _ := sw.call(t, "GET", path, v.tok, nil); status != 404 {
					t.Errorf("GET %s: %d, want 404", path, status)
				}
			}
			if _, env := sw.call(t, "GET", "/api/search?q=zanzibar", v.tok, nil); searchIDs(env)[v.otherPost] || searchIDs(env)[v.other] {
				t.Errorf("search shows the other: %v", env)
			}
			_, env := sw.call(t, "GET", "/api/friends/suggestions", v.tok, nil)
			if list, _ := env["data"].([]any); len(list) > 0 {
				for _, s := range list {
					if s.(map[string]any)["user"].(map[string]any)["id"] == v.other {
						t.Error("suggestions show the other")
					}
				}
			}
			if _, env := sw.call(t, "GET", "/api/friends/check/"+v.other, v.tok, nil); data(env)["isFriend"] == true {
				t.Error("still friends after the block")
			}
			if status, _ := sw.call(t, "POST", "/api/friends/send-request", v.tok, map[string]any{"receiverId": v.other}); status != 404 {
				t.Errorf("friend request across a block: %d, want 404", status)
			}
			if status, _ := sw.call(t, "POST", "/api/posts/"+v.otherPost+"/like", v.tok, nil); status != 404 {
				t.Errorf("like across a block: %d, want 404", status)
			}
			if status, _ := sw.call(t, "POST", "/api/posts/"+v.otherPost+"/comments", v.tok, map[string]any{"content": "hi"}); status != 404 {
				t.Errorf("comment across a block: %d, want 404", status)
			}
		})
	}
	// B's like on A's old post was refused: nothing reached A's socket.
	noPersonalFrame(t, aSock)
	// Others still see both.
	if _, env := sw.call(t, "GET", "/api/posts/feed", cTok, nil); !postIDs(env)[aPost] || !postIDs(env)[bPost] {
		t.Error("a third person lost a post")
	}
	// The blocked list shows B; unblocking restores visibility, not the friendship.
	_, env = sw.call(t, "GET", "/api/safety/blocks", aTok, nil)
	if users, _ := data(env)["users"].([]any); len(users) != 1 {
		t.Fatalf("blocked list %v", env)
	}
	if status, _ := sw.call(t, "DELETE", "/api/safety/blocks/"+b.ID.String(), aTok, nil); status != 200 {
		t.Fatal("unblock")
	}
	if _, env := sw.call(t, "GET", "/api/posts/feed", aTok, nil); !postIDs(env)[bPost] {
		t.Error("unblock did not restore the feed")
	}
	if _, env := sw.call(t, "GET", "/api/friends/check/"+b.ID.String(), aTok, nil); data(env)["isFriend"] == true {
		t.Error("unblock restored the friendship")
	}
	if status, _ := sw.call(t, "POST", "/api/safety/blocks/"+a.ID.String(), aTok, nil); status != 400 {
		t.Errorf("blocking oneself: %d, want 400", status)
	}
}

func TestMuteHidesFromMyFeedOnly(t *testing.T) {
	sw := newSweepStack(t)
	_, aTok := sw.member(t, "Mute Asha")
	b, bTok := sw.member(t, "Mute Bikram")
	_, cTok := sw.member(t, "Mute Chitra")
	bPost := sw.post(t, bTok, "muted words")
	if status, env := sw.call(t, "POST", "/api/safety/mutes/"+b.ID.String(), aTok, nil); status != 200 {
		t.Fatalf("mute: %d %v", status, env)
	}
	if _, env := sw.call(t, "GET", "/api/posts/feed", aTok, nil); postIDs(env)[bPost] {
		t.Error("muted post in the muter's feed")
	}
	if _, env := sw.call(t, "GET", "/api/posts/feed", cTok, nil); !postIDs(env)[bPost] {
		t.Error("a mute hid the post from someone else")
	}
	// Mute is not a block: the profile, the post and likes still work.
	if status, _ := sw.call(t, "GET", "/api/posts/"+bPost, aTok, nil); status != 200 {
		t.Errorf("post page of a muted person: %d", status)
	}
	if _, env := sw.call(t, "GET", "/api/posts/user/"+b.ID.String(), aTok, nil); !postIDs(env)[bPost] {
		t.Error("mute hid the muted person's own page")
	}
	if status, _ := sw.call(t, "DELETE", "/api/safety/mutes/"+b.ID.String(), aTok, nil); status != 200 {
		t.Fatal("unmute")
	}
	if _, env := sw.call(t, "GET", "/api/posts/feed", aTok, nil); !postIDs(env)[bPost] {
		t.Error("unmute did not restore the feed")
	}
}

func TestReportsModerationAndAudit(t *testing.T) {
	sw := newSweepStack(t)
	ctx := context.Background()
	admin, adminTok := sw.member(t, "Mod Admin")
	mod, modTok := sw.member(t, "Mod Moderator")
	a, aTok := sw.member(t, "Mod Asha")
	b, bTok := sw.member(t, "Mod Bikram")
	if _, err := persistence.GrantCapability(ctx, sw.db, admin.ID, "admin", uuid.Nil); err != nil {
		t.Fatal(err)
	}
	if status, env := sw.call(t, "POST", "/api/admin/moderators/"+mod.ID.String(), adminTok, map[string]any{"reason": "trusted"}); status != 200 {
		t.Fatalf("grant moderator: %d %v", status, env)
	}
	bPost := sw.post(t, bTok, "quokka spam spam")
	sw.waitFor(t, "the index to hold the post", func() bool {
		_, env := sw.call(t, "GET", "/api/search?q=quokka", aTok, nil)
		return searchIDs(env)[bPost]
	})

	// Reports de-duplicate per reporter and item.
	report := map[string]any{"itemType": "post", "itemId": bPost, "reason": "spam"}
	if status, env := sw.call(t, "POST", "/api/reports", aTok, report); status != 201 {
		t.Fatalf("report: %d %v", status, env)
	}
	if status, _ := sw.call(t, "POST", "/api/reports", aTok, report); status != 409 {
		t.Errorf("second report: %d, want 409", status)
	}
	if status, _ := sw.call(t, "POST", "/api/reports", bTok, report); status != 400 {
		t.Errorf("reporting one's own post: %d, want 400", status)
	}

	// Every moderation call by a non-moderator answers 403 and changes nothing.
	body := map[string]any{"reason": "because", "days": 1}
	calls := []struct{ method, path string }{
		{"GET", "/api/moderation/queue"},
		{"POST", "/api/moderation/items/post/" + bPost + "/dismiss"},
		{"POST", "/api/moderation/items/post/" + bPost + "/remove"},
		{"POST", "/api/moderation/items/post/not-an-id/remove"},
		{"POST", "/api/moderation/users/" + b.ID.String() + "/suspend"},
		{"POST", "/api/moderation/users/" + b.ID.String() + "/unsuspend"},
		{"GET", "/api/admin/moderators"},
		{"POST", "/api/admin/moderators/" + a.ID.String()},
		{"DELETE", "/api/admin/moderators/" + mod.ID.String()},
		{"GET", "/api/admin/audit"},
	}
	for _, c := range calls {
		t.Run("member "+c.method+" "+c.path, func(t *testing.T) {
			if status, env := sw.call(t, c.method, c.path, aTok, body); status != 403 {
				t.Errorf("%d %v, want 403", status, env)
			}
		})
	}
	// Moderators are not admins.
	for _, c := range calls[6:] {
		if status, _ := sw.call(t, c.method, c.path, modTok, body); status != 403 {
			t.Errorf("moderator %s %s: %d, want 403", c.method, c.path, status)
		}
	}
	if sw.count(t, "moderation_audit") != 1 || sw.count(t, "account_suspensions") != 0 {
		t.Fatal("a refused call changed something")
	}
	if _, env := sw.call(t, "GET", "/api/posts/feed", aTok, nil); !postIDs(env)[bPost] {
		t.Fatal("a refused remove hid the post")
	}

	// The queue groups reports by item.
	_, env := sw.call(t, "GET", "/api/moderation/queue", modTok, nil)
	items, _ := data(env)["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["reports"].(float64) != 1 || items[0].(map[string]any)["content"] != "quokka spam spam" {
		t.Fatalf("queue %v", env)
	}
	if status, env := sw.call(t, "POST", "/api/moderation/items/post/"+bPost+"/remove", modTok, map[string]any{"reason": "Spam"}); status != 200 {
		t.Fatalf("remove: %d %v", status, env)
	}
	// Gone from feed, post page and search for everyone but moderators.
	for _, tok := range []string{aTok, bTok} {
		if _, env := sw.call(t, "GET", "/api/posts/feed", tok, nil); postIDs(env)[bPost] {
			t.Error("removed post in a feed")
		}
		if status, _ := sw.call(t, "GET", "/api/posts/"+bPost, tok, nil); status != 404 {
			t.Errorf("removed post page: %d, want 404", status)
		}
	}
	if status, _ := sw.call(t, "GET", "/api/posts/"+bPost, modTok, nil); status != 200 {
		t.Errorf("moderator cannot see the removed post: %d", status)
	}
	sw.waitFor(t, "the index to drop the removed post", func() bool {
		_, env := sw.call(t, "GET", "/api/search?q=quokka", aTok, nil)
		return !searchIDs(env)[bPost]
	})
	// The author is told why.
	_, env = sw.call(t, "GET", "/api/notifications", bTok, nil)
	found := false
	for _, n := range data(env)["notifications"].([]any) {
		found = found || n.(map[string]any)["message"] == "A moderator removed your post. Reason: Spam"
	}
	if !found {
		t.Errorf("author not told: %v", env)
	}
	// The queue is empty again.
	if _, env := sw.call(t, "GET", "/api/moderation/queue", modTok, nil); len(data(env)["items"].([]any)) != 0 {
		t.Errorf("queue after remove %v", env)
	}

	// A suspension closes the socket, refuses the token and the login.
	bSock := sw.connect(t, bTok)
	if status, env := sw.call(t, "POST", "/api/moderation/users/"+b.ID.String()+"/suspend", modTok, map[string]any{"reason": "spammer", "days": 0}); status != 200 {
		t.Fatalf("suspend: %d %v", status, env)
	}
	if code := bSock.CloseCode(t); code == 0 {
		t.Error("socket not closed")
	}
	if status, _ := sw.call(t, "GET", "/api/posts/feed", bTok, nil); status != 401 {
		t.Errorf("suspended token: %d, want 401", status)
	}
	status, env := sw.call(t, "POST", "/api/auth/login", "", map[string]any{"email": b.Email, "password": sweepPassword, "role": "student"})
	if status != 403 || env["message"] != "Your account has been suspended permanently. Reason: spammer" {
		t.Errorf("suspended login: %d %v", status, env)
	}
	if status, _ := sw.call(t, "POST", "/api/moderation/users/"+admin.ID.String()+"/suspend", modTok, map[string]any{"reason": "x"}); status != 403 {
		t.Errorf("suspending an admin: %d, want 403", status)
	}
	if status, env := sw.call(t, "POST", "/api/moderation/users/"+b.ID.String()+"/unsuspend", modTok, map[string]any{"reason": "appeal"}); status != 200 {
		t.Fatalf("unsuspend: %d %v", status, env)
	}
	if status, _ := sw.call(t, "POST", "/api/auth/login", "", map[string]any{"email": b.Email, "password": sweepPassword, "role": "student"}); status != 200 {
		t.Errorf("login after unsuspend: %d", status)
	}

	// The audit log holds every action, newest first, for admins.
	_, env = sw.call(t, "GET", "/api/admin/audit?limit=2", adminTok, nil)
	var actions []string
	for {
		for _, e := range data(env)["entries"].([]any) {
			actions = append(actions, e.(map[string]any)["action"].(string))
		}
		next, _ := data(env)["nextCursor"].(string)
		if next == "" {
			break
		}
		_, env = sw.call(t, "GET", "/api/admin/audit?limit=2&cursor="+next, adminTok, nil)
	}
	want := []string{"unsuspend", "suspend", "remove", "grant_moderator"}
	if len(actions) != len(want) {
		t.Fatalf("audit %v, want %v", actions, want)
	}
	for i := range want {
		if actions[i] != want[i] {
			t.Errorf("audit %v, want %v", actions, want)
		}
	}
}
