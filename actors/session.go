package actors

import (
	"sync"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
)

// Websocket close codes the server uses. 1008 means "bad or revoked token"
// to the client (it signs out); the others make it reconnect later.
const (
	CloseNormal         = websocket.CloseNormalClosure     // 1000
	CloseGoingAway      = websocket.CloseGoingAway         // 1001: the node shuts down
	ClosePolicy         = websocket.ClosePolicyViolation   // 1008: bad or revoked token
	CloseInternal       = websocket.CloseInternalServerErr // 1011
	CloseTryAgainLater  = websocket.CloseTryAgainLater     // 1013: too many sockets, or too slow
	closeHandshakeGrace = 2 * time.Second                  // wait for the peer's close reply
	defaultWriteTimeout = 10 * time.Second
	defaultMaxQueue     = 256
)

// SessionOptions configure a Session.
type SessionOptions struct {
	// MaxQueue is how many frames may wait for the socket; one more and the
	// peer is a slow consumer and is disconnected (default 256).
	MaxQueue int
	// WriteTimeout bounds one write to the socket (default 10 s).
	WriteTimeout time.Duration
	// OnRevoke runs, in a goroutine of its own, when the user's tokens were
	// revoked on some node: it re-checks this socket's token and closes the
	// session with ClosePolicy if it no longer holds.
	OnRevoke func()
	Log      zerolog.Logger
}

// Session is one websocket's server side (DESIGN §4.3): the signed-in user
// and the socket's writer with a bounded send queue. Its reader is the
// websocket handler's goroutine (httpapi), which also owns the set of
// watched posts.
//
// The writer is started on demand: an idle socket holds no goroutine of its
// own and no buffers, which is what lets one node keep tens of thousands of
// them. Send never blocks: a peer that lets MaxQueue frames pile up is
// disconnected, and nobody else waits for it.
//
// Concurrency: safe for concurrent use. mu guards the queue and the state
// flags; only one drain goroutine runs at a time (writing).
type Session struct {
	UserID uuid.UUID
	conn   *websocket.Conn
	o      SessionOptions

	mu      sync.Mutex
	queue   []outFrame
	writing bool // a drain goroutine is running
	closing bool // no more frames are accepted
	stopped bool // Stop was called: the reader is gone
	drained chan struct{}
}

type outKind uint8

const (
	outText outKind = iota
	outPing
	outClose
)

type outFrame struct {
	kind outKind
	data []byte
	code int
}

// NewSession wraps an upgraded websocket of userID.
func NewSession(conn *websocket.Conn, userID uuid.UUID, o SessionOptions) *Session {
	if o.MaxQueue <= 0 {
		o.MaxQueue = defaultMaxQueue
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = defaultWriteTimeout
	}
	return &Session{UserID: userID, conn: conn, o: o, drained: make(chan struct{})}
}

// Send queues one text frame; false if the session is closing or the peer
// was too slow (it is then disconnected).
func (s *Session) Send(frame []byte) bool {
	return s.push(outFrame{kind: outText, data: frame})
}

// Ping queues a ping; the hub pings every session periodically and the
// reader drops peers that stop answering.
func (s *Session) Ping() { s.push(outFrame{kind: outPing}) }

func (s *Session) push(f outFrame) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	if len(s.queue) >= s.o.MaxQueue {
		s.closing, s.queue = true, nil
		s.mu.Unlock()
		s.o.Log.Warn().Str("user_id", s.UserID.String()).Msg("websocket too slow: disconnected")
		s.abort() // the reader fails at once and cleans up
		return false
	}
	s.queue = append(s.queue, f)
	start := !s.writing
	s.writing = true
	s.mu.Unlock()
	if start {
		go s.drain()
	}
	return true
}

// Close sends a close frame with code and reason after what is queued, then
// stops accepting frames. The peer's close reply ends the reader; if none
// comes the reader times out after a short grace.
func (s *Session) Close(code int, reason string) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, outFrame{kind: outClose, code: code, data: []byte(reason)})
	s.closing = true
	start := !s.writing
	s.writing = true
	s.mu.Unlock()
	if start {
		go s.drain()
	}
}

// Closing reports whether the session accepts no more frames (it is
// closing or closed).
func (s *Session) Closing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// Revoked runs the session's OnRevoke check.
func (s *Session) Revoked() {
	if s.o.OnRevoke != nil {
		go s.o.OnRevoke()
	}
}

// Stop is called by the reader when it is done: it refuses further frames
// and waits (briefly) for the writer to finish, so the caller may close the
// connection.
func (s *Session) Stop() {
	s.mu.Lock()
	s.closing, s.stopped = true, true
	writing := s.writing
	s.mu.Unlock()
	if !writing {
		return
	}
	select {
	case <-s.drained:
	case <-time.After(s.o.WriteTimeout):
		s.abort()
		<-s.drained
	}
}

// abort breaks the connection at once: a blocked write or read fails now.
// Closing is not enough: fasthttp's hijacked connection ignores Close (it
// closes the socket itself once the handler returns), but it honours
// deadlines.
func (s *Session) abort() {
	nc := s.conn.NetConn()
	_ = nc.SetDeadline(time.Now())
	_ = nc.Close()
}

// drain writes queued frames until the queue is empty. At most one runs.
func (s *Session) drain() {
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue = nil
		if len(batch) == 0 {
			s.writing = false
			if s.closing {
				close(s.drained)
			}
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		for _, f := range batch {
			if err := s.write(f); err != nil {
				s.mu.Lock()
				s.closing, s.queue, s.writing = true, nil, false
				close(s.drained)
				s.mu.Unlock()
				s.abort()
				return
			}
		}
	}
}

func (s *Session) write(f outFrame) error {
	deadline := time.Now().Add(s.o.WriteTimeout)
	switch f.kind {
	case outPing:
		return s.conn.WriteControl(websocket.PingMessage, nil, deadline)
	case outClose:
		msg := websocket.FormatCloseMessage(f.code, string(f.data))
		if err := s.conn.WriteControl(websocket.CloseMessage, msg, deadline); err != nil {
			return err
		}
		// The reader waits for the peer's close reply; do not wait forever.
		return s.conn.SetReadDeadline(time.Now().Add(closeHandshakeGrace))
	default:
		if err := s.conn.SetWriteDeadline(deadline); err != nil {
			return err
		}
		return s.conn.WriteMessage(websocket.TextMessage, f.data)
	}
}
