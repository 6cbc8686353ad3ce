package httpapi

import (
	"io"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

// groupRoutes are the groups API of issue 18 (briefs/GROUPS_API.md).
func (s *Server) groupRoutes() {
	a := s.deps.Groups
	if a == nil {
		return
	}
	r := s.router
	// h is a handler of /api/groups/{handle}/...
	type groupHandler func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error)
	h := func(fn groupHandler) fasthttp.RequestHandler {
		return s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
			return fn(ctx, p, pathString(ctx, "handle"))
		})
	}
	// hu is h for routes that also name a user.
	hu := func(fn func(ctx *fasthttp.RequestCtx, p app.Principal, handle string, user uuid.UUID) (any, error)) fasthttp.RequestHandler {
		return h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
			id, err := pathID(ctx, "userId", msgUserNotFound)
			if err != nil {
				return nil, err
			}
			return fn(ctx, p, handle, id)
		})
	}
	r.POST("/api/groups", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in domain.GroupInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.Create(requestContext(ctx), p, in)
		if err == nil {
			created(ctx)
		}
		return res, err
	}))
	r.GET("/api/groups", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.List(requestContext(ctx), p, string(ctx.QueryArgs().Peek("q")), limit, cursor)
	}))
	r.GET("/api/groups/mine", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Mine(requestContext(ctx), p, limit, cursor)
	}))
	r.GET("/api/groups/suggestions", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Suggestions(requestContext(ctx), p)
	}))
	r.GET("/api/groups/{handle}", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		return a.Get(requestContext(ctx), p, handle)
	}))
	r.PATCH("/api/groups/{handle}", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		var in domain.GroupPatch
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Update(requestContext(ctx), p, handle, in)
	}))
	for _, which := range []string{"avatar", "cover"} {
		r.POST("/api/groups/{handle}/"+which, h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
			return withImage(ctx, "image", func(f io.Reader) (any, error) {
				return a.UploadImage(requestContext(ctx), p, handle, which, f)
			})
		}))
	}
	r.DELETE("/api/groups/{handle}", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		return a.Delete(requestContext(ctx), p, handle)
	}))
	r.POST("/api/groups/{handle}/join", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		return a.Join(requestContext(ctx), p, handle)
	}))
	r.POST("/api/groups/{handle}/leave", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		return a.Leave(requestContext(ctx), p, handle)
	}))
	r.DELETE("/api/groups/{handle}/request", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		return a.CancelRequest(requestContext(ctx), p, handle)
	}))
	r.GET("/api/groups/{handle}/members", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Members(requestContext(ctx), p, handle, string(ctx.QueryArgs().Peek("role")), limit, cursor)
	}))
	r.GET("/api/groups/{handle}/requests", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Requests(requestContext(ctx), p, handle, limit, cursor)
	}))
	r.POST("/api/groups/{handle}/requests/{userId}/approve", hu(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string, id uuid.UUID) (any, error) {
		return a.Approve(requestContext(ctx), p, handle, id)
	}))
	r.POST("/api/groups/{handle}/requests/{userId}/decline", hu(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string, id uuid.UUID) (any, error) {
		return a.Decline(requestContext(ctx), p, handle, id)
	}))
	r.POST("/api/groups/{handle}/invitations", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		id, err := userIDBody(ctx)
		if err != nil {
			return nil, err
		}
		return a.Invite(requestContext(ctx), p, handle, id)
	}))
	r.POST("/api/groups/{handle}/invitation/decline", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		return a.DeclineInvitation(requestContext(ctx), p, handle)
	}))
	r.PATCH("/api/groups/{handle}/members/{userId}", hu(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string, id uuid.UUID) (any, error) {
		var in struct {
			Role string `json:"role"`
		}
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.SetRole(requestContext(ctx), p, handle, id, in.Role)
	}))
	r.DELETE("/api/groups/{handle}/members/{userId}", hu(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string, id uuid.UUID) (any, error) {
		return a.RemoveMember(requestContext(ctx), p, handle, id)
	}))
	r.POST("/api/groups/{handle}/transfer", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		id, err := userIDBody(ctx)
		if err != nil {
			return nil, err
		}
		return a.Transfer(requestContext(ctx), p, handle, id)
	}))
	r.PUT("/api/groups/{handle}/follow", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		var in struct {
			Closely *bool `json:"closely"`
		}
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		if in.Closely == nil {
			return nil, domain.InvalidField("closely", "closely must be true or false.")
		}
		return a.Follow(requestContext(ctx), p, handle, *in.Closely)
	}))
	r.PUT("/api/groups/{handle}/chat", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		var in struct {
			Enabled *bool `json:"enabled"`
		}
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		if in.Enabled == nil {
			return nil, domain.InvalidField("enabled", "enabled must be true or false.")
		}
		return a.SetChat(requestContext(ctx), p, handle, *in.Enabled)
	}))
	r.PUT("/api/groups/{handle}/pin", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		var in struct {
			PostID *string `json:"postId"`
		}
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		var id *uuid.UUID
		if in.PostID != nil {
			parsed, err := uuid.Parse(*in.PostID)
			if err != nil {
				return nil, domain.InvalidField("postId", domain.MsgGroupPinPost)
			}
			id = &parsed
		}
		return a.Pin(requestContext(ctx), p, handle, id)
	}))
	r.GET("/api/groups/{handle}/posts", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Posts(requestContext(ctx), p, handle, limit, cursor)
	}))
	r.GET("/api/groups/{handle}/live", h(func(ctx *fasthttp.RequestCtx, p app.Principal, handle string) (any, error) {
		return a.Live(requestContext(ctx), p, handle)
	}))
}

// userIDBody reads the body {"userId": "<uuid>"} of the invitation and
// transfer routes; an id that is no UUID names no user.
func userIDBody(ctx *fasthttp.RequestCtx) (uuid.UUID, error) {
	var in struct {
		UserID string `json:"userId"`
	}
	if err := decodeJSON(ctx, &in); err != nil {
		return uuid.Nil, err
	}
	id, err := uuid.Parse(in.UserID)
	if err != nil {
		return uuid.Nil, domain.InvalidField("userId", msgUserNotFound)
	}
	return id, nil
}
