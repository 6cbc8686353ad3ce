package media

import (
	"bytes"
	"errors"
	"os"
	"path"
	"strings"

	"github.com/valyala/fasthttp"
)

// Handler serves GET and HEAD /media/<key>. Mount it for every method on that
// path (with fasthttp/router: r.ANY("/media/{key}", h)); it answers 405
// itself and reads the key from the request path, not from a route value.
//
// Only names of the exact shape Save gives are looked up, so "..", encoded
// slashes, absolute paths and temporary files are 404s before any file is
// touched. The file is streamed as is: no directory listings, no range or
// compression machinery, no compressed copies written next to it (as
// fasthttp.FS would). The headers make a stored file inert even if a browser
// opened it as a page: the type is fixed by the extension and must not be
// sniffed, and the CSP allows nothing and sandboxes the document. Content
// never changes under a key, so it may be cached for a year.
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
		f, err := os.Open(s.path(key))
		if errors.Is(err, os.ErrNotExist) {
			ctx.NotFound()
			return
		}
		if err != nil {
			s.log.Error().Err(err).Str("key", key).Msg("open media file")
			ctx.Error("Internal Server Error", fasthttp.StatusInternalServerError)
			return
		}
		info, err := f.Stat()
		if err != nil || !info.Mode().IsRegular() {
			_ = f.Close() // read-only; nothing to lose
			if err != nil {
				s.log.Error().Err(err).Str("key", key).Msg("stat media file")
				ctx.Error("Internal Server Error", fasthttp.StatusInternalServerError)
				return
			}
			ctx.NotFound()
			return
		}

		h := &ctx.Response.Header
		h.SetContentType(byExt(strings.TrimPrefix(path.Ext(key), ".")).contentType)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		etag := `"` + key + `"`
		h.Set("ETag", etag)

		if inm := ctx.Request.Header.Peek("If-None-Match"); len(inm) > 0 &&
			(bytes.Contains(inm, []byte(etag)) || bytes.Equal(bytes.TrimSpace(inm), []byte("*"))) {
			_ = f.Close()
			ctx.SetStatusCode(fasthttp.StatusNotModified)
			return
		}
		if ctx.IsHead() {
			_ = f.Close()
			h.SetContentLength(int(info.Size()))
			return
		}
		// fasthttp closes f once the body is sent or the response dropped.
		ctx.Response.SetBodyStream(f, int(info.Size()))
	}
}
