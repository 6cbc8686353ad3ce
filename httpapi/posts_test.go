package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fasthttp"

	"campus/domain"
	"campus/persistence"
)

func init() {
	bodyDecoders["post"] = func(c *fasthttp.RequestCtx) error {
		var in domain.PostInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate(0)
		return err
	}
	bodyDecoders["post edit"] = func(c *fasthttp.RequestCtx) error {
		var in domain.PostEditInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, _, err := in.Validate(1)
		return err
	}
	bodyDecoders["comment"] = func(c *fasthttp.RequestCtx) error {
		var in domain.CommentInput
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
		_, err := in.Validate()
		return err
	}
}

// pngBytes is a real PNG of w×h pixels.
func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range w {
		img.Set(i, i%h, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// storedFiles lists the media files on disk.
func (st *liveStack) storedFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(st.mediaDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func (st *liveStack) count(t *testing.T, table string) int {
	t.Helper()
	n, err := st.db.NewSelect().TableExpr(table).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestCreatePost(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	author, token := st.user(t, "Asha Rao")
	png1, png2 := pngBytes(t, 8, 6), pngBytes(t, 5, 5)

	t.Run("json", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/posts", token, map[string]any{"content": "  Hello campus  ", "visibility": "public"})
		if status != 201 {
			t.Fatalf("%d %v", status, env)
		}
		p := data(env)["post"].(map[string]any)
		if p["content"] != "Hello campus" || p["visibility"] != "public" || p["userId"] != author.ID.String() ||
			p["likesCount"] != 0.0 || p["isLiked"] != false || p["commentsCount"] != 0.0 ||
			len(p["images"].([]any)) != 0 || p["createdAt"] == "" || p["updatedAt"] == "" {
			t.Fatalf("post %v", p)
		}
		for _, k := range []string{"author", "user"} {
			a := p[k].(map[string]any)
			if a["id"] != author.ID.String() || a["name"] != "Asha Rao" || a["role"] != "student" {
				t.Fatalf("%s %v", k, a)
			}
		}
	})
	t.Run("multipart with two images", func(t *testing.T) {
		before := len(st.storedFiles(t))
		body, ct := multipartBody(t, map[string]string{"content": "", "visibility": "public"},
			map[string][]byte{"a.png": png1, "b.png": png2})
		status, env := st.request(t, "POST", "/api/posts", token, body, ct)
		if status != 201 {
			t.Fatalf("%d %v", status, env)
		}
		images := data(env)["post"].(map[string]any)["images"].([]any)
		if len(images) != 2 || len(st.storedFiles(t)) != before+2 {
			t.Fatalf("images %v, files %d → %d", images, before, len(st.storedFiles(t)))
		}
		for _, im := range images {
			m := im.(map[string]any)
			u := m["url"].(string)
			if m["type"] != "image" || !strings.HasPrefix(u, "/media/") {
				t.Fatalf("image %v", m)
			}
			// The stored image is served back.
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			req.SetRequestURI("http://" + st.addr + u)
			if err := st.client.Do(req, resp); err != nil || resp.StatusCode() != 200 ||
				!bytes.HasPrefix(resp.Body(), []byte("\x89PNG")) {
				t.Fatalf("GET %s: %v %d", u, err, resp.StatusCode())
			}
			fasthttp.ReleaseRequest(req)
			fasthttp.ReleaseResponse(resp)
		}
	})

	refused := []struct {
		name   string
		body   func() ([]byte, string)
		status int
		msg    string
	}{
		{"four images", func() ([]byte, string) {
			return multipartBody(t, map[string]string{"content": "x"}, map[string][]byte{
				"1.png": png1, "2.png": png2, "3.png": png1, "4.png": png2})
		}, 400, domain.MsgTooManyImages},
		{"text file as image", func() ([]byte, string) {
			return multipartBody(t, map[string]string{"content": "x"}, map[string][]byte{
				"ok.png": png1, "notes.png": []byte("just some text, not an image")})
		}, 415, "Please select only image files. Videos are not supported."},
		{"empty post", func() ([]byte, string) {
			return []byte(`{"content":"   ","visibility":"public"}`), "application/json"
		}, 400, domain.MsgPostEmpty},
		{"empty multipart", func() ([]byte, string) {
			return multipartBody(t, map[string]string{"content": ""}, nil)
		}, 400, domain.MsgPostEmpty},
		{"2001 characters", func() ([]byte, string) {
			return []byte(`{"content":"` + strings.Repeat("é", 2001) + `"}`), "application/json"
		}, 400, domain.MsgPostTooLong},
		{"other visibility", func() ([]byte, string) {
			return []byte(`{"content":"x","visibility":"friends"}`), "application/json"
		}, 400, domain.MsgVisibility},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			posts, images, files := st.count(t, "posts"), st.count(t, "post_images"), len(st.storedFiles(t))
			body, ct := tt.body()
			status, env := st.request(t, "POST", "/api/posts", token, body, ct)
			if status != tt.status || env["message"] != tt.msg {
				t.Fatalf("%d %v, want %d %q", status, env, tt.status, tt.msg)
			}
			if st.count(t, "posts") != posts || st.count(t, "post_images") != images || len(st.storedFiles(t)) != files {
				t.Fatal("a refused post left rows or files behind")
			}
		})
	}
	t.Run("2000 characters", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/posts", token, map[string]any{"content": strings.Repeat("é", 2000)})
		if status != 201 {
			t.Fatalf("%d %v", status, env)
		}
	})
	t.Run("signed out", func(t *testing.T) {
		if status, _ := st.call(t, "POST", "/api/posts", "", map[string]any{"content": "x"}); status != 401 {
			t.Fatalf("status %d", status)
		}
	})
}

func TestFeedPagesAndPost(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	author, aTok := st.user(t, "Feed Author")
	_, vTok := st.user(t, "Feed Viewer")
	var ids []string
	for i := range 5 {
		ids = append(ids, st.post(t, aTok, fmt.Sprintf("post %d", i)))
	}
	if status, env := st.call(t, "POST", "/api/posts/"+ids[2]+"/like", vTok, nil); status != 200 {
		t.Fatalf("like %d %v", status, env)
	}

	for _, base := range []string{"/api/posts/feed", "/api/posts/user/" + author.ID.String()} {
		t.Run(base, func(t *testing.T) {
			var got []string
			cursor := ""
			for pages := 1; ; pages++ {
				path := base + "?limit=2"
				if cursor != "" {
					path += "&cursor=" + url.QueryEscape(cursor)
				}
				status, env := st.call(t, "GET", path, vTok, nil)
				if status != 200 {
					t.Fatalf("%s: %d %v", path, status, env)
				}
				for _, p := range data(env)["posts"].([]any) {
					m := p.(map[string]any)
					got = append(got, m["content"].(string))
					if liked := m["id"] == ids[2]; m["isLiked"] != liked {
						t.Fatalf("isLiked of %v", m)
					}
				}
				next, ok := data(env)["nextCursor"].(string)
				if !ok {
					if data(env)["nextCursor"] != nil || pages != 3 {
						t.Fatalf("end: nextCursor %v after %d pages", data(env)["nextCursor"], pages)
					}
					break
				}
				cursor = next
			}
			if fmt.Sprint(got) != "[post 4 post 3 post 2 post 1 post 0]" {
				t.Fatalf("order %v", got)
			}
		})
	}
	t.Run("bad cursor", func(t *testing.T) {
		if status, _ := st.call(t, "GET", "/api/posts/feed?cursor=%%%", vTok, nil); status != 400 {
			t.Fatalf("status %d", status)
		}
	})
	t.Run("one post with comments", func(t *testing.T) {
		status, env := st.call(t, "POST", "/api/posts/"+ids[2]+"/comments", vTok, map[string]any{"content": "Nice!"})
		if status != 201 {
			t.Fatalf("comment %d %v", status, env)
		}
		c := data(env)["comment"].(map[string]any)
		if c["content"] != "Nice!" || c["postId"] != ids[2] || c["user"].(map[string]any)["name"] != "Feed Viewer" || c["id"] == "" || c["createdAt"] == "" {
			t.Fatalf("comment %v", c)
		}
		status, env = st.call(t, "GET", "/api/posts/"+ids[2], vTok, nil)
		if status != 200 {
			t.Fatalf("%d %v", status, env)
		}
		p := data(env)["post"].(map[string]any)
		cs := data(env)["comments"].([]any)
		if p["id"] != ids[2] || p["likesCount"] != 1.0 || p["isLiked"] != true || p["commentsCount"] != 1.0 || len(cs) != 1 {
			t.Fatalf("post %v comments %v", p, cs)
		}
		if status, _ := st.call(t, "GET", "/api/posts/"+persistence.NewID().String(), vTok, nil); status != 404 {
			t.Fatalf("missing post: %d", status)
		}
		if status, _ := st.call(t, "GET", "/api/posts/not-an-id", vTok, nil); status != 404 {
			t.Fatalf("malformed id: %d", status)
		}
	})
}

func TestOnlyTheAuthorEditsOrDeletes(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, aTok := st.user(t, "Edit Author")
	_, oTok := st.user(t, "Edit Other")
	body, ct := multipartBody(t, map[string]string{"content": "with a picture"}, map[string][]byte{"a.png": pngBytes(t, 4, 4)})
	status, env := st.request(t, "POST", "/api/posts", aTok, body, ct)
	if status != 201 {
		t.Fatalf("%d %v", status, env)
	}
	id := data(env)["post"].(map[string]any)["id"].(string)
	st.call(t, "POST", "/api/posts/"+id+"/like", oTok, nil)
	st.call(t, "POST", "/api/posts/"+id+"/comments", oTok, map[string]any{"content": "hi"})

	steps := []struct {
		name, method, token string
		body                any
		status              int
		msg                 string
	}{
		{"other cannot edit", "PUT", oTok, map[string]any{"content": "mine now"}, 403, domain.MsgNotYourPost},
		{"author edits", "PUT", aTok, map[string]any{"content": "edited"}, 200, ""},
		{"author may blank a post with an image", "PUT", aTok, map[string]any{"content": ""}, 200, ""},
		{"too long", "PUT", aTok, map[string]any{"content": strings.Repeat("x", 2001)}, 400, domain.MsgPostTooLong},
		{"other cannot delete", "DELETE", oTok, nil, 403, domain.MsgNotYourPost},
		{"author deletes", "DELETE", aTok, nil, 200, ""},
		{"gone", "DELETE", aTok, nil, 404, domain.MsgPostNotFound},
		{"edit gone", "PUT", aTok, map[string]any{"content": "x"}, 404, domain.MsgPostNotFound},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			status, env := st.call(t, s.method, "/api/posts/"+id, s.token, s.body)
			if status != s.status || (s.msg != "" && env["message"] != s.msg) {
				t.Fatalf("%d %v, want %d %q", status, env, s.status, s.msg)
			}
			if s.name == "author edits" && data(env)["post"].(map[string]any)["content"] != "edited" {
				t.Fatalf("edit answer %v", env)
			}
		})
	}
	for _, table := range []string{"posts", "post_images", "post_likes", "comments"} {
		if n := st.count(t, table); n != 0 {
			t.Fatalf("%s: %d rows after delete", table, n)
		}
	}
	if files := st.storedFiles(t); len(files) != 0 {
		t.Fatalf("files left: %v", files)
	}
}

func TestComments(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, aTok := st.user(t, "Comment Post Author")
	_, cTok := st.user(t, "Comment Writer")
	_, bTok := st.user(t, "Comment Bystander")
	id := st.post(t, aTok, "discuss")

	add := func(token, content string) (int, map[string]any) {
		return st.call(t, "POST", "/api/posts/"+id+"/comments", token, map[string]any{"content": content})
	}
	var cids []string
	for i := range 3 {
		status, env := add(cTok, fmt.Sprintf("comment %d", i))
		if status != 201 || data(env)["commentsCount"] != float64(i+1) {
			t.Fatalf("%d %v", status, env)
		}
		cids = append(cids, data(env)["comment"].(map[string]any)["id"].(string))
	}
	for _, tt := range []struct {
		content string
		msg     string
	}{{"  ", domain.MsgCommentEmpty}, {strings.Repeat("x", 1001), domain.MsgCommentLong}} {
		if status, env := add(cTok, tt.content); status != 400 || env["message"] != tt.msg {
			t.Fatalf("%d %v", status, env)
		}
	}
	if status, _ := st.call(t, "POST", "/api/posts/"+persistence.NewID().String()+"/comments", cTok, map[string]any{"content": "x"}); status != 404 {
		t.Fatalf("comment on missing post: %d", status)
	}

	status, env := st.call(t, "GET", "/api/posts/"+id+"/comments?limit=2", bTok, nil)
	list := data(env)["comments"].([]any)
	next, _ := data(env)["nextCursor"].(string)
	if status != 200 || len(list) != 2 || list[0].(map[string]any)["content"] != "comment 0" || next == "" {
		t.Fatalf("%d %v", status, env)
	}
	status, env = st.call(t, "GET", "/api/posts/"+id+"/comments?limit=2&cursor="+url.QueryEscape(next), bTok, nil)
	if list := data(env)["comments"].([]any); status != 200 || len(list) != 1 || data(env)["nextCursor"] != nil {
		t.Fatalf("%d %v", status, env)
	}

	steps := []struct {
		name, token, cid string
		status           int
		count            float64
	}{
		{"bystander cannot", bTok, cids[0], 403, 0},
		{"writer can", cTok, cids[0], 200, 2},
		{"post author can", aTok, cids[1], 200, 1},
		{"already gone", aTok, cids[1], 404, 0},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			status, env := st.call(t, "DELETE", "/api/posts/"+id+"/comments/"+s.cid, s.token, nil)
			if status != s.status || (s.status == 200 && data(env)["commentsCount"] != s.count) {
				t.Fatalf("%d %v", status, env)
			}
		})
	}
	var counter int
	if err := st.db.NewSelect().Model((*persistence.Post)(nil)).Column("comments_count").Where("id = ?", id).Scan(context.Background(), &counter); err != nil || counter != 1 {
		t.Fatalf("comments_count %d %v", counter, err)
	}
}

// TestLikeStorm: 250 users each like and unlike one post at once (500
// calls, toggles and explicit): the counter, the rows and the last answers
// agree.
func TestLikeStorm(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, aTok := st.user(t, "Storm Author")
	id := st.post(t, aTok, "storm")
	tokens := make([]string, 250)
	for i := range tokens {
		_, tokens[i] = st.user(t, fmt.Sprintf("Storm User %d", i))
	}
	type answer struct {
		liked bool
		count int
	}
	last := make([]answer, len(tokens))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for i, tok := range tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Two calls per user, in order; the second answer is the user's
			// final state.
			methods := [][2]string{{"POST", "DELETE"}, {"PATCH", "PATCH"}, {"POST", "PATCH"}, {"DELETE", "POST"}}[i%4]
			for _, m := range methods {
				status, env := st.call(t, m, "/api/posts/"+id+"/like", tok, nil)
				if status != 200 {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %d %v", m, status, env))
					mu.Unlock()
					return
				}
				d := data(env)
				last[i] = answer{liked: d["isLiked"].(bool), count: int(d["likesCount"].(float64))}
			}
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d failed calls, first: %s", len(failures), failures[0])
	}
	// Each user's pair ends in a known state: like+unlike off, toggle twice
	// off, like+toggle off, unlike+like on.
	liked, want := 0, 0
	for i, a := range last {
		if a.liked {
			liked++
		}
		if i%4 == 3 {
			want++
		}
		if a.liked != (i%4 == 3) {
			t.Fatalf("user %d ends liked=%v", i, a.liked)
		}
	}
	var counter int
	if err := st.db.NewSelect().Model((*persistence.Post)(nil)).Column("likes_count").Where("id = ?", id).Scan(context.Background(), &counter); err != nil {
		t.Fatal(err)
	}
	rows, err := st.db.NewSelect().Model((*persistence.PostLike)(nil)).Where("post_id = ?", id).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if counter != int(rows) || counter != liked {
		t.Fatalf("likes_count %d, rows %d, users whose last answer says liked %d", counter, rows, liked)
	}
	if liked != want {
		t.Fatalf("%d users like the post, want %d", liked, want)
	}
	t.Logf("500 like calls: %d post transactions", st.live.Stats().Batches)
}
