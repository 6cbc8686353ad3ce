package httpapi

import (
	"net/url"

	"github.com/valyala/fasthttp"

	"campus/app"
)

// tagRoutes are a tag's page and trending (issue 27 item 2), for signed-in
// users: GET /api/tags/{tag} (the tag and how many posts the caller may
// list), GET /api/tags/{tag}/posts?sort=new|top&limit=&cursor= and GET
// /api/trending.
func (s *Server) tagRoutes() {
	a := s.deps.Tags
	if a == nil {
		return
	}
	s.router.GET("/api/tags/{tag}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Get(requestContext(ctx), p, tagParam(ctx))
	}))
	s.router.GET("/api/tags/{tag}/posts", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Posts(requestContext(ctx), p, tagParam(ctx), string(ctx.QueryArgs().Peek("sort")), limit, cursor)
	}))
	s.router.GET("/api/trending", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Trending(requestContext(ctx), p)
	}))
}

// tagParam is the {tag} of the path, percent-decoded: the router matches
// the path as sent, and a tag in most scripts (or with its '#') is sent
// encoded. Undecodable, it is passed on as it is, which no tag is.
func tagParam(ctx *fasthttp.RequestCtx) string {
	raw := pathString(ctx, "tag")
	if tag, err := url.PathUnescape(raw); err == nil {
		return tag
	}
	return raw
}
