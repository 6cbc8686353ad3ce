package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
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
//
// first, when not nil, answers the feed's first page for a first-page pass
// (firstpage.go): the document of the feed's paths then carries it, built
// from the build's first-page template. Nil serves the plain page always.
func newStatic(dir string, log zerolog.Logger, first firstPageFunc) fasthttp.RequestHandler {
	index := filepath.Join(dir, "index.html")
	if _, err := os.Stat(index); err != nil {
		log.Warn().Str("client_dir", dir).Msg("client not built; / answers a notice (run make run)")
		return func(ctx *fasthttp.RequestCtx) {
			ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
			ctx.SetContentType("text/plain; charset=utf-8")
			ctx.SetBodyString("The Campus client is not built. Run `make run` (or `make client`).\n")
		}
	}
	page := &indexPage{path: index, templatePath: filepath.Join(dir, firstPageTemplate), log: log}
	serveIndex := func(ctx *fasthttp.RequestCtx) {
		files, err := page.current()
		if err != nil {
			log.Error().Err(err).Msg("index.html")
			ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
			ctx.SetContentType("text/plain; charset=utf-8")
			ctx.SetBodyString("The Campus client could not be read. Run `make client`.\n")
			return
		}
		ctx.SetContentType("text/html; charset=utf-8")
		if feedDocument(ctx.Path()) {
			// Who asks (the first-page cookie) decides what the feed's
			// document carries, for every cache on the way.
			ctx.Response.Header.Add(fasthttp.HeaderVary, "Cookie")
			if doc, ok := files.firstPage(ctx, first); ok {
				// The viewer's posts: never stored, by the browser or anyone between.
				ctx.Response.Header.Set("Cache-Control", "private, no-store")
				ctx.Response.Header.Set("Content-Security-Policy", files.template.policy)
				sendCompressed(ctx, doc)
				return
			}
		}
		ctx.Response.Header.Set("Cache-Control", "no-cache")
		ctx.Response.Header.Set("Content-Security-Policy", files.policy)
		files.sendPlain(ctx)
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
		// is a client route and gets index.html. The first-page template is
		// the server's, not a page of its own.
		clean := path.Clean(string(p))
		name := filepath.Join(dir, filepath.FromSlash(clean))
		if clean == "/"+firstPageTemplate || !isRegularFile(name) {
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
// text; inlineStyle a <style> element's. A regexp is enough: the page is
// our build's, not anyone's HTML.
var (
	inlineScript  = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	inlineStyle   = regexp.MustCompile(`(?is)<style\b[^>]*>(.*?)</style\s*>`)
	srcAttribute  = regexp.MustCompile(`(?i)(^|\s)src\s*=`)
	dataBlockType = regexp.MustCompile(`(?i)(^|\s)type\s*=\s*["']?application/json`)
)

// scriptHashes returns the CSP source of each inline script of page
// ('sha256-…'): base64 of the SHA-256 of the text between its tags exactly
// as written, which is what a browser hashes. Scripts with a src are not
// inline, and JSON data blocks never run: both are left out.
func scriptHashes(page []byte) []string {
	var hashes []string
	for _, m := range inlineScript.FindAllSubmatch(page, -1) {
		if srcAttribute.Match(m[1]) || dataBlockType.Match(m[1]) {
			continue
		}
		hashes = append(hashes, cspSource(m[2]))
	}
	return hashes
}

// styleHashes is scriptHashes for the page's <style> elements.
func styleHashes(page []byte) []string {
	var hashes []string
	for _, m := range inlineStyle.FindAllSubmatch(page, -1) {
		hashes = append(hashes, cspSource(m[1]))
	}
	return hashes
}

func cspSource(text []byte) string {
	sum := sha256.Sum256(text)
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// policyAllowing is contentSecurityPolicy with script-src also allowing the
// given script sources (hashes) and style-src the given style sources: the
// page's own inline scripts and styles and nothing else, so no
// 'unsafe-inline'.
func policyAllowing(scripts, styles []string) string {
	policy := contentSecurityPolicy
	if len(scripts) > 0 {
		policy = strings.Replace(policy, cspScriptSrc, cspScriptSrc+" "+strings.Join(scripts, " "), 1)
	}
	if len(styles) > 0 {
		policy = strings.Replace(policy, cspStyleSrc, cspStyleSrc+" "+strings.Join(styles, " "), 1)
	}
	return policy
}

// indexPage is index.html with the CSP of its responses (the build writes a
// bootstrap script into it, client/src/api/boot.ts, allowed by its hash),
// and the build's first-page template beside it. The files and their
// policies are read together, again whenever index.html changes (a client
// rebuilt under a running server), so a response's policy always allows the
// page it comes with. Safe for concurrent use.
type indexPage struct {
	path, templatePath string
	log                zerolog.Logger

	mu    sync.Mutex
	mod   time.Time
	size  int64
	files *indexFiles
}

// indexFiles is one build's index.html, compressed, and its first-page
// template; never changed once made.
type indexFiles struct {
	body     []byte
	br, gz   []byte
	policy   string
	template *firstPageDoc // nil: the build has none
}

// current answers the build's files, read again if index.html changed.
func (p *indexPage) current() (*indexFiles, error) {
	st, err := os.Stat(p.path)
	if err != nil {
		return nil, fmt.Errorf("httpapi: index page: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files != nil && st.ModTime().Equal(p.mod) && st.Size() == p.size {
		return p.files, nil
	}
	body, err := os.ReadFile(p.path)
	if err != nil {
		return nil, fmt.Errorf("httpapi: index page: %w", err)
	}
	f := &indexFiles{
		body:   body,
		br:     fasthttp.AppendBrotliBytesLevel(nil, body, fasthttp.CompressBrotliBestCompression),
		gz:     fasthttp.AppendGzipBytesLevel(nil, body, fasthttp.CompressBestCompression),
		policy: policyAllowing(scriptHashes(body), styleHashes(body)),
	}
	// A build without a usable template still serves its pages: the feed's
	// goes out plain, as before there was one.
	switch raw, err := os.ReadFile(p.templatePath); {
	case err == nil:
		if f.template, err = parseFirstPageDoc(raw); err != nil {
			p.log.Error().Err(err).Msg("first-page template: the feed's document goes out plain")
		}
	case !errors.Is(err, fs.ErrNotExist):
		p.log.Error().Err(err).Msg("first-page template: the feed's document goes out plain")
	}
	p.files, p.mod, p.size = f, st.ModTime(), st.Size()
	return f, nil
}

// sendPlain answers index.html in the best encoding the request accepts.
func (f *indexFiles) sendPlain(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Add(fasthttp.HeaderVary, fasthttp.HeaderAcceptEncoding)
	switch {
	case ctx.Request.Header.HasAcceptEncoding("br"):
		ctx.Response.Header.Set(fasthttp.HeaderContentEncoding, "br")
		ctx.SetBody(f.br)
	case ctx.Request.Header.HasAcceptEncoding("gzip"):
		ctx.Response.Header.Set(fasthttp.HeaderContentEncoding, "gzip")
		ctx.SetBody(f.gz)
	default:
		ctx.SetBody(f.body)
	}
}

// sendCompressed answers body (a document made for this request)
// compressed in the best encoding the request accepts: on a slow phone its
// bytes are the first post's wait.
func sendCompressed(ctx *fasthttp.RequestCtx, body []byte) {
	ctx.Response.Header.Add(fasthttp.HeaderVary, fasthttp.HeaderAcceptEncoding)
	switch {
	case ctx.Request.Header.HasAcceptEncoding("br"):
		ctx.Response.Header.Set(fasthttp.HeaderContentEncoding, "br")
		ctx.SetBody(fasthttp.AppendBrotliBytesLevel(nil, body, documentBrotliLevel))
	case ctx.Request.Header.HasAcceptEncoding("gzip"):
		ctx.Response.Header.Set(fasthttp.HeaderContentEncoding, "gzip")
		ctx.SetBody(fasthttp.AppendGzipBytesLevel(nil, body, fasthttp.CompressDefaultCompression))
	default:
		ctx.SetBody(body)
	}
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
