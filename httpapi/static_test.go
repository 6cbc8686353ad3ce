package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"
)

// TestStaticPrecompressed checks that the file server sends the build's
// .br/.gz variant the browser accepts, with the original type, Vary and
// immutable caching for hashed assets, and the plain file otherwise.
func TestStaticPrecompressed(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, body []byte) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
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

	h := newStatic(dir, zerolog.Nop())
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
	for name, body := range map[string]string{
		"index.html":              "<!doctype html><title>Campus</title>",
		"manifest.webmanifest":    `{"name":"Campus"}`,
		"manifest.webmanifest.gz": "pretend-gzip",
		"sw.js":                   "self.addEventListener('fetch', () => {});",
		"icons/icon-192.png":      "\x89PNG",
		"assets/index-abc123.js":  "console.log(1)",
		"assets/index-abc123.css": "body{}",
		"favicon.svg":             "<svg/>",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := newStatic(dir, zerolog.Nop())
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
