package httpapi

import (
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/persistence"
)

const (
	msgRequestNotFound = "Friend request not found"
	msgNotFriends      = "You are not friends with this user"
)

// friendRoutes are docs/product.md §7.4, plus GET /friends/check/{id} (docs/product.md §7.4).
func (s *Server) friendRoutes() {
	a := s.deps.Friends
	if a == nil {
		return
	}
	r := s.router
	r.GET("/api/friends/friends-list", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.List(requestContext(ctx), p, limit, cursor)
	}))
	r.GET("/api/friends/user-friends/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		limit, cursor := pageQuery(ctx)
		return a.UserFriends(requestContext(ctx), p, id, limit, cursor)
	}))
	r.GET("/api/friends/pending-requests", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Pending(requestContext(ctx), p, limit, cursor)
	}))
	r.GET("/api/friends/sent-requests", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		limit, cursor := pageQuery(ctx)
		return a.Sent(requestContext(ctx), p, limit, cursor)
	}))
	r.GET("/api/friends/suggestions", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		return a.Suggestions(requestContext(ctx), p)
	}))
	r.POST("/api/friends/send-request", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in app.SendRequestInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		res, err := a.Send(requestContext(ctx), p, in)
		if err == nil && res.FriendRequest.Status == persistence.RequestPending {
			created(ctx)
		}
		return res, err
	}))
	r.PATCH("/api/friends/accept-request/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgRequestNotFound)
		if err != nil {
			return nil, err
		}
		return a.Accept(requestContext(ctx), p, id)
	}))
	r.PATCH("/api/friends/decline-request/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgRequestNotFound)
		if err != nil {
			return nil, err
		}
		return a.Decline(requestContext(ctx), p, id)
	}))
	r.DELETE("/api/friends/cancel-request/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgRequestNotFound)
		if err != nil {
			return nil, err
		}
		return a.Cancel(requestContext(ctx), p, id)
	}))
	r.DELETE("/api/friends/unfriend/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgNotFriends)
		if err != nil {
			return nil, err
		}
		return a.Unfriend(requestContext(ctx), p, id)
	}))
	r.GET("/api/friends/check/{id}", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		id, err := pathID(ctx, "id", msgUserNotFound)
		if err != nil {
			return nil, err
		}
		return a.Check(requestContext(ctx), p, id)
	}))
}

// pageQuery reads a list's ?limit= and ?cursor=. A missing or malformed
// limit is 0, which the app reads as its default.
func pageQuery(ctx *fasthttp.RequestCtx) (int, string) {
	args := ctx.QueryArgs()
	return args.GetUintOrZero("limit"), string(args.Peek("cursor"))
}
