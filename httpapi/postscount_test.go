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

// TestPostsCountIsWhatTheViewerCanList: a profile's postsCount is the
// number of posts its viewer can list there: an author's posts in a closed
// or secret group count only for the group's members (and the author),
// and the list, walked a page at a time, holds exactly those posts.
func TestPostsCountIsWhatTheViewerCanList(t *testing.T) {
	sw := newSweepStack(t)
	author, aTok := sw.member(t, "Count Vis Author")
	member, mTok := sw.member(t, "Count Vis Member")
	_, oTok := sw.member(t, "Count Vis Outsider")
	groupID := map[string]string{}
	for _, vis := range []string{"public", "closed", "secret"} {
		handle := "count-vis-" + vis
		groupID[vis] = sw.group(t, aTok, map[string]any{"name": "Count " + vis, "handle": handle, "kind": "club", "visibility": vis})["id"].(string)
		if vis == "closed" {
			sw.must(t, 200, "POST", "/api/groups/"+handle+"/join", mTok, nil)
			sw.must(t, 200, "POST", "/api/groups/"+handle+"/requests/"+member.ID.String()+"/approve", aTok, nil)
		}
	}
	// The newest posts are the locked ones, so a page of one post read by
	// an outsider starts with posts they may not see.
	posts := map[string]string{"outside": sw.post(t, aTok, "outside any group")}
	for _, vis := range []string{"public", "closed", "secret"} {
		posts[vis] = sw.groupPost(t, aTok, groupID[vis], "in the "+vis+" group")
	}
	for _, v := range []struct {
		who  string
		tok  string
		sees []string
	}{
		{"the author", aTok, []string{"outside", "public", "closed", "secret"}},
		{"a closed group's member", mTok, []string{"outside", "public", "closed"}},
		{"an outsider", oTok, []string{"outside", "public"}},
	} {
		t.Run(v.who, func(t *testing.T) {
			want := map[string]bool{}
			for _, k := range v.sees {
				want[posts[k]] = true
			}
			if n := sw.postsCount(t, v.tok, author.ID.String()); n != len(want) {
				t.Errorf("postsCount %d, want %d", n, len(want))
			}
			for _, limit := range []int{100, 1} {
				got := sw.listedPosts(t, v.tok, author.ID.String(), limit)
				seen := map[string]bool{}
				for _, id := range got {
					seen[id] = true
					if !want[id] {
						t.Errorf("pages of %d list a post they may not read: %s", limit, id)
					}
				}
				if len(got) != len(want) || len(seen) != len(want) {
					t.Errorf("pages of %d list %d posts, want %d", limit, len(got), len(want))
				}
			}
		})
	}
}
