package actors

import (
	"encoding/binary"
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
	defaultMaxQueue     = 4096
	defaultMaxBytes     = 1 << 20
)

// SessionOptions configure a Session.
type SessionOptions struct {
	// MaxQueue is how many frames may wait for the socket, MaxQueueBytes
	// how many bytes; one more and the peer is a slow consumer and is
	// disconnected (defaults 4096 and 1 MiB). A burst the server makes at
	// once must fit: a user grain's batch of notifications is up to 1,000
	// frames, which a 256-frame queue took for a slow peer.
	MaxQueue      int
	MaxQueueBytes int
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
// them. Send never blocks: a peer that lets MaxQueue frames (or
// MaxQueueBytes) pile up is disconnected, and nobody else waits for it.
//
// Concurrency: safe for concurrent use. mu guards the queue and the state
// flags; only one drain goroutine runs at a time (writing).
type Session struct {
	UserID uuid.UUID
	conn   *websocket.Conn
	o      SessionOptions

	mu      sync.Mutex
	queue   []outFrame
	queued  int  // bytes in queue
	writing bool // a drain goroutine is running
	closing bool // no more frames are accepted
	stopped bool // Stop was called: the reader is gone
	drained chan struct{}

	// writeBy is the write deadline last set on the connection. Only the
	// drain goroutine of the moment touches it (one at a time, handed on
	// under mu).
	writeBy time.Time
}

type outKind uint8

const (
	outText outKind = iota
	outPing
	outPong
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
	if o.MaxQueueBytes <= 0 {
		o.MaxQueueBytes = defaultMaxBytes
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = defaultWriteTimeout
	}
	s := &Session{UserID: userID, conn: conn, o: o, drained: make(chan struct{})}
	// Every frame leaves through the queue, the replies the library would
	// write from the reader included: a pong, and the reply to a close the
	// peer started (none when we started it).
	conn.SetPingHandler(func(data string) error {
		s.push(outFrame{kind: outPong, data: []byte(data)})
		return nil
	})
	conn.SetCloseHandler(func(code int, _ string) error {
		s.Close(code, "")
		return nil
	})
	return s
}

// Send queues one text frame; false if the session is closing or the peer
// was too slow (it is then disconnected).
func (s *Session) Send(frame []byte) bool {
	return s.push(outFrame{kind: outText, data: frame})
}

// Ping queues a ping; the hub pings every session periodically and the
// reader drops peers that stop answering.
func (s *Session) Ping() { s.push(outFrame{kind: outPing}) }

// SendLater queues one text frame like Send but does not start the writer:
// Flush does. The hub queues a burst of deliveries this way and then
// flushes each socket once, so that a socket gets the burst in one write.
func (s *Session) SendLater(frame []byte) bool {
	return s.enqueue(outFrame{kind: outText, data: frame}, false)
}

// Flush starts the writer if frames wait for it.
func (s *Session) Flush() {
	s.mu.Lock()
	start := !s.writing && !s.stopped && len(s.queue) > 0
	if start {
		s.writing = true
	}
	s.mu.Unlock()
	if start {
		go s.drain()
	}
}

func (s *Session) push(f outFrame) bool { return s.enqueue(f, true) }

func (s *Session) enqueue(f outFrame, now bool) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	if len(s.queue) >= s.o.MaxQueue || s.queued+len(f.data) > s.o.MaxQueueBytes {
		s.closing, s.queue, s.queued = true, nil, 0
		s.mu.Unlock()
		s.o.Log.Warn().Str("user_id", s.UserID.String()).Msg("websocket too slow: disconnected")
		s.abort() // the reader fails at once and cleans up
		return false
	}
	s.queue = append(s.queue, f)
	s.queued += len(f.data)
	start := now && !s.writing
	if start {
		s.writing = true
	}
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

// abort breaks the connection at once: a blocked write or read fails now,
// the reader returns and, once the writer has stopped, closes the
// connection. Closing here instead could race with a write in flight, and
// the connection may be a pooled wrapper that a close hands to the next
// client (httpapi's detachedConn); a deadline in the past is enough.
func (s *Session) abort() {
	_ = s.conn.NetConn().SetDeadline(time.Now())
}

// drain writes queued frames until the queue is empty. At most one runs.
func (s *Session) drain() {
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue, s.queued = nil, 0
		if len(batch) == 0 {
			s.writing = false
			if s.closing {
				close(s.drained)
			}
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		if err := s.write(batch); err != nil {
			s.mu.Lock()
			s.closing, s.queue, s.queued, s.writing = true, nil, 0, false
			close(s.drained)
			s.mu.Unlock()
			s.abort()
			return
		}
	}
}

// write sends a batch of frames in one write to the socket. A socket that
// watches many posts gets a burst of counts in one system call rather than
// one each: under a campus event the socket writes were most of the node's
// CPU, one per frame.
//
// The frames are encoded here (a server's frames are unmasked: a header and
// the payload) and written to the connection directly. The library's own
// replies go through the queue too (NewSession); it may still write a close
// frame from the reader on a protocol error, and each of those and each of
// these batches is a single Write, which the connection never interleaves.
func (s *Session) write(batch []outFrame) error {
	size := 0
	for _, f := range batch {
		size += maxFrameHeader + 2 + len(f.data)
	}
	bp := getFrameBuf(size)
	defer putFrameBuf(bp)
	b := (*bp)[:0]
	closed := false
	for _, f := range batch {
		switch f.kind {
		case outPing:
			b = appendFrame(b, websocket.PingMessage, nil)
		case outPong:
			b = appendFrame(b, websocket.PongMessage, f.data)
		case outClose:
			b = appendFrame(b, websocket.CloseMessage, websocket.FormatCloseMessage(f.code, string(f.data)))
			closed = true
		default:
			b = appendFrame(b, websocket.TextMessage, f.data)
		}
		if closed {
			break // nothing follows a close frame
		}
	}
	*bp = b
	nc := s.conn.NetConn()
	// The deadline moves only once half of it is used up: setting it on
	// every write was a tenth of the server's CPU under a campus event's
	// pushes. A stuck write still fails within WriteTimeout.
	if now := time.Now(); s.writeBy.Sub(now) < s.o.WriteTimeout/2 {
		s.writeBy = now.Add(s.o.WriteTimeout)
		if err := nc.SetWriteDeadline(s.writeBy); err != nil {
			return err
		}
	}
	if _, err := nc.Write(b); err != nil {
		return err
	}
	if closed {
		// The reader waits for the peer's close reply; do not wait forever.
		return s.conn.SetReadDeadline(time.Now().Add(closeHandshakeGrace))
	}
	return nil
}

// maxFrameHeader is the longest header of an unmasked websocket frame.
const maxFrameHeader = 10

// appendFrame appends one final, unmasked websocket frame of the given type
// (RFC 6455 §5.2).
func appendFrame(b []byte, opcode int, payload []byte) []byte {
	b = append(b, 0x80|byte(opcode))
	switch n := len(payload); {
	case n <= 125:
		b = append(b, byte(n))
	case n <= 0xffff:
		b = append(b, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
}

// Write buffers are pooled: an idle socket holds none.
var frameBufs sync.Pool

// maxPooledFrameBuf keeps a rare huge batch from being held in the pool.
const maxPooledFrameBuf = 64 << 10

func getFrameBuf(size int) *[]byte {
	if bp, ok := frameBufs.Get().(*[]byte); ok {
		if cap(*bp) >= size {
			return bp
		}
		frameBufs.Put(bp)
	}
	b := make([]byte, 0, max(size, 4<<10))
	return &b
}

func putFrameBuf(bp *[]byte) {
	if cap(*bp) <= maxPooledFrameBuf {
		*bp = (*bp)[:0]
		frameBufs.Put(bp)
	}
}
