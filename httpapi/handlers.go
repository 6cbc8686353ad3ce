package httpapi

import (
	"bytes"
	"context"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

// handler is the shape of every public route: parse the request, call one
// app method, return the data for the success envelope or an error.
type handler func(ctx *fasthttp.RequestCtx) (any, error)

// authedHandler is a route that needs a signed-in caller.
type authedHandler func(ctx *fasthttp.RequestCtx, p app.Principal) (any, error)

// public adapts h to fasthttp, writing the envelope.
func (s *Server) public(h handler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		data, err := h(ctx)
		if err != nil {
			writeError(ctx, err)
			return
		}
		writeData(ctx, data)
	}
}

// authed checks the bearer token before calling h; 401 otherwise.
func (s *Server) authed(h authedHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		p, err := s.principal(ctx, bearer(ctx))
		if err != nil {
			writeError(ctx, err)
			return
		}
		data, err := h(ctx, p)
		if err != nil {
			writeError(ctx, err)
			return
		}
		writeData(ctx, data)
	}
}

func (s *Server) principal(ctx *fasthttp.RequestCtx, token string) (app.Principal, error) {
	if s.deps.Sessions == nil || token == "" {
		return app.Principal{}, app.ErrBadToken
	}
	return s.deps.Sessions.Authenticate(requestContext(ctx), token)
}

// bearer is the token of an "Authorization: Bearer …" header.
func bearer(ctx *fasthttp.RequestCtx) string {
	h := ctx.Request.Header.Peek("Authorization")
	const prefix = "bearer "
	if len(h) > len(prefix) && bytes.EqualFold(h[:len(prefix)], []byte(prefix)) {
		return string(bytes.TrimSpace(h[len(prefix):]))
	}
	return ""
}

// requestContext is the context for app calls. fasthttp's RequestCtx is a
// context.Context too, but it is recycled after the handler returns, so
// app code that outlives the request must not hold it — and database/sql
// does: each query's Rows reads ctx.Done() from a goroutine of its own
// (Rows.awaitDone) that may run after the handler returned, while
// Server.Shutdown resets the channel behind Done (a data race under
// -race). fasthttp closes Done only at shutdown, so dropping the
// cancellation loses nothing.
func requestContext(ctx *fasthttp.RequestCtx) context.Context { return context.WithoutCancel(ctx) }

// requestID is the request's id: the client's X-Request-Id when valid, else
// one the middleware made.
func requestID(ctx *fasthttp.RequestCtx) string {
	id, _ := ctx.UserValue(ctxKeyRequestID).(string)
	return id
}

// pathID parses the route parameter name as an id; a malformed id answers
// 404 with msg, since no such thing can exist.
func pathID(ctx *fasthttp.RequestCtx, name, msg string) (uuid.UUID, error) {
	raw, _ := ctx.UserValue(name).(string)
	id, err := uuid.Parse(raw)
	if err != nil {
		return uuid.Nil, domain.NotFound(msg)
	}
	return id, nil
}

// created marks a success answer as 201 Created.
func created(ctx *fasthttp.RequestCtx) { ctx.SetStatusCode(fasthttp.StatusCreated) }
