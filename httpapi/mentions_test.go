package httpapi

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/app"
	"campus/domain"
	"campus/persistence"
)

// mentionHandles reads the handles of a post's or comment's mentions.
func mentionHandles(t *testing.T, v map[string]any) []string {
	t.Helper()
	var out []string
	list, _ := v["mentions"].([]any)
	for _, m := range list {
		out = append(out, m.(map[string]any)["handle"].(string))
	}
	return out
}

// mentionNotifications lists tok's mention notifications, newest first.
func (st *liveStack) mentionNotifications(t *testing.T, tok string) []map[string]any {
	t.Helper()
	status, env := st.call(t, "GET", "/api/notifications", tok, nil)
	if status != 200 {
		t.Fatalf("notifications %d %v", status, env)
	}
	var out []map[string]any
	for _, n := range data(env)["notifications"].([]any) {
		if m := n.(map[string]any); m["type"] == "mention" {
			out = append(out, m)
		}
	}
	return out
}

// TestMentions: a post's and a comment's @handles come back resolved, and
// the people named are notified live, rolled up per post; never the author,
// anyone a block stands between, anyone who muted the author or cannot
// read the post; an edit notifies only whom it adds; a post notifies ten
// people at most.
func TestMentions(t *testing.T) {
	ctx := context.Background()
	st := newLiveStack(t, liveOptions{mutate: func(st *liveStack, d *Deps) {
		d.Search = app.NewSearch(app.SearchDeps{DB: st.db})
	}})
	author, authorTok := st.user(t, "Anil Author")
	bikram, bikramTok := st.user(t, "Bikram Sen")
	blocker, blockerTok := st.user(t, "Bala Blocker")
	muter, muterTok := st.user(t, "Muna Muter")
	_, chitraTok := st.user(t, "Chitra Iyer")
	outsider, outsiderTok := st.user(t, "Omar Outsider")
	if _, err := persistence.BlockUser(ctx, st.db, blocker.ID, author.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := persistence.MuteUser(ctx, st.db, muter.ID, author.ID); err != nil {
		t.Fatal(err)
	}
	ws := st.connect(t, bikramTok)

	var postID, rollupID string
	t.Run("a post names people and notifies who may hear of it", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/posts", authorTok, map[string]any{"visibility": "public",
			"content": fmt.Sprintf("Hello @%s @%s @%s @%s @nobody", bikram.Handle, blocker.Handle, muter.Handle, author.Handle)})
		if status != 201 {
			t.Fatalf("post %d %v", status, env)
		}
		post := data(env)["post"].(map[string]any)
		postID = post["id"].(string)
		if got := mentionHandles(t, post); fmt.Sprint(got) != "[anilauthor bikramsen munamuter]" {
			t.Fatalf("mentions %v", got)
		}
		f := ws.Next(t, "notification")
		if f.Data["type"] != "mention" || f.Data["message"] != "Anil Author mentioned you in a post" ||
			f.Data["post"].(map[string]any)["id"] != postID || f.Data["unreadCount"] != 1.0 {
			t.Fatalf("live %v", f.Data)
		}
		rollupID = f.Data["id"].(string)
		// The post's answer came after the notifications committed.
		for name, tok := range map[string]string{"the author": authorTok, "a blocker": blockerTok, "a muter": muterTok} {
			if ns := st.mentionNotifications(t, tok); len(ns) != 0 {
				t.Errorf("%s was notified: %v", name, ns)
			}
		}
	})

	t.Run("the post reads with its mentions", func(t *testing.T) {
		status, env := st.call(t, "GET", "/api/posts/"+postID, chitraTok, nil)
		if status != 200 {
			t.Fatalf("get %d %v", status, env)
		}
		if got := mentionHandles(t, data(env)["post"].(map[string]any)); fmt.Sprint(got) != "[anilauthor bikramsen munamuter]" {
			t.Fatalf("mentions %v", got)
		}
		status, env = st.call(t, "GET", "/api/posts/feed", chitraTok, nil)
		if status != 200 {
			t.Fatalf("feed %d %v", status, env)
		}
		posts := data(env)["posts"].([]any)
		if len(posts) == 0 || fmt.Sprint(mentionHandles(t, posts[0].(map[string]any))) != "[anilauthor bikramsen munamuter]" {
			t.Fatalf("feed %v", posts)
		}
	})

	t.Run("an edit notifies only whom it adds", func(t *testing.T) {
		status, env := st.call(t, "PUT", "/api/posts/"+postID, authorTok, map[string]any{"content": "Hello @bikramsen and @chitraiyer"})
		if status != 200 {
			t.Fatalf("edit %d %v", status, env)
		}
		if got := mentionHandles(t, data(env)["post"].(map[string]any)); fmt.Sprint(got) != "[bikramsen chitraiyer]" {
			t.Fatalf("mentions %v", got)
		}
		if ns := st.mentionNotifications(t, chitraTok); len(ns) != 1 || ns[0]["message"] != "Anil Author mentioned you in a post" {
			t.Fatalf("chitra %v", ns)
		}
		if ns := st.mentionNotifications(t, bikramTok); len(ns) != 1 || ns[0]["actorCount"] != 1.0 {
			t.Fatalf("bikram again: %v", ns)
		}
	})

	t.Run("a comment's mention rolls up with the post's", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/posts/"+postID+"/comments", chitraTok, map[string]any{"content": "@BikramSen look"})
		if status != 201 && status != 200 {
			t.Fatalf("comment %d %v", status, env)
		}
		if got := mentionHandles(t, data(env)["comment"].(map[string]any)); fmt.Sprint(got) != "[bikramsen]" {
			t.Fatalf("comment mentions %v", got)
		}
		f := ws.Next(t, "notification")
		if f.Data["id"] != rollupID || f.Data["type"] != "mention" || f.Data["actorCount"] != 2.0 ||
			f.Data["message"] != "Chitra Iyer and Anil Author mentioned you" {
			t.Fatalf("live %v", f.Data)
		}
		status, env = st.call(t, "GET", "/api/posts/"+postID+"/comments", authorTok, nil)
		if status != 200 {
			t.Fatalf("comments %d %v", status, env)
		}
		cs := data(env)["comments"].([]any)
		if len(cs) != 1 || fmt.Sprint(mentionHandles(t, cs[0].(map[string]any))) != "[bikramsen]" {
			t.Fatalf("comments %v", cs)
		}
	})

	t.Run("the post's author mentioned in a comment is told of the mention, not the comment", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/posts/"+postID+"/comments", bikramTok, map[string]any{"content": "@anilauthor thanks"})
		if status != 201 && status != 200 {
			t.Fatalf("comment %d %v", status, env)
		}
		var ns []map[string]any
		for deadline := time.Now().Add(10 * time.Second); len(ns) == 0; {
			ns = st.mentionNotifications(t, authorTok)
			if time.Now().After(deadline) {
				t.Fatal("no mention notification")
			}
			time.Sleep(20 * time.Millisecond)
		}
		if ns[0]["message"] != "Bikram Sen mentioned you in a comment" {
			t.Fatalf("mention %v", ns[0])
		}
		// The comment's notification would have come in the same statement.
		_, env = st.call(t, "GET", "/api/notifications", authorTok, nil)
		for _, n := range data(env)["notifications"].([]any) {
			m := n.(map[string]any)
			if m["type"] == "comment" && m["sender"].(map[string]any)["id"] == bikram.ID.String() {
				t.Fatalf("also a comment notification: %v", m)
			}
		}
	})

	t.Run("a closed group's post notifies its members only", func(t *testing.T) {
		g := &persistence.Group{ID: persistence.NewID(), Handle: "lab-" + uuid.NewString()[:6], Name: "Lab", Kind: "club", Visibility: "closed"}
		if err := persistence.InsertGroup(ctx, st.db, g, author.ID); err != nil {
			t.Fatal(err)
		}
		if err := persistence.SetMembership(ctx, st.db, g.ID, bikram.ID, domain.StatusMember, "", uuid.Nil); err != nil {
			t.Fatal(err)
		}
		status, env := st.call(t, "POST", "/api/posts", authorTok, map[string]any{"visibility": "public", "groupId": g.ID.String(),
			"content": fmt.Sprintf("Lab at six @%s @%s", outsider.Handle, bikram.Handle)})
		if status != 201 {
			t.Fatalf("post %d %v", status, env)
		}
		f := ws.Next(t, "notification")
		if f.Data["type"] != "mention" || f.Data["post"].(map[string]any)["id"] != data(env)["post"].(map[string]any)["id"] {
			t.Fatalf("live %v", f.Data)
		}
		if ns := st.mentionNotifications(t, outsiderTok); len(ns) != 0 {
			t.Fatalf("the outsider was notified: %v", ns)
		}
	})

	t.Run("a post notifies ten people at most", func(t *testing.T) {
		var handles, toks []string
		for i := range 12 {
			u, tok := st.user(t, fmt.Sprintf("Crowd %c", 'a'+i))
			handles, toks = append(handles, "@"+u.Handle), append(toks, tok)
		}
		if status, env := st.call(t, "POST", "/api/posts", authorTok, map[string]any{"visibility": "public",
			"content": strings.Join(handles, " ")}); status != 201 {
			t.Fatalf("post %d %v", status, env)
		}
		var notified []int
		for i, tok := range toks {
			if len(st.mentionNotifications(t, tok)) > 0 {
				notified = append(notified, i)
			}
		}
		if !slices.Equal(notified, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
			t.Fatalf("notified %v, want the first ten", notified)
		}
	})

	t.Run("the typeahead", func(t *testing.T) {
		tests := []struct {
			name, q, tok string
			status       int
			want         []string
		}{
			{"by handle", "bik", authorTok, 200, []string{"Bikram Sen"}},
			{"with the @", "@bikram", authorTok, 200, []string{"Bikram Sen"}},
			{"by a word of the name", "sen", authorTok, 200, []string{"Bikram Sen"}},
			{"never across a block", "bala", authorTok, 200, []string{}},
			{"blank", "", authorTok, 200, []string{}},
			{"bad text", "%ff%fe", authorTok, 400, nil},
			{"signed out", "bik", "", 401, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				status, env := st.call(t, "GET", "/api/users/suggest?q="+tt.q, tt.tok, nil)
				if status != tt.status {
					t.Fatalf("status %d, want %d: %v", status, tt.status, env)
				}
				if tt.want == nil {
					return
				}
				names := []string{}
				for _, u := range data(env)["users"].([]any) {
					m := u.(map[string]any)
					names = append(names, m["name"].(string))
					if m["handle"] == "" {
						t.Errorf("no handle: %v", m)
					}
				}
				if !slices.Equal(names, tt.want) {
					t.Fatalf("suggested %v, want %v", names, tt.want)
				}
			})
		}
	})
}
