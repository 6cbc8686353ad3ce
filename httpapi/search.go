package httpapi

import (
	"github.com/valyala/fasthttp"

	"campus/app"
)

// searchRoutes are the search overlay's GET /api/search, docs/product.md §7.2's
// GET /api/users/search and the mention typeahead's GET /api/users/suggest,
// all for signed-in users.
func (s *Server) searchRoutes() {
	sr := s.deps.Search
	if sr == nil {
		return
	}
	s.router.GET("/api/search", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		q, limit := searchQuery(ctx)
		return sr.SearchFor(requestContext(ctx), p, q, limit)
	}))
	s.router.GET("/api/users/search", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		q, limit := searchQuery(ctx)
		return sr.UsersFor(requestContext(ctx), p, q, limit)
	}))
	// The @mention typeahead, called as the composer's user types.
	s.router.GET("/api/users/suggest", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		q, limit := searchQuery(ctx)
		return sr.Suggest(requestContext(ctx), p, q, limit)
	}))
}

// searchQuery reads ?q= and ?limit= (missing or malformed: 0, the default).
func searchQuery(ctx *fasthttp.RequestCtx) (string, int) {
	args := ctx.QueryArgs()
	return string(args.Peek("q")), args.GetUintOrZero("limit")
}
