// Package httpapi is the transport: the fasthttp server, the JSON envelope of
// docs/protocol.md §1, middleware (request id, panic guard, access log, metrics,
// security headers), one file per area of routes, the websocket upgrade and
// the built client. Handlers parse, call one app method, map errors and write
// JSON: no SQL, no rules, no orchestration here.
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/fasthttp/router"
	"github.com/oklog/ulid/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/config"
	"campus/domain"
	"campus/rawio"
	"campus/realtime"
)

// Deps is what the HTTP layer needs from the rest of the node.
type Deps struct {
	Config config.Config
	Log    zerolog.Logger
	// Ready checks the node's dependencies for the readiness probe: the
	// node is ready when every check that is not Optional passes. Nil
	// means always ready.
	Ready func(ctx context.Context) []Check
	// Members are the remoting addresses of the cluster members this node
	// sees, for the readiness answer; nil leaves them out.
	Members func() []string
	// Version is the build's version and Node this node's cluster address,
	// both shown by the readiness answer.
	Version, Node string
	// Collectors are the node's own metrics, served with the HTTP ones on
	// /metrics.
	Collectors []prometheus.Collector
	// Media serves GET /media/...; nil answers 404.
	Media fasthttp.RequestHandler
	// Sessions authenticates bearer tokens; nil refuses every authed route.
	Sessions *app.Sessions
	// Accounts serves signup, codes, login and the account settings flows.
	Accounts *app.Accounts
	// Profiles serves both profile families; Friends and Notifications
	// their areas. Nil leaves an area's routes out.
	Profiles      *app.Profiles
	Friends       *app.Friends
	Notifications *app.Notifications
	// Posts serves posts, comments and likes; Realtime (the token check and
	// greeting) and Sockets (the sessions) the websocket, both needed. Nil
	// leaves the routes out.
	Posts    *app.Posts
	Realtime *app.Realtime
	Sockets  *realtime.Sockets
	// Search serves /api/search, /api/users/search and /api/users/suggest;
	// nil leaves them out.
	Search *app.Search
	// Tags serves tag pages and trending; nil leaves them out.
	Tags *app.Tags
	// Safety serves blocks, mutes and reports; Moderation the moderators'
	// and admins' calls. Nil leaves an area's routes out.
	Safety     *app.Safety
	Moderation *app.Moderation
	// Groups serves the groups API (issue 18); nil leaves it out.
	Groups *app.Groups
	// Messages serves conversations and messages (issue 29) and the
	// sockets' typing frames; nil leaves them out.
	Messages *app.Messages
	// Push serves the Web Push key and the devices' subscriptions; nil
	// leaves the routes out.
	Push *app.Push
	// Admin serves the admins' console (accounts, roles, groups, the
	// system page); nil leaves it out.
	Admin *app.Admin
	// SSO serves university sign-in (issue 28); nil leaves it out.
	SSO *app.SSO
}

// Server is the node's HTTP server.
type Server struct {
	deps    Deps
	log     zerolog.Logger
	router  *router.Router
	srv     *fasthttp.Server
	metrics *metrics
	static  fasthttp.RequestHandler
	proxies []netip.Prefix
	// draining is set by Drain (SIGTERM): /api/ready answers 503 and new
	// sockets are refused while the node finishes what it has.
	draining atomic.Bool
	// readyState is the readiness probe's last failed checks, so that a
	// change is logged once (system.go).
	readyState atomic.Pointer[string]
}

// Body limits (docs/architecture.md §10): the server-wide cap fits the largest route
// (3 images of 5 MB plus form overhead); JSON routes enforce their own 64 KiB.
const maxRequestBody = 3*(5<<20) + 512<<10

type ctxKey int

const (
	ctxKeyRequestID ctxKey = iota + 1
	ctxKeyInternalErr
)

// New builds the server and its routes.
func New(d Deps) *Server {
	s := &Server{
		deps:    d,
		log:     d.Log,
		router:  router.New(),
		metrics: newMetrics(d.Collectors...),
		proxies: d.Config.TrustedProxies,
	}
	s.router.SaveMatchedRoutePath = true
	s.router.RedirectTrailingSlash = false
	s.router.HandleOPTIONS = false
	s.router.NotFound = s.notFound
	s.router.MethodNotAllowed = func(ctx *fasthttp.RequestCtx) {
		writeError(ctx, &domain.Error{Kind: domain.KindInvalid, Message: "Method not allowed"})
		ctx.SetStatusCode(fasthttp.StatusMethodNotAllowed)
	}
	s.static = newStatic(d.Config.ClientDir, d.Log, s.firstPage)
	s.routes()

	s.srv = &fasthttp.Server{
		Handler:            s.middleware(s.router.Handler),
		Name:               "campus",
		ReadTimeout:        60 * time.Second,
		WriteTimeout:       60 * time.Second,
		IdleTimeout:        120 * time.Second,
		MaxRequestBodySize: maxRequestBody,
		// MaxConnsPerIP stays 0: Serve caps connections per address with
		// LimitPerIP (see there for why not fasthttp's).
		ReadBufferSize: 8 << 10,
		// A page of the feed (~15 KiB) leaves in one write instead of
		// four through the default 4 KiB buffer.
		WriteBufferSize:       32 << 10,
		NoDefaultServerHeader: true,
		NoDefaultDate:         false,
		CloseOnShutdown:       true,
		// Websockets are the only hijacked connections: their reader owns
		// and closes them, so the request is released once the socket is set
		// up (ws.go).
		KeepHijackedConns: true,
		Logger:            fasthttpLogger{d.Log},
		ErrorHandler: func(ctx *fasthttp.RequestCtx, err error) {
			if errors.Is(err, fasthttp.ErrBodyTooLarge) {
				writeError(ctx, errBodyTooLarge)
				return
			}
			writeError(ctx, domain.Invalid("Malformed request"))
		},
	}
	return s
}

// routes registers every route. Areas add theirs from their own files.
func (s *Server) routes() {
	s.router.GET("/api/health", s.health)
	s.router.GET("/api/ready", s.ready)
	s.router.GET("/api/config", s.publicConfig)
	if s.deps.Config.MetricsAddr == "" {
		s.router.GET("/metrics", s.metrics.handler)
	} else {
		// With CAMPUS_METRICS_ADDR the metrics have a listener of their
		// own (MetricsHandler): here the path is not found (rather than
		// the client's page, as for other unknown paths).
		s.router.GET("/metrics", func(ctx *fasthttp.RequestCtx) { writeError(ctx, domain.NotFound("Not found")) })
	}
	s.router.GET("/media/{key:*}", s.media)
	s.router.HEAD("/media/{key:*}", s.media)
	s.accountRoutes()
	s.profileRoutes()
	s.friendRoutes()
	s.notificationRoutes()
	s.postRoutes()
	s.wsRoutes()
	s.searchRoutes()
	s.tagRoutes()
	s.safetyRoutes()
	s.groupRoutes()
	s.messageRoutes()
	s.pushRoutes()
	s.adminRoutes()
	s.ssoRoutes()
	s.firstPageRoutes()
}

// Serve answers requests on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	// The connections read and write with raw system calls (package
	// rawio): the likes' and the websockets' I/O without the scheduler's
	// syscall path.
	if err := s.srv.Serve(LimitPerIP(rawio.Listener(ln), s.deps.Config.MaxConnsPerIP)); err != nil {
		return fmt.Errorf("httpapi: serve: %w", err)
	}
	return nil
}

// Shutdown stops accepting connections and waits for open requests to end.
// Drain is the first step of a graceful shutdown: from now on /api/ready
// answers 503 (the load balancer stops sending new work) and a websocket
// upgrade is answered 503 with Retry-After, so the client goes elsewhere.
// Requests in flight and plain API calls are still served.
func (s *Server) Drain() { s.draining.Store(true) }

func (s *Server) Shutdown(ctx context.Context) error {
	if err := s.srv.ShutdownWithContext(ctx); err != nil {
		return fmt.Errorf("httpapi: shutdown: %w", err)
	}
	return nil
}

// Handler exposes the whole middleware-wrapped handler (tests serve it on an
// in-memory listener).
func (s *Server) Handler() fasthttp.RequestHandler { return s.srv.Handler }

// middleware wraps every request: request id, security headers, panic guard,
// metrics and the access log.
func (s *Server) middleware(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		start := time.Now()
		// Copied now: handlers (ServeFile) may rewrite the request URI.
		method, path := methodName(ctx.Method()), string(ctx.Path())
		reqID := string(ctx.Request.Header.Peek("X-Request-Id"))
		if !validRequestID(reqID) {
			reqID = ulid.Make().String()
		}
		ctx.SetUserValue(ctxKeyRequestID, reqID)
		ctx.Response.Header.Set("X-Request-Id", reqID)
		s.securityHeaders(ctx)

		func() {
			defer func() {
				if r := recover(); r != nil {
					s.log.Error().Str("request_id", reqID).Interface("panic", r).
						Bytes("stack", debug.Stack()).Msg("panic in handler")
					ctx.Response.Reset()
					ctx.Response.Header.Set("X-Request-Id", reqID)
					writeError(ctx, errors.New("panic"))
				}
			}()
			if s.preflight(ctx) {
				return
			}
			next(ctx)
		}()

		route := "unmatched"
		if r, ok := ctx.UserValue(router.MatchedRoutePathParam).(string); ok {
			route = r
		} else if !isAPIPath(ctx.Path()) {
			route = "static"
		}
		status := ctx.Response.StatusCode()
		elapsed := time.Since(start)
		s.metrics.observe(method, route, status, elapsed)

		ev := s.accessEvent(ctx, route, status)
		if ev == nil {
			return // this level is off (CAMPUS_LOG_LEVEL=warn): build nothing
		}
		ev.Str("request_id", reqID).
			Str("method", method).
			Str("path", path). // never the query string: it may hold a token
			Str("route", route).
			Int("status", status).
			Float64("duration_ms", float64(elapsed.Microseconds())/1000).
			Str("ip", s.clientIP(ctx).String()).
			Msg("request")
	}
}

// probeRoutes are polled by load balancers and Prometheus every few
// seconds: their access lines are debug, so that they do not drown the
// rest (the readiness answer logs its own changes).
var probeRoutes = map[string]bool{"/api/health": true, "/api/ready": true, "/metrics": true}

// accessEvent is the access line's level: debug for probes, error for a
// fault (500, or a 5xx with an internal error), warn for a deliberate 503
// (an overload shed, a dependency briefly away: the client retries), info
// for the rest and for a draining node's 503s, which are the drain working.
func (s *Server) accessEvent(ctx *fasthttp.RequestCtx, route string, status int) *zerolog.Event {
	err, internal := ctx.UserValue(ctxKeyInternalErr).(error)
	switch {
	case probeRoutes[route]:
		return s.log.Debug()
	case internal:
		return s.log.Error().Err(err)
	case status == fasthttp.StatusServiceUnavailable && s.draining.Load():
		return s.log.Info()
	case status == fasthttp.StatusServiceUnavailable:
		return s.log.Warn()
	case status >= 500:
		return s.log.Error()
	}
	return s.log.Info()
}

// methodName is the request method as a string, without an allocation for
// the usual ones.
func methodName(m []byte) string {
	switch string(m) {
	case fasthttp.MethodGet:
		return fasthttp.MethodGet
	case fasthttp.MethodPost:
		return fasthttp.MethodPost
	case fasthttp.MethodPut:
		return fasthttp.MethodPut
	case fasthttp.MethodPatch:
		return fasthttp.MethodPatch
	case fasthttp.MethodDelete:
		return fasthttp.MethodDelete
	case fasthttp.MethodHead:
		return fasthttp.MethodHead
	case fasthttp.MethodOptions:
		return fasthttp.MethodOptions
	}
	return string(m)
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// contentSecurityPolicy is strict: only our own origin, no inline script or
// style (index.html's responses allow its own by hash: static.go). connect-src
// names ws:/wss: of self because CSP 'self' does not cover them in every
// browser.
const (
	cspScriptSrc          = "script-src 'self'"
	cspStyleSrc           = "style-src 'self'"
	contentSecurityPolicy = "default-src 'self'; " + cspScriptSrc + "; " + cspStyleSrc + "; img-src 'self' data: blob:; " +
		"font-src 'self'; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

func (s *Server) securityHeaders(ctx *fasthttp.RequestCtx) {
	h := &ctx.Response.Header
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	if origin := s.deps.Config.PublicOrigin; origin != "" {
		if string(ctx.Request.Header.Peek("Origin")) == origin {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Vary", "Origin")
		}
	}
}

// preflight answers CORS preflight requests for the configured origin only.
func (s *Server) preflight(ctx *fasthttp.RequestCtx) bool {
	if !ctx.IsOptions() {
		return false
	}
	origin := s.deps.Config.PublicOrigin
	if origin != "" && string(ctx.Request.Header.Peek("Origin")) == origin {
		h := &ctx.Response.Header
		h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id")
		h.Set("Access-Control-Max-Age", "600")
	}
	ctx.SetStatusCode(fasthttp.StatusNoContent)
	return true
}

// clientIP is the peer address, or the right-most untrusted X-Forwarded-For
// entry when the peer is a trusted proxy (docs/architecture.md §10).
func (s *Server) clientIP(ctx *fasthttp.RequestCtx) netip.Addr {
	peer, _ := netip.AddrFromSlice(ctx.RemoteIP())
	peer = peer.Unmap()
	if len(s.proxies) == 0 || !s.trusted(peer) {
		return peer
	}
	xff := string(ctx.Request.Header.Peek("X-Forwarded-For"))
	for xff != "" {
		i := len(xff) - 1
		for i >= 0 && xff[i] != ',' {
			i--
		}
		part := xff[i+1:]
		if i < 0 {
			xff = ""
		} else {
			xff = xff[:i]
		}
		a, err := netip.ParseAddr(trimSpace(part))
		if err != nil {
			return peer
		}
		a = a.Unmap()
		if !s.trusted(a) {
			return a
		}
		peer = a
	}
	return peer
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func isAPIPath(p []byte) bool {
	return len(p) >= 4 && string(p[:4]) == "/api" && (len(p) == 4 || p[4] == '/')
}

// notFound answers JSON 404s under /api and serves the client otherwise.
func (s *Server) notFound(ctx *fasthttp.RequestCtx) {
	if isAPIPath(ctx.Path()) || !(ctx.IsGet() || ctx.IsHead()) {
		writeError(ctx, domain.NotFound("Not found"))
		return
	}
	s.static(ctx)
}

func (s *Server) media(ctx *fasthttp.RequestCtx) {
	if s.deps.Media == nil {
		writeError(ctx, domain.NotFound("Not found"))
		return
	}
	s.deps.Media(ctx)
}

// fasthttpLogger routes fasthttp's own messages into zerolog.
type fasthttpLogger struct{ log zerolog.Logger }

func (l fasthttpLogger) Printf(format string, args ...any) {
	l.log.Warn().Str("component", "fasthttp").Msgf(format, args...)
}
