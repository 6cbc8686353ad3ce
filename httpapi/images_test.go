package httpapi

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"campus/domain"
)

// photo is a w×h JPEG of random pixels: wide enough ones get copies, and
// noise keeps every copy smaller than the original.
func photo(t *testing.T, w, h int) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = uint8(r.Uint32())
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// imageForm is a new post's multipart form: content, the files in order
// under images and the descriptions in order under imageAlts.
func imageForm(t *testing.T, content string, files [][]byte, alts []string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("content", content); err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		fw, err := w.CreateFormFile("images", "photo"+string(rune('a'+i))+".jpg")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range alts {
		if err := w.WriteField("imageAlts", a); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

// get fetches path without a token and answers status and body.
func (st *liveStack) get(t *testing.T, path string) (int, []byte) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + st.addr + path)
	if err := st.client.Do(req, resp); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode(), append([]byte(nil), resp.Body()...)
}

// postImages is the images of the post in an answer's data.post.
func postImages(env map[string]any) []map[string]any {
	var out []map[string]any
	for _, im := range obj(data(env)["post"])["images"].([]any) {
		out = append(out, obj(im))
	}
	return out
}

// TestPostImageAltsAndVariants: descriptions and copies of post images go in
// with the post, come back in every read, and the descriptions change with
// an edit; what is refused leaves no row and no file.
func TestPostImageAltsAndVariants(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	_, token := st.user(t, "Alt Author")
	wide, small := photo(t, 1600, 1200), photo(t, 200, 100)

	body, ct := imageForm(t, "Two pictures", [][]byte{wide, small}, []string{"  A wide view of the quad  ", "A small chart"})
	status, env := st.request(t, "POST", "/api/posts", token, body, ct)
	if status != 201 {
		t.Fatalf("create: %d %v", status, env)
	}
	id := obj(data(env)["post"])["id"].(string)
	type wantImage struct {
		alt           string
		width, height float64
		variants      []float64 // widths
	}
	check := func(t *testing.T, images []map[string]any, want []wantImage) {
		t.Helper()
		if len(images) != len(want) {
			t.Fatalf("%d images, want %d", len(images), len(want))
		}
		for i, im := range images {
			w := want[i]
			if im["alt"] != w.alt || im["width"] != w.width || im["height"] != w.height || im["type"] != "image" {
				t.Errorf("image %d: %v, want alt %q %v×%v", i, im, w.alt, w.width, w.height)
			}
			vs := im["variants"].([]any)
			if len(vs) != len(w.variants) {
				t.Fatalf("image %d: variants %v, want widths %v", i, vs, w.variants)
			}
			thumb := im["url"]
			for j, v := range vs {
				v := obj(v)
				if j == 0 {
					thumb = v["url"]
				}
				if v["width"] != w.variants[j] || v["height"] != w.variants[j]*w.height/w.width {
					t.Errorf("image %d variant %d: %v", i, j, v)
				}
				if status, b := st.get(t, v["url"].(string)); status != 200 || !bytes.HasPrefix(b, []byte{0xFF, 0xD8}) {
					t.Errorf("GET %s: %d", v["url"], status)
				}
			}
			if im["thumbUrl"] != thumb {
				t.Errorf("image %d: thumbUrl %v, want %v", i, im["thumbUrl"], thumb)
			}
		}
	}
	created := []wantImage{
		{"A wide view of the quad", 1600, 1200, []float64{96, 320, 720, 1280}},
		{"A small chart", 200, 100, []float64{96}},
	}
	t.Run("the answer carries descriptions and copies", func(t *testing.T) { check(t, postImages(env), created) })
	t.Run("so do the post and the feed", func(t *testing.T) {
		_, got := st.call(t, "GET", "/api/posts/"+id, token, nil)
		check(t, postImages(got), created)
		_, feed := st.call(t, "GET", "/api/posts/feed", token, nil)
		first := obj(data(feed)["posts"].([]any)[0])
		check(t, postImages(map[string]any{"data": map[string]any{"post": first}}), created)
	})

	long := strings.Repeat("é", domain.MaxAltLength)
	edits := []struct {
		name   string
		body   map[string]any
		status int
		msg    string
		want   []string
	}{
		{"text alone keeps the descriptions", map[string]any{"content": "Edited"}, 200, "", []string{"A wide view of the quad", "A small chart"}},
		{"new descriptions", map[string]any{"content": "Edited", "imageAlts": []string{" Students on the quad ", long}}, 200, "", []string{"Students on the quad", long}},
		{"fewer clears the rest", map[string]any{"content": "Edited", "imageAlts": []string{"Only the first"}}, 200, "", []string{"Only the first", ""}},
		{"1001 characters", map[string]any{"content": "Edited", "imageAlts": []string{long + "x"}}, 400, domain.MsgAltTooLong, []string{"Only the first", ""}},
		{"more than images", map[string]any{"content": "Edited", "imageAlts": []string{"a", "b", "c"}}, 400, domain.MsgTooManyAlts, []string{"Only the first", ""}},
	}
	for _, e := range edits {
		t.Run("edit: "+e.name, func(t *testing.T) {
			status, env := st.call(t, "PUT", "/api/posts/"+id, token, e.body)
			if status != e.status || (e.msg != "" && env["message"] != e.msg) {
				t.Fatalf("%d %v, want %d %q", status, env, e.status, e.msg)
			}
			_, got := st.call(t, "GET", "/api/posts/"+id, token, nil)
			for i, im := range postImages(got) {
				if im["alt"] != e.want[i] {
					t.Errorf("image %d: alt %q, want %q", i, im["alt"], e.want[i])
				}
			}
		})
	}

	refused := []struct {
		name   string
		files  [][]byte
		alts   []string
		status int
		msg    string
	}{
		{"description of 1001 characters", [][]byte{wide}, []string{long + "x"}, 400, domain.MsgAltTooLong},
		{"more descriptions than images", [][]byte{wide}, []string{"a", "b"}, 400, domain.MsgTooManyAlts},
		// The first image is stored with its copies before the second is
		// found not to be an image: all of it must go again.
		{"second file not an image", [][]byte{wide, []byte("plain text, not a picture")}, []string{"a", "b"}, 415,
			"Please select only image files. Videos are not supported."},
	}
	for _, tt := range refused {
		t.Run("refused: "+tt.name, func(t *testing.T) {
			posts, images, files := st.count(t, "posts"), st.count(t, "post_images"), len(st.storedFiles(t))
			body, ct := imageForm(t, "x", tt.files, tt.alts)
			status, env := st.request(t, "POST", "/api/posts", token, body, ct)
			if status != tt.status || env["message"] != tt.msg {
				t.Fatalf("%d %v, want %d %q", status, env, tt.status, tt.msg)
			}
			if st.count(t, "posts") != posts || st.count(t, "post_images") != images || len(st.storedFiles(t)) != files {
				t.Fatal("a refused post left rows or files behind")
			}
		})
	}

	t.Run("deleting the post deletes the copies", func(t *testing.T) {
		if status, env := st.call(t, "DELETE", "/api/posts/"+id, token, nil); status != 200 {
			t.Fatalf("%d %v", status, env)
		}
		if files := st.storedFiles(t); len(files) != 0 {
			t.Fatalf("files left: %v", files)
		}
	})
}

// TestAvatarVariants: an avatar's copies reach the user JSON (thumbUrl, the
// smallest, is what a 40 px avatar loads: the 96 px copy) and go when it is
// replaced.
func TestAvatarVariants(t *testing.T) {
	s := newSocial(t)
	asha := s.member(t, "Asha")
	status, env := s.upload(t, "/api/profile/avatar", asha.token, "avatar", "me.jpg", photo(t, 900, 900))
	if status != 200 {
		t.Fatalf("upload: %d %v", status, env)
	}
	av := obj(data(env)["avatar"])
	vs, _ := av["variants"].([]any)
	if len(vs) != 3 || av["thumbUrl"] != obj(vs[0])["url"] {
		t.Fatalf("avatar %v", av)
	}
	for i, w := range []float64{96, 320, 720} {
		if v := obj(vs[i]); v["width"] != w || v["height"] != w || !strings.HasSuffix(v["url"].(string), fmt.Sprintf("-%d.jpg", int(w))) {
			t.Fatalf("avatar variant %d: %v", i, v)
		}
	}
	thumb := av["thumbUrl"].(string)
	if got := s.do(t, "GET", thumb, nil); got.status != 200 || got.header["Content-Type"] != "image/jpeg" {
		t.Fatalf("GET %s: %d %v", thumb, got.status, got.header)
	}
	me := s.must(t, 200, "GET", "/api/profile/me", asha.token, nil)
	if obj(me["avatar"])["thumbUrl"] != thumb {
		t.Fatalf("profile avatar %v", me["avatar"])
	}
	// A small avatar has no copies: its thumbUrl is the original.
	status, env = s.upload(t, "/api/profile/avatar", asha.token, "avatar", "small.jpg", photo(t, 64, 64))
	if status != 200 {
		t.Fatalf("second upload: %d %v", status, env)
	}
	if av := obj(data(env)["avatar"]); av["thumbUrl"] != av["url"] || av["variants"] != nil {
		t.Fatalf("small avatar %v", av)
	}
	if got := s.do(t, "GET", thumb, nil); got.status != 404 {
		t.Fatalf("the replaced avatar's copy is still served: %d", got.status)
	}
}
