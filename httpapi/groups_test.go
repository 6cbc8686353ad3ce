package httpapi

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"campus/domain"
	"campus/httpapi/wstest"
	"campus/persistence"
)

// group creates a group as tok's owner and answers its JSON.
func (sw *sweepStack) group(t *testing.T, tok string, body map[string]any) map[string]any {
	t.Helper()
	status, env := sw.call(t, "POST", "/api/groups", tok, body)
	if status != 201 {
		t.Fatalf("create group: %d %v", status, env)
	}
	return data(env)
}

// must calls and fails the test unless the answer has status want.
func (sw *sweepStack) must(t *testing.T, want int, method, path, tok string, body any) map[string]any {
	t.Helper()
	status, env := sw.call(t, method, path, tok, body)
	if status != want {
		t.Fatalf("%s %s: %d, want %d: %v", method, path, status, want, env)
	}
	return env
}

// groupPost posts content in group id and answers the post's id.
func (sw *sweepStack) groupPost(t *testing.T, tok, groupID, content string) string {
	t.Helper()
	env := sw.must(t, 201, "POST", "/api/posts", tok, map[string]any{"content": content, "groupId": groupID})
	return data(env)["post"].(map[string]any)["id"].(string)
}

// listHas reports whether the list of objects under key in env's data has
// one whose id is id.
func listHas(env map[string]any, key, id string) bool {
	list, _ := data(env)[key].([]any)
	for _, x := range list {
		if m, _ := x.(map[string]any); m["id"] == id {
			return true
		}
	}
	return false
}

// TestGroupVisibilityMatrix: for public, closed and secret groups and for a
// member, a non-member, a member the author blocked and a former member,
// every read path answers the group's post or refuses it: home feed, post
// page, comments, like, search, notifications (group_post to those who
// follow closely), the author's profile list, and live counts over the
// websocket.
func TestGroupVisibilityMatrix(t *testing.T) {
	sw := newSweepStack(t)
	owner, oTok := sw.member(t, "Matrix Owner")
	_, cTok := sw.member(t, "Matrix Marker")
	viewers := []string{"member", "non-member", "blocked", "former"}
	tokens := map[string]string{}
	ids := map[string]uuid.UUID{}
	for _, v := range viewers {
		u, tok := sw.member(t, "Matrix "+v)
		tokens[v], ids[v] = tok, u.ID
	}
	type grp struct {
		vis, handle, id, post, word string
	}
	groups := []*grp{{vis: "public"}, {vis: "closed"}, {vis: "secret"}}
	for _, g := range groups {
		g.handle, g.word = "matrix-"+g.vis, "zebra"+g.vis
		g.id = sw.group(t, oTok, map[string]any{"name": "Matrix " + g.vis, "handle": g.handle, "kind": "club", "visibility": g.vis})["id"].(string)
		for _, v := range []string{"member", "blocked", "former"} {
			path := "/api/groups/" + g.handle
			switch g.vis {
			case "public":
				sw.must(t, 200, "POST", path+"/join", tokens[v], nil)
			case "closed":
				env := sw.must(t, 200, "POST", path+"/join", tokens[v], nil)
				if me := data(env)["me"].(map[string]any); me["status"] != "requested" {
					t.Fatalf("closed join: %v", me)
				}
				sw.must(t, 200, "POST", path+"/requests/"+ids[v].String()+"/approve", oTok, nil)
			case "secret":
				sw.must(t, 404, "POST", path+"/join", tokens[v], nil)
				sw.must(t, 200, "POST", path+"/invitations", oTok, map[string]any{"userId": ids[v].String()})
				sw.must(t, 200, "POST", path+"/join", tokens[v], nil)
			}
			sw.must(t, 200, "PUT", path+"/follow", tokens[v], map[string]any{"closely": true})
		}
	}
	sw.must(t, 200, "POST", "/api/safety/blocks/"+ids["blocked"].String(), oTok, nil)
	for _, g := range groups {
		g.post = sw.groupPost(t, oTok, g.id, "the "+g.word+" post")
	}
	marker := sw.post(t, cTok, "marker post")
	// group_post notifications are written in the post's transaction.
	for _, g := range groups {
		sw.must(t, 200, "POST", "/api/groups/"+g.handle+"/leave", tokens["former"], nil)
	}
	sw.waitFor(t, "the posts indexed", func() bool {
		_, env := sw.call(t, "GET", "/api/search?q=zebrasecret", oTok, nil)
		return len(data(env)["results"].([]any)) > 0
	})

	// heardLive answers which group posts a socket of tok hears live counts
	// of: the socket watches them with a marker post anyone may watch; the
	// owner comments on each group post, then the marker's author on the
	// marker, and the frames until the marker's count are what is heard.
	// The watch check runs off the session, so rounds go on until the
	// marker is heard, and one more round decides.
	heardLive := func(t *testing.T, tok string) map[string]bool {
		sock := sw.connect(t, tok)
		all := []string{marker}
		for _, g := range groups {
			all = append(all, g.post)
		}
		sock.Watch(t, all...)
		// A reader of its own: a read that times out breaks the socket,
		// and a round may have to wait for the watch check.
		frames := make(chan wstest.Frame, 256)
		go func() {
			defer close(frames)
			for {
				f, err := sock.Read(30 * time.Second)
				if err != nil {
					return
				}
				frames <- f
			}
		}()
		round := func() (map[string]bool, bool) {
			for _, g := range groups {
				sw.must(t, 201, "POST", "/api/posts/"+g.post+"/comments", oTok, map[string]any{"content": "tick"})
			}
			env := sw.must(t, 201, "POST", "/api/posts/"+marker+"/comments", cTok, map[string]any{"content": "tick"})
			comments := int(data(env)["commentsCount"].(float64))
			heard := map[string]bool{}
			timeout := time.After(2 * time.Second)
			for {
				select {
				case f, ok := <-frames:
					if !ok {
						t.Fatal("the socket closed")
					}
					if f.Event != "post:counts" {
						continue
					}
					counts := wstest.Counts(t, f)
					for id := range counts {
						heard[id] = true
					}
					if e, ok := counts[marker]; ok && e.CommentsCount == comments {
						return heard, true
					}
				case <-timeout:
					return heard, false
				}
			}
		}
		for i := 0; ; i++ {
			if _, ok := round(); ok {
				break
			}
			if i == 5 {
				t.Fatal("the marker post's counts never arrived")
			}
		}
		heard, ok := round()
		if !ok {
			t.Fatal("the marker post's counts stopped arriving")
		}
		return heard
	}

	type paths struct{ feed, page, comments, like, search, notification, profile, live bool }
	all := paths{true, true, true, true, true, true, true, true}
	none := paths{}
	public := paths{page: true, comments: true, like: true, search: true, profile: true, live: true}
	want := map[string]map[string]paths{
		"public": {"member": all, "non-member": public, "blocked": none,
			"former": {page: true, comments: true, like: true, search: true, profile: true, live: true, notification: true}},
		"closed": {"member": all, "non-member": none, "blocked": none, "former": none},
		"secret": {"member": all, "non-member": none, "blocked": none, "former": none},
	}
	for _, v := range viewers {
		t.Run(v, func(t *testing.T) {
			tok := tokens[v]
			live := heardLive(t, tok)
			_, feed := sw.call(t, "GET", "/api/posts/feed?limit=100", tok, nil)
			_, notes := sw.call(t, "GET", "/api/notifications", tok, nil)
			_, profile := sw.call(t, "GET", "/api/posts/user/"+owner.ID.String()+"?limit=100", tok, nil)
			for _, g := range groups {
				t.Run(g.vis, func(t *testing.T) {
					var got paths
					got.feed = listHas(feed, "posts", g.post)
					got.profile = listHas(profile, "posts", g.post)
					status, _ := sw.call(t, "GET", "/api/posts/"+g.post, tok, nil)
					got.page = status == 200
					status, _ = sw.call(t, "GET", "/api/posts/"+g.post+"/comments", tok, nil)
					got.comments = status == 200
					status, _ = sw.call(t, "POST", "/api/posts/"+g.post+"/like", tok, nil)
					got.like = status == 200
					_, env := sw.call(t, "GET", "/api/search?q="+g.word, tok, nil)
					got.search = listHas(env, "results", g.post)
					list, _ := data(notes)["notifications"].([]any)
					for _, x := range list {
						n := x.(map[string]any)
						if p, _ := n["post"].(map[string]any); p != nil && p["id"] == g.post {
							got.notification = true
							if grp, _ := n["group"].(map[string]any); n["type"] != "group_post" || grp["handle"] != g.handle {
								t.Fatalf("notification %v", n)
							}
						}
					}
					got.live = live[g.post]
					if got != want[g.vis][v] {
						t.Fatalf("%s viewer of the %s group's post:\n got %+v\nwant %+v", v, g.vis, got, want[g.vis][v])
					}
				})
			}
		})
	}
	// The directory and the group page: a secret group does not exist for
	// the non-member; closed and public about pages do.
	for _, g := range groups {
		status, _ := sw.call(t, "GET", "/api/groups/"+g.handle, tokens["non-member"], nil)
		if (status == 200) != (g.vis != "secret") {
			t.Fatalf("GET %s group as a non-member: %d", g.vis, status)
		}
		status, _ = sw.call(t, "GET", "/api/groups/"+g.handle+"/posts", tokens["non-member"], nil)
		if (status == 200) != (g.vis == "public") {
			t.Fatalf("GET %s group's posts as a non-member: %d", g.vis, status)
		}
	}
	_, env := sw.call(t, "GET", "/api/groups?limit=100", tokens["non-member"], nil)
	for _, g := range groups {
		if listHas(env, "groups", g.id) != (g.vis != "secret") {
			t.Fatalf("directory of a non-member lists the %s group: %v", g.vis, listHas(env, "groups", g.id))
		}
	}
	// Moderators read any group's post page (reports reach them).
	if _, err := persistence.GrantCapability(context.Background(), sw.db, ids["non-member"], "moderator", uuid.Nil); err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		sw.must(t, 200, "GET", "/api/posts/"+g.post, tokens["non-member"], nil)
	}
}

// TestGroupMembershipFlow walks the membership state machine over the API:
// requests, cancel, approval, invitations, roles, removal, the owner's
// leave and ownership transfer, and admins removing posts.
func TestGroupMembershipFlow(t *testing.T) {
	sw := newSweepStack(t)
	tok := map[string]string{}
	id := map[string]string{}
	for _, n := range []string{"owner", "ana", "ben", "cal"} {
		u, tk := sw.member(t, "Flow "+n)
		tok[n], id[n] = tk, u.ID.String()
	}
	closed := "/api/groups/" + sw.group(t, tok["owner"], map[string]any{"name": "Flow Club", "handle": "flow-club",
		"kind": "club", "visibility": "closed"})["handle"].(string)
	secret := "/api/groups/" + sw.group(t, tok["owner"], map[string]any{"name": "Flow Secret", "handle": "flow-secret",
		"kind": "other", "visibility": "secret"})["handle"].(string)
	var groupID string
	var lastPost string // the group post made last
	steps := []struct {
		name        string
		who, method string
		path        string
		body        any
		status      int
		me          string // the caller's status after, read with GET ("" unchecked)
		role        string
	}{
		{name: "ana asks to join", who: "ana", method: "POST", path: closed + "/join", status: 200, me: "requested"},
		{name: "ana asks again", who: "ana", method: "POST", path: closed + "/join", status: 200, me: "requested"},
		{name: "ana cancels", who: "ana", method: "DELETE", path: closed + "/request", status: 200, me: "none"},
		{name: "nothing to cancel", who: "ana", method: "DELETE", path: closed + "/request", status: 404, me: "none"},
		{name: "ana asks once more", who: "ana", method: "POST", path: closed + "/join", status: 200, me: "requested"},
		{name: "ana cannot see requests", who: "ana", method: "GET", path: closed + "/requests", status: 403, me: "requested"},
		{name: "ana cannot read posts", who: "ana", method: "GET", path: closed + "/posts", status: 403, me: "requested"},
		{name: "owner approves", who: "owner", method: "POST", path: closed + "/requests/{ana}/approve", status: 200, me: "member", role: "owner"},
		{name: "approve twice", who: "owner", method: "POST", path: closed + "/requests/{ana}/approve", status: 404, me: "member", role: "owner"},
		{name: "ana is a member", who: "ana", method: "POST", path: closed + "/join", status: 409, me: "member", role: "member"},
		{name: "ben asks", who: "ben", method: "POST", path: closed + "/join", status: 200, me: "requested"},
		{name: "ana cannot approve", who: "ana", method: "POST", path: closed + "/requests/{ben}/approve", status: 403, me: "member", role: "member"},
		{name: "owner declines", who: "owner", method: "POST", path: closed + "/requests/{ben}/decline", status: 200, me: "member", role: "owner"},
		{name: "ana invites ben", who: "ana", method: "POST", path: closed + "/invitations", body: map[string]any{"userId": "{ben}"}, status: 200, me: "member", role: "member"},
		{name: "ben accepts", who: "ben", method: "POST", path: closed + "/join", status: 200, me: "member", role: "member"},
		{name: "owner makes ana admin", who: "owner", method: "PATCH", path: closed + "/members/{ana}", body: map[string]any{"role": "admin"}, status: 200, me: "member", role: "owner"},
		{name: "ana is admin", who: "ana", method: "GET", path: closed, status: 200, me: "member", role: "admin"},
		{name: "ana cannot make roles", who: "ana", method: "PATCH", path: closed + "/members/{ben}", body: map[string]any{"role": "admin"}, status: 403, me: "member", role: "admin"},
		{name: "ben posts", who: "ben", method: "POST", path: "/api/posts", body: map[string]any{"content": "ben's", "groupId": "{group}"}, status: 201},
		{name: "cal cannot post", who: "cal", method: "POST", path: "/api/posts", body: map[string]any{"content": "cal's", "groupId": "{group}"}, status: 403},
		{name: "admin ana removes ben's post", who: "ana", method: "DELETE", path: "/api/posts/{lastPost}", status: 200},
		{name: "ana posts", who: "ana", method: "POST", path: "/api/posts", body: map[string]any{"content": "ana's", "groupId": "{group}"}, status: 201},
		{name: "ben cannot remove ana's post", who: "ben", method: "DELETE", path: "/api/posts/{lastPost}", status: 403},
		{name: "admin cannot remove admin", who: "ana", method: "DELETE", path: closed + "/members/{owner}", status: 403, me: "member", role: "admin"},
		{name: "admin removes member", who: "ana", method: "DELETE", path: closed + "/members/{ben}", status: 200, me: "member", role: "admin"},
		{name: "ben is out", who: "ben", method: "GET", path: closed, status: 200, me: "none"},
		{name: "owner cannot leave", who: "owner", method: "POST", path: closed + "/leave", status: 409, me: "member", role: "owner"},
		{name: "transfer to no UUID", who: "owner", method: "POST", path: closed + "/transfer", body: map[string]any{"userId": "ana"}, status: 400, me: "member", role: "owner"},
		{name: "transfer to an outsider", who: "owner", method: "POST", path: closed + "/transfer", body: map[string]any{"userId": "{cal}"}, status: 404, me: "member", role: "owner"},
		{name: "transfer to ana", who: "owner", method: "POST", path: closed + "/transfer", body: map[string]any{"userId": "{ana}"}, status: 200, me: "member", role: "admin"},
		{name: "ana owns it", who: "ana", method: "GET", path: closed, status: 200, me: "member", role: "owner"},
		{name: "old owner leaves", who: "owner", method: "POST", path: closed + "/leave", status: 200, me: "none"},
		{name: "secret unseen", who: "cal", method: "GET", path: secret, status: 404},
		{name: "secret join refused", who: "cal", method: "POST", path: secret + "/join", status: 404},
		{name: "member of nothing cannot invite", who: "ana", method: "POST", path: secret + "/invitations", body: map[string]any{"userId": "{cal}"}, status: 404},
		{name: "invite no UUID", who: "owner", method: "POST", path: secret + "/invitations", body: map[string]any{"userId": "cal"}, status: 400, me: "member", role: "owner"},
		{name: "owner invites cal", who: "owner", method: "POST", path: secret + "/invitations", body: map[string]any{"userId": "{cal}"}, status: 200, me: "member", role: "owner"},
		{name: "no double invitation", who: "owner", method: "POST", path: secret + "/invitations", body: map[string]any{"userId": "{cal}"}, status: 409, me: "member", role: "owner"},
		{name: "cal sees the invitation", who: "cal", method: "GET", path: secret, status: 200, me: "invited"},
		{name: "cal declines", who: "cal", method: "POST", path: secret + "/invitation/decline", status: 200},
		{name: "secret unseen again", who: "cal", method: "GET", path: secret, status: 404},
		{name: "owner invites cal again", who: "owner", method: "POST", path: secret + "/invitations", body: map[string]any{"userId": "{cal}"}, status: 200, me: "member", role: "owner"},
		{name: "cal joins", who: "cal", method: "POST", path: secret + "/join", status: 200, me: "member", role: "member"},
		{name: "members list", who: "cal", method: "GET", path: secret + "/members", status: 200, me: "member", role: "member"},
	}
	subst := func(s string) string {
		for _, k := range []string{"ana", "ben", "cal", "owner"} {
			s = strings.ReplaceAll(s, "{"+k+"}", id[k])
		}
		s = strings.ReplaceAll(s, "{group}", groupID)
		return strings.ReplaceAll(s, "{lastPost}", lastPost)
	}
	groupID = data(sw.must(t, 200, "GET", closed, tok["owner"], nil))["id"].(string)
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			var body any
			if m, ok := st.body.(map[string]any); ok {
				b := map[string]any{}
				for k, v := range m {
					b[k] = subst(v.(string))
				}
				body = b
			}
			status, env := sw.call(t, st.method, subst(st.path), tok[st.who], body)
			if status != st.status {
				t.Fatalf("%d, want %d: %v", status, st.status, env)
			}
			if p, ok := data(env)["post"].(map[string]any); ok && status == 201 {
				lastPost = p["id"].(string)
				if g, _ := p["group"].(map[string]any); g["id"] != groupID {
					t.Fatalf("post's group %v", p["group"])
				}
			}
			if st.me == "" {
				return
			}
			base := closed
			if strings.HasPrefix(st.path, secret) {
				base = secret
			}
			_, genv := sw.call(t, "GET", base, tok[st.who], nil)
			me, _ := data(genv)["me"].(map[string]any)
			if me["status"] != st.me {
				t.Fatalf("me.status %v, want %s", me["status"], st.me)
			}
			if role, _ := me["role"].(string); role != st.role {
				t.Fatalf("me.role %q, want %q", role, st.role)
			}
		})
	}
	// The counters agree with the rows.
	for _, h := range []string{closed, secret} {
		g := data(sw.must(t, 200, "GET", h, tok["cal"], nil))
		var members, posts int
		if err := sw.db.QueryRowContext(context.Background(), `SELECT
			(SELECT count(*) FROM group_members WHERE group_id = ? AND status = 'member'),
			(SELECT count(*) FROM posts WHERE group_id = ?)`, g["id"], g["id"]).Scan(&members, &posts); err != nil {
			t.Fatal(err)
		}
		if int(g["membersCount"].(float64)) != members || int(g["postsCount"].(float64)) != posts {
			t.Fatalf("%s: counters %v/%v, rows %d/%d", h, g["membersCount"], g["postsCount"], members, posts)
		}
	}
}

// TestGroupCourseJoin: a closed course group opened to BCA batch 21 lets a
// student whose university ID says BCA/21 in with one click and is
// suggested to them as their course; a student of another batch asks.
func TestGroupCourseJoin(t *testing.T) {
	sw := newSweepStack(t)
	_, oTok := sw.member(t, "Course Owner")
	_, inTok := sw.member(t, "Course Student") // BWU/BCA/21/n
	other := &persistence.User{ID: persistence.NewID(), Name: "Course Other", Role: "student", PasswordHash: sw.hash,
		Email: "course-other@uni.edu", UniversityID: "BWU/BCA/22/1", CollegeID: "BWU/BCA/22/1", Course: "BCA", Batch: "22",
		EmailVerifiedAt: time.Now()}
	if err := persistence.InsertUser(context.Background(), sw.db, other); err != nil {
		t.Fatal(err)
	}
	otherTok, err := sw.sessions.Issue(other)
	if err != nil {
		t.Fatal(err)
	}
	g := sw.group(t, oTok, map[string]any{"name": "BCA 2021", "handle": "bca-21", "kind": "course", "visibility": "closed",
		"course": map[string]any{"program": "bca", "batch": "21"}})
	if c, _ := g["course"].(map[string]any); c["program"] != "BCA" || c["batch"] != "21" {
		t.Fatalf("course %v", g["course"])
	}
	sugg := data2list(sw.must(t, 200, "GET", "/api/groups/suggestions", inTok, nil))
	if len(sugg) != 1 || sugg[0]["reason"] != "Your course: BCA 2021" {
		t.Fatalf("suggestions of the eligible student: %v", sugg)
	}
	if s := data2list(sw.must(t, 200, "GET", "/api/groups/suggestions", otherTok, nil)); len(s) != 0 {
		t.Fatalf("suggestions of another batch: %v", s)
	}
	for _, tc := range []struct {
		name, tok, want string
	}{{"eligible joins at once", inTok, "member"}, {"another batch asks", otherTok, "requested"}} {
		t.Run(tc.name, func(t *testing.T) {
			env := sw.must(t, 200, "POST", "/api/groups/bca-21/join", tc.tok, nil)
			if me := data(env)["me"].(map[string]any); me["status"] != tc.want {
				t.Fatalf("me %v, want %s", me, tc.want)
			}
		})
	}
}

// data2list is an answer whose data is a list of objects.
func data2list(env map[string]any) []map[string]any {
	list, _ := env["data"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, x := range list {
		out = append(out, x.(map[string]any))
	}
	return out
}

// TestGroupPostLikeStorm: 250 members of a closed group each like and
// unlike its post at once (500 calls) through the post grain: the counter,
// the rows and the last answers agree, and a non-member's like is refused.
func TestGroupPostLikeStorm(t *testing.T) {
	sw := newSweepStack(t)
	_, oTok := sw.member(t, "Storm Owner")
	g := sw.group(t, oTok, map[string]any{"name": "Storm", "handle": "storm-club", "kind": "club", "visibility": "closed"})
	gid := uuid.MustParse(g["id"].(string))
	post := sw.groupPost(t, oTok, g["id"].(string), "storm in a group")
	tokens := make([]string, 250)
	for i := range tokens {
		u, tok := sw.member(t, fmt.Sprintf("Storm Member %d", i))
		if err := persistence.SetMembership(context.Background(), sw.db, gid, u.ID, domain.StatusMember, domain.RoleMember, uuid.Nil); err != nil {
			t.Fatal(err)
		}
		tokens[i] = tok
	}
	_, outsider := sw.member(t, "Storm Outsider")
	sw.must(t, 404, "POST", "/api/posts/"+post+"/like", outsider, nil)
	last := make([]bool, len(tokens))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for i, tok := range tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, m := range [][2]string{{"POST", "DELETE"}, {"PATCH", "PATCH"}, {"POST", "PATCH"}, {"DELETE", "POST"}}[i%4] {
				status, env := sw.call(t, m, "/api/posts/"+post+"/like", tok, nil)
				if status != 200 {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %d %v", m, status, env))
					mu.Unlock()
					return
				}
				last[i] = data(env)["isLiked"].(bool)
			}
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d failed calls, first: %s", len(failures), failures[0])
	}
	liked := 0
	for i, l := range last {
		if l != (i%4 == 3) {
			t.Fatalf("member %d ends liked=%v", i, l)
		}
		if l {
			liked++
		}
	}
	var counter, rows int
	if err := sw.db.QueryRowContext(context.Background(), `SELECT likes_count, (SELECT count(*) FROM post_likes WHERE post_id = p.id)
		FROM posts p WHERE id = ?`, post).Scan(&counter, &rows); err != nil {
		t.Fatal(err)
	}
	if counter != rows || counter != liked || liked != len(tokens)/4 {
		t.Fatalf("likes_count %d, rows %d, liked by answers %d, want %d", counter, rows, liked, len(tokens)/4)
	}
	// The big screen shows it with the exact count.
	live := data(sw.must(t, 200, "GET", "/api/groups/storm-club/live", oTok, nil))
	hot, _ := live["hot"].([]any)
	if len(hot) != 1 || int(hot[0].(map[string]any)["likesCount"].(float64)) != liked {
		t.Fatalf("live %v", live)
	}
}

// TestGroupDirectorySearch: the directory's q finds groups through the
// index, an exact name or handle first, and never a secret group to
// someone who is neither a member nor invited.
func TestGroupDirectorySearch(t *testing.T) {
	sw := newSweepStack(t)
	_, oTok := sw.member(t, "Search Owner")
	_, vTok := sw.member(t, "Search Visitor")
	var made []string
	for _, g := range []struct{ name, handle, vis string }{
		{"Robotics Club Advanced", "robotics-advanced", "public"},
		{"Chess", "robotics", "closed"}, // its handle is the query
		{"Robotics", "robo-secret", "secret"},
		{"Painting", "painting", "public"},
	} {
		made = append(made, sw.group(t, oTok, map[string]any{"name": g.name, "handle": g.handle, "kind": "club", "visibility": g.vis})["id"].(string))
	}
	search := func(tok string) []string {
		_, env := sw.call(t, "GET", "/api/groups?q=robotics", tok, nil)
		var ids []string
		for _, x := range data(env)["groups"].([]any) {
			ids = append(ids, x.(map[string]any)["id"].(string))
		}
		return ids
	}
	sw.waitFor(t, "the groups indexed", func() bool { return len(search(oTok)) == 3 })
	for _, tc := range []struct {
		name string
		tok  string
		want []string
	}{
		// Exact matches (the secret group's name, the closed one's handle)
		// come before the partial match; the painting club never.
		{"owner", oTok, nil},
		{"visitor", vTok, []string{made[1], made[0]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := search(tc.tok)
			if tc.want == nil {
				if len(got) != 3 || got[2] != made[0] {
					t.Fatalf("owner's results %v: the partial match must come last of three", got)
				}
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("results %v, want %v", got, tc.want)
			}
		})
	}
}

// TestGroupLiveBoard: the big screen's data call shares the board between
// callers (hotTTL) yet answers each caller's own standing, likes and blocks
// and the current counts at once, drops a deleted post at once, and
// follows the group's visibility, pin and deletion without waiting for the
// board to refresh.
func TestGroupLiveBoard(t *testing.T) {
	sw := newSweepStack(t)
	owner, oTok := sw.member(t, "Board Owner")
	g := sw.group(t, oTok, map[string]any{"name": "Board", "handle": "board-club", "kind": "club", "visibility": "closed"})
	gid := uuid.MustParse(g["id"].(string))
	join := func(name string) (*persistence.User, string) {
		u, tok := sw.member(t, name)
		if err := persistence.SetMembership(context.Background(), sw.db, gid, u.ID, domain.StatusMember, domain.RoleMember, uuid.Nil); err != nil {
			t.Fatal(err)
		}
		return u, tok
	}
	_, aTok := join("Board Asha")
	_, bTok := join("Board Blocker")
	_, outsider := sw.member(t, "Board Outsider")
	pinned := sw.groupPost(t, oTok, g["id"].(string), "welcome to the event")
	byOwner := sw.groupPost(t, oTok, g["id"].(string), "first talk")
	byAsha := sw.groupPost(t, aTok, g["id"].(string), "great talk")
	sw.must(t, 200, "PUT", "/api/groups/board-club/pin", oTok, map[string]any{"postId": pinned})

	type card struct {
		likes int
		liked bool
	}
	board := func(t *testing.T, tok string) (pin string, hot map[string]card) {
		t.Helper()
		live := data(sw.must(t, 200, "GET", "/api/groups/board-club/live", tok, nil))
		hot = map[string]card{}
		if p, _ := live["pinned"].(map[string]any); p != nil {
			pin = p["id"].(string)
		}
		list, _ := live["hot"].([]any)
		for _, x := range list {
			p := x.(map[string]any)
			hot[p["id"].(string)] = card{likes: int(p["likesCount"].(float64)), liked: p["isLiked"].(bool)}
		}
		return pin, hot
	}

	// Everyone's first look fills the shared board.
	if pin, hot := board(t, aTok); pin != pinned || len(hot) != 3 || hot[byOwner] != (card{}) {
		t.Fatalf("first board: pinned %s, hot %v", pin, hot)
	}
	// Within the board's life: Asha's like is hers alone, its count everyone's.
	sw.must(t, 200, "POST", "/api/posts/"+byOwner+"/like", aTok, nil)
	if _, hot := board(t, aTok); hot[byOwner] != (card{likes: 1, liked: true}) {
		t.Fatalf("Asha's board after her like: %v", hot[byOwner])
	}
	if _, hot := board(t, oTok); hot[byOwner] != (card{likes: 1}) {
		t.Fatalf("the owner's board after Asha's like: %v", hot[byOwner])
	}
	// A block hides the other's posts from the blocker's board only.
	sw.must(t, 200, "POST", "/api/safety/blocks/"+owner.ID.String(), bTok, nil)
	if pin, hot := board(t, bTok); pin != "" || len(hot) != 1 || !hasKey(hot, byAsha) {
		t.Fatalf("the blocker's board: pinned %q, hot %v", pin, hot)
	}
	// A deleted post leaves every board at once.
	sw.must(t, 200, "DELETE", "/api/posts/"+byAsha, aTok, nil)
	if _, hot := board(t, oTok); hasKey(hot, byAsha) {
		t.Fatalf("a deleted post is still on the board: %v", hot)
	}
	// Unpinned: no pinned post.
	sw.must(t, 200, "PUT", "/api/groups/board-club/pin", oTok, map[string]any{"postId": nil})
	if pin, _ := board(t, oTok); pin != "" {
		t.Fatalf("unpinned board still pins %s", pin)
	}
	// Access follows the group: a non-member of a closed group is refused,
	// of a secret one told there is no such group; a deleted group is gone.
	sw.must(t, 403, "GET", "/api/groups/board-club/live", outsider, nil)
	sw.must(t, 200, "PATCH", "/api/groups/board-club", oTok, map[string]any{"visibility": "secret"})
	sw.must(t, 404, "GET", "/api/groups/board-club/live", outsider, nil)
	sw.must(t, 200, "PATCH", "/api/groups/board-club", oTok, map[string]any{"visibility": "public"})
	board(t, outsider)
	sw.must(t, 200, "DELETE", "/api/groups/board-club", oTok, nil)
	sw.must(t, 404, "GET", "/api/groups/board-club/live", aTok, nil)
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

// TestGroupPostVisibility: a group post's visibility is its group's (the
// readers it has), on every path that renders it: the create answer, the
// post page, the group's list, the author's profile and the home feed; a
// post outside groups is public.
func TestGroupPostVisibility(t *testing.T) {
	sw := newSweepStack(t)
	author, aTok := sw.member(t, "Visibility Author")
	want := map[string]string{sw.post(t, aTok, "outside groups"): "public"}
	handles := map[string]string{}
	for _, vis := range []string{"public", "closed", "secret"} {
		handles[vis] = "visibility-" + vis
		id := sw.group(t, aTok, map[string]any{"name": "Visibility " + vis, "handle": handles[vis], "kind": "club", "visibility": vis})["id"].(string)
		env := sw.must(t, 201, "POST", "/api/posts", aTok, map[string]any{"content": "in " + vis, "groupId": id})
		post := data(env)["post"].(map[string]any)
		if post["visibility"] != vis || post["group"].(map[string]any)["visibility"] != vis {
			t.Errorf("create answer of a %s group's post: visibility %v, group %v", vis, post["visibility"], post["group"])
		}
		want[post["id"].(string)] = vis
	}
	check := func(t *testing.T, what string, list []any) {
		t.Helper()
		for _, x := range list {
			p := x.(map[string]any)
			if w, ok := want[p["id"].(string)]; ok && p["visibility"] != w {
				t.Errorf("%s: post %q has visibility %v, want %s", what, p["content"], p["visibility"], w)
			}
		}
	}
	for id := range want {
		env := sw.must(t, 200, "GET", "/api/posts/"+id, aTok, nil)
		check(t, "post page", []any{data(env)["post"]})
	}
	for vis, h := range handles {
		env := sw.must(t, 200, "GET", "/api/groups/"+h+"/posts", aTok, nil)
		check(t, vis+" group's list", data(env)["posts"].([]any))
	}
	env := sw.must(t, 200, "GET", "/api/posts/user/"+author.ID.String(), aTok, nil)
	check(t, "profile", data(env)["posts"].([]any))
	env = sw.must(t, 200, "GET", "/api/posts/feed", aTok, nil)
	check(t, "feed", data(env)["posts"].([]any))
}
