package httpapi

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"

	"campus/app"
)

// raw is one HTTP answer with what the first page's tests read: the status,
// the headers, the Set-Cookie of the first-page cookie (nil when none was
// sent) and the body, decompressed.
type raw struct {
	status int
	header *fasthttp.ResponseHeader
	cookie *fasthttp.Cookie
	body   []byte
}

// rawRequest sends one request to the live stack with the given headers
// (pairs); body is JSON-encoded unless nil.
func (st *liveStack) rawRequest(t *testing.T, method, path string, body any, headers ...string) raw {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + st.addr + path)
	req.Header.SetMethod(method)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		req.SetBody(b)
		req.Header.SetContentType("application/json")
	}
	if err := st.client.DoTimeout(req, resp, 30*time.Second); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	r := raw{status: resp.StatusCode(), header: &fasthttp.ResponseHeader{}, body: append([]byte(nil), resp.Body()...)}
	resp.Header.CopyTo(r.header)
	if enc := string(resp.Header.ContentEncoding()); enc != "" {
		var err error
		if r.body, err = resp.BodyUncompressed(); err != nil {
			t.Fatalf("%s %s: %s body: %v", method, path, enc, err)
		}
	}
	c := fasthttp.AcquireCookie()
	c.SetKey(app.FirstPageCookie)
	if resp.Header.Cookie(c) {
		r.cookie = c
	} else {
		fasthttp.ReleaseCookie(c)
	}
	return r
}

// env decodes the answer's envelope.
func (r raw) env(t *testing.T) map[string]any {
	t.Helper()
	var env map[string]any
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("not JSON (%d): %q", r.status, r.body)
	}
	return env
}

// cleared reports whether the answer told the browser to drop the cookie.
func (r raw) cleared() bool {
	return r.cookie != nil && len(r.cookie.Value()) == 0 && r.cookie.Expire().Before(time.Now())
}

// firstPageData is the data block of a document and its data-user, or
// ok=false when the document has none.
var firstPageBlock = regexp.MustCompile(`(?s)<script type="application/json" id="campus-first-page" data-user="([^"]*)">(.*?)</script>`)

func firstPageOf(doc []byte) (user string, data []byte, ok bool) {
	m := firstPageBlock.FindSubmatch(doc)
	if m == nil {
		return "", nil, false
	}
	return string(m[1]), m[2], true
}

// code waits for the newest mail to addr since then and answers its code.
func (st *liveStack) code(t *testing.T, addr string, since time.Time) string {
	t.Helper()
	return (&stack{mailDir: st.mailDir}).code(t, addr, since)
}

// TestFirstPageCookieLifecycle follows the first-page cookie through an
// account's life: set beside the token at sign-up, sign-in, token rotation
// and on request; the feed's document carries the holder's first page while
// the token it came with holds; it is cleared at logout and deletion, and a
// revoked or tampered one renders the plain document (and is cleared).
// Throughout, no API call takes it for a token.
func TestFirstPageCookieLifecycle(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	const email = "fiona.first@uni.edu"
	start := time.Now().Add(-time.Second)
	if r := st.rawRequest(t, "POST", "/api/auth/signup", map[string]any{
		"name": "Fiona First", "email": email, "password": goodPassword, "role": "student", "collegeId": "bwu/bca/24/501",
	}); r.status != 201 {
		t.Fatalf("signup: %d %s", r.status, r.body)
	}
	if r := st.rawRequest(t, "POST", "/api/auth/signup", nil); r.cookie != nil {
		t.Fatal("a refused call set the cookie")
	}

	// The holder of a cookie: the document with their first page, or the
	// plain one.
	document := func(t *testing.T, path, pass string) raw {
		t.Helper()
		return st.rawRequest(t, "GET", path, nil, "Cookie", app.FirstPageCookie+"="+pass, "Accept-Encoding", "br")
	}
	wantPage := func(t *testing.T, pass, userID, text string) {
		t.Helper()
		r := document(t, "/", pass)
		user, data, ok := firstPageOf(r.body)
		if r.status != 200 || !ok {
			t.Fatalf("document: %d, no first page: %s", r.status, r.body)
		}
		if user != userID || !bytes.Contains(data, []byte(text)) {
			t.Fatalf("first page of %q, want %q with %q: %s", user, userID, text, data)
		}
		if r.cookie != nil {
			t.Errorf("a good cookie was answered with %s", r.cookie)
		}
		if got := string(r.header.Peek("Cache-Control")); got != "private, no-store" {
			t.Errorf("Cache-Control = %q", got)
		}
	}
	wantPlain := func(t *testing.T, pass string, clears bool) {
		t.Helper()
		r := document(t, "/", pass)
		if _, _, ok := firstPageOf(r.body); ok || r.status != 200 || !bytes.Contains(r.body, []byte("campus-index")) {
			t.Fatalf("want the plain document: %d %s", r.status, r.body)
		}
		if r.cleared() != clears {
			t.Errorf("cookie cleared = %v, want %v (%v)", r.cleared(), clears, r.cookie)
		}
	}
	// A pass must never pass for a token, as a bearer or beside none.
	wantNoAPI := func(t *testing.T, pass string) {
		t.Helper()
		for _, c := range []struct{ method, path string }{
			{"GET", "/api/posts/feed"}, {"GET", "/api/users/me"}, {"POST", "/api/posts"}, {"POST", "/api/auth/first-page"}, {"POST", "/api/auth/logout"},
		} {
			if r := st.rawRequest(t, c.method, c.path, map[string]any{"content": "forged", "visibility": "public"},
				"Cookie", app.FirstPageCookie+"="+pass); r.status != 401 {
				t.Errorf("%s %s with the cookie only: %d, want 401", c.method, c.path, r.status)
			}
			if r := st.rawRequest(t, c.method, c.path, map[string]any{"content": "forged", "visibility": "public"},
				"Authorization", "Bearer "+pass); r.status != 401 {
				t.Errorf("%s %s with the pass as a bearer: %d, want 401", c.method, c.path, r.status)
			}
		}
	}

	var token, userID, pass, postText string
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"the sign-up's code sets it beside the token", func(t *testing.T) {
			r := st.rawRequest(t, "POST", "/api/auth/verify-otp", map[string]any{"email": email, "otp": st.code(t, email, start)})
			if r.status != 200 || r.cookie == nil {
				t.Fatalf("verify: %d, cookie %v", r.status, r.cookie)
			}
			d := data(r.env(t))
			token, userID = d["token"].(string), d["user"].(map[string]any)["id"].(string)
			c := r.cookie
			pass = string(c.Value())
			if !c.HTTPOnly() || c.SameSite() != fasthttp.CookieSameSiteLaxMode || string(c.Path()) != "/" || c.Secure() {
				t.Errorf("cookie %s: want HttpOnly, SameSite=Lax, Path=/, not Secure over plain http", c)
			}
			if until := time.Until(c.Expire()); until < app.TokenTTL-time.Minute || until > app.TokenTTL {
				t.Errorf("cookie expires in %v, want the token's %v", until, app.TokenTTL)
			}
			if strings.Contains(pass, token) || strings.Contains(token, pass) {
				t.Error("the cookie holds the token")
			}
			postText = "Fiona's first post " + userID[:8]
			if s, env := st.call(t, "POST", "/api/posts", token, map[string]any{"content": postText, "visibility": "public"}); s != 201 {
				t.Fatalf("post: %d %v", s, env)
			}
		}},
		{"the feed's documents carry the holder's first page", func(t *testing.T) {
			wantPage(t, pass, userID, postText)
			r := document(t, "/feed", pass)
			if user, _, ok := firstPageOf(r.body); !ok || user != userID {
				t.Fatalf("/feed: no first page of %s: %s", userID, r.body)
			}
		}},
		{"no API call takes it", func(t *testing.T) { wantNoAPI(t, pass) }},
		{"a tampered cookie renders the plain document and is cleared", func(t *testing.T) {
			b := []byte(pass)
			b[len(b)/2] ^= 1
			wantPlain(t, string(b), true)
			wantPlain(t, token, true) // the token itself is no pass either
		}},
		{"signing in sets a new one", func(t *testing.T) {
			r := st.rawRequest(t, "POST", "/api/auth/login", map[string]any{"email": email, "password": goodPassword, "role": "student"})
			if r.status != 200 || r.cookie == nil || len(r.cookie.Value()) == 0 {
				t.Fatalf("login: %d, cookie %v", r.status, r.cookie)
			}
			token, pass = data(r.env(t))["token"].(string), string(r.cookie.Value())
			wantPage(t, pass, userID, postText)
		}},
		{"the client can ask for it with its token, and drop it", func(t *testing.T) {
			r := st.rawRequest(t, "POST", "/api/auth/first-page", nil, "Authorization", "Bearer "+token)
			if r.status != 200 || r.cookie == nil || len(r.cookie.Value()) == 0 {
				t.Fatalf("POST first-page: %d, cookie %v", r.status, r.cookie)
			}
			wantPage(t, string(r.cookie.Value()), userID, postText)
			if r := st.rawRequest(t, "DELETE", "/api/auth/first-page", nil); r.status != 200 || !r.cleared() {
				t.Fatalf("DELETE first-page: %d, cookie %v", r.status, r.cookie)
			}
		}},
		{"a password change rotates it; the old one is revoked with its token", func(t *testing.T) {
			since := time.Now()
			if s, env := st.call(t, "POST", "/api/users/send-password-change-otp", token, map[string]any{"currentPassword": goodPassword}); s != 200 {
				t.Fatalf("send code: %d %v", s, env)
			}
			r := st.rawRequest(t, "POST", "/api/users/verify-password-change-otp",
				map[string]any{"otp": st.code(t, email, since), "newPassword": "N3w!password"}, "Authorization", "Bearer "+token)
			if r.status != 200 || r.cookie == nil || len(r.cookie.Value()) == 0 {
				t.Fatalf("verify change: %d, cookie %v: %s", r.status, r.cookie, r.body)
			}
			old := pass
			token, pass = data(r.env(t))["token"].(string), string(r.cookie.Value())
			wantPlain(t, old, true)
			wantPage(t, pass, userID, postText)
		}},
		{"logging out clears it, and the old one renders nothing", func(t *testing.T) {
			r := st.rawRequest(t, "POST", "/api/auth/logout", nil, "Authorization", "Bearer "+token)
			if r.status != 200 || !r.cleared() || string(r.cookie.Path()) != "/" {
				t.Fatalf("logout: %d, cookie %v", r.status, r.cookie)
			}
			wantPlain(t, pass, true)
			wantNoAPI(t, pass)
			// A logout whose token is already gone still clears it.
			if r := st.rawRequest(t, "POST", "/api/auth/logout", nil, "Authorization", "Bearer "+token); r.status != 401 || !r.cleared() {
				t.Fatalf("logout with a revoked token: %d, cookie %v", r.status, r.cookie)
			}
		}},
		{"deleting the account clears it", func(t *testing.T) {
			r := st.rawRequest(t, "POST", "/api/auth/login", map[string]any{"email": email, "password": "N3w!password", "role": "student"})
			if r.status != 200 || r.cookie == nil {
				t.Fatalf("login: %d %s", r.status, r.body)
			}
			token, pass = data(r.env(t))["token"].(string), string(r.cookie.Value())
			since := time.Now()
			if s, env := st.call(t, "POST", "/api/users/send-delete-account-otp", token, nil); s != 200 {
				t.Fatalf("send code: %d %v", s, env)
			}
			r = st.rawRequest(t, "POST", "/api/users/verify-delete-account-otp", map[string]any{"otp": st.code(t, email, since)},
				"Authorization", "Bearer "+token)
			if r.status != 200 || !r.cleared() {
				t.Fatalf("delete: %d, cookie %v: %s", r.status, r.cookie, r.body)
			}
			wantPlain(t, pass, true)
		}},
	}
	for _, s := range steps {
		if !t.Run(s.name, s.run) {
			t.FailNow() // each step builds on the last
		}
	}
}

// TestFirstPageDocument checks the document the cookie renders: the data
// is the feed's own answer (a post's text whatever it holds, </script>
// included, comes back whole and cannot end its element), only the feed's
// paths carry it, and its headers keep it out of every cache.
func TestFirstPageDocument(t *testing.T) {
	st := newLiveStack(t, liveOptions{})
	u, token := st.user(t, "Sam Script")
	hostile := "Ends here </script><script>alert(1)</script> <!-- & </SCRIPT > \u2028 line"
	st.post(t, token, hostile)
	for i := 0; i < firstPagePosts+2; i++ {
		st.post(t, token, "filler post")
	}
	pass, _, err := st.sessions.FirstPagePass(token)
	if err != nil {
		t.Fatal(err)
	}
	get := func(t *testing.T, method, path, encoding string) raw {
		t.Helper()
		return st.rawRequest(t, method, path, nil, "Cookie", app.FirstPageCookie+"="+pass, "Accept-Encoding", encoding)
	}

	t.Run("the data is the feed's page, whole, and cannot leave its element", func(t *testing.T) {
		r := get(t, "GET", "/", "br")
		user, block, ok := firstPageOf(r.body)
		if !ok || user != u.ID.String() {
			t.Fatalf("no first page of %s: %s", u.ID, r.body)
		}
		if bytes.ContainsAny(block, "<>") {
			t.Fatalf("the data block holds < or >: %s", block)
		}
		if n := bytes.Count(bytes.ToLower(r.body), []byte("</script")); n != 3 {
			t.Errorf("%d </script in the document, want 3 (data, boot, painter)", n)
		}
		var env struct {
			Status string `json:"status"`
			Data   struct {
				Posts []struct {
					Content string `json:"content"`
				} `json:"posts"`
				NextCursor *string `json:"nextCursor"`
			} `json:"data"`
		}
		if err := json.Unmarshal(block, &env); err != nil {
			t.Fatalf("data block: %v: %s", err, block)
		}
		if env.Status != "success" || len(env.Data.Posts) != firstPagePosts || env.Data.NextCursor == nil {
			t.Fatalf("envelope %+v, want %d posts and a cursor", env, firstPagePosts)
		}
		found := false
		for _, p := range env.Data.Posts {
			found = found || p.Content == hostile
		}
		// The hostile post is the oldest: the first page must hold the newest.
		if found {
			t.Fatal("the page is not the newest posts")
		}
		s, feed := st.call(t, "GET", "/api/posts/feed?limit=50", token, nil)
		if s != 200 {
			t.Fatalf("feed: %d", s)
		}
		posts := data(feed)["posts"].([]any)
		if got := posts[len(posts)-1].(map[string]any)["content"]; got != hostile {
			t.Fatalf("the feed's oldest post is %q", got)
		}
	})

	t.Run("a hostile newest post comes back whole", func(t *testing.T) {
		st.post(t, token, hostile)
		r := get(t, "GET", "/", "gzip")
		if string(r.header.ContentEncoding()) != "gzip" {
			t.Errorf("Content-Encoding = %q, want gzip", r.header.ContentEncoding())
		}
		_, block, ok := firstPageOf(r.body)
		if !ok || bytes.ContainsAny(block, "<>") {
			t.Fatalf("data block %s", block)
		}
		var env struct {
			Data struct {
				Posts []struct {
					Content string `json:"content"`
				} `json:"posts"`
			} `json:"data"`
		}
		if err := json.Unmarshal(block, &env); err != nil || len(env.Data.Posts) == 0 || env.Data.Posts[0].Content != hostile {
			t.Fatalf("first post %+v (%v), want %q", env.Data.Posts, err, hostile)
		}
	})

	t.Run("headers", func(t *testing.T) {
		r := get(t, "GET", "/", "br")
		if got := string(r.header.Peek("Cache-Control")); got != "private, no-store" {
			t.Errorf("Cache-Control = %q", got)
		}
		if vary := string(bytes.Join(r.header.PeekAll("Vary"), []byte(", "))); !strings.Contains(vary, "Cookie") || !strings.Contains(vary, "Accept-Encoding") {
			t.Errorf("Vary = %q, want Cookie and Accept-Encoding", vary)
		}
		csp := string(r.header.Peek("Content-Security-Policy"))
		for _, want := range []string{cspHash("boot()"), cspHash("paint()"), cspHash(".post-card{margin:0}")} {
			if !strings.Contains(csp, want) {
				t.Errorf("CSP %q lacks %s", csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") {
			t.Errorf("CSP %q allows any inline code", csp)
		}
		// Compressed: the body the browser gets is brotli.
		if string(r.header.ContentEncoding()) != "br" {
			t.Errorf("Content-Encoding = %q, want br", r.header.ContentEncoding())
		}
		plain := st.rawRequest(t, "GET", "/", nil)
		if vary := string(bytes.Join(plain.header.PeekAll("Vary"), []byte(", "))); !strings.Contains(vary, "Cookie") {
			t.Errorf("plain /: Vary = %q, want Cookie", vary)
		}
		if got := string(plain.header.Peek("Cache-Control")); got != "no-cache" {
			t.Errorf("plain /: Cache-Control = %q", got)
		}
	})

	t.Run("only the feed's documents carry it", func(t *testing.T) {
		for _, c := range []struct{ method, path string }{
			{"GET", "/index.html"}, // what the service worker caches
			{"GET", "/profile/abc"},
			{"GET", "/post/" + u.ID.String()},
			{"GET", "/first-page.html"},
			{"HEAD", "/"},
		} {
			r := get(t, c.method, c.path, "")
			if _, _, ok := firstPageOf(r.body); ok || bytes.Contains(r.body, []byte("filler post")) {
				t.Errorf("%s %s carries a first page: %s", c.method, c.path, r.body)
			}
			if c.method == "GET" && !bytes.Contains(r.body, []byte("campus-index")) {
				t.Errorf("%s %s: want the plain document, got %s", c.method, c.path, r.body)
			}
		}
	})
}

// TestBrotliDocumentDecodes guards the document's compression: what a
// browser gets decodes to the page.
func TestBrotliDocumentDecodes(t *testing.T) {
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.Set(fasthttp.HeaderAcceptEncoding, "gzip, br")
	doc := bytes.Repeat([]byte("<p>first post</p>"), 500)
	sendCompressed(&ctx, doc)
	got, err := fasthttp.AppendUnbrotliBytes(nil, ctx.Response.Body())
	if err != nil || !bytes.Equal(got, doc) || len(ctx.Response.Body()) >= len(doc)/4 {
		t.Fatalf("brotli body of %d bytes decodes to %d (%v)", len(ctx.Response.Body()), len(got), err)
	}
}

// TestFirstPageTemplateFallback: the document uses the template only when
// it is whole and the page can be had; otherwise the plain page goes out
// (never an error page), for every cause.
func TestFirstPageTemplateFallback(t *testing.T) {
	page := func(string) (string, []byte, bool) {
		return "u1", []byte(`{"status":"success","data":{"posts":[]}}`), true
	}
	none := func(string) (string, []byte, bool) { return "", nil, false }
	for _, tc := range []struct {
		name     string
		template string // "" for none
		first    func(string) (string, []byte, bool)
		cookie   bool
		want     string
	}{
		{"a whole template, a page", "<head>" + firstPageMarker + "<script>boot()</script></head>first-page", page, true, "first-page"},
		{"no cookie", "<head>" + firstPageMarker + "</head>first-page", page, false, "plain-page"},
		{"no page for the cookie", "<head>" + firstPageMarker + "</head>first-page", none, true, "plain-page"},
		{"no template", "", page, true, "plain-page"},
		{"a template without its marker", "<head></head>first-page", page, true, "plain-page"},
		{"a template with two", "<head>" + firstPageMarker + firstPageMarker + "</head>first-page", page, true, "plain-page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"index.html": "<head><script>boot()</script></head>plain-page"}
			if tc.template != "" {
				files[firstPageTemplate] = tc.template
			}
			dir := t.TempDir()
			writeFiles(t, dir, files)
			h := newStatic(dir, zerolog.Nop(), func(_ *fasthttp.RequestCtx, pass string) (string, []byte, bool) { return tc.first(pass) })
			var ctx fasthttp.RequestCtx
			ctx.Request.SetRequestURI("/")
			if tc.cookie {
				ctx.Request.Header.SetCookie(app.FirstPageCookie, "pass")
			}
			h(&ctx)
			if ctx.Response.StatusCode() != 200 || !bytes.Contains(ctx.Response.Body(), []byte(tc.want)) {
				t.Fatalf("%d %q, want %s", ctx.Response.StatusCode(), ctx.Response.Body(), tc.want)
			}
			_, _, carried := firstPageOf(ctx.Response.Body())
			if carried != (tc.want == "first-page") {
				t.Errorf("data block carried = %v: %s", carried, ctx.Response.Body())
			}
		})
	}
}
