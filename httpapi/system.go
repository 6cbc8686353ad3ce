package httpapi

import (
	"context"
	"time"

	"github.com/valyala/fasthttp"
)

func (s *Server) health(ctx *fasthttp.RequestCtx) {
	writeData(ctx, map[string]string{"status": "ok"})
}

// ready is the load balancer's readiness probe: 503 until the database, the
// cluster and the index all answer.
func (s *Server) ready(ctx *fasthttp.RequestCtx) {
	if s.deps.Ready != nil {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.deps.Ready(c); err != nil {
			s.log.Warn().Err(err).Msg("not ready")
			ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
			writeJSON(ctx, errorBody{Status: "error", Message: "Not ready"})
			return
		}
	}
	ready := map[string]any{"status": "ready"}
	if s.deps.Members != nil {
		ready["members"] = s.deps.Members()
	}
	writeData(ctx, ready)
}

// publicConfig is what the client needs before sign-in (DESIGN §9).
func (s *Server) publicConfig(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Set("Cache-Control", "no-cache")
	writeData(ctx, map[string]string{
		"productName":  s.deps.Config.ProductName,
		"supportEmail": s.deps.Config.SupportEmail,
	})
}
