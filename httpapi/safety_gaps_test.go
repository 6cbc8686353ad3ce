package httpapi

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

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
