package httpapi

import (
	"context"
	"strings"
	"testing"
	"time"

	"campus/httpapi/wstest"
)

// feedEntry finds the entry of id in a page of posts (env's data.posts),
// nil when it is not there.
func feedEntry(env map[string]any, id string) map[string]any {
	list, _ := data(env)["posts"].([]any)
	for _, x := range list {
		if m, _ := x.(map[string]any); m["id"] == id {
			return m
		}
	}
	return nil
}

// repostOf finds the repost entry of original in a page of posts, nil when
// there is none.
func repostOf(env map[string]any, original string) map[string]any {
	list, _ := data(env)["posts"].([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if o, _ := m["repostOf"].(map[string]any); o != nil && o["id"] == original {
			return m
		}
	}
	return nil
}

// savedIDs are the ids of tok's Saved list, in order.
func (sw *sweepStack) savedIDs(t *testing.T, tok, query string) []string {
	t.Helper()
	env := sw.must(t, 200, "GET", "/api/me/bookmarks"+query, tok, nil)
	var ids []string
	list, _ := data(env)["posts"].([]any)
	for _, x := range list {
		ids = append(ids, x.(map[string]any)["id"].(string))
	}
	return ids
}

// TestBookmarksIdempotentAndPrivate: saving twice and unsaving twice each
// leave one state; the post JSON says saved only to the reader who saved
// it, in the feed, on the post page and on the author's profile; nobody
// else's Saved list ever holds it.
func TestBookmarksIdempotentAndPrivate(t *testing.T) {
	sw := newSweepStack(t)
	author, aTok := sw.member(t, "Saved Author")
	_, rTok := sw.member(t, "Saved Reader")
	_, oTok := sw.member(t, "Saved Other")
	post := sw.post(t, aTok, "worth keeping")

	for range 2 {
		if env := sw.must(t, 200, "PUT", "/api/posts/"+post+"/bookmark", rTok, nil); data(env)["saved"] != true {
			t.Fatalf("save answered %v", env)
		}
	}
	if got := sw.savedIDs(t, rTok, ""); len(got) != 1 || got[0] != post {
		t.Fatalf("reader's Saved list after saving twice: %v, want [%s]", got, post)
	}
	for _, tc := range []struct {
		reader, tok string
		want        bool
	}{{"reader", rTok, true}, {"other", oTok, false}, {"author", aTok, false}} {
		t.Run(tc.reader, func(t *testing.T) {
			paths := map[string]func(env map[string]any) map[string]any{
				"/api/posts/feed": func(env map[string]any) map[string]any { return feedEntry(env, post) },
				"/api/posts/user/" + author.ID.String(): func(env map[string]any) map[string]any {
					return feedEntry(env, post)
				},
				"/api/posts/" + post: func(env map[string]any) map[string]any { return data(env)["post"].(map[string]any) },
			}
			for path, find := range paths {
				e := find(sw.must(t, 200, "GET", path, tc.tok, nil))
				if e == nil || e["saved"] != tc.want {
					t.Errorf("%s: saved = %v, want %v (%v)", path, e["saved"], tc.want, e)
				}
			}
			if tc.reader != "reader" {
				if got := sw.savedIDs(t, tc.tok, ""); len(got) != 0 {
					t.Errorf("%s's Saved list holds %v", tc.reader, got)
				}
			}
		})
	}
	for range 2 {
		if env := sw.must(t, 200, "DELETE", "/api/posts/"+post+"/bookmark", rTok, nil); data(env)["saved"] != false {
			t.Fatalf("unsave answered %v", env)
		}
	}
	if got := sw.savedIDs(t, rTok, ""); len(got) != 0 {
		t.Fatalf("Saved list after unsaving: %v", got)
	}
	sw.must(t, 404, "PUT", "/api/posts/00000000-0000-4000-8000-000000000000/bookmark", rTok, nil)
}

// TestSavedListOrderAndVisibility: the Saved list is newest saved first
// (not newest posted), pages by cursor without repeats, and drops a post
// that became invisible to the reader: blocked author, a secret group the
// reader left, removed by a moderator, deleted.
func TestSavedListOrderAndVisibility(t *testing.T) {
	sw := newSweepStack(t)
	ctx := context.Background()
	_, aTok := sw.member(t, "List Author")
	blockee, bTok := sw.member(t, "List Blockee")
	reader, rTok := sw.member(t, "List Reader")
	g := sw.group(t, aTok, map[string]any{"name": "List Secret", "handle": "list-secret", "kind": "club", "visibility": "secret"})
	sw.must(t, 200, "POST", "/api/groups/list-secret/invitations", aTok, map[string]any{"userId": reader.ID.String()})
	sw.must(t, 200, "POST", "/api/groups/list-secret/join", rTok, nil)

	posts := map[string]string{
		"old":     sw.post(t, aTok, "posted first"),
		"new":     sw.post(t, aTok, "posted second"),
		"blocked": sw.post(t, bTok, "by someone the reader blocks"),
		"group":   sw.groupPost(t, aTok, g["id"].(string), "in the secret group"),
		"removed": sw.post(t, aTok, "to be removed"),
		"deleted": sw.post(t, aTok, "to be deleted"),
	}
	// Saved in this order: "old" last, so it is first in the list.
	order := []string{"new", "blocked", "group", "removed", "deleted", "old"}
	for _, name := range order {
		sw.must(t, 200, "PUT", "/api/posts/"+posts[name]+"/bookmark", rTok, nil)
	}
	var all []string
	for cursor := ""; ; {
		q := "?limit=4"
		if cursor != "" {
			q += "&cursor=" + cursor
		}
		env := sw.must(t, 200, "GET", "/api/me/bookmarks"+q, rTok, nil)
		for _, x := range data(env)["posts"].([]any) {
			all = append(all, x.(map[string]any)["id"].(string))
		}
		next, _ := data(env)["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	want := []string{posts["old"], posts["deleted"], posts["removed"], posts["group"], posts["blocked"], posts["new"]}
	if strings.Join(all, ",") != strings.Join(want, ",") {
		t.Fatalf("Saved list paged: %v, want newest saved first %v", all, want)
	}

	sw.must(t, 200, "POST", "/api/safety/blocks/"+blockee.ID.String(), rTok, nil)
	sw.must(t, 200, "POST", "/api/groups/list-secret/leave", rTok, nil)
	if _, err := sw.db.ExecContext(ctx, "UPDATE posts SET removed_at = now() WHERE id = ?", posts["removed"]); err != nil {
		t.Fatal(err)
	}
	sw.must(t, 200, "DELETE", "/api/posts/"+posts["deleted"], aTok, nil)
	got := sw.savedIDs(t, rTok, "")
	if strings.Join(got, ",") != posts["old"]+","+posts["new"] {
		t.Fatalf("Saved list after block, leaving, removal and deletion: %v, want [old new] %v", got, []string{posts["old"], posts["new"]})
	}
	// Unsaving a post the reader can no longer see still works.
	sw.must(t, 200, "DELETE", "/api/posts/"+posts["blocked"]+"/bookmark", rTok, nil)
	var n int
	if err := sw.db.QueryRowContext(ctx, "SELECT count(*) FROM post_bookmarks WHERE post_id = ?", posts["blocked"]).Scan(&n); err != nil || n != 0 {
		t.Fatalf("bookmark of the blocked author's post: %d rows (%v)", n, err)
	}
}

// TestRepostRules: only a post the reader can see, outside groups, not
// their own, once; the comment is checked like a post's text.
func TestRepostRules(t *testing.T) {
	sw := newSweepStack(t)
	_, aTok := sw.member(t, "Rules Author")
	reposter, rTok := sw.member(t, "Rules Reposter")
	_, kTok := sw.member(t, "Rules Blocker")
	post := sw.post(t, aTok, "share me")
	blockers := sw.post(t, kTok, "by someone who blocks the reposter")
	g := sw.group(t, aTok, map[string]any{"name": "Rules Public", "handle": "rules-public", "kind": "club", "visibility": "public"})
	sw.must(t, 200, "POST", "/api/groups/rules-public/join", rTok, nil)
	groupPost := sw.groupPost(t, aTok, g["id"].(string), "a public group's post")
	sw.must(t, 200, "POST", "/api/safety/blocks/"+reposter.ID.String(), kTok, nil)

	for _, tc := range []struct {
		name, tok, post string
		body            any
		status          int
	}{
		{"own post", aTok, post, nil, 403},
		{"group post", rTok, groupPost, nil, 403},
		{"across a block", rTok, blockers, nil, 404},
		{"no such post", rTok, "00000000-0000-4000-8000-000000000000", nil, 404},
		{"comment too long", rTok, post, map[string]any{"comment": strings.Repeat("x", 2001)}, 400},
		{"first", rTok, post, map[string]any{"comment": "look at this"}, 200},
		{"again", rTok, post, map[string]any{"comment": "a second time"}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, env := sw.call(t, "POST", "/api/posts/"+tc.post+"/repost", tc.tok, tc.body)
			if status != tc.status {
				t.Fatalf("repost: %d %v, want %d", status, env, tc.status)
			}
			if status >= 400 {
				if msg, _ := env["message"].(string); msg == "" {
					t.Errorf("refusal without a message: %v", env)
				}
			}
		})
	}
	var rows, count int
	if err := sw.db.QueryRowContext(context.Background(), `SELECT (SELECT count(*) FROM posts WHERE repost_of = ?0),
		(SELECT reposts_count FROM posts WHERE id = ?0)`, post).Scan(&rows, &count); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || count != 1 {
		t.Fatalf("after reposting twice: %d repost rows, reposts_count %d; want 1 and 1", rows, count)
	}
	entry := repostOf(sw.must(t, 200, "GET", "/api/posts/feed", rTok, nil), post)
	if entry == nil || entry["content"] != "look at this" {
		t.Fatalf("the feed's repost entry %v: want the first comment kept", entry)
	}
	// The repost's own row is no post to like, save or edit.
	id := entry["id"].(string)
	sw.must(t, 404, "POST", "/api/posts/"+id+"/like", rTok, nil)
	sw.must(t, 404, "PUT", "/api/posts/"+id+"/bookmark", rTok, nil)
	sw.must(t, 404, "PUT", "/api/posts/"+id, rTok, map[string]any{"content": "edited"})
	// Read by its id (what post:new announces) it is the entry again.
	if got := data(sw.must(t, 200, "GET", "/api/posts/"+id, rTok, nil))["post"].(map[string]any); got["repostOf"].(map[string]any)["id"] != post {
		t.Fatalf("GET of the repost's id: %v", got)
	}
	sw.must(t, 404, "GET", "/api/posts/"+id, kTok, nil) // the blocker blocked the reposter
	for range 2 {
		if env := sw.must(t, 200, "DELETE", "/api/posts/"+post+"/repost", rTok, nil); data(env)["repostsCount"] != float64(0) {
			t.Fatalf("undo answered %v", env)
		}
	}
}

// TestRepostLive: a repost reaches the reposter's friend as post:new and in
// their feed as an entry wrapping the original; the original's repost count
// goes out live to its watchers through post:counts, up and down; its
// author gets a rolled-up repost notification; liking through the entry
// likes the original; undoing takes the entry out of the friend's feed, and
// deleting the original takes every repost of it with it.
func TestRepostLive(t *testing.T) {
	sw := newSweepStack(t)
	_, aTok := sw.member(t, "Live Author")
	reposter, rTok := sw.member(t, "Live Reposter")
	_, sTok := sw.member(t, "Live Second")
	friend, fTok := sw.member(t, "Live Friend")
	befriend(t, sw, reposter, friend)
	post := sw.post(t, aTok, "the original")
	watcher := sw.connect(t, fTok)
	watcher.Watch(t, post)
	authorSock := sw.connect(t, aTok)

	env := sw.must(t, 200, "POST", "/api/posts/"+post+"/repost", rTok, map[string]any{"comment": "**read** this #campus"})
	res := data(env)
	repost := res["repost"].(map[string]any)
	if res["reposted"] != true || res["repostsCount"] != float64(1) || repost["repostOf"].(map[string]any)["id"] != post {
		t.Fatalf("repost answered %v", res)
	}
	newPosts := map[string]bool{} // post:new the watcher heard of
	waitCounts := func(c *wstest.Conn, want int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			f, err := c.Read(time.Until(deadline))
			if err != nil {
				t.Fatalf("waiting for repostsCount %d: %v", want, err)
			}
			if f.Event == "post:new" {
				newPosts[f.Data["postId"].(string)] = true
			}
			if f.Event == "post:counts" {
				if e, ok := wstest.Counts(t, f)[post]; ok && e.RepostsCount == want {
					return
				}
			}
		}
	}
	waitCounts(watcher, 1)
	// The reposter's friend hears of the repost as of a new post (before
	// or after the counts: they go out on different paths).
	for deadline := time.Now().Add(10 * time.Second); !newPosts[repost["id"].(string)]; {
		f, err := watcher.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting for post:new of the repost %s: %v", repost["id"], err)
		}
		if f.Event == "post:new" {
			newPosts[f.Data["postId"].(string)] = true
		}
	}

	// The friend's feed: the entry, "Live Reposter" wrapping the original
	// with its counts, and the friend's flags of the original.
	sw.must(t, 200, "POST", "/api/posts/"+post+"/like", fTok, nil)
	entry := repostOf(sw.must(t, 200, "GET", "/api/posts/feed", fTok, nil), post)
	if entry == nil {
		t.Fatal("the friend's feed has no repost entry")
	}
	orig := entry["repostOf"].(map[string]any)
	if entry["content"] != "**read** this #campus" || entry["author"].(map[string]any)["name"] != "Live Reposter" ||
		orig["repostsCount"] != float64(1) || orig["likesCount"] != float64(1) || orig["isLiked"] != true ||
		entry["isLiked"] != false || orig["reposted"] != false {
		t.Fatalf("repost entry %v", entry)
	}
	if e := feedEntry(sw.must(t, 200, "GET", "/api/posts/feed", rTok, nil), post); e == nil || e["reposted"] != true {
		t.Fatalf("the reposter's feed shows the original as not reposted: %v", e)
	}

	// The author's notification: one roll-up of both reposts.
	sw.must(t, 200, "POST", "/api/posts/"+post+"/repost", sTok, nil)
	waitCounts(watcher, 2)
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := authorSock.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting for the repost roll-up: %v", err)
		}
		if f.Event == "notification" && f.Data["type"] == "repost" && f.Data["actorCount"] == float64(2) {
			if msg, _ := f.Data["message"].(string); !strings.Contains(msg, "reposted your post") {
				t.Fatalf("repost notification: %v", f.Data)
			}
			break
		}
	}
	ns := data(sw.must(t, 200, "GET", "/api/notifications", aTok, nil))["notifications"].([]any)
	reposts := 0
	for _, n := range ns {
		if n.(map[string]any)["type"] == "repost" {
			reposts++
		}
	}
	if reposts != 1 {
		t.Fatalf("%d repost notifications, want one roll-up: %v", reposts, ns)
	}

	sw.must(t, 200, "DELETE", "/api/posts/"+post+"/repost", rTok, nil)
	waitCounts(watcher, 1) // the second reposter's is still there
	if e := feedEntry(sw.must(t, 200, "GET", "/api/posts/feed", fTok, nil), repost["id"].(string)); e != nil {
		t.Fatalf("the undone repost is still in the feed: %v", e)
	}

	// Deleting the original deletes its reposts.
	sw.must(t, 200, "DELETE", "/api/posts/"+post, aTok, nil)
	if e := repostOf(sw.must(t, 200, "GET", "/api/posts/feed", fTok, nil), post); e != nil {
		t.Fatalf("a repost of the deleted original is still in the feed: %v", e)
	}
	var rows int
	if err := sw.db.QueryRowContext(context.Background(), "SELECT count(*) FROM posts WHERE repost_of = ?", post).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d repost rows of the deleted original (%v)", rows, err)
	}
}

// TestRepostHiddenLikeItsOriginal: a repost entry is left out for a reader
// with a block between them and the original's author, or who mutes them
// (the feed's rules apply to both people on the card), and for everyone
// once a moderator removed the original; the reader's feed pages stay full.
func TestRepostHiddenLikeItsOriginal(t *testing.T) {
	sw := newSweepStack(t)
	author, aTok := sw.member(t, "Hidden Author")
	_, rTok := sw.member(t, "Hidden Reposter")
	_, bTok := sw.member(t, "Hidden Blocker")
	_, mTok := sw.member(t, "Hidden Muter")
	_, pTok := sw.member(t, "Hidden Plain")
	post := sw.post(t, aTok, "an original")
	sw.must(t, 200, "POST", "/api/posts/"+post+"/repost", rTok, map[string]any{"comment": "see"})
	sw.must(t, 200, "POST", "/api/safety/blocks/"+author.ID.String(), bTok, nil)
	sw.must(t, 200, "POST", "/api/safety/mutes/"+author.ID.String(), mTok, nil)
	for _, tc := range []struct {
		reader, tok string
		want        bool
	}{{"plain", pTok, true}, {"blocker", bTok, false}, {"muter", mTok, false}} {
		t.Run(tc.reader, func(t *testing.T) {
			for _, limit := range []string{"", "?limit=1"} {
				got := repostOf(sw.must(t, 200, "GET", "/api/posts/feed"+limit, tc.tok, nil), post) != nil
				if limit == "" && got != tc.want {
					t.Fatalf("repost entry in the feed: %v, want %v", got, tc.want)
				}
				if limit != "" && !tc.want && got {
					t.Fatalf("repost entry on a one-post page: want none")
				}
			}
		})
	}
	if _, err := sw.db.ExecContext(context.Background(), "UPDATE posts SET removed_at = now() WHERE id = ?", post); err != nil {
		t.Fatal(err)
	}
	if e := repostOf(sw.must(t, 200, "GET", "/api/posts/feed", pTok, nil), post); e != nil {
		t.Fatalf("repost of a removed original in the feed: %v", e)
	}
}
