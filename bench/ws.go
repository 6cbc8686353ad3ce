package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
)

// frame is one post's count in a post:counts push as a viewer received it.
type frame struct {
	at    int64 // bench clock
	post  int32 // index into the pool's posts
	count int32
}

// viewer is one websocket client. Only its reader goroutine touches frames
// until the pool is closed.
type viewer struct {
	c      *websocket.Conn
	buf    bytes.Buffer // the frame being read, reused: the instrument should not feed its own GC
	frames []frame
	fanAt  atomic.Int64 // fan-out: when the awaited count arrived (0 = not yet)
}

// pool is a set of viewers of the same server.
type pool struct {
	b       *bench
	idx     map[string]int32 // post id → index; frames of other posts are ignored
	vs      []*viewer
	rec     atomic.Bool // record frames
	closing atomic.Bool
	dropped atomic.Int64 // sockets that closed before we closed them
	badMsgs atomic.Int64 // frames that did not parse
	wg      sync.WaitGroup
	// pong, when set, answers a server's application-level pings (a
	// peer's protocol): see dialSpec.pong.
	pong func(msg []byte) (reply []byte, onlyPing bool)

	// Fan-out: a viewer counts as reached when a frame of post fanIdx with
	// a count of at least fanTarget arrives.
	fanIdx    atomic.Int32 // -1: none
	fanTarget atomic.Int32
	fanLeft   atomic.Int64
}

type dialSpec struct {
	label string
	url   string // ws://host:port/path
	n     int
	token func(i int) string      // empty: no token
	watch func(i int) []uuid.UUID // posts viewer i watches; nil: none
	posts []uuid.UUID             // the posts whose frames count
	conc  int                     // dials in flight
	// maxFail is how many failed dials end the dialing (1: the first).
	maxFail int
	// readyTimeout bounds the wait for the server's ready frame.
	readyTimeout time.Duration
	// open, when set, opens viewer i's connection in a peer's own protocol
	// (connect, subscribe) instead of Campus's (token, ready frame, watch
	// frame); the reader that follows is the same for every server.
	open func(ctx context.Context, d *websocket.Dialer, i int) (*websocket.Conn, error)
	// pong, when set, is asked about every message a viewer receives: a
	// reply to write back (the server pings and closes sockets that do not
	// answer), and whether the message was nothing but the ping.
	pong func(msg []byte) (reply []byte, onlyPing bool)
}

// dialPool opens s.n viewers. It returns the pool of those connected and
// the first error, if any: a caller that needs them all treats any error as
// fatal, the connections scenario keeps what it got.
func (b *bench) dialPool(ctx context.Context, s dialSpec) (*pool, error) {
	p := &pool{b: b, idx: map[string]int32{}, pong: s.pong}
	p.fanIdx.Store(-1)
	for i, id := range s.posts {
		p.idx[id.String()] = int32(i)
	}
	if s.conc <= 0 {
		s.conc = 64
	}
	if s.maxFail <= 0 {
		s.maxFail = 1
	}
	if s.readyTimeout <= 0 {
		s.readyTimeout = 15 * time.Second
	}
	d := b.wsDialer()
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make([]*viewer, s.n)
	var (
		ok, failed atomic.Int64
		errMu      sync.Mutex
		firstErr   error
		wg         sync.WaitGroup
	)
	sem := make(chan struct{}, s.conc)
	stop := b.ticker(func() string {
		return fmt.Sprintf("%s: %s/%s sockets open, %d failed", s.label, group(ok.Load()), group(int64(s.n)), failed.Load())
	})
	defer stop()
	for i := 0; i < s.n && dctx.Err() == nil; i++ {
		select {
		case sem <- struct{}{}:
		case <-dctx.Done():
		}
		if dctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v, err := p.dialOne(dctx, d, s, i)
			if err != nil {
				if dctx.Err() != nil && !isUnavailable(err) {
					return // cancelled after another failure
				}
				errMu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				errMu.Unlock()
				if failed.Add(1) >= int64(s.maxFail) || isUnavailable(err) {
					cancel()
				}
				return
			}
			got[i] = v
			ok.Add(1)
		}()
	}
	wg.Wait()
	for _, v := range got {
		if v != nil {
			p.vs = append(p.vs, v)
		}
	}
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return p, firstErr
}

// wsDialer is the bench's websocket dialer: small buffers, source
// addresses spread as for HTTP.
func (b *bench) wsDialer() *websocket.Dialer {
	return &websocket.Dialer{
		NetDialContext:   b.dial.dialContext,
		HandshakeTimeout: 20 * time.Second,
		ReadBufferSize:   1024,
		WriteBufferSize:  1024,
	}
}

// dialReady opens a websocket to u (ws://host:port/path), with token when
// not empty, and waits up to readyTimeout for the server's ready frame:
// the server says ready once the token is accepted, and what it pushes
// from then on reaches this socket.
func dialReady(ctx context.Context, d *websocket.Dialer, u, token string, readyTimeout time.Duration) (*websocket.Conn, error) {
	full := u
	if token != "" {
		full += "?token=" + url.QueryEscape(token)
	}
	c, resp, err := d.DialContext(ctx, full, nil)
	if err != nil {
		if resp != nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed) {
			return nil, fmt.Errorf("%w: GET %s answers %d", errUnavailable, wsPath(u), resp.StatusCode)
		}
		if resp != nil {
			return nil, fmt.Errorf("websocket %s: %w (status %d)", wsPath(u), err, resp.StatusCode)
		}
		return nil, fmt.Errorf("websocket %s: %w", wsPath(u), err)
	}
	_ = c.SetReadDeadline(time.Now().Add(readyTimeout))
	ready := false
	for k := 0; k < 8 && !ready; k++ {
		_, msg, err := c.ReadMessage()
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("websocket %s: no ready frame: %w", wsPath(u), err)
		}
		ready = bytes.Contains(msg, []byte(`"event":"ready"`))
	}
	if !ready {
		c.Close()
		return nil, fmt.Errorf("websocket %s: no ready frame among the first 8", wsPath(u))
	}
	_ = c.SetReadDeadline(time.Time{})
	return c, nil
}

// dialOne connects viewer i, waits for the ready frame, sends its watch
// frame and starts its reader.
func (p *pool) dialOne(ctx context.Context, d *websocket.Dialer, s dialSpec, i int) (*viewer, error) {
	if s.open != nil {
		c, err := s.open(ctx, d, i)
		if err != nil {
			return nil, err
		}
		v := &viewer{c: c}
		p.wg.Add(1)
		go p.read(v)
		return v, nil
	}
	token := ""
	if s.token != nil {
		token = s.token(i)
	}
	// A watch sent before the ready frame could race the authentication.
	c, err := dialReady(ctx, d, s.url, token, s.readyTimeout)
	if err != nil {
		return nil, err
	}
	v := &viewer{c: c}
	if s.watch != nil {
		if err := c.WriteMessage(websocket.TextMessage, watchFrame(s.watch(i))); err != nil {
			c.Close()
			return nil, fmt.Errorf("websocket %s: send watch: %w", wsPath(s.url), err)
		}
	}
	p.wg.Add(1)
	go p.read(v)
	return v, nil
}

func wsPath(u string) string {
	if x, err := url.Parse(u); err == nil {
		return x.Path
	}
	return u
}

func watchFrame(ids []uuid.UUID) []byte {
	var sb strings.Builder
	sb.WriteString(`{"event":"watch","data":{"postIds":[`)
	for i, id := range ids {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"` + id.String() + `"`)
	}
	sb.WriteString(`]}}`)
	return []byte(sb.String())
}

var (
	evCounts = []byte(`"post:counts"`)
	keyPost  = []byte(`"postId":"`)
	keyCount = "likesCount"
)

// framesReceived counts every websocket frame the bench's viewers
// received, of any event: the CPU table shows it per phase.
var framesReceived atomic.Int64

// read receives frames until the socket closes; the entries of post:counts
// frames (one frame per tick, an entry per changed watched post) of the
// pool's posts are recorded while rec is set and checked for fan-out.
func (p *pool) read(v *viewer) {
	defer p.wg.Done()
	for {
		msg, err := v.next()
		if err != nil {
			if !p.closing.Load() {
				p.dropped.Add(1)
			}
			return
		}
		if p.pong != nil {
			reply, only := p.pong(msg)
			if reply != nil {
				// Only this goroutine writes once the socket is open.
				_ = v.c.WriteMessage(websocket.TextMessage, reply)
			}
			if only {
				continue
			}
		}
		framesReceived.Add(1)
		at := p.b.now()
		if !bytes.Contains(msg, evCounts) {
			continue
		}
		for rest := msg; ; {
			i := bytes.Index(rest, keyPost)
			if i < 0 {
				break
			}
			rest = rest[i+len(keyPost):]
			j := bytes.IndexByte(rest, '"')
			n, ok := jsonInt(rest, keyCount)
			if j < 0 || !ok {
				p.badMsgs.Add(1)
				break
			}
			if post, known := p.idx[string(rest[:j])]; known { // no copy of the id: a map index
				p.record(v, at, post, n)
			}
		}
	}
}

// next reads the viewer's next message into its buffer; the bytes are
// valid until the next call.
func (v *viewer) next() ([]byte, error) {
	_, r, err := v.c.NextReader()
	if err != nil {
		return nil, err
	}
	v.buf.Reset()
	if _, err := v.buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return v.buf.Bytes(), nil
}

// record notes the count of the pool's post (its index) as viewer v
// received it at at.
func (p *pool) record(v *viewer, at int64, post int32, n int64) {
	if post == p.fanIdx.Load() {
		if t := p.fanTarget.Load(); t > 0 && int32(n) >= t && v.fanAt.Load() == 0 {
			v.fanAt.Store(at)
			p.fanLeft.Add(-1)
		}
	}
	if p.rec.Load() {
		v.frames = append(v.frames, frame{at: at, post: post, count: int32(n)})
	}
}

// send writes one text frame to every viewer, from a few goroutines.
func (p *pool) send(msg func(i int) []byte) (failed int) {
	var bad atomic.Int64
	var wg sync.WaitGroup
	const parts = 8
	for k := 0; k < parts; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < len(p.vs); i += parts {
				_ = p.vs[i].c.SetWriteDeadline(time.Now().Add(10 * time.Second))
				if err := p.vs[i].c.WriteMessage(websocket.TextMessage, msg(i)); err != nil {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(bad.Load())
}

// close closes every socket and waits for the readers; frames are safe to
// read afterwards.
func (p *pool) close() {
	if p == nil {
		return
	}
	p.closing.Store(true)
	for _, v := range p.vs {
		_ = v.c.Close()
	}
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		p.b.progress("some websocket readers did not stop within 30s")
	}
}

// framesIn returns every recorded frame that arrived in [from, to).
func (p *pool) framesIn(from, to int64) []frame {
	var out []frame
	for _, v := range p.vs {
		for _, f := range v.frames {
			if f.at >= from && f.at < to {
				out = append(out, f)
			}
		}
	}
	return out
}

// probeWS opens and closes one authenticated socket.
func (b *bench) probeWS(ctx context.Context) error {
	p, err := b.dialPool(ctx, dialSpec{
		label: "websocket probe", url: "ws://" + b.addr + "/api/ws", n: 1,
		token: func(int) string { return b.w.tokens[4] }, readyTimeout: 10 * time.Second,
	})
	p.close()
	return err
}
