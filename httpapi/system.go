package httpapi

import (
	"context"
	"errors"
	"time"

	"github.com/valyala/fasthttp"

	"campus/domain"
)

func (s *Server) health(ctx *fasthttp.RequestCtx) {
	writeData(ctx, map[string]string{"status": "ok"})
}

// NotReady is what Deps.Ready answers when one of its checks fails: Check
// names it ("database", "cluster", …) and is shown in the answer; Err says
// why and is only logged.
type NotReady struct {
	Check string
	Err   error
}

func (e *NotReady) Error() string { return e.Check + ": " + e.Err.Error() }

func (e *NotReady) Unwrap() error { return e.Err }

// ready is the load balancer's readiness probe: 503 until the database, the
// cluster and the index all answer. The answer names the check that failed
// (errors[0].field) when the check says which.
func (s *Server) ready(ctx *fasthttp.RequestCtx) {
	if s.draining.Load() {
		notReady(ctx, &NotReady{Check: "draining", Err: errDraining})
		return
	}
	if s.deps.Ready != nil {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.deps.Ready(c); err != nil {
			s.log.Warn().Err(err).Msg("not ready")
			notReady(ctx, err)
			return
		}
	}
	ready := map[string]any{"status": "ready"}
	if s.deps.Members != nil {
		ready["members"] = s.deps.Members()
	}
	writeData(ctx, ready)
}

// errDraining is why a draining node is not ready.
var errDraining = errors.New("node is draining")

// notReady answers the readiness probe's 503, naming the failed check
// (errors[0].field) when err says which.
func notReady(ctx *fasthttp.RequestCtx, err error) {
	body := errorBody{Status: "error", Message: "Not ready", RetryAfter: 1}
	var nr *NotReady
	if errors.As(err, &nr) {
		body.Errors = []domain.FieldError{{Field: nr.Check, Msg: "Not ready"}}
	}
	ctx.Response.Header.Set("Retry-After", "1")
	ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
	writeJSON(ctx, body)
}

// publicConfig is what the client needs before sign-in (docs/architecture.md §3.2).
func (s *Server) publicConfig(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Set("Cache-Control", "no-cache")
	writeData(ctx, map[string]string{
		"productName":  s.deps.Config.ProductName,
		"supportEmail": s.deps.Config.SupportEmail,
	})
}
