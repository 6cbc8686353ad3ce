package media

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"path"
	"strings"
	"time"

	"github.com/valyala/fasthttp"
)

// serveTimeout bounds one image's trip from the backend to the client. An
// image is at most MaxBytes, so this is generous even for a slow client.
const serveTimeout = 2 * time.Minute

// Handler serves GET and HEAD /media/<key>. Mount it for every method on that
// path (with fasthttp/router: r.ANY("/media/{key}", h)); it answers 405
// itself and reads the key from the request path, not from a route value.
//
// Only names of the exact shape Save gives are looked up, so "..", encoded
// slashes, absolute paths and temporary files are 404s before any file is
// touched. The bytes are streamed as stored, from disk or from the bucket
// (clients never need access to the bucket): no directory listings, no range
// or compression machinery, no compressed copies written next to it (as
// fasthttp.FS would). The headers make a stored file inert even if a browser
// opened it as a page: the type is fixed by the extension and must not be
// sniffed, and the CSP allows nothing and sandboxes the document. Content
// never changes under a key, so it may be cached for a year, and the key is
// its ETag. A backend failure is logged and answered with a bare 500 (503
// when the backend did not answer in time): its details never reach clients.
func (s *Store) Handler() fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		if !ctx.IsGet() && !ctx.IsHead() {
			ctx.Error("Method Not Allowed", fasthttp.StatusMethodNotAllowed)
			ctx.Response.Header.Set("Allow", "GET, HEAD") // after Error, which resets the headers
			return
		}
		key, ok := strings.CutPrefix(string(ctx.Path()), "/media/")
		if !ok || !validKey(key) {
			ctx.NotFound()
			return
		}
		etag := `"` + key + `"`
		inm := ctx.Request.Header.Peek("If-None-Match")
		notModified := len(inm) > 0 &&
			(bytes.Contains(inm, []byte(etag)) || bytes.Equal(bytes.TrimSpace(inm), []byte("*")))

		body, size, err := s.fetch(key, notModified || ctx.IsHead())
		if errors.Is(err, fs.ErrNotExist) {
			ctx.NotFound()
			return
		}
		if err != nil {
			s.log.Error().Err(err).Str("key", key).Msg("read media")
			if unavailable(err) {
				ctx.Error("Service Unavailable", fasthttp.StatusServiceUnavailable)
				ctx.Response.Header.Set("Retry-After", "5")
				return
			}
			ctx.Error("Internal Server Error", fasthttp.StatusInternalServerError)
			return
		}

		h := &ctx.Response.Header
		h.SetContentType(byExt(strings.TrimPrefix(path.Ext(key), ".")).contentType)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("ETag", etag)

		if notModified {
			ctx.SetStatusCode(fasthttp.StatusNotModified)
			return
		}
		if ctx.IsHead() {
			h.SetContentLength(int(size))
			return
		}
		// fasthttp closes the body once it is sent or the response dropped.
		ctx.Response.SetBodyStream(body, int(size))
	}
}

// fetch opens key for streaming, or only stats it when statOnly. The body
// outlives the handler (fasthttp streams it after the handler returned), so
// it gets a context of its own, ended when the stream is closed.
func (s *Store) fetch(key string, statOnly bool) (io.ReadCloser, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), serveTimeout)
	if statOnly {
		defer cancel()
		size, err := s.b.stat(ctx, key)
		return nil, size, err
	}
	rc, size, err := s.b.open(ctx, key)
	if err != nil {
		cancel()
		return nil, 0, err
	}
	return cancelOnClose{rc, cancel}, size, nil
}

// cancelOnClose ends a streamed body's context when fasthttp closes it.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// unavailable reports whether err says the backend could not be reached in
// time, which a retry may cure, rather than that it failed.
func unavailable(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
