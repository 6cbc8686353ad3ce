package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"
)

// TestStaticPrecompressed checks that the file server sends the build's
// .br/.gz variant the browser accepts, with the original type, Vary and
// immutable caching for hashed assets, and the plain file otherwise.
func TestStaticPrecompressed(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, body []byte) { writeFiles(t, dir, map[string]string{name: string(body)}) }
	js := bytes.Repeat([]byte("console.log('campus');\n"), 200)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(js); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	write("index.html", []byte("<!doctype html><title>Campus</title>"))
	write("assets/app-abc123.js", js)
	write("assets/app-abc123.js.gz", gz.Bytes())
	write("assets/app-abc123.js.br", []byte("pretend-brotli"))
	write("assets/plain-1.txt", []byte("no variants"))
	write("favicon.svg", []byte("<svg/>"))
	write("favicon.svg.gz", gz.Bytes())

	h := newStatic(dir, zerolog.Nop(), nil)
	tests := []struct {
		name, path, accept string
		wantEncoding       string
		wantType           string
		wantVary           bool
		wantImmutable      bool
		wantBody           []byte
	}{
		{"brotli preferred", "/assets/app-abc123.js", "gzip, deflate, br", "br", "text/javascript; charset=utf-8", true, true, []byte("pretend-brotli")},
		{"gzip when no br", "/assets/app-abc123.js", "gzip", "gzip", "text/javascript; charset=utf-8", true, true, gz.Bytes()},
		{"identity when nothing accepted", "/assets/app-abc123.js", "", "", "text/javascript; charset=utf-8", true, true, js},
		{"no variants, no Vary", "/assets/plain-1.txt", "br, gzip", "", "text/plain; charset=utf-8", false, true, []byte("no variants")},
		{"outside assets: not immutable", "/favicon.svg", "br, gzip", "gzip", "image/svg+xml", true, false, gz.Bytes()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ctx fasthttp.RequestCtx
			ctx.Request.SetRequestURI(tc.path)
			if tc.accept != "" {
				ctx.Request.Header.Set(fasthttp.HeaderAcceptEncoding, tc.accept)
			}
			h(&ctx)
			res := &ctx.Response
			if res.StatusCode() != fasthttp.StatusOK {
				t.Fatalf("status = %d", res.StatusCode())
			}
			if got := string(res.Header.ContentEncoding()); got != tc.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tc.wantEncoding)
			}
			if got := string(res.Header.ContentType()); got != tc.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tc.wantType)
			}
			if got := bytes.Contains(res.Header.Peek(fasthttp.HeaderVary), []byte("Accept-Encoding")); got != tc.wantVary {
				t.Errorf("Vary has Accept-Encoding = %v, want %v", got, tc.wantVary)
			}
			if got := string(res.Header.Peek(fasthttp.HeaderCacheControl)) == "public, max-age=31536000, immutable"; got != tc.wantImmutable {
				t.Errorf("immutable = %v, want %v (Cache-Control %q)", got, tc.wantImmutable, res.Header.Peek(fasthttp.HeaderCacheControl))
			}
			var body bytes.Buffer
			if err := res.BodyWriteTo(&body); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(body.Bytes(), tc.wantBody) {
				t.Errorf("body = %q…, want %q…", first(body.Bytes()), first(tc.wantBody))
			}
		})
	}

	t.Run("gzip variant decodes to the file", func(t *testing.T) {
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/assets/app-abc123.js")
		ctx.Request.Header.Set(fasthttp.HeaderAcceptEncoding, "gzip")
		h(&ctx)
		zr, err := gzip.NewReader(bytes.NewReader(ctx.Response.Body()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, js) {
			t.Error("decoded body differs from the file")
		}
	})

	t.Run("a client route still gets index.html", func(t *testing.T) {
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/profile/abc")
		h(&ctx)
		if !bytes.Contains(ctx.Response.Body(), []byte("<title>Campus</title>")) {
			t.Errorf("body = %q", ctx.Response.Body())
		}
	})
}

// TestStaticPWAFiles checks what installing and the service worker need:
// the manifest's type, and that the worker and manifest are revalidated on
// every use (a deploy changes them under the same name) while hashed assets
// stay immutable.
func TestStaticPWAFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.html":              "<!doctype html><title>Campus</title>",
		"manifest.webmanifest":    `{"name":"Campus"}`,
		"manifest.webmanifest.gz": "pretend-gzip",
		"sw.js":                   "self.addEventListener('fetch', () => {});",
		"icons/icon-192.png":      "\x89PNG",
		"assets/index-abc123.js":  "console.log(1)",
		"assets/index-abc123.css": "body{}",
		"favicon.svg":             "<svg/>",
	})
	h := newStatic(dir, zerolog.Nop(), nil)
	tests := []struct {
		path, accept, wantType, wantCache, wantEncoding string
	}{
		{"/manifest.webmanifest", "", "application/manifest+json", "no-cache", ""},
		{"/manifest.webmanifest", "gzip", "application/manifest+json", "no-cache", "gzip"},
		{"/sw.js", "br, gzip", "text/javascript; charset=utf-8", "no-cache", ""},
		{"/icons/icon-192.png", "", "image/png", "", ""},
		{"/assets/index-abc123.css", "", "text/css; charset=utf-8", "public, max-age=31536000, immutable", ""},
		{"/favicon.svg", "", "image/svg+xml", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.path+" "+tc.accept, func(t *testing.T) {
			var ctx fasthttp.RequestCtx
			ctx.Request.SetRequestURI(tc.path)
			if tc.accept != "" {
				ctx.Request.Header.Set(fasthttp.HeaderAcceptEncoding, tc.accept)
			}
			h(&ctx)
			res := &ctx.Response
			if res.StatusCode() != fasthttp.StatusOK {
				t.Fatalf("status = %d", res.StatusCode())
			}
			if got := string(res.Header.ContentType()); got != tc.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tc.wantType)
			}
			if got := string(res.Header.Peek(fasthttp.HeaderCacheControl)); got != tc.wantCache {
				t.Errorf("Cache-Control = %q, want %q", got, tc.wantCache)
			}
			if got := string(res.Header.ContentEncoding()); got != tc.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tc.wantEncoding)
			}
		})
	}
}

func first(b []byte) []byte {
	if len(b) > 16 {
		return b[:16]
	}
	return b
}

// TestScriptHashes checks the CSP hashes of index.html's inline scripts
// against what a browser computes: base64 of the SHA-256 of the text between
// the tags, byte for byte (the first case is the CSP spec's own example).
func TestScriptHashes(t *testing.T) {
	const hello = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='" // alert('Hello, world.');
	tests := []struct {
		name, page string
		want       []string
	}{
		{"the CSP spec's example", "<head><script>alert('Hello, world.');</script></head>", []string{hello}},
		{"no script", "<!doctype html><title>Campus</title>", nil},
		{"external scripts are not inline", `<script type="module" crossorigin src="/assets/index-abc.js"></script>`, nil},
		{"src in another attribute's value is still inline", `<script data-x="nosrc=1">alert('Hello, world.');</script>`, []string{hello}},
		{"whitespace and newlines are hashed as written", "<script>\n  boot();\n</script>", []string{cspHash("\n  boot();\n")}},
		{"attributes and case", `<SCRIPT type="text/javascript">alert('Hello, world.');</Script >`, []string{hello}},
		{"each inline script, in order, around an external one", `<script>a()</script><script src="/x.js"></script><script>b()</script>`, []string{cspHash("a()"), cspHash("b()")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := scriptHashes([]byte(tc.page)); !slices.Equal(got, tc.want) {
				t.Errorf("scriptHashes = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestIndexPolicyAllowsItsScripts checks that index.html's responses, on
// every client route, allow its inline script by hash and no other inline
// script, and that other files are left to the server-wide policy.
func TestIndexPolicyAllowsItsScripts(t *testing.T) {
	dir := t.TempDir()
	page := "<!doctype html><head><script>alert('Hello, world.');</script>" +
		`<script type="module" src="/assets/index-abc.js"></script><title>Campus</title></head>`
	writeFiles(t, dir, map[string]string{"index.html": page, "assets/index-abc.js": "console.log(1)"})
	h := newStatic(dir, zerolog.Nop(), nil)
	want := "script-src 'self' 'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=';"
	for _, tc := range []struct {
		path    string
		wantCSP bool
	}{
		{"/", true},
		{"/index.html", true},
		{"/profile/abc", true},
		{"/assets/index-abc.js", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			var ctx fasthttp.RequestCtx
			ctx.Request.SetRequestURI(tc.path)
			h(&ctx)
			csp := string(ctx.Response.Header.Peek("Content-Security-Policy"))
			if !tc.wantCSP {
				if csp != "" {
					t.Errorf("CSP = %q, want the middleware's (none from the file server)", csp)
				}
				return
			}
			if !strings.Contains(csp, want) {
				t.Errorf("CSP = %q, want it to contain %q", csp, want)
			}
			if strings.Contains(csp, "unsafe-inline") {
				t.Errorf("CSP = %q allows any inline script", csp)
			}
			if rest := strings.Replace(csp, want, "script-src 'self';", 1); rest != contentSecurityPolicy {
				t.Errorf("CSP = %q, want the server-wide policy but for the hash", csp)
			}
		})
	}
}

// TestIndexPolicyFollowsARebuild: a client rebuilt under a running server
// is served with the policy of its own inline script, not the old one's.
func TestIndexPolicyFollowsARebuild(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.html")
	write := func(script string, mod time.Time) {
		if err := os.WriteFile(index, []byte("<head><script>"+script+"</script></head>"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(index, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	var h fasthttp.RequestHandler
	serve := func() (body, csp string) {
		if h == nil {
			h = newStatic(dir, zerolog.Nop(), nil) // one server across the rebuild
		}
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/")
		h(&ctx)
		return string(ctx.Response.Body()), string(ctx.Response.Header.Peek("Content-Security-Policy"))
	}
	start := time.Now().Add(-time.Hour)
	write("boot(1)", start)
	if body, csp := serve(); !strings.Contains(body, "boot(1)") || !strings.Contains(csp, cspHash("boot(1)")) {
		t.Fatalf("first build: body %q, CSP %q", body, csp)
	}
	write("boot(22)", start.Add(time.Minute))
	if body, csp := serve(); !strings.Contains(body, "boot(22)") || !strings.Contains(csp, cspHash("boot(22)")) || strings.Contains(csp, cspHash("boot(1)")) {
		t.Fatalf("after the rebuild: body %q, CSP %q", body, csp)
	}
}

// writeFiles writes files (slash paths under dir → contents), making their
// directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cspHash is the CSP source of an inline script's text, computed here
// independently of scriptHashes.
func cspHash(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
