package httpapi

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/httpapi/wstest"
	"campus/persistence"
)

// moderator makes a member who holds the moderator capability.
func (sw *sweepStack) moderator(t *testing.T, name string) (*persistence.User, string) {
	t.Helper()
	u, tok := sw.member(t, name)
	if _, err := persistence.GrantCapability(context.Background(), sw.db, u.ID, "moderator", uuid.Nil); err != nil {
		t.Fatal(err)
	}
	return u, tok
}

// comment has token comment on post and answers the comment's id.
func (sw *sweepStack) comment(t *testing.T, token, post, content string) string {
	t.Helper()
	status, env := sw.call(t, "POST", "/api/posts/"+post+"/comments", token, map[string]any{"content": content})
	if status != 201 {
		t.Fatalf("comment: %d %v", status, env)
	}
	return data(env)["comment"].(map[string]any)["id"].(string)
}

// commentsCount answers a post's commentsCount as token's GET shows it.
func (sw *sweepStack) commentsCount(t *testing.T, token, post string) int {
	t.Helper()
	status, env := sw.call(t, "GET", "/api/posts/"+post, token, nil)
	if status != 200 {
		t.Fatalf("get post: %d %v", status, env)
	}
	return int(data(env)["post"].(map[string]any)["commentsCount"].(float64))
}

// TestRemovedCommentLeavesTheCount: a comment a moderator removes is no
// longer counted in its post's commentsCount, in the row and in the live
// post:counts its watchers get; its author cannot delete it afterwards
// (it stays for the audit trail) and so cannot count it out a second time.
func TestRemovedCommentLeavesTheCount(t *testing.T) {
	sw := newSweepStack(t)
	_, modTok := sw.moderator(t, "Count Moderator")
	_, aTok := sw.member(t, "Count Asha")
	_, bTok := sw.member(t, "Count Bikram")
	_, cTok := sw.member(t, "Count Chitra")
	post := sw.post(t, bTok, "a post with comments")
	sw.comment(t, aTok, post, "a kind word")
	bad := sw.comment(t, cTok, post, "an unkind word")
	if n := sw.commentsCount(t, aTok, post); n != 2 {
		t.Fatalf("commentsCount before the removal: %d, want 2", n)
	}
	watcher := sw.connect(t, aTok)
	watcher.Watch(t, post)

	if status, env := sw.call(t, "POST", "/api/moderation/items/comment/"+bad+"/remove", modTok,
		map[string]any{"reason": "Harassment"}); status != 200 {
		t.Fatalf("remove: %d %v", status, env)
	}
	if n := sw.commentsCount(t, aTok, post); n != 1 {
		t.Errorf("commentsCount after the removal: %d, want 1", n)
	}
	// The live count says the same (countsUntil fails the test after 10 s).
	countsUntil(t, watcher, post, 1, "")

	if status, env := sw.call(t, "DELETE", "/api/posts/"+post+"/comments/"+bad, cTok, nil); status != 404 {
		t.Errorf("the author deleting the removed comment: %d %v, want 404", status, env)
	}
	if n := sw.commentsCount(t, aTok, post); n != 1 {
		t.Errorf("commentsCount after the author's delete: %d, want 1", n)
	}
}

// TestWatchRefusedAcrossABlock: a socket that connects after a block (a
// reconnect, a new tab) and asks to watch the posts of someone with a block
// between them, either way, gets nothing of those posts, while the other
// posts of the same watch frame update.
func TestWatchRefusedAcrossABlock(t *testing.T) {
	sw := newSweepStack(t)
	_, aTok := sw.member(t, "Watch Block Asha")
	b, bTok := sw.member(t, "Watch Block Bikram")
	_, cTok := sw.member(t, "Watch Block Chitra")
	d, dTok := sw.member(t, "Watch Block Dev")
	aPost, cPost, dPost := sw.post(t, aTok, "asha's"), sw.post(t, cTok, "chitra's"), sw.post(t, dTok, "dev's")
	for _, blk := range []struct {
		tok string
		who string
	}{{aTok, b.ID.String()}, {bTok, d.ID.String()}} { // A blocks B; B blocks D
		if status, env := sw.call(t, "POST", "/api/safety/blocks/"+blk.who, blk.tok, nil); status != 200 {
			t.Fatalf("block: %d %v", status, env)
		}
	}
	sock := sw.connect(t, bTok)
	sock.Watch(t, aPost, dPost, cPost)
	for _, id := range []string{aPost, dPost, cPost} {
		sw.comment(t, cTok, id, "hello")
	}
	// C's post's count comes after the other two were committed: every
	// frame up to it must be silent about A's and D's posts.
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := sock.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting for the counts of C's post: %v", err)
		}
		for name, id := range map[string]string{"A's post (A blocked B)": aPost, "D's post (B blocked D)": dPost} {
			if mentions(t, f, id) {
				t.Errorf("B's socket heard of %s: %s %v", name, f.Event, f.Data)
			}
		}
		if f.Event == "post:counts" {
			if e, ok := wstest.Counts(t, f)[cPost]; ok && e.CommentsCount == 1 {
				return
			}
		}
	}
}

// TestFeedPagesStayFullAfterFiltering: a reader who blocks or mutes
// authors still gets pages of `limit` posts while more exist, the next
// page continuing where theirs ended; a reader who hides nothing pages
// through everything.
func TestFeedPagesStayFullAfterFiltering(t *testing.T) {
	sw := newSweepStack(t)
	_, vTok := sw.member(t, "Pages Viewer")
	_, wTok := sw.member(t, "Pages Watcher")
	blocked, bTok := sw.member(t, "Pages Blocked")
	muted, mTok := sw.member(t, "Pages Muted")
	_, oTok := sw.member(t, "Pages Other")
	for _, path := range []string{"/api/safety/blocks/" + blocked.ID.String(), "/api/safety/mutes/" + muted.ID.String()} {
		if status, env := sw.call(t, "POST", path, vTok, nil); status != 200 {
			t.Fatalf("%s: %d %v", path, status, env)
		}
	}
	// Oldest first: the other's posts with runs of hidden ones between them.
	var visible, all []string // newest first
	for i, tok := range []string{oTok, bTok, mTok, oTok, bTok, bTok, mTok, oTok, oTok, mTok, bTok, oTok, mTok, oTok, bTok} {
		id := sw.post(t, tok, fmt.Sprintf("post %d", i))
		all = append([]string{id}, all...)
		if tok == oTok {
			visible = append([]string{id}, visible...)
		}
	}
	pages := func(t *testing.T, token string, limit int) (got []string, sizes []int) {
		t.Helper()
		cursor := ""
		for range 20 {
			path := fmt.Sprintf("/api/posts/feed?limit=%d", limit)
			if cursor != "" {
				path += "&cursor=" + url.QueryEscape(cursor)
			}
			status, env := sw.call(t, "GET", path, token, nil)
			if status != 200 {
				t.Fatalf("feed: %d %v", status, env)
			}
			list, _ := data(env)["posts"].([]any)
			for _, p := range list {
				got = append(got, p.(map[string]any)["id"].(string))
			}
			sizes = append(sizes, len(list))
			next, _ := data(env)["nextCursor"].(string)
			if next == "" {
				return got, sizes
			}
			cursor = next
		}
		t.Fatal("more than 20 pages")
		return nil, nil
	}
	tests := []struct {
		name  string
		token string
		limit int
		want  []string
	}{
		{"blocks and mutes, pages of 2", vTok, 2, visible},
		{"blocks and mutes, pages of 4", vTok, 4, visible},
		{"hides nothing", wTok, 4, all},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, sizes := pages(t, tc.token, tc.limit)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("posts %v, want %v", got, tc.want)
			}
			for i, n := range sizes[:len(sizes)-1] {
				if n != tc.limit {
					t.Errorf("page %d holds %d posts, want %d (sizes %v)", i+1, n, tc.limit, sizes)
				}
			}
		})
	}
}

// TestDeletedPostIsGoneEverywhere: once its author deletes a post, its
// comments answer 404 as the post does, also to a reader whose node had
// cached the post's gate (by reading its comments) before the delete; a
// like or a comment on it is refused the same way.
func TestDeletedPostIsGoneEverywhere(t *testing.T) {
	sw := newSweepStack(t)
	_, aTok := sw.member(t, "Deleted Asha")
	_, bTok := sw.member(t, "Deleted Bikram")
	post := sw.post(t, aTok, "soon gone")
	sw.comment(t, bTok, post, "before the delete")
	// The reader's reads fill this node's gate cache.
	if _, env := sw.call(t, "GET", "/api/posts/"+post+"/comments", bTok, nil); len(data(env)["comments"].([]any)) != 1 {
		t.Fatalf("comments before the delete: %v", env)
	}
	sw.must(t, 200, "DELETE", "/api/posts/"+post, aTok, nil)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/posts/" + post},
		{"GET", "/api/posts/" + post + "/comments"},
		{"POST", "/api/posts/" + post + "/comments"},
		{"POST", "/api/posts/" + post + "/like"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			if status, env := sw.call(t, c.method, c.path, bTok, map[string]any{"content": "after"}); status != 404 {
				t.Errorf("%d %v, want 404", status, env)
			}
		})
	}
}

// TestDeletedAccountsPostsAreGone: the posts of a deleted account go with it
// (the account's deletion cascades), and a node that had their gates cached
// must not keep answering for them: comments of such a post answered an
// empty list, and a like reached the post grain, until the cache turned over.
// The deletion runs as the use case commits it (the e-mailed code is the
// accounts tests' business).
func TestDeletedAccountsPostsAreGone(t *testing.T) {
	sw := newSweepStack(t)
	author, aTok := sw.member(t, "Leaving Asha")
	_, bTok := sw.member(t, "Staying Bikram")
	post := sw.post(t, aTok, "gone with its author")
	sw.comment(t, bTok, post, "before the account goes")
	if _, env := sw.call(t, "GET", "/api/posts/"+post+"/comments", bTok, nil); len(data(env)["comments"].([]any)) != 1 {
		t.Fatalf("comments before the deletion: %v", env)
	}
	err := sw.db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := persistence.DeleteAccount(ctx, tx, author.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/posts/" + post},
		{"GET", "/api/posts/" + post + "/comments"},
		{"POST", "/api/posts/" + post + "/comments"},
		{"POST", "/api/posts/" + post + "/like"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			sw.waitFor(t, c.method+" "+c.path+" answering 404", func() bool {
				status, _ := sw.call(t, c.method, c.path, bTok, map[string]any{"content": "after"})
				return status == 404
			})
		})
	}
}

// TestReportNeedsWhatTheReporterCanRead: reporting a post, or a comment on
// a post, that the reporter cannot read (a closed or secret group they are
// not in, a block between them) answers exactly what reporting something
// that does not exist answers, so a report tells nobody what exists; a
// reader who can see the item reports it.
func TestReportNeedsWhatTheReporterCanRead(t *testing.T) {
	sw := newSweepStack(t)
	owner, oTok := sw.member(t, "Report Owner")
	member, mTok := sw.member(t, "Report Member")
	_, xTok := sw.member(t, "Report Outsider")
	blocked, bTok := sw.member(t, "Report Blocked")
	posts, comments := map[string]string{}, map[string]string{}
	for _, vis := range []string{"closed", "secret"} {
		handle := "report-" + vis
		id := sw.group(t, oTok, map[string]any{"name": "Report " + vis, "handle": handle, "kind": "club", "visibility": vis})["id"].(string)
		if vis == "closed" {
			sw.must(t, 200, "POST", "/api/groups/"+handle+"/join", mTok, nil)
			sw.must(t, 200, "POST", "/api/groups/"+handle+"/requests/"+member.ID.String()+"/approve", oTok, nil)
		} else {
			sw.must(t, 200, "POST", "/api/groups/"+handle+"/invitations", oTok, map[string]any{"userId": member.ID.String()})
			sw.must(t, 200, "POST", "/api/groups/"+handle+"/join", mTok, nil)
		}
		posts[vis] = sw.groupPost(t, oTok, id, "a "+vis+" post")
		comments[vis] = sw.comment(t, oTok, posts[vis], "a "+vis+" comment")
	}
	posts["public"] = sw.post(t, oTok, "a public post")
	comments["public"] = sw.comment(t, oTok, posts["public"], "a public comment")
	sw.must(t, 200, "POST", "/api/safety/blocks/"+blocked.ID.String(), oTok, nil)

	report := func(tok, itemType, id string) (int, map[string]any) {
		return sw.call(t, "POST", "/api/reports", tok, map[string]any{"itemType": itemType, "itemId": id, "reason": "spam"})
	}
	_, missing := report(xTok, "post", uuid.NewString())
	if missing["status"] != "error" {
		t.Fatalf("reporting a post that does not exist: %v", missing)
	}
	for _, c := range []struct {
		who, tok, vis string
		readable      bool
	}{
		{"outsider", xTok, "closed", false},
		{"outsider", xTok, "secret", false},
		{"blocked", bTok, "public", false},
		{"blocked", bTok, "closed", false},
		{"member", mTok, "closed", true},
		{"member", mTok, "secret", true},
		{"outsider", xTok, "public", true},
	} {
		for _, item := range []struct{ itemType, id string }{{"post", posts[c.vis]}, {"comment", comments[c.vis]}} {
			t.Run(c.who+" "+c.vis+" "+item.itemType, func(t *testing.T) {
				status, env := report(c.tok, item.itemType, item.id)
				if c.readable {
					if status != 201 {
						t.Fatalf("%d %v, want 201", status, env)
					}
					return
				}
				if status != 404 || env["message"] != missing["message"] {
					t.Fatalf("%d %v, want 404 %v as for a post that does not exist", status, env, missing["message"])
				}
			})
		}
	}
	// The blocked person cannot report the profile that is gone for them.
	if status, env := report(bTok, "profile", owner.ID.String()); status != 404 {
		t.Errorf("reporting a profile across a block: %d %v, want 404", status, env)
	}
}
