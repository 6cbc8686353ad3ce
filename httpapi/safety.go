package httpapi

import (
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

const msgItemNotFound = "This content is no longer available"

// safetyRoutes are blocks, mutes and reports (any member) and the
// moderators' and admins' calls (issue 17).
func (s *Server) safetyRoutes() {
	r := s.router
	if a := s.deps.Safety; a != nil {
		r.GET("/api/safety/blocks", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			limit, cursor := pageQuery(ctx)
			return a.Blocked(requestContext(ctx), p, limit, cursor)
		}))
		r.POST("/api/safety/blocks/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			id, err := pathID(ctx, "id", msgUserNotFound)
			if err != nil {
				return nil, err
			}
			return a.Block(requestContext(ctx), p, id)
		}))
		r.DELETE("/api/safety/blocks/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			id, err := pathID(ctx, "id", msgUserNotFound)
			if err != nil {
				return nil, err
			}
			return a.Unblock(requestContext(ctx), p, id)
		}))
		r.GET("/api/safety/mutes", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			limit, cursor := pageQuery(ctx)
			return a.Muted(requestContext(ctx), p, limit, cursor)
		}))
		r.POST("/api/safety/mutes/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			id, err := pathID(ctx, "id", msgUserNotFound)
			if err != nil {
				return nil, err
			}
			return a.Mute(requestContext(ctx), p, id)
		}))
		r.DELETE("/api/safety/mutes/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			id, err := pathID(ctx, "id", msgUserNotFound)
			if err != nil {
				return nil, err
			}
			return a.Unmute(requestContext(ctx), p, id)
		}))
		r.POST("/api/reports", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			var in domain.ReportInput
			if err := decodeJSON(ctx, &in); err != nil {
				return nil, err
			}
			res, err := a.Report(requestContext(ctx), p, in)
			if err == nil {
				created(ctx)
			}
			return res, err
		}))
	}
	m := s.deps.Moderation
	if m == nil {
		return
	}
	// Any member may ask what they may do (the client shows the queue link).
	r.GET("/api/safety/capabilities", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return m.Capabilities(requestContext(ctx), p)
	}))
	r.GET("/api/moderation/queue", s.staff(false, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return m.Queue(requestContext(ctx), p, limit, cursor)
	}))
	r.POST("/api/moderation/items/{type}/{id}/dismiss", s.staff(false, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgItemNotFound)
		if err != nil {
			return nil, err
		}
		return m.Dismiss(requestContext(ctx), p, pathString(ctx, "type"), id, in)
	}))
	r.POST("/api/moderation/items/{type}/{id}/remove", s.staff(false, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgItemNotFound)
		if err != nil {
			return nil, err
		}
		return m.Remove(requestContext(ctx), p, pathString(ctx, "type"), id, in)
	}))
	r.POST("/api/moderation/users/{id}/suspend", s.staff(false, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return m.Suspend(requestContext(ctx), p, id, in)
	}))
	r.POST("/api/moderation/users/{id}/unsuspend", s.staff(false, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return m.Unsuspend(requestContext(ctx), p, id, in)
	}))
	r.GET("/api/admin/moderators", s.staff(true, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return m.Moderators(requestContext(ctx), p, limit, cursor)
	}))
	r.POST("/api/admin/moderators/{id}", s.staff(true, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return m.SetModerator(requestContext(ctx), p, id, true, in)
	}))
	r.DELETE("/api/admin/moderators/{id}", s.staff(true, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, in, err := moderationInput(ctx, msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return m.SetModerator(requestContext(ctx), p, id, false, in)
	}))
	r.GET("/api/admin/audit", s.staff(true, func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return m.Audit(requestContext(ctx), p, limit, cursor)
	}))
}

// staff is authed for moderators (admins with admin): anyone else gets 403
// before any id or body is read, and nothing changes.
func (s *Server) staff(admin bool, h func(*fasthttp.RequestCtx, app.Principal) (any, error)) fasthttp.RequestHandler {
	return s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		if err := s.deps.Moderation.Authorize(requestContext(ctx), p, admin); err != nil {
			return nil, err
		}
		return h(ctx, p)
	})
}

// moderationInput reads the {id} of a moderation route and its body.
func moderationInput(ctx *fasthttp.RequestCtx, notFound string) (uuid.UUID, domain.ModerationInput, error) {
	var in domain.ModerationInput
	id, err := pathID(ctx, "id", notFound)
	if err != nil {
		return id, in, err
	}
	return id, in, decodeJSON(ctx, &in)
}

func pathString(ctx *fasthttp.RequestCtx, name string) string {
	v, _ := ctx.UserValue(name).(string)
	return v
}
