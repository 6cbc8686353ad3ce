package httpapi

import (
	"github.com/valyala/fasthttp"

	"campus/app"
)

// pushRoutes are Web Push (issue 16): the server's public key, and turning
// push on and off for the caller's device.
func (s *Server) pushRoutes() {
	a := s.deps.Push
	if a == nil {
		return
	}
	r := s.router
	// Public: the key is what every browser subscribes with, and not secret.
	r.GET("/api/push/key", s.public(func(*fasthttp.RequestCtx) (any, error) {
		return a.Key(), nil
	}))
	r.POST("/api/push/subscriptions", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in app.PushSubscriptionInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Subscribe(requestContext(ctx), p, in)
	}))
	r.DELETE("/api/push/subscriptions", s.authed(func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error) {
		var in app.PushSubscriptionInput
		if err := decodeJSON(ctx, &in); err != nil {
			return nil, err
		}
		return a.Unsubscribe(requestContext(ctx), p, in)
	}))
}
