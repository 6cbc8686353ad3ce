package httpapi

import (
	"fmt"
	"testing"
)

// postsCount answers the postsCount of user's profile as tok sees it.
func (sw *sweepStack) postsCount(t *testing.T, tok, user string) int {
	t.Helper()
	env := sw.must(t, 200, "GET", "/api/profile/"+user, tok, nil)
	return int(data(env)["postsCount"].(float64))
}

// listedPosts answers the ids of user's posts as tok can list them,
// walking the profile's pages of size limit.
func (sw *sweepStack) listedPosts(t *testing.T, tok, user string, limit int) []string {
	t.Helper()
	var ids []string
	path := fmt.Sprintf("/api/posts/user/%s?limit=%d", user, limit)
	for next := ""; ; {
		p := path
		if next != "" {
			p += "&cursor=" + next
		}
		env := sw.must(t, 200, "GET", p, tok, nil)
		for _, x := range data(env)["posts"].([]any) {
			ids = append(ids, x.(map[string]any)["id"].(string))
		}
		next, _ = data(env)["nextCursor"].(string)
		if next == "" {
			return ids
		}
	}
}

// TestRemovedPostLeavesPostsCount: a post a moderator removes, like one its
// author deletes, no longer counts in the author's postsCount, for anyone.
func TestRemovedPostLeavesPostsCount(t *testing.T) {
	sw := newSweepStack(t)
	_, modTok := sw.moderator(t, "Count Removal Moderator")
	author, aTok := sw.member(t, "Count Removal Author")
	_, rTok := sw.member(t, "Count Removal Reader")
	kept := sw.post(t, aTok, "kept")
	removed := sw.post(t, aTok, "removed by a moderator")
	deleted := sw.post(t, aTok, "deleted by its author")
	sw.must(t, 200, "POST", "/api/moderation/items/post/"+removed+"/remove", modTok, map[string]any{"reason": "Spam"})
	sw.must(t, 200, "DELETE", "/api/posts/"+deleted, aTok, nil)
	for who, tok := range map[string]string{"author": aTok, "reader": rTok, "moderator": modTok} {
		if n := sw.postsCount(t, tok, author.ID.String()); n != 1 {
			t.Errorf("%s sees postsCount %d, want 1 (only %s is left)", who, n, kept)
		}
	}
}
