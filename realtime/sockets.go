package realtime

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/protocol"
)

// Websocket close codes the server uses. 1008 means "bad or revoked token"
// to the client (it signs out); the others make it reconnect later.
const (
	CloseNormal    = websocket.CloseNormalClosure // 1000
	CloseGoingAway = websocket.CloseGoingAway     // 1001: the peer went away
	// CloseServiceRestart (1012) is the drain's close: the node is going
	// down, the client reconnects at once (with jitter) to another node.
	CloseServiceRestart = websocket.CloseServiceRestart    // 1012
	ClosePolicy         = websocket.ClosePolicyViolation   // 1008: bad or revoked token
	CloseInternal       = websocket.CloseInternalServerErr // 1011
	CloseTryAgainLater  = websocket.CloseTryAgainLater     // 1013: too many sockets, or too slow
)

// Defaults of Options, and the fixed waits.
const (
	DefaultMaxQueue      = 4096
	DefaultMaxQueueBytes = 1 << 20
	DefaultWriteTimeout  = 10 * time.Second
	// DefaultPongWait drops a peer that answered no ping for this long; the
	// hub pings every DefaultPingInterval.
	DefaultPongWait = 2*DefaultPingInterval + 15*time.Second
	// authWait is how long a socket without ?token= may take to send its
	// auth frame.
	authWait = 10 * time.Second
	// closeGrace is how long a closing socket waits for the peer's reply.
	closeGrace = 2 * time.Second
)

// Options configure the sockets of a node.
type Options struct {
	// MaxQueue is how many frames may wait for a socket, MaxQueueBytes how
	// many bytes; one more and the peer is a slow consumer and is
	// disconnected (defaults 4096 and 1 MiB). A burst the server makes at
	// once must fit: a user grain's batch of notifications is up to 1,000
	// frames, which a 256-frame queue took for a slow peer.
	MaxQueue      int
	MaxQueueBytes int
	// WriteTimeout bounds one write to a socket (default 10 s).
	WriteTimeout time.Duration
	// PongWait drops a peer that sent nothing, pongs included, for this
	// long (default DefaultPongWait).
	PongWait time.Duration
}

// Sockets is a node's websocket endpoint: it turns upgraded connections
// into session actors registered with the node's hub. Safe for concurrent
// use.
type Sockets struct {
	hub   *Hub
	log   zerolog.Logger
	o     Options
	props *actor.Props // one for every session: a socket's own state comes in sessionInit
	// poll reports readable sockets; nil where there is no epoll, and then
	// every socket has a reader goroutine.
	poll *poller
}

// The process's poller, shared by every Sockets (one epoll instance and
// goroutine is enough for any number of sockets).
var (
	pollOnce   sync.Once
	pollShared *poller
	pollErr    error
)

// New makes the endpoint of the node's hub: sessions are spawned in the
// hub's actor system (after Hub.Move, the new one).
func New(hub *Hub, log zerolog.Logger, o Options) *Sockets {
	if o.MaxQueue <= 0 {
		o.MaxQueue = DefaultMaxQueue
	}
	if o.MaxQueueBytes <= 0 {
		o.MaxQueueBytes = DefaultMaxQueueBytes
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.PongWait <= 0 {
		o.PongWait = DefaultPongWait
	}
	s := &Sockets{hub: hub, log: log, o: o}
	pollOnce.Do(func() { pollShared, pollErr = newPoller() })
	if pollErr != nil {
		log.Warn().Err(pollErr).Msg("websockets: no poller, one reader goroutine per socket")
	} else {
		s.poll = pollShared
	}
	s.props = actor.PropsFromProducer(func() actor.Actor { return &session{sockets: s} },
		// Idle, a lock-free mailbox holds one stub node, not a ring.
		actor.WithMailbox(actor.UnboundedLockfree()),
		// A session's Receive never blocks (session), so it runs on the
		// sender's goroutine: the hub's tick reaches thousands of sockets
		// without a goroutine each.
		actor.WithDispatcher(actor.NewSynchronizedDispatcher(sessionThroughput)))
	return s
}

// sessionThroughput is how many messages a session handles in a row before
// it lets other goroutines run.
const sessionThroughput = 64

// Client is who a socket belongs to, as the handshake established it.
type Client struct {
	UserID uuid.UUID
	// Ready is the data of the `ready` greeting.
	Ready any
	// StillValid re-checks the socket's token after the user's tokens were
	// revoked somewhere: false closes the socket with ClosePolicy.
	StillValid func(ctx context.Context) (bool, error)
	// Resume answers the frames a reconnecting client missed since the
	// time its resume frame names (the user's notifications); nil ignores
	// resume frames.
	Resume func(ctx context.Context, since time.Time) ([][]byte, error)
	// Watchable answers which of the posts a watch frame lists the user may
	// watch (no block with the author, not removed); the others are not
	// watched, silently. Asked once per watch frame. nil watches every post
	// asked for.
	Watchable func(ctx context.Context, ids []uuid.UUID) ([]uuid.UUID, error)
	// Typing tells the other members of a conversation that the user is
	// typing there (it checks membership and drops what is over its rate);
	// nil ignores typing frames.
	Typing func(ctx context.Context, conversation uuid.UUID) error
}

// Serve hands an upgraded connection to a new session actor and returns at
// once; the session owns the connection from then on and closes it. A
// socket the hub refuses (too many for the user, node shutting down) is
// closed with CloseTryAgainLater or CloseServiceRestart.
func (s *Sockets) Serve(conn *websocket.Conn, c Client) {
	s.spawn(conn, c)
}

func (s *Sockets) spawn(conn *websocket.Conn, c Client) *actor.PID {
	conn.SetReadLimit(readLimit)
	ready, err := protocol.Frame(protocol.EventReady, c.Ready)
	if err != nil {
		s.log.Error().Err(err).Msg("websocket ready frame")
		Refuse(conn, CloseInternal, "Server error")
		return nil
	}
	hub := s.hub.ref()
	pid := hub.root.Spawn(s.props)
	hub.root.Send(pid, &sessionInit{conn: conn, client: c, ready: ready, hub: hub})
	return pid
}

// RestartReason is the close reason of a drain: a hint the client reads as
// "reconnect now, elsewhere" (the close code says it too).
const RestartReason = "Service restart: reconnect"

// CloseAll closes every socket of the node with 1012 "service restart" (the
// drain on SIGTERM: clients reconnect to another node with jitter) and
// refuses new ones from then on.
func (s *Sockets) CloseAll(ctx context.Context, reason string) error {
	if reason == "" {
		reason = RestartReason
	}
	if err := s.hub.CloseAll(ctx, CloseServiceRestart, reason); err != nil {
		return fmt.Errorf("realtime: %w", err)
	}
	return nil
}

// Count is the number of sockets registered on this node.
func (s *Sockets) Count() (int, error) { return s.hub.Sockets() }

// ReadAuthToken waits for {"event":"auth","data":{"token":…}} as the first
// message of a socket that came without ?token=; "" if anything else comes.
// It reads exactly the frames it needs from the connection, so that what
// the client sends next is still there for the session.
func ReadAuthToken(conn *websocket.Conn) string {
	nc := conn.NetConn()
	_ = nc.SetReadDeadline(time.Now().Add(authWait))
	defer func() { _ = nc.SetReadDeadline(time.Time{}) }()
	var p frameParser
	for range 8 { // pings, or a fragmented message, may come first
		b, err := readWholeFrame(nc)
		if err != nil {
			return ""
		}
		var msg []byte
		got := false
		if p.feed(b, func(f inFrame) {
			if f.kind == outText && !got {
				msg, got = f.data, true
			}
		}) != nil {
			return ""
		}
		if !got {
			continue
		}
		var f struct {
			Event string `json:"event"`
			Data  struct {
				Token string `json:"token"`
			} `json:"data"`
		}
		if len(msg) > MaxFrame || json.Unmarshal(msg, &f) != nil || f.Event != protocol.EventAuth {
			return ""
		}
		return f.Data.Token
	}
	return ""
}

// readWholeFrame reads exactly one client frame (header, mask, payload) of
// at most MaxFrame bytes of payload.
func readWholeFrame(r io.Reader) ([]byte, error) {
	b := make([]byte, 2, 14)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	ext := 0
	switch b[1] & 0x7f {
	case 126:
		ext = 2
	case 127:
		ext = 8
	}
	b = b[:2+ext+4]
	if _, err := io.ReadFull(r, b[2:]); err != nil {
		return nil, err
	}
	length := uint64(b[1] & 0x7f)
	switch ext {
	case 2:
		length = uint64(binary.BigEndian.Uint16(b[2:]))
	case 8:
		length = binary.BigEndian.Uint64(b[2:])
	}
	if length > MaxFrame {
		return nil, errTooBig
	}
	b = append(b, make([]byte, length)...)
	if _, err := io.ReadFull(r, b[2+ext+4:]); err != nil {
		return nil, err
	}
	return b, nil
}

// Refuse closes a socket that has no session (a bad token): the close
// frame, then a short wait for the peer's reply so the frame is not lost to
// a reset.
func Refuse(conn *websocket.Conn, code int, reason string) {
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
