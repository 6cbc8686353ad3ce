package realtime

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
)

// session is one websocket's server side (docs/architecture.md §4.3), a local actor
// spawned per socket: the signed-in user, the posts the socket watches, and
// the socket's writer with a bounded send queue. The hub reaches it with
// SessionFrames (a user's events as they come; the watched posts'
// counts as one post:counts frame per tick), SessionPing, SessionRevoked
// and SessionClose.
//
// Concurrency rules:
//   - Every field is touched only inside Receive, except closing (atomic,
//     read by the reader goroutine) and conn, which is set once by
//     sessionInit before anything else runs.
//   - Reading: on Linux the node's poller (epoll) reports a readable socket
//     with a readable message, and Receive reads what is there without
//     waiting, parses the frames (readframes.go) and re-arms: an idle
//     socket costs no goroutine and no buffer. Elsewhere a reader goroutine
//     owns reading and the read deadline and sends each client frame, the
//     peer's pings and close to the actor as messages, and readerDone when
//     the socket is done.
//   - Writes: when frames are queued and no write is in flight, Receive
//     encodes the whole queue and writes it in one system call that does
//     not wait (tryWrite); only what the kernel did not take goes to a
//     writer goroutine, which owns those bytes and reports back with wrote.
//     Frames that come meanwhile queue for the next write.
//   - Nothing blocks in Receive: it runs on the sender's goroutine (the
//     hub's, the reader's; see Sockets' dispatcher). A peer that lets
//     MaxQueue frames (or MaxQueueBytes) pile up is disconnected; nobody
//     else waits for it.
//   - The connection is closed by the actor, once, after the reader is done
//     and no write is in flight; then the actor stops.
type session struct {
	sockets *Sockets
	conn    *websocket.Conn
	// raw is the connection's descriptor access for the writes and reads
	// that do not wait; nil when it has none.
	raw    syscall.RawConn
	client Client
	self   *actor.PID
	root   *actor.RootContext
	ready  []byte // the greeting, sent once the hub registered the socket
	// hub is the hub actor the session was spawned for, in its own actor
	// system, for its whole life (a rejoin moves the Hub, not the session).
	hub *hubRef

	registered bool
	watched    watchSet
	// checking is set while a watch check runs; meanwhile the client's next
	// frames wait in held and are handled in order once it answered, so a
	// frame's answer always follows the effect of the frames before it (a
	// probe answered after a watch proves the hub has the watch). So at most
	// one check runs at a time.
	checking bool
	held     [][]byte
	// typingBusy is set while a typing frame's check runs; typing frames
	// that come meanwhile are dropped (typing is ephemeral), so a client
	// cannot pile up checks.
	typingBusy bool

	queue   []outFrame
	queued  int  // bytes in queue
	writing bool // a writer goroutine owns a batch
	// writeBy is the write deadline last set on the connection; it goes to
	// the writer with a batch and comes back with wrote.
	writeBy    time.Time
	readerDone bool
	finished   bool

	// Reading without a goroutine (the node's poller): fd is armed one-shot
	// and every report (readable) reads what is there, parses it and
	// re-arms. lastSeen is when the peer last sent anything; a peer silent
	// for PongWait is dropped at the next ping. Without a poller, a reader
	// goroutine reads instead (read).
	polled   bool
	fd       int
	parser   frameParser
	lastSeen time.Time

	// closing: no more frames are accepted, and the reader must not move
	// the read deadline (a close handshake's or an abort's must stand).
	closing atomic.Bool
}

// Messages of a session actor; they never leave the node.
type (
	sessionInit struct {
		conn   *websocket.Conn
		client Client
		ready  []byte
		hub    *hubRef
	}
	// clientFrame is one frame the client sent (at most MaxFrame+1 bytes).
	clientFrame struct{ data []byte }
	peerPing    struct{ data []byte }
	peerClose   struct{ code int }
	readerDone  struct{}
	wrote       struct {
		writeBy time.Time
		err     error
		closed  bool // the bytes ended with our close frame
	}
	revokeChecked struct{ valid bool }
	// watchChecked answers a watch frame's check: of the posts asked, the
	// ones the user may watch; failed when the check could not be made.
	watchChecked struct {
		asked, allowed []uuid.UUID
		failed         bool
	}
	resumed      struct{ frames [][]byte }
	typingDone   struct{}
	readable     struct{}
	closeTimeout struct{}
)

func (s *session) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *sessionInit:
		if s.conn != nil {
			return
		}
		s.conn, s.client, s.ready, s.hub = m.conn, m.client, m.ready, m.hub
		s.raw = rawConnOf(m.conn.NetConn())
		s.self, s.root = ctx.Self(), ctx.ActorSystem().Root
		s.watched = make(watchSet)
		s.hub.register(ctx, s.client.UserID)
	case *Registered:
		s.registered = m.Err == nil
		// Reading starts first, so that the close of a refused socket is
		// bounded like any other (closeSent). A refused socket is read too:
		// for the peer's close reply.
		s.startReading()
		switch {
		case m.Err == nil:
			s.push(outFrame{kind: outText, data: s.ready})
		case errors.Is(m.Err, ErrTooManySockets):
			s.close(CloseTryAgainLater, "Too many connections")
		case errors.Is(m.Err, ErrGoingAway):
			s.close(CloseServiceRestart, RestartReason)
		default:
			s.sockets.log.Error().Err(m.Err).Msg("websocket register")
			s.close(CloseInternal, "Server error")
		}
		s.ready = nil
	case *SessionFrames:
		if m.wire != nil && len(m.Frames) == 1 {
			s.push(outFrame{kind: outText, data: m.Frames[0], wire: m.wire})
			return
		}
		for _, f := range m.Frames {
			if !s.push(outFrame{kind: outText, data: f}) {
				break
			}
		}
	case *SessionPing:
		if s.polled && time.Since(s.lastSeen) > s.sockets.o.PongWait {
			s.abort() // no pong, nothing at all, for too long
			return
		}
		s.push(outFrame{kind: outPing})
	case *readable:
		s.readAvailable()
	case *closeTimeout:
		s.readDone() // the peer never answered our close
	case *SessionClose:
		s.close(m.Code, m.Reason)
	case *SessionRevoked:
		s.recheck()
	case *watchChecked:
		s.watchChecked(m)
	case *resumed:
		for _, f := range m.frames {
			if !s.push(outFrame{kind: outText, data: f}) {
				break
			}
		}
	case *typingDone:
		s.typingBusy = false
	case *revokeChecked:
		if !m.valid {
			s.close(ClosePolicy, "Token revoked")
		}
	case *clientFrame:
		s.clientFrame(m.data)
	case *peerPing:
		s.push(outFrame{kind: outPong, data: m.data})
	case *peerClose:
		s.close(m.code, "") // the reply to a close the peer started
	case *readerDone:
		s.readDone()
	case *wrote:
		s.writing, s.writeBy = false, m.writeBy
		switch {
		case m.err != nil:
			s.writeFailed()
		case m.closed:
			s.closeSent()
		}
		s.startWriter()
		s.finish()
	case actor.SystemMessage, actor.AutoReceiveMessage:
		// Started, Stopping, Stopped: a session has nothing to do then.
	default:
		// A message this version does not know (a newer node's, in a
		// rolling upgrade) is dropped, never a crash.
		s.sockets.log.Debug().Str("type", fmt.Sprintf("%T", m)).Msg("websocket session: unknown message dropped")
	}
}

// maxHeld bounds the client frames that wait for watch checks; a client
// that sends more meanwhile is flooding and is disconnected.
const maxHeld = 64

// clientFrame answers one frame the client sent, in order: while a watch
// check runs it waits in held.
func (s *session) clientFrame(data []byte) {
	if s.checking {
		if len(s.held) >= maxHeld {
			s.held = nil
			s.close(ClosePolicy, "Too many frames")
			return
		}
		s.held = append(s.held, data)
		return
	}
	h := s.watched.handle(data)
	if s.registered {
		s.watch(h.added)
		s.hub.unwatch(s.self, h.removed)
	}
	if h.reply != nil {
		s.push(outFrame{kind: outText, data: h.reply})
	}
	if h.resume != nil {
		s.resume(*h.resume)
	}
	if h.typing != uuid.Nil {
		s.typing(h.typing)
	}
}

// typing hands a typing frame to the client's Typing in a goroutine of its
// own (it asks the database): nothing comes back to the socket, whatever
// the answer (a typing event is ephemeral; one over its rate, or in a
// conversation the user may not write in, is dropped silently).
func (s *session) typing(conv uuid.UUID) {
	typing := s.client.Typing
	if typing == nil || s.typingBusy || s.closing.Load() || !s.registered {
		return
	}
	s.typingBusy = true
	root, self, log, user := s.root, s.self, s.sockets.log, s.client.UserID
	go func() {
		defer root.Send(self, &typingDone{})
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if err := typing(ctx, conv); err != nil {
			log.Warn().Err(err).Str("user_id", user.String()).Msg("websocket typing failed")
		}
	}()
}

// watch has the hub deliver the posts ids, once the client's Watchable
// check allowed them: it runs in a goroutine of its own (it asks the
// database, once for the whole frame) and reports back with watchChecked.
// Meanwhile the posts are in the watched set but not with the hub, and the
// client's next frames wait for the answer (clientFrame), so an unwatch
// cannot overtake the watch it undoes.
func (s *session) watch(ids []uuid.UUID) {
	check := s.client.Watchable
	if len(ids) == 0 {
		return
	}
	if check == nil {
		s.hub.watch(s.self, ids)
		return
	}
	s.checking = true
	root, self, log, user := s.root, s.self, s.sockets.log, s.client.UserID
	go func() {
		var allowed []uuid.UUID
		var err error
		// A check that fails (the database busy or out of reach for a
		// moment, a node that just resumed) is tried again a few times;
		// then the socket is closed (watchChecked), so its client
		// reconnects, re-reads and watches again: a socket left open
		// without its watches would show stale counts until the reader
		// moved on.
		for attempt := range watchCheckTries {
			if attempt > 0 {
				time.Sleep(watchCheckRetry << (attempt - 1))
			}
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			allowed, err = check(ctx, ids)
			cancel()
			if err == nil {
				break
			}
		}
		if err != nil {
			log.Warn().Err(err).Str("user_id", user.String()).Int("posts", len(ids)).Msg("websocket watch check failed; closing the socket")
		}
		root.Send(self, &watchChecked{asked: ids, allowed: allowed, failed: err != nil})
	}()
}

// watchChecked watches the allowed posts that are still in the watched set
// and forgets the refused ones; then the frames that waited for the check
// are handled.
func (s *session) watchChecked(m *watchChecked) {
	s.checking = false
	if m.failed {
		s.held = nil
		s.close(CloseInternal, "Server error")
		return
	}
	ok := make(map[uuid.UUID]bool, len(m.allowed))
	for _, id := range m.allowed {
		ok[id] = true
	}
	var watch []uuid.UUID
	for _, id := range m.asked {
		if _, still := s.watched[id]; !still {
			continue
		}
		if ok[id] {
			watch = append(watch, id)
		} else {
			delete(s.watched, id)
		}
	}
	if s.registered && !s.closing.Load() {
		s.hub.watch(s.self, watch)
	}
	// A held frame may start another check; the rest then wait for it.
	for !s.checking && len(s.held) > 0 {
		data := s.held[0]
		s.held = s.held[1:]
		s.clientFrame(data)
	}
	if len(s.held) == 0 {
		s.held = nil
	}
}

// resume replays what the client missed since the time it sent, in a
// goroutine of its own (it asks the database), and reports back with
// resumed. The socket is registered with the hub by then (a client frame
// is read only after that), so what happens from now on arrives live: the
// replay and the live frames overlap rather than leave a gap, and the
// client knows a notification again by its id.
func (s *session) resume(since time.Time) {
	replay := s.client.Resume
	if replay == nil || s.closing.Load() || !s.registered {
		return
	}
	root, self, log, user := s.root, s.self, s.sockets.log, s.client.UserID
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		frames, err := replay(ctx, since)
		if err != nil {
			log.Warn().Err(err).Str("user_id", user.String()).Msg("websocket resume failed")
			return
		}
		root.Send(self, &resumed{frames: frames})
	}()
}

// startReading arms the socket on the node's poller, or starts a reader
// goroutine where there is none (or when the client sent bytes before the
// upgrade was answered: those wait in the connection, not in the socket).
func (s *session) startReading() {
	if dc, ok := s.conn.NetConn().(*detachedConn); ok && len(dc.early) > 0 {
		go s.read()
		return
	}
	if p := s.sockets.poll; p != nil {
		if fd, ok := connFD(s.raw); ok {
			root, self := s.root, s.self
			s.polled, s.fd, s.lastSeen = true, fd, time.Now()
			if p.add(fd, func() { root.Send(self, &readable{}) }) == nil {
				return
			}
			s.polled = false
		}
	}
	go s.read()
}

// readChunk is how much one read takes from a polled socket, and
// maxReadsPerReport how many reads one report allows: a client that keeps
// sending is re-armed (and reported again at once) rather than holding the
// poller's goroutine, which serves every socket.
const (
	readChunk         = 4 << 10
	maxReadsPerReport = 16
)

// readAvailable reads what a polled socket holds, without waiting, and
// handles its frames; then it re-arms the socket, or ends the session on
// EOF, an error or a protocol violation.
func (s *session) readAvailable() {
	if !s.polled || s.readerDone {
		return
	}
	bp := getFrameBuf(readChunk)
	defer putFrameBuf(bp)
	buf := (*bp)[:readChunk]
	for range maxReadsPerReport {
		n, err := tryRead(s.raw, buf)
		if n > 0 {
			s.lastSeen = time.Now()
			if perr := s.parser.feed(buf[:n], s.inFrame); perr != nil {
				s.close(closeCode(perr), "")
				s.readDone()
				return
			}
			if s.readerDone {
				return
			}
		}
		if err != nil {
			s.readDone()
			return
		}
		if n < len(buf) {
			break
		}
	}
	if err := s.sockets.poll.rearm(s.fd); err != nil {
		s.readDone()
	}
}

// inFrame handles one frame of a polled socket.
func (s *session) inFrame(f inFrame) {
	if s.readerDone {
		return
	}
	switch f.kind {
	case outText:
		s.clientFrame(f.data)
	case outPing:
		s.push(outFrame{kind: outPong, data: f.data})
	case outClose:
		s.close(f.code, "") // the reply to a close the peer started
		s.readDone()
	}
}

// readDone is the end of reading: the socket leaves the hub, and the
// session ends once what is queued is written.
func (s *session) readDone() {
	if s.readerDone {
		return
	}
	if s.polled {
		s.sockets.poll.remove(s.fd)
	}
	s.readerDone = true
	s.closing.Store(true)
	s.parser = frameParser{}
	if s.registered {
		s.registered = false
		s.hub.unregister(s.self, s.watched.ids())
	}
	s.finish()
}

// push queues one frame and starts the writer; false if the session is
// closing or the peer was too slow (it is then disconnected).
func (s *session) push(f outFrame) bool {
	if s.closing.Load() {
		return false
	}
	if len(s.queue) >= s.sockets.o.MaxQueue || s.queued+len(f.data) > s.sockets.o.MaxQueueBytes {
		s.closing.Store(true)
		s.queue, s.queued = nil, 0
		s.sockets.log.Warn().Str("user_id", s.client.UserID.String()).Msg("websocket too slow: disconnected")
		s.abort() // the reader fails at once, and the session ends
		return false
	}
	s.queue = append(s.queue, f)
	s.queued += len(f.data)
	s.startWriter()
	return true
}

// close queues a close frame with code and reason after what is queued,
// then accepts no more frames. The peer's close reply ends the reader; if
// none comes the reader times out after closeGrace.
func (s *session) close(code int, reason string) {
	if s.closing.Swap(true) {
		return
	}
	s.queue = append(s.queue, outFrame{kind: outClose, code: code, data: []byte(reason)})
	s.startWriter()
}

// startWriter writes the queue unless a write is in flight: at once, with
// a write that does not wait, when the socket's send buffer has room (the
// usual case: no goroutine, no message); what the kernel did not take goes
// to a writer goroutine, which reports back with wrote.
func (s *session) startWriter() {
	if s.writing || s.finished || len(s.queue) == 0 {
		return
	}
	batch := s.queue
	// A frame the hub encoded (a tick's post:counts, the usual lone
	// frame) is written as it is; else the batch is encoded into a pooled
	// buffer.
	var (
		b      []byte
		bp     *[]byte
		closed bool
	)
	if len(batch) == 1 && batch[0].wire != nil {
		b = batch[0].wire
	} else {
		bp = getFrameBuf(batchSize(batch))
		b, closed = encodeBatch((*bp)[:0], batch)
		*bp = b
	}
	// The queue's array is kept for the next frames (none of them is
	// referenced from it any more), unless a burst made it big.
	clear(batch)
	if cap(batch) <= maxKeptQueue {
		s.queue = batch[:0]
	} else {
		s.queue = nil
	}
	s.queued = 0
	n, ok, err := tryWrite(s.raw, b)
	switch {
	case ok && err != nil:
		putFrameBuf(bp)
		s.writeFailed()
		return
	case ok && n == len(b):
		putFrameBuf(bp)
		if closed {
			s.closeSent()
		}
		return
	}
	s.writing = true
	conn, writeBy, timeout, root, self := s.conn, s.writeBy, s.sockets.o.WriteTimeout, s.root, s.self
	go func() {
		defer putFrameBuf(bp)
		writeBy, err := writeBytes(conn, b[n:], writeBy, timeout)
		root.Send(self, &wrote{writeBy: writeBy, err: err, closed: closed})
	}()
}

// maxKeptQueue is the largest send queue array a session keeps between
// writes: a socket gets a frame or two at a time, and an idle one should
// not hold a burst's worth.
const maxKeptQueue = 4

// writeFailed gives up on a socket whose write failed: nothing more is
// queued, and the reader fails at once, which ends the session.
func (s *session) writeFailed() {
	s.closing.Store(true)
	s.queue, s.queued = nil, 0
	s.abort()
}

// closeSent bounds the wait for the peer's reply to our close frame: the
// reader ends after closeGrace if none comes.
func (s *session) closeSent() {
	if s.polled {
		root, self := s.root, s.self
		time.AfterFunc(closeGrace, func() { root.Send(self, &closeTimeout{}) })
		return
	}
	_ = s.conn.SetReadDeadline(time.Now().Add(closeGrace))
}

// finish closes the connection and stops the actor once the reader is done
// and nothing is being written. What was queued before goes out first (the
// reply to the peer's close); the write deadline bounds that.
func (s *session) finish() {
	if !s.readerDone || s.writing || s.finished {
		return
	}
	if len(s.queue) > 0 {
		s.startWriter()
		if s.writing || len(s.queue) > 0 {
			return
		}
	}
	s.finished = true
	_ = s.conn.Close()
	s.root.Stop(s.self)
}

// abort breaks the connection at once: a blocked write or read fails now,
// the reader ends and the session with it. Closing here instead could race
// with a write in flight, and the connection may be a pooled wrapper that a
// close hands to the next client (detachedConn); a deadline in the past is
// enough.
func (s *session) abort() {
	_ = s.conn.NetConn().SetDeadline(time.Now())
	if s.polled {
		s.readDone() // no reader to fail: reading ends here
	}
}

// recheck runs the client's token re-check in a goroutine of its own (it
// asks the database) and reports back with revokeChecked.
func (s *session) recheck() {
	check := s.client.StillValid
	if check == nil || s.closing.Load() {
		return
	}
	root, self, log, user := s.root, s.self, s.sockets.log, s.client.UserID
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		ok, err := check(ctx)
		if err != nil {
			log.Warn().Err(err).Str("user_id", user.String()).Msg("websocket token re-check failed")
			return
		}
		root.Send(self, &revokeChecked{valid: ok})
	}()
}

// callTimeout bounds a token re-check.
const callTimeout = 10 * time.Second

// watchCheckTries bounds the attempts at one watch frame's check;
// watchCheckRetry is the wait before the second, doubled before each next.
const (
	watchCheckTries = 3
	watchCheckRetry = 250 * time.Millisecond
)

// read is the socket's reader goroutine: it hands every client frame to
// the actor until the socket is done, then reports readerDone. Every frame
// leaves through the actor's queue, the replies the library would write
// from here included: a pong, and the reply to a close the peer started.
func (s *session) read() {
	conn, root, self := s.conn, s.root, s.self
	defer root.Send(self, &readerDone{})
	conn.SetPingHandler(func(data string) error {
		root.Send(self, &peerPing{data: []byte(data)})
		return nil
	})
	conn.SetCloseHandler(func(code int, _ string) error {
		root.Send(self, &peerClose{code: code})
		return nil
	})
	conn.SetPongHandler(func(string) error { s.extendRead(); return nil })
	for {
		s.extendRead()
		_, r, err := conn.NextReader()
		if err != nil {
			return
		}
		data, err := readFrame(r)
		if err != nil {
			return
		}
		root.Send(self, &clientFrame{data: data})
	}
}

// extendRead gives the peer another PongWait to show it is alive, unless
// the session is closing: then the short deadline of the close handshake (or
// of an abort) must stand. Checking again after setting closes the race with
// a close that happens in between. Called by the reader only.
func (s *session) extendRead() {
	if s.closing.Load() {
		return
	}
	_ = s.conn.SetReadDeadline(time.Now().Add(s.sockets.o.PongWait))
	if s.closing.Load() {
		_ = s.conn.SetReadDeadline(time.Now().Add(closeGrace))
	}
}

// writeBytes writes what the kernel did not take at once, waiting for the
// socket within the write deadline, and answers the deadline now set. The
// library may still write a close frame from the reader on a protocol
// error; each of those and each of these is a single Write, which the
// connection never interleaves.
func writeBytes(conn *websocket.Conn, b []byte, writeBy time.Time, timeout time.Duration) (time.Time, error) {
	nc := conn.NetConn()
	// The deadline moves only once half of it is used up: setting it on
	// every write was a tenth of the server's CPU under a campus event's
	// pushes. A stuck write still fails within timeout.
	if now := time.Now(); writeBy.Sub(now) < timeout/2 {
		writeBy = now.Add(timeout)
		if err := nc.SetWriteDeadline(writeBy); err != nil {
			return writeBy, err
		}
	}
	_, err := nc.Write(b)
	return writeBy, err
}
