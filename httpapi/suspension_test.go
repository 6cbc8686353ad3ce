package httpapi

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSuspensionHidesTheAccount: "Suspend author" from the moderation
// queue hides the account and everything it wrote from everyone but
// moderators while the suspension lasts — its posts from feeds, its
// profile's list and search, a post fetched by id and its comments, likes
// and reports, its comments on others' posts, and its profile — while the
// queue keeps the reported item, marked, and a moderator can still open it;
// lifting the suspension shows everything again.
func TestSuspensionHidesTheAccount(t *testing.T) {
	sw := newSweepStack(t)
	_, modTok := sw.moderator(t, "Suspension Moderator")
	_, rTok := sw.member(t, "Suspension Reader")
	author, aTok := sw.member(t, "Quokkarina Suspendee")
	reported := sw.post(t, aTok, "wombat spam that was reported")
	other := sw.post(t, aTok, "wombat post that was not reported")
	readers := sw.post(t, rTok, "the reader's own post")
	comment := sw.comment(t, aTok, readers, "wombat comment on the reader's post")
	sw.waitFor(t, "the index to hold the author's posts, comment and name", func() bool {
		_, env := sw.call(t, "GET", "/api/search?q=wombat", rTok, nil)
		_, users := sw.call(t, "GET", "/api/search?q=quokkarina", rTok, nil)
		ids := searchIDs(env)
		return ids[reported] && ids[other] && ids[comment] && searchIDs(users)[author.ID.String()]
	})
	sw.must(t, 201, "POST", "/api/reports", rTok, map[string]any{"itemType": "post", "itemId": reported, "reason": "spam"})

	// shown answers, path by path, what the reader sees of the author.
	type seen struct{ feed, reported, other, comments, like, profile, profilePosts, comment, search, people bool }
	shown := func(t *testing.T) seen {
		t.Helper()
		var s seen
		_, feed := sw.call(t, "GET", "/api/posts/feed?limit=100", rTok, nil)
		s.feed = postIDs(feed)[reported] || postIDs(feed)[other]
		status, _ := sw.call(t, "GET", "/api/posts/"+reported, rTok, nil)
		s.reported = status == 200
		status, _ = sw.call(t, "GET", "/api/posts/"+other, rTok, nil)
		s.other = status == 200
		status, _ = sw.call(t, "GET", "/api/posts/"+other+"/comments", rTok, nil)
		s.comments = status == 200
		status, _ = sw.call(t, "PATCH", "/api/posts/"+other+"/like", rTok, nil)
		s.like = status == 200
		status, _ = sw.call(t, "GET", "/api/profile/"+author.ID.String(), rTok, nil)
		s.profile = status == 200
		_, list := sw.call(t, "GET", "/api/posts/user/"+author.ID.String(), rTok, nil)
		s.profilePosts = postIDs(list)[reported] || postIDs(list)[other]
		_, cs := sw.call(t, "GET", "/api/posts/"+readers+"/comments", rTok, nil)
		s.comment = listHas(cs, "comments", comment)
		_, env := sw.call(t, "GET", "/api/search?q=wombat", rTok, nil)
		ids := searchIDs(env)
		s.search = ids[reported] || ids[other] || ids[comment]
		_, env = sw.call(t, "GET", "/api/search?q=quokkarina", rTok, nil)
		_, users := sw.call(t, "GET", "/api/users/search?q=quokkarina", rTok, nil)
		list2, _ := data(users)["users"].([]any)
		s.people = searchIDs(env)[author.ID.String()] || len(list2) > 0
		return s
	}
	all := seen{true, true, true, true, true, true, true, true, true, true}
	if got := shown(t); got != all {
		t.Fatalf("before the suspension the reader sees %+v, want everything", got)
	}

	// The moderator suspends the author from the queue.
	env := sw.must(t, 200, "GET", "/api/moderation/queue", modTok, nil)
	items := data(env)["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("queue %v", env)
	}
	authorID := items[0].(map[string]any)["author"].(map[string]any)["id"].(string)
	sw.must(t, 200, "POST", "/api/moderation/users/"+authorID+"/suspend", modTok, map[string]any{"reason": "Spam", "days": 7})

	if got := shown(t); got != (seen{}) {
		t.Errorf("while the author is suspended the reader sees %+v, want nothing", got)
	}
	if status, env := sw.call(t, "POST", "/api/reports", rTok, map[string]any{"itemType": "post", "itemId": other, "reason": "spam"}); status != 404 {
		t.Errorf("reporting a suspended author's post: %d %v, want 404", status, env)
	}
	// The queue keeps the way back: the item is still there, marked, and
	// the moderator can open the post (marked) and the profile.
	env = sw.must(t, 200, "GET", "/api/moderation/queue", modTok, nil)
	items = data(env)["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["itemId"] != reported || items[0].(map[string]any)["suspended"] != true {
		t.Fatalf("queue after the suspension: %v", env)
	}
	env = sw.must(t, 200, "GET", "/api/posts/"+reported, modTok, nil)
	if m, _ := data(env)["moderation"].(map[string]any); m["authorSuspended"] != true {
		t.Errorf("the moderator's post page does not mark the suspension: %v", env)
	}
	env = sw.must(t, 200, "GET", "/api/profile/"+author.ID.String(), modTok, nil)
	if data(env)["suspended"] != true {
		t.Errorf("the moderator's profile page does not mark the suspension: %v", env)
	}
	// The reader's post page is not marked: nothing is hidden from them.
	env = sw.must(t, 200, "GET", "/api/posts/"+readers, rTok, nil)
	if _, ok := data(env)["moderation"]; ok {
		t.Errorf("a visible post carries moderation marks: %v", env)
	}

	// Lifting the suspension shows everything again; the moderator then
	// decides on the reported post itself.
	sw.must(t, 200, "POST", "/api/moderation/users/"+authorID+"/unsuspend", modTok, map[string]any{"reason": "Appeal"})
	if got := shown(t); got != all {
		t.Errorf("after the suspension was lifted the reader sees %+v, want everything", got)
	}
	sw.must(t, 200, "POST", "/api/moderation/items/post/"+reported+"/remove", modTok, map[string]any{"reason": "Spam"})
}

// TestSuspendedUserIsToldWhy: a suspended member is told why and until
// when, in the error envelope the client shows on its login page: on the
// first call their refused token makes (the bounce to /login) and on every
// login attempt; and by an e-mail that carries no token or code.
func TestSuspendedUserIsToldWhy(t *testing.T) {
	sw := newSweepStack(t)
	_, modTok := sw.moderator(t, "Told Moderator")
	author, aTok := sw.member(t, "Told Author")
	const reason = "Spamming the feed"
	sw.must(t, 200, "POST", "/api/moderation/users/"+author.ID.String()+"/suspend", modTok, map[string]any{"reason": reason, "days": 7})
	var until time.Time
	if err := sw.db.QueryRowContext(context.Background(), "SELECT until_at FROM account_suspensions WHERE user_id = ?", author.ID).Scan(&until); err != nil {
		t.Fatal(err)
	}
	want := "Your account has been suspended until " + until.UTC().Format("2 January 2006 15:04 UTC") + ". Reason: " + reason
	fields := func(env map[string]any) map[string]string {
		out := map[string]string{}
		list, _ := env["errors"].([]any)
		for _, x := range list {
			e := x.(map[string]any)
			out[e["field"].(string)] = e["msg"].(string)
		}
		return out
	}
	check := func(t *testing.T, what string, status, wantStatus int, env map[string]any) {
		t.Helper()
		if status != wantStatus || env["message"] != want {
			t.Errorf("%s: %d %v, want %d %q", what, status, env["message"], wantStatus, want)
		}
		f := fields(env)
		if f["suspension"] != reason || f["suspendedUntil"] != until.UTC().Format(time.RFC3339) {
			t.Errorf("%s: fields %v, want the reason and the end", what, f)
		}
	}
	status, env := sw.call(t, "GET", "/api/users/me", aTok, nil)
	check(t, "the refused token", status, 401, env)
	status, env = sw.call(t, "POST", "/api/auth/login", "", map[string]any{"email": author.Email, "password": sweepPassword, "role": "student"})
	check(t, "the login", status, 403, env)

	// The e-mail says the same, and carries no token.
	var msg string
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		if msg, err = mailLatest(sw.mailDir, author.Email); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no suspension mail to %s: %v", author.Email, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, s := range []string{"suspended", reason, until.UTC().Format("2 January 2006 15:04 UTC"), "support@campus.test"} {
		if !strings.Contains(msg, s) {
			t.Errorf("the mail lacks %q:\n%s", s, msg)
		}
	}
	if strings.Contains(msg, aTok) || strings.Contains(msg, "eyJ") {
		t.Errorf("the mail carries a token:\n%s", msg)
	}

	// A suspension for good says so.
	other, oTok := sw.member(t, "Told Forever")
	sw.must(t, 200, "POST", "/api/moderation/users/"+other.ID.String()+"/suspend", modTok, map[string]any{"reason": reason, "days": 0})
	status, env = sw.call(t, "GET", "/api/posts/feed", oTok, nil)
	if status != 401 || env["message"] != "Your account has been suspended permanently. Reason: "+reason || fields(env)["suspension"] != reason {
		t.Errorf("the refused token of a suspension for good: %d %v", status, env)
	}
	if _, ok := fields(env)["suspendedUntil"]; ok {
		t.Errorf("a suspension for good has an end: %v", env)
	}
}
