package httpapi

import (
	"bytes"
	"os"
	"path"
	"path/filepath"

	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"
)

// newStatic serves the built client from dir with an SPA fallback: any path
// that is not a file answers index.html, so /profile/abc works on reload.
// Vite's hashed files under /assets/ are cached forever; index.html never.
func newStatic(dir string, log zerolog.Logger) fasthttp.RequestHandler {
	index := filepath.Join(dir, "index.html")
	if _, err := os.Stat(index); err != nil {
		log.Warn().Str("client_dir", dir).Msg("client not built; / answers a notice (run make run)")
		return func(ctx *fasthttp.RequestCtx) {
			ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
			ctx.SetContentType("text/plain; charset=utf-8")
			ctx.SetBodyString("The Campus client is not built. Run `make run` (or `make client`).\n")
		}
	}
	serveIndex := func(ctx *fasthttp.RequestCtx) {
		ctx.Response.Header.Set("Cache-Control", "no-cache")
		fasthttp.ServeFile(ctx, index)
		ctx.SetContentType("text/html; charset=utf-8")
	}
	fs := &fasthttp.FS{
		Root:               dir,
		IndexNames:         nil,
		GenerateIndexPages: false,
		Compress:           false,
		AcceptByteRange:    false,
		PathNotFound:       serveIndex,
	}
	files := fs.NewRequestHandler()
	return func(ctx *fasthttp.RequestCtx) {
		p := ctx.Path()
		if len(p) <= 1 || bytes.Equal(p, []byte("/index.html")) || bytes.HasSuffix(p, []byte("/")) {
			serveIndex(ctx)
			return
		}
		// Only existing regular files go to the file server; everything else
		// is a client route and gets index.html.
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean(string(p))))); err != nil || !st.Mode().IsRegular() {
			serveIndex(ctx)
			return
		}
		if bytes.HasPrefix(p, []byte("/assets/")) {
			ctx.Response.Header.Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		files(ctx)
	}
}
