package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
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
	up := &websocket.FastHTTPUpgrader{
		// Small read buffers and pooled write buffers: an idle socket then
		// holds almost nothing (DESIGN §8, connections).
		ReadBufferSize:  1024,
		WriteBufferSize: 4096,
		WriteBufferPool: &sync.Pool{},
		CheckOrigin:     s.wsOrigin,
		Error: func(ctx *fasthttp.RequestCtx, status int, _ error) {
			switch status {
			case fasthttp.StatusForbidden:
				writeError(ctx, domain.Forbidden("Origin not allowed"))
			case fasthttp.StatusMethodNotAllowed:
				writeError(ctx, &domain.Error{Kind: domain.KindInvalid, Message: "Method not allowed"})
				ctx.SetStatusCode(status)
			default:
				writeError(ctx, domain.Invalid("Expected a websocket upgrade"))
			}
		},
	}
	s.router.GET("/api/ws", func(ctx *fasthttp.RequestCtx) {
		// The token is read here, before the request is recycled; the query
		// string is never logged (the access log has the path only).
		token := string(ctx.QueryArgs().Peek("token"))
		_ = up.Upgrade(ctx, func(conn *websocket.Conn) { s.serveSocket(conn, token) })
	})
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

// serveSocket runs one websocket on the goroutine fasthttp gave it, which is
// the socket's reader; the actors.Session is its writer. It returns when the
// socket is done, and fasthttp then closes the connection.
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
	c := newWSClient(s.deps.Hub, sess)
	defer func() {
		s.deps.Hub.Unregister(sess, c.watchedIDs())
		sess.Stop()
	}()
	if f, err := actors.Frame(evReady, ready); err == nil {
		sess.Send(f)
	}
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
