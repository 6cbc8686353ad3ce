package httpapi

import (
	"github.com/valyala/fasthttp"

	"campus/app"
)

// notificationRoutes are docs/product.md §7.6; every call is the caller's own.
func (s *Server) notificationRoutes() {
	a := s.deps.Notifications
	if a == nil {
		return
	}
	r := s.router
	r.GET("/api/notifications", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.List(requestContext(ctx), p, limit, cursor)
	}))
	r.PATCH("/api/notifications/mark-as-read", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in app.MarkReadInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.MarkRead(requestContext(ctx), p, in)
	}))
	r.PATCH("/api/notifications/mark-all-as-read", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.MarkAllRead(requestContext(ctx), p)
	}))
	r.DELETE("/api/notifications/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", "Notification not found")
		if err != nil {
			return nil, err
		}
		return a.Delete(requestContext(ctx), p, id)
	}))
}
