package httpapi

import (
	"github.com/valyala/fasthttp"

	"campus/app"
)

// adminRoutes are the admins' console (/admin in the client): accounts,
// roles, groups and the system page. The moderators' queue and the audit
// log are the moderation routes (safety.go).
func (s *Server) adminRoutes() {
	a := s.deps.Admin
	if a == nil {
		return
	}
	r := s.router
	r.GET("/api/admin/users", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Users(requestContext(ctx), p, string(ctx.QueryArgs().Peek("q")), limit, cursor)
	}))
	r.GET("/api/admin/users/{id}", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.User(requestContext(ctx), p, id)
	}))
	r.POST("/api/admin/users/{id}/suspend", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.Suspend(requestContext(ctx), p, id, in)
	}))
	r.POST("/api/admin/users/{id}/unsuspend", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.Unsuspend(requestContext(ctx), p, id, in)
	}))
	r.POST("/api/admin/users/{id}/reset-sessions", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.ResetSessions(requestContext(ctx), p, id)
	}))
	r.POST("/api/admin/users/{id}/roles", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		var in app.RoleInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.SetRole(requestContext(ctx), p, id, true, in)
	}))
	r.DELETE("/api/admin/users/{id}/roles/{role}", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.SetRole(requestContext(ctx), p, id, false, app.RoleInput{Role: pathString(ctx, "role"), Reason: in.Reason})
	}))
	r.GET("/api/admin/groups", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Groups(requestContext(ctx), p, string(ctx.QueryArgs().Peek("q")), limit, cursor)
	}))
	r.GET("/api/admin/system", s.adminOnly(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		ctx.Response.Header.Set("Cache-Control", "no-store")
		return a.System(requestContext(ctx), p)
	}))
}

// adminOnly is authed for admins: anyone else gets 403 before any id or
// body is read, and nothing changes.
func (s *Server) adminOnly(h func(*fasthttp.RequestCtx, app.Principal) (any, error)) fasthttp.RequestHandler {
	return s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		if err := s.deps.Admin.Authorize(requestContext(ctx), p); err != nil {
			return nil, err
		}
		return h(ctx, p)
	})
}
