package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"campus/app"
)

// The feed's first page in its document (issue 27, a first post at the
// network's floor; app/firstpage.go has why). On a slow phone the document
// arrives two round trips into the load and every further round trip is
// more than half a second, so the document of "/" carries the viewer's first
// page of posts and the client paints it before its code arrives
// (client/src/api/paint.ts). Who the viewer is comes from the first-page
// cookie that every sign-in sets beside the token; it is read here and
// nowhere else, and only to render that document: every API call keeps
// authenticating by the Authorization header alone, so the cookie opens no
// cross-site request forgery.

// firstPagePosts is how many posts the document carries: what fills a
// first screen (the feed's own pages are longer; the client continues from
// this page's cursor).
const firstPagePosts = 5

// firstPageTemplate is the build's first-page document (client/vite.config.ts):
// index.html with the stylesheets inline, the painter after the root, and
// firstPageMarker where the page's data goes.
const firstPageTemplate = "first-page.html"

// firstPageMarker is where the template takes the data block.
const firstPageMarker = "<!--campus:first-page-->"

// firstPageDataID is the data block's element id (client/src/api/boot.ts reads it).
const firstPageDataID = "campus-first-page"

// documentBrotliLevel compresses a document made for one request: the
// inline stylesheets make it ~50 KB, which level 5 brings to under a
// quarter in about half a millisecond (a level up buys 1 %).
const documentBrotliLevel = 5

// firstPageFunc answers the feed's first page for a first-page pass: the
// viewer's id and the page's envelope as JSON, or false when the pass (or
// the database) gives none and the plain document goes out.
type firstPageFunc func(ctx *fasthttp.RequestCtx, pass string) (userID string, data []byte, ok bool)

// feedDocument reports whether a document path opens on the feed (the
// client's routes for it).
func feedDocument(p []byte) bool {
	return string(p) == "/" || string(p) == "/feed"
}

// firstPageDoc is the build's first-page template, split at the marker,
// with the CSP that allows its inline scripts and stylesheet.
type firstPageDoc struct {
	head, tail []byte
	policy     string
}

func parseFirstPageDoc(raw []byte) (*firstPageDoc, error) {
	head, tail, ok := bytes.Cut(raw, []byte(firstPageMarker))
	if !ok || bytes.Contains(tail, []byte(firstPageMarker)) {
		return nil, errors.New("httpapi: first-page template: want one " + firstPageMarker)
	}
	return &firstPageDoc{head: head, tail: tail, policy: policyAllowing(scriptHashes(raw), styleHashes(raw))}, nil
}

// firstPage answers the feed's document with the viewer's first page, when
// the build has a template, the request is a GET with a first-page cookie,
// and first answers a page for it.
func (f *indexFiles) firstPage(ctx *fasthttp.RequestCtx, first firstPageFunc) ([]byte, bool) {
	if f.template == nil || first == nil || !ctx.IsGet() {
		return nil, false
	}
	pass := ctx.Request.Header.Cookie(app.FirstPageCookie)
	if len(pass) == 0 {
		return nil, false
	}
	userID, data, ok := first(ctx, string(pass))
	if !ok {
		return nil, false
	}
	t := f.template
	doc := make([]byte, 0, len(t.head)+len(data)+len(t.tail)+128)
	doc = append(doc, t.head...)
	doc = append(doc, `<script type="application/json" id="`+firstPageDataID+`" data-user="`...)
	doc = append(doc, userID...)
	doc = append(doc, `">`...)
	doc = append(doc, data...)
	doc = append(doc, `</script>`...)
	return append(doc, t.tail...), true
}

// firstPage is the static handler's firstPageFunc: the pass's holder, and
// their feed's first page from the feed's own use case, as the envelope
// GET /api/posts/feed answers, made safe to sit in a <script> element. A
// pass that no longer holds (a revoked or expired token's, an account's that
// is gone) is cleared.
func (s *Server) firstPage(ctx *fasthttp.RequestCtx, pass string) (string, []byte, bool) {
	if s.deps.Sessions == nil || s.deps.Posts == nil {
		return "", nil, false
	}
	p, err := s.deps.Sessions.AuthenticateFirstPage(requestContext(ctx), pass)
	if errors.Is(err, app.ErrBadToken) {
		s.clearFirstPageCookie(ctx)
		return "", nil, false
	}
	if err != nil {
		// The plain document still works: the client asks for the feed.
		s.log.Warn().Err(err).Str("request_id", requestID(ctx)).Msg("first page: pass")
		return "", nil, false
	}
	page, err := s.deps.Posts.Feed(requestContext(ctx), p, firstPagePosts, "")
	if err != nil {
		s.log.Warn().Err(err).Str("request_id", requestID(ctx)).Msg("first page: feed")
		return "", nil, false
	}
	return p.UserID.String(), scriptSafeJSON(page.AppendJSON([]byte(`{"status":"success","data":`)), '}'), true
}

// scriptSafeJSON is the JSON in b (with tail appended) with every <, > and &
// (and U+2028, U+2029) written as a \u escape, which JSON.parse reads back
// as the same text: nothing in it can end its <script> element or open a
// comment there, whatever a post says, and whatever encoder wrote it.
func scriptSafeJSON(b []byte, tail byte) []byte {
	b = append(b, tail)
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/16)
	json.HTMLEscape(&out, b)
	return out.Bytes()
}

// firstPageRoutes let the client manage the cookie itself: set it for the
// token it holds (a sign-in from before there was one), or drop it (the
// document carried a page that the client has no session for).
func (s *Server) firstPageRoutes() {
	if s.deps.Sessions == nil {
		return
	}
	r := s.router
	r.POST("/api/auth/first-page", s.authed(func(ctx *fasthttp.RequestCtx, _ app.Principal) (any, error) {
		if err := s.setFirstPageCookie(ctx, bearer(ctx)); err != nil {
			return nil, err
		}
		return app.MessageResult{Message: "First page cookie set"}, nil
	}))
	r.DELETE("/api/auth/first-page", s.public(func(ctx *fasthttp.RequestCtx) (any, error) {
		s.clearFirstPageCookie(ctx)
		return app.MessageResult{Message: "First page cookie cleared"}, nil
	}))
}

// signedIn sets the first-page cookie beside a token a sign-in answers. A
// cookie that cannot be made costs the next load its inline page, never the
// sign-in: logged, not returned.
func (s *Server) signedIn(ctx *fasthttp.RequestCtx, token string) {
	if s.deps.Sessions == nil {
		return
	}
	if err := s.setFirstPageCookie(ctx, token); err != nil {
		s.log.Warn().Err(err).Str("request_id", requestID(ctx)).Msg("first page: cookie")
	}
}

// setFirstPageCookie sets the cookie with the pass for token: HttpOnly (no
// script reads it), SameSite=Lax (other sites' requests do not carry it),
// Secure over TLS (or behind a proxy for an https origin), for the whole site (the feed's paths are / and /feed),
// and gone when the token expires.
func (s *Server) setFirstPageCookie(ctx *fasthttp.RequestCtx, token string) error {
	pass, exp, err := s.deps.Sessions.FirstPagePass(token)
	if err != nil {
		return fmt.Errorf("httpapi: first-page pass: %w", err)
	}
	s.writeFirstPageCookie(ctx, pass, exp)
	return nil
}

// clearFirstPageCookie tells the browser to drop the cookie.
func (s *Server) clearFirstPageCookie(ctx *fasthttp.RequestCtx) {
	s.writeFirstPageCookie(ctx, "", fasthttp.CookieExpireDelete)
}

func (s *Server) writeFirstPageCookie(ctx *fasthttp.RequestCtx, value string, expires time.Time) {
	c := fasthttp.AcquireCookie()
	defer fasthttp.ReleaseCookie(c)
	c.SetKey(app.FirstPageCookie)
	c.SetValue(value)
	c.SetPath("/")
	c.SetExpire(expires)
	c.SetHTTPOnly(true)
	c.SetSameSite(fasthttp.CookieSameSiteLaxMode)
	c.SetSecure(ctx.IsTLS() || strings.HasPrefix(s.deps.Config.PublicOrigin, "https://"))
	ctx.Response.Header.SetCookie(c)
}
