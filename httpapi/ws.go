package httpapi

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"campus/actors"
	"campus/app"
	"campus/domain"
)

// Websocket limits (DESIGN §6, §10).
const (
	// wsMaxFrame is the largest frame a client may send; a larger one is
	// answered with an error frame.
	wsMaxFrame = 16 << 10
	// wsReadLimit is where the socket itself gives up (close 1009): reading
	// and discarding gigabytes to answer politely is not worth it.
	wsReadLimit = 1 << 20
	// wsMaxWatched caps the posts one connection watches.
	wsMaxWatched = 200
	// wsAuthWait is how long a socket without ?token= may take to send its
	// auth frame.
	wsAuthWait = 10 * time.Second
	// wsPongWait drops a peer that answered no ping for this long; the hub
	// pings every 30 s.
	wsPongWait = 2*actors.DefaultPingInterval + 15*time.Second
	// wsCallTimeout bounds the app calls of a socket (token check, greeting).
	wsCallTimeout = 10 * time.Second
	// wsCloseGrace is how long a closing socket waits for the peer's reply.
	wsCloseGrace = 2 * time.Second
)

// Client → server events (DESIGN §6).
const (
	evTest    = "test"
	evWatch   = "watch"
	evUnwatch = "unwatch"
	evAuth    = "auth"
)

// Server → client events produced here.
const (
	evReady        = "ready"
	evTestResponse = "test:response"
	evError        = "error"
)

// ignoredEvents are what the spec's client emits and the server accepts
// without acting: the server pushes the authoritative event itself when the
// REST call commits, so a client can never forge one for someone else.
var ignoredEvents = map[string]bool{
	evAuth: true, app.EventFriendRequest: true, app.EventFriendAccept: true,
	app.EventPostLike: true, app.EventPostComment: true,
}

// wsRoutes registers GET /api/ws when the node has a hub.
func (s *Server) wsRoutes() {
	if s.deps.Hub == nil || s.deps.Realtime == nil {
		return
	}
	// The handshake is checked here, while the request can still be answered
	// with the JSON envelope; the upgrade itself happens on the connection
	// detached from the HTTP server (upgradeDetached).
	up := &websocket.Upgrader{
		// A small read buffer, and write buffers only while writing (the
		// session encodes its own frames): an idle socket then holds almost
		// nothing (DESIGN §8, connections).
		ReadBufferSize:  1024,
		WriteBufferSize: 4096,
		WriteBufferPool: &sync.Pool{},
		CheckOrigin:     func(*http.Request) bool { return true }, // wsHandshake checked it
	}
	s.router.GET("/api/ws", func(ctx *fasthttp.RequestCtx) {
		req, err := s.wsHandshake(ctx)
		if err != nil {
			writeError(ctx, err)
			return
		}
		// The token is read here, before the request is recycled; the query
		// string is never logged (the access log has the path only).
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
			conn, err := up.Upgrade(&detachedWriter{conn: detach(c)}, req, respHeader)
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

// detach is the network connection under fasthttp's hijacked one, with
// whatever fasthttp had already read past the upgrade request in front of
// it. Reading through fasthttp's connection would keep its 8 KiB read
// buffer alive for as long as the socket lives; detached, an idle socket
// holds only the websocket's own small buffer. (The server keeps hijacked
// connections, so fasthttp lets go of the request as soon as the socket is
// set up and leaves closing the connection to us.)
func detach(c net.Conn) net.Conn {
	u, ok := c.(interface{ UnsafeConn() net.Conn })
	if !ok {
		return c
	}
	raw := u.UnsafeConn()
	// Drain fasthttp's buffer without waiting: with a deadline in the past
	// a read that would have to wait for the network fails at once, and
	// what the buffer holds is still answered.
	if err := raw.SetReadDeadline(time.Unix(1, 0)); err != nil {
		return c
	}
	var early []byte
	buf := make([]byte, 512)
	for {
		n, err := c.Read(buf)
		early = append(early, buf[:n]...)
		if err != nil {
			break
		}
	}
	if err := raw.SetReadDeadline(time.Time{}); err != nil {
		return c
	}
	return &detachedConn{Conn: raw, early: early}
}

// detachedConn is a socket's network connection. Closing it twice, or
// setting a deadline after closing, must do nothing: with a per-IP limit
// fasthttp's connection is a pooled wrapper that a close hands to the next
// client. The reader closes it once its writer has stopped; a slow-consumer
// abort may race with that and only sets deadlines.
type detachedConn struct {
	net.Conn
	early []byte // read before the connection (owned by the reader)

	mu     sync.Mutex
	closed bool
}

func (c *detachedConn) Read(p []byte) (int, error) {
	if len(c.early) > 0 {
		n := copy(p, c.early)
		c.early = c.early[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

func (c *detachedConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return net.ErrClosed
	}
	c.closed = true
	return c.Conn.Close()
}

func (c *detachedConn) SetDeadline(t time.Time) error {
	return c.ifOpen(func() error { return c.Conn.SetDeadline(t) })
}

func (c *detachedConn) SetReadDeadline(t time.Time) error {
	return c.ifOpen(func() error { return c.Conn.SetReadDeadline(t) })
}

func (c *detachedConn) SetWriteDeadline(t time.Time) error {
	return c.ifOpen(func() error { return c.Conn.SetWriteDeadline(t) })
}

func (c *detachedConn) ifOpen(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return net.ErrClosed
	}
	return fn()
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

// serveSocket sets up one websocket on the goroutine fasthttp gave it
// (token, greeting, session, hub), then hands the socket to a reader
// goroutine of its own and returns, so that fasthttp lets go of the request
// and the deep stack the setup grew. The reader owns the connection and
// closes it when the socket is done; the actors.Session is the writer.
func (s *Server) serveSocket(conn *websocket.Conn, token string) {
	conn.SetReadLimit(wsReadLimit)
	if token == "" {
		token = readAuthFrame(conn)
	}
	actx, cancel := context.WithTimeout(context.Background(), wsCallTimeout)
	p, ready, err := s.deps.Realtime.Connect(actx, token)
	cancel()
	if err != nil {
		if errors.Is(err, app.ErrBadToken) {
			closeNow(conn, actors.ClosePolicy, "Invalid or expired token")
			return
		}
		s.log.Error().Err(err).Msg("websocket connect")
		closeNow(conn, actors.CloseInternal, "Server error")
		return
	}

	var sess *actors.Session
	sess = actors.NewSession(conn, p.UserID, actors.SessionOptions{
		Log: s.log,
		OnRevoke: func() {
			ctx, cancel := context.WithTimeout(context.Background(), wsCallTimeout)
			defer cancel()
			ok, err := s.deps.Realtime.StillValid(ctx, token)
			if err != nil {
				s.log.Warn().Err(err).Str("user_id", p.UserID.String()).Msg("websocket token re-check failed")
				return
			}
			if !ok {
				sess.Close(actors.ClosePolicy, "Token revoked")
			}
		},
	})
	switch err := s.deps.Hub.Register(sess); {
	case errors.Is(err, actors.ErrTooManySockets):
		closeNow(conn, actors.CloseTryAgainLater, "Too many connections")
		return
	case errors.Is(err, actors.ErrGoingAway):
		closeNow(conn, actors.CloseGoingAway, "Server is shutting down")
		return
	case err != nil:
		s.log.Error().Err(err).Msg("websocket register")
		closeNow(conn, actors.CloseInternal, "Server error")
		return
	}
	if f, err := actors.Frame(evReady, ready); err == nil {
		sess.Send(f)
	}
	go s.readSocket(conn, sess)
}

// readSocket is a socket's reader: it answers the client's frames until the
// socket is done, then unregisters the session and closes the connection.
func (s *Server) readSocket(conn *websocket.Conn, sess *actors.Session) {
	c := newWSClient(s.deps.Hub, sess)
	defer func() {
		s.deps.Hub.Unregister(sess, c.watchedIDs())
		sess.Stop()
		_ = conn.Close()
	}()
	conn.SetPongHandler(func(string) error { extendRead(conn, sess); return nil })
	for {
		extendRead(conn, sess)
		_, r, err := conn.NextReader()
		if err != nil {
			return
		}
		data, err := readFrame(r)
		if err != nil {
			return
		}
		if reply := c.handle(data); reply != nil {
			sess.Send(reply)
		}
	}
}

// extendRead gives the peer another wsPongWait to show it is alive, unless
// the session is closing: then the short deadline of the close handshake (or
// of an abort) must stand. Checking again after setting closes the race with
// a close that happens in between.
func extendRead(conn *websocket.Conn, sess *actors.Session) {
	if sess.Closing() {
		return
	}
	_ = conn.SetReadDeadline(time.Now().Add(wsPongWait))
	if sess.Closing() {
		_ = conn.SetReadDeadline(time.Now().Add(wsCloseGrace))
	}
}

// readFrame reads a frame of up to wsMaxFrame bytes; of a larger one it
// answers the first wsMaxFrame+1 bytes (enough for handle to refuse it) and
// discards the rest.
func readFrame(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, wsMaxFrame+1))
	if err != nil {
		return nil, err
	}
	if len(data) > wsMaxFrame {
		if _, err := io.Copy(io.Discard, r); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// readAuthFrame waits for {"event":"auth","data":{"token":…}} as the first
// frame; "" if anything else comes.
func readAuthFrame(conn *websocket.Conn) string {
	_ = conn.SetReadDeadline(time.Now().Add(wsAuthWait))
	_, r, err := conn.NextReader()
	if err != nil {
		return ""
	}
	data, err := readFrame(r)
	if err != nil || len(data) > wsMaxFrame {
		return ""
	}
	var f struct {
		Event string `json:"event"`
		Data  struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if json.Unmarshal(data, &f) != nil || f.Event != evAuth {
		return ""
	}
	return f.Data.Token
}

// closeNow closes a socket that has no session yet: the close frame, then a
// short wait for the peer's reply so the frame is not lost to a reset.
func closeNow(conn *websocket.Conn, code int, reason string) {
	defer conn.Close()
	deadline := time.Now().Add(time.Second)
	if err := conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), deadline); err != nil {
		return
	}
	_ = conn.SetReadDeadline(deadline)
	for {
		if _, _, err := conn.NextReader(); err != nil {
			return
		}
	}
}

// wsClient handles one socket's frames. Concurrency: owned by the socket's
// reader goroutine, like the watched set it keeps.
type wsClient struct {
	hub     *actors.Hub
	sess    *actors.Session
	watched map[uuid.UUID]struct{}
}

func newWSClient(hub *actors.Hub, sess *actors.Session) *wsClient {
	return &wsClient{hub: hub, sess: sess, watched: make(map[uuid.UUID]struct{})}
}

func (c *wsClient) watchedIDs() []uuid.UUID {
	ids := make([]uuid.UUID, 0, len(c.watched))
	for id := range c.watched {
		ids = append(ids, id)
	}
	return ids
}

// Error frame messages.
const (
	msgFrameTooLarge = "Frame too large: the limit is 16 KiB."
	msgBadFrame      = `Invalid frame: send JSON {"event": "name", "data": {…}}.`
	msgUnknownEvent  = "Unknown event."
	msgBadWatch      = `Invalid watch: send {"postIds": ["…"]}.`
	msgBadPostIDs    = "Some post ids are not valid and were ignored."
	msgTooManyWatch  = "You can watch at most 200 posts at once."
)

// handle answers one client frame: nil when there is nothing to say, else
// the frame to send back. Every bad frame gets an error frame; nothing a
// client sends can make it panic.
func (c *wsClient) handle(data []byte) []byte {
	if len(data) > wsMaxFrame {
		return errorFrame(msgFrameTooLarge)
	}
	var f struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Event == "" {
		return errorFrame(msgBadFrame)
	}
	switch {
	case f.Event == evTest:
		fr, _ := actors.Frame(evTestResponse, map[string]any{"message": "ok", "serverTime": time.Now().UTC()})
		return fr
	case f.Event == evWatch || f.Event == evUnwatch:
		return c.watch(f.Event == evWatch, f.Data)
	case ignoredEvents[f.Event]:
		return nil
	default:
		return errorFrame(msgUnknownEvent)
	}
}

// watch adds or removes post ids; valid ids take effect even when the frame
// also carries bad ones or would pass the cap, which the answer then says.
func (c *wsClient) watch(add bool, raw json.RawMessage) []byte {
	var in struct {
		PostIDs []string `json:"postIds"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &in) != nil || in.PostIDs == nil {
		return errorFrame(msgBadWatch)
	}
	var changed []uuid.UUID
	bad, full := false, false
	for _, s := range in.PostIDs {
		id, err := uuid.Parse(s)
		if err != nil {
			bad = true
			continue
		}
		_, have := c.watched[id]
		switch {
		case add && !have && len(c.watched) >= wsMaxWatched:
			full = true
		case add && !have:
			c.watched[id] = struct{}{}
			changed = append(changed, id)
		case !add && have:
			delete(c.watched, id)
			changed = append(changed, id)
		}
	}
	if add {
		c.hub.Watch(c.sess, changed)
	} else {
		c.hub.Unwatch(c.sess, changed)
	}
	switch {
	case full:
		return errorFrame(msgTooManyWatch)
	case bad:
		return errorFrame(msgBadPostIDs)
	}
	return nil
}

func errorFrame(msg string) []byte {
	f, _ := actors.Frame(evError, map[string]string{"message": msg}) // a map of strings always encodes
	return f
}
