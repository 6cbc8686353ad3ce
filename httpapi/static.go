package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"mime"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"
)

// precompressed lists the encodings the client build writes next to each
// asset (client/scripts/compress.mjs), best first: name.js.br, name.js.gz.
var precompressed = []struct {
	encoding, suffix string
}{
	{"br", ".br"},
	{"gzip", ".gz"},
}

func init() {
	// Go's built-in table lacks the web app manifest's type (issue 16):
	// browsers accept it either way, but the spec names this one, and
	// nosniff makes types matter.
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
}

// revalidated are files outside /assets/ whose name stays the same across
// deploys while their content changes, so a browser must check each use:
// the service worker (its bytes are how a deploy is noticed; browsers cap
// its caching at a day anyway) and the manifest.
var revalidated = map[string]bool{"/sw.js": true, "/manifest.webmanifest": true}

// newStatic serves the built client from dir with an SPA fallback: any path
// that is not a file answers index.html, so /profile/abc works on reload.
// Vite's hashed files under /assets/ are cached forever; index.html never.
// Assets are sent in the best encoding the browser accepts of those the build
// pre-compressed, so nothing is compressed per request and the first load
// moves a fraction of the bytes.
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
	page := &indexPage{path: index}
	serveIndex := func(ctx *fasthttp.RequestCtx) {
		body, policy, err := page.current()
		if err != nil {
			log.Error().Err(err).Msg("index.html")
			ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
			ctx.SetContentType("text/plain; charset=utf-8")
			ctx.SetBodyString("The Campus client could not be read. Run `make client`.\n")
			return
		}
		ctx.Response.Header.Set("Cache-Control", "no-cache")
		ctx.Response.Header.Set("Content-Security-Policy", policy)
		ctx.SetContentType("text/html; charset=utf-8")
		ctx.SetBody(body)
	}
	fs := &fasthttp.FS{
		Root:               dir,
		IndexNames:         nil,
		GenerateIndexPages: false,
		// Compression happens once, at build time; see precompressed.
		Compress:        false,
		AcceptByteRange: false,
		PathNotFound:    serveIndex,
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
		clean := path.Clean(string(p))
		name := filepath.Join(dir, filepath.FromSlash(clean))
		if !isRegularFile(name) {
			serveIndex(ctx)
			return
		}
		switch {
		case bytes.HasPrefix(p, []byte("/assets/")):
			ctx.Response.Header.Set("Cache-Control", "public, max-age=31536000, immutable")
		case revalidated[clean]:
			ctx.Response.Header.Set("Cache-Control", "no-cache")
		}
		if encoding, suffix, varies := pickEncoding(ctx, name); varies {
			// Caches must key on Accept-Encoding whichever variant this is.
			ctx.Response.Header.Add(fasthttp.HeaderVary, fasthttp.HeaderAcceptEncoding)
			if encoding != "" {
				ctx.Request.URI().SetPath(clean + suffix)
				files(ctx)
				if ctx.Response.StatusCode() == fasthttp.StatusOK {
					ctx.Response.Header.Set(fasthttp.HeaderContentEncoding, encoding)
					ctx.SetContentType(contentTypeOf(clean))
				}
				return
			}
		}
		files(ctx)
	}
}

// inlineScript is a <script> element of index.html: its attributes and its
// text. A regexp is enough: the page is our build's, not anyone's HTML.
var (
	inlineScript = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	srcAttribute = regexp.MustCompile(`(?i)(^|\s)src\s*=`)
)

// scriptHashes returns the CSP source of each inline script of page
// ('sha256-…'): base64 of the SHA-256 of the text between its tags exactly
// as written, which is what a browser hashes. Scripts with a src are not
// inline and are left out.
func scriptHashes(page []byte) []string {
	var hashes []string
	for _, m := range inlineScript.FindAllSubmatch(page, -1) {
		if srcAttribute.Match(m[1]) {
			continue
		}
		sum := sha256.Sum256(m[2])
		hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return hashes
}

// policyAllowing is contentSecurityPolicy with script-src also allowing the
// given sources (hashes): the page's own inline scripts and nothing else, so
// no 'unsafe-inline'.
func policyAllowing(sources []string) string {
	if len(sources) == 0 {
		return contentSecurityPolicy
	}
	return strings.Replace(contentSecurityPolicy, cspScriptSrc, cspScriptSrc+" "+strings.Join(sources, " "), 1)
}

// indexPage is index.html with the CSP of its responses: the build writes a
// bootstrap script into it (client/src/api/boot.ts), allowed by its hash.
// The page and its policy are read together, again whenever the file
// changes (a client rebuilt under a running server), so a response's policy
// always allows the page it comes with. Safe for concurrent use.
type indexPage struct {
	path string

	mu     sync.Mutex
	mod    time.Time
	size   int64
	body   []byte
	policy string
}

// current answers the page and its policy, read again if the file changed.
func (p *indexPage) current() ([]byte, string, error) {
	st, err := os.Stat(p.path)
	if err != nil {
		return nil, "", fmt.Errorf("httpapi: index page: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.body != nil && st.ModTime().Equal(p.mod) && st.Size() == p.size {
		return p.body, p.policy, nil
	}
	body, err := os.ReadFile(p.path)
	if err != nil {
		return nil, "", fmt.Errorf("httpapi: index page: %w", err)
	}
	p.body, p.policy, p.mod, p.size = body, policyAllowing(scriptHashes(body)), st.ModTime(), st.Size()
	return p.body, p.policy, nil
}

// pickEncoding chooses the pre-compressed variant of name to send: the first
// of precompressed that the request accepts and the build wrote. varies
// reports whether any variant exists (so the response depends on
// Accept-Encoding even when the plain file goes out).
func pickEncoding(ctx *fasthttp.RequestCtx, name string) (encoding, suffix string, varies bool) {
	for _, c := range precompressed {
		if !isRegularFile(name + c.suffix) {
			continue
		}
		varies = true
		if encoding == "" && ctx.Request.Header.HasAcceptEncoding(c.encoding) {
			encoding, suffix = c.encoding, c.suffix
		}
	}
	return encoding, suffix, varies
}

func isRegularFile(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// contentTypeOf is the type of the uncompressed file, not of its .br or .gz.
func contentTypeOf(p string) string {
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}
