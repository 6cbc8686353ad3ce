package httpapi

import (
	"context"
	"testing"

	"github.com/google/uuid"

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
