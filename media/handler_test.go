package media

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
)

// serve runs srv on an in-memory listener and returns a function that sends
// one raw request line, so paths reach the server exactly as written, without
// a client cleaning them first.
func serve(t *testing.T, srv *fasthttp.Server) func(method, target string, headers ...string) *fasthttp.Response {
	t.Helper()
	ln := fasthttputil.NewInmemoryListener()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		if err := ln.Close(); err != nil {
			t.Error(err)
		}
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return func(method, target string, headers ...string) *fasthttp.Response {
		t.Helper()
		c, err := ln.Dial()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		req := method + " " + target + " HTTP/1.1\r\nHost: campus.test\r\nConnection: close\r\n"
		for _, h := range headers {
			req += h + "\r\n"
		}
		if _, err := c.Write([]byte(req + "\r\n")); err != nil {
			t.Fatal(err)
		}
		resp := &fasthttp.Response{}
		resp.SkipBody = method == "HEAD"
		if err := resp.Read(bufio.NewReader(c)); err != nil {
			t.Fatalf("%s %s: %v", method, target, err)
		}
		return resp
	}
}

func TestHandler(t *testing.T) {
	s, dir := newStore(t)
	pngData := pngBytes(t, 10, 10)
	img := save(t, s, pngData)
	jpg := save(t, s, jpegBytes(t, 10, 10))
	gifImg := save(t, s, gifBytes(t, 10, 10))
	webpImg := save(t, s, readFixture(t, "lossy-1x1.webp"))
	missing := strings.Repeat("0", 32) + ".png"

	// Files a bad path could reach if it were ever turned into a path.
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "passwd"), []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, img.Key[:2], tempPrefix+"123")
	if err := os.WriteFile(tmp, []byte("half an upload"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "ab"), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		t.Fatal(err)
	}
	dirKey := "ab" + strings.Repeat("c", 30) + ".png"
	if err := os.Mkdir(filepath.Join(dir, "ab", dirKey), 0o755); err != nil {
		t.Fatal(err)
	}

	do := serve(t, &fasthttp.Server{Handler: s.Handler()})

	t.Run("serves with safe headers", func(t *testing.T) {
		for _, tt := range []struct {
			img   Image
			ctype string
		}{{img, "image/png"}, {jpg, "image/jpeg"}, {gifImg, "image/gif"}, {webpImg, "image/webp"}} {
			resp := do("GET", tt.img.URL)
			if resp.StatusCode() != 200 {
				t.Fatalf("GET %s: status %d", tt.img.URL, resp.StatusCode())
			}
			want := map[string]string{
				"Content-Type":            tt.ctype,
				"X-Content-Type-Options":  "nosniff",
				"Cache-Control":           "public, max-age=31536000, immutable",
				"Content-Security-Policy": "default-src 'none'; sandbox",
				"Content-Length":          strconv.FormatInt(tt.img.Size, 10),
				"Content-Encoding":        "",
			}
			for k, v := range want {
				if got := string(resp.Header.Peek(k)); got != v {
					t.Errorf("%s: %s = %q, want %q", tt.ctype, k, got, v)
				}
			}
			if !bytes.Equal(resp.Body(), stored(t, s, tt.img)) {
				t.Errorf("%s: body differs from the stored file", tt.ctype)
			}
		}
	})

	t.Run("HEAD", func(t *testing.T) {
		resp := do("HEAD", img.URL)
		if resp.StatusCode() != 200 || len(resp.Body()) != 0 {
			t.Fatalf("status %d, %d body bytes", resp.StatusCode(), len(resp.Body()))
		}
		if got := resp.Header.ContentLength(); got != int(img.Size) {
			t.Errorf("Content-Length %d, want %d", got, img.Size)
		}
		if got := string(resp.Header.Peek("X-Content-Type-Options")); got != "nosniff" {
			t.Errorf("nosniff missing: %q", got)
		}
	})

	t.Run("conditional GET", func(t *testing.T) {
		etag := string(do("GET", img.URL).Header.Peek("ETag"))
		if etag == "" {
			t.Fatal("no ETag")
		}
		if resp := do("GET", img.URL, "If-None-Match: "+etag); resp.StatusCode() != 304 || len(resp.Body()) != 0 {
			t.Errorf("status %d with %d body bytes, want 304", resp.StatusCode(), len(resp.Body()))
		}
		if resp := do("GET", img.URL, `If-None-Match: "other"`); resp.StatusCode() != 200 {
			t.Errorf("other ETag: status %d, want 200", resp.StatusCode())
		}
	})

	t.Run("404", func(t *testing.T) {
		for _, target := range []string{
			"/media/" + missing,
			"/media/../etc/passwd",
			"/media/../passwd",
			"/media/%2e%2e/x",
			"/media/%2e%2e/passwd",
			"/media/..%2fpasswd",
			"/media/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
			"/media/....//passwd",
			"/media/" + img.Key[:2] + "/" + img.Key, // the on-disk layout is not a URL
			"/media/" + img.Key[:2] + "/" + tempPrefix + "123",
			"/media/" + tempPrefix + "123",
			"/media/" + strings.ToUpper(img.Key[:32]) + ".png",
			"/media/" + img.Key + "/",
			"/media/" + img.Key + "%00.png",
			"/media/" + img.Key[:32] + ".html",
			"/media/" + dirKey, // a directory, not a file
			"/media/",
			"/media",
			"/" + img.Key,
			"/etc/passwd",
		} {
			resp := do("GET", target)
			if resp.StatusCode() != 404 {
				t.Errorf("GET %s: status %d, want 404", target, resp.StatusCode())
			}
			if b := resp.Body(); bytes.Contains(b, []byte("root:")) || bytes.Contains(b, []byte("upload")) || bytes.Contains(b, pngMagic) {
				t.Errorf("GET %s leaked a file", target)
			}
		}
	})

	t.Run("405", func(t *testing.T) {
		for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
			resp := do(m, img.URL)
			if resp.StatusCode() != 405 {
				t.Errorf("%s: status %d, want 405", m, resp.StatusCode())
			}
			if got := string(resp.Header.Peek("Allow")); got != "GET, HEAD" {
				t.Errorf("%s: Allow %q", m, got)
			}
		}
		if _, err := os.Stat(s.b.(*fileBackend).path(img.Key)); err != nil {
			t.Errorf("image gone after DELETE: %v", err)
		}
	})

	t.Run("deleted image", func(t *testing.T) {
		gone := save(t, s, pngData)
		if err := s.Delete(gone.Key); err != nil {
			t.Fatal(err)
		}
		if resp := do("GET", gone.URL); resp.StatusCode() != 404 {
			t.Errorf("status %d, want 404", resp.StatusCode())
		}
	})
}
