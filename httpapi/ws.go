package httpapi

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/app"
	"campus/domain"
	"campus/realtime"
)

// wsCallTimeout bounds the app call of a socket's handshake (token check,
// greeting).
const wsCallTimeout = 10 * time.Second

// wsRoutes registers GET /api/ws when the node has sockets.
func (s *Server) wsRoutes() {
	if s.deps.Sockets == nil || s.deps.Realtime == nil {
		return
	}
	// The handshake is checked here, while the request can still be answered
	// with the JSON envelope; the upgrade itself happens on the connection
	// detached from the HTTP server (realtime.Detach).
	up := &websocket.Upgrader{
		// A small read buffer, and write buffers only while writing (the
		// session encodes its own frames): an idle socket then holds almost
		// nothing (docs/architecture.md §11.2, connections). 256 bytes hold any control frame
		// (the library needs 125 and a header); a client's rare larger
		// frames (watch lists) take a few more reads.
		ReadBufferSize:  256,
		WriteBufferSize: 4096,
		WriteBufferPool: &sync.Pool{},
		CheckOrigin:     func(*http.Request) bool { return true }, // wsHandshake checked it
	}
	s.router.GET("/api/ws", func(ctx *fasthttp.RequestCtx) {
		if s.draining.Load() {
			// A draining node takes no new sockets: 503 + Retry-After, and
			// the client's next try reaches another node.
			writeError(ctx, domain.Unavailable("", 1))
			return
		}
		req, err := s.wsHandshake(ctx)
		if err != nil {
			writeError(ctx, err)
			return
		}
		// Clients send the token as the first frame, never in the URL
		// (proxies log URLs). ?token= is still read, here before the request
		// is recycled, only for tabs loaded before the client moved to the
		// first frame, so that their live updates survive the deploy; our
		// access log has the path only.
		token := string(ctx.QueryArgs().Peek("token"))
		respHeader := http.Header{}
		ctx.Response.Header.VisitAll(func(k, v []byte) {
			switch string(k) {
			case fasthttp.HeaderContentType, fasthttp.HeaderContentLength, fasthttp.HeaderServer,
				fasthttp.HeaderDate, fasthttp.HeaderConnection:
			default:
				respHeader.Add(string(k), string(v)) // X-Request-Id, security headers
			}
		})
		ctx.SetStatusCode(fasthttp.StatusSwitchingProtocols) // for the access log and metrics
		ctx.HijackSetNoResponse(true)                        // the upgrader answers 101 itself
		ctx.Hijack(func(c net.Conn) {
			conn, err := up.Upgrade(&detachedWriter{conn: realtime.Detach(c)}, req, respHeader)
			if err != nil {
				_ = c.Close()
				return
			}
			s.serveSocket(conn, token)
		})
	})
}

// wsHandshake checks what the websocket upgrade needs (the route is GET
// only), in the order the websocket library does, and answers the request
// the library's upgrader reads.
func (s *Server) wsHandshake(ctx *fasthttp.RequestCtx) (*http.Request, error) {
	notUpgrade := domain.Invalid("Expected a websocket upgrade")
	h := &ctx.Request.Header
	switch {
	case !websocket.FastHTTPIsWebSocketUpgrade(ctx):
		return nil, notUpgrade
	case string(h.Peek("Sec-WebSocket-Version")) != "13":
		return nil, notUpgrade
	case !s.wsOrigin(ctx):
		return nil, domain.Forbidden("Origin not allowed")
	case !validWSKey(h.Peek("Sec-WebSocket-Key")):
		return nil, notUpgrade
	}
	req := &http.Request{Method: http.MethodGet, Header: http.Header{}}
	for _, k := range []string{"Connection", "Upgrade", "Sec-WebSocket-Version", "Sec-WebSocket-Key"} {
		req.Header.Set(k, string(h.Peek(k)))
	}
	return req, nil
}

// validWSKey reports whether key is base64 of 16 bytes (RFC 6455 §4.1), as
// the upgrader requires.
func validWSKey(key []byte) bool {
	if len(key) != 24 {
		return false
	}
	var b [18]byte
	n, err := base64.StdEncoding.Decode(b[:], key)
	return err == nil && n == 16
}

// detachedWriter is the http.ResponseWriter the websocket library's
// upgrader wants: it only hands over the detached connection, on which the
// upgrader writes the 101 answer.
type detachedWriter struct {
	conn net.Conn
	h    http.Header
}

func (w *detachedWriter) Header() http.Header {
	if w.h == nil {
		w.h = http.Header{}
	}
	return w.h
}

// Write and WriteHeader would answer a refused upgrade; wsHandshake refused
// those already, so there is nobody to tell.
func (w *detachedWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *detachedWriter) WriteHeader(int)             {}

func (w *detachedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.conn, bufio.NewReadWriter(bufio.NewReaderSize(w.conn, 16), bufio.NewWriterSize(w.conn, 16)), nil
}

// wsOrigin admits requests without Origin (non-browser clients), from the
// configured public origin, and from the server's own origin.
func (s *Server) wsOrigin(ctx *fasthttp.RequestCtx) bool {
	origin := string(ctx.Request.Header.Peek("Origin"))
	if origin == "" || (s.deps.Config.PublicOrigin != "" && origin == s.deps.Config.PublicOrigin) {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, string(ctx.Host()))
}

// serveSocket checks a socket's token (from the first frame, or an old
// client's query)
// on the goroutine fasthttp gave it and hands the socket to realtime, which
// owns it from then on; it returns at once, so that fasthttp lets go of the
// request and the deep stack the setup grew.
func (s *Server) serveSocket(conn *websocket.Conn, token string) {
	if token == "" {
		token = realtime.ReadAuthToken(conn)
	}
	actx, cancel := context.WithTimeout(context.Background(), wsCallTimeout)
	p, ready, err := s.deps.Realtime.Connect(actx, token)
	cancel()
	if err != nil {
		if errors.Is(err, app.ErrBadToken) {
			realtime.Refuse(conn, realtime.ClosePolicy, "Invalid or expired token")
			return
		}
		s.log.Error().Err(err).Msg("websocket connect")
		realtime.Refuse(conn, realtime.CloseInternal, "Server error")
		return
	}
	var typing func(context.Context, uuid.UUID) error
	if m := s.deps.Messages; m != nil {
		typing = func(ctx context.Context, conv uuid.UUID) error { return m.Typing(ctx, p.UserID, conv) }
	}
	s.deps.Sockets.Serve(conn, realtime.Client{
		Typing: typing,
		UserID: p.UserID,
		Ready:  ready,
		StillValid: func(ctx context.Context) (bool, error) {
			return s.deps.Realtime.StillValid(ctx, token)
		},
		Resume: func(ctx context.Context, since time.Time) ([][]byte, error) {
			return s.deps.Realtime.Resume(ctx, p.UserID, since)
		},
		Watchable: func(ctx context.Context, ids []uuid.UUID) ([]uuid.UUID, error) {
			return s.deps.Realtime.Watchable(ctx, p.UserID, ids)
		},
	})
}
