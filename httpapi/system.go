package httpapi

import (
	"context"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
)

func (s *Server) health(ctx *fasthttp.RequestCtx) {
	writeData(ctx, map[string]string{"status": "ok"})
}

// Check is one dependency's state in the readiness answer (Deps.Ready).
type Check struct {
	// Name is what the answer calls it: database, search, cluster,
	// membership, mail, media.
	Name string
	// Err is nil while the dependency is fine. It is logged, never shown:
	// the answer says "ok" or "down".
	Err error
	// Optional dependencies are reported but leave the node ready: every
	// node shares them, so taking this one out of the load balancer would
	// not help (mail waits in the outbox; media failures answer 503 on
	// their own routes).
	Optional bool
}

// Check states in the readiness answer.
const (
	checkOK   = "ok"
	checkDown = "down"
)

// readiness is the readiness answer's data, ready or not.
type readiness struct {
	Status  string `json:"status"` // ready, not ready, draining
	Version string `json:"version"`
	// Node is this node's cluster (remoting) address.
	Node string `json:"node,omitempty"`
	// Members counts the cluster members this node sees;
	// MemberAddresses names them.
	Members         int               `json:"members"`
	MemberAddresses []string          `json:"memberAddresses"`
	Checks          map[string]string `json:"checks"`
}

// notReadyBody is the readiness probe's 503: the error envelope, naming the
// first failed check (errors[0].field), with the whole report as data.
type notReadyBody struct {
	errorBody
	Data readiness `json:"data"`
}

// ready is the load balancer's readiness probe: 503 until the database, the
// search index, the cluster and the node's membership all answer (mail and
// media are reported, never held against the node). Either way the answer
// names each dependency's state, this node's version and the members it
// sees; a 503 names the first failed check in errors[0].field (draining
// while the node drains).
func (s *Server) ready(ctx *fasthttp.RequestCtx) {
	r := readiness{Status: "ready", Version: s.deps.Version, Node: s.deps.Node, MemberAddresses: []string{},
		Checks: map[string]string{}}
	if s.deps.Members != nil {
		r.MemberAddresses = append(r.MemberAddresses, s.deps.Members()...)
	}
	r.Members = len(r.MemberAddresses)
	if s.draining.Load() {
		r.Status = "draining"
		notReady(ctx, "draining", r)
		return
	}
	failed := ""
	var down []Check
	if s.deps.Ready != nil {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for _, ch := range s.deps.Ready(c) {
			r.Checks[ch.Name] = checkOK
			if ch.Err == nil {
				continue
			}
			r.Checks[ch.Name] = checkDown
			down = append(down, ch)
			if !ch.Optional && failed == "" {
				failed = ch.Name
			}
		}
	}
	s.logReadiness(down)
	if failed != "" {
		r.Status = "not ready"
		notReady(ctx, failed, r)
		return
	}
	writeData(ctx, r)
}

// logReadiness logs the failed checks when they change (a probe every few
// seconds must not repeat the same line), and that all is well again.
func (s *Server) logReadiness(down []Check) {
	var b strings.Builder
	for _, ch := range down {
		b.WriteString(ch.Name + ":" + ch.Err.Error() + ";")
	}
	now := b.String()
	if prev := s.readyState.Swap(&now); prev != nil && *prev == now || prev == nil && now == "" {
		return
	}
	if len(down) == 0 {
		s.log.Info().Msg("ready: every dependency answers again")
		return
	}
	for _, ch := range down {
		s.log.Warn().Err(ch.Err).Str("check", ch.Name).Bool("optional", ch.Optional).Msg("readiness: dependency down")
	}
}

// notReady answers the readiness probe's 503, naming the failed check.
func notReady(ctx *fasthttp.RequestCtx, check string, r readiness) {
	body := notReadyBody{
		errorBody: errorBody{Status: "error", Message: "Not ready", RetryAfter: 1,
			Errors: []domain.FieldError{{Field: check, Msg: "Not ready"}}},
		Data: r,
	}
	ctx.Response.Header.Set("Retry-After", "1")
	ctx.SetStatusCode(fasthttp.StatusServiceUnavailable)
	writeJSON(ctx, body)
}

// publicConfig is what the client needs before sign-in (docs/architecture.md §3.2).
func (s *Server) publicConfig(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Set("Cache-Control", "no-cache")
	providers := s.deps.SSO.Providers()
	if providers == nil {
		providers = []app.SSOProvider{}
	}
	writeData(ctx, map[string]any{
		"productName":  s.deps.Config.ProductName,
		"supportEmail": s.deps.Config.SupportEmail,
		// University sign-in: the buttons to show, and whether the
		// password ways in are open (SSO-only screens when not).
		"sso":            providers,
		"passwordSignup": s.deps.Config.PasswordSignup,
		"passwordLogin":  s.deps.Config.PasswordLogin,
	})
}
