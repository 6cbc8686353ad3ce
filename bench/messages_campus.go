package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"
)

// campusTarget is Campus as a msgTarget: the people are the first seeded
// users (tokens minted as for every scenario), the conversations are made
// through the API, a person's live connection is a websocket reading
// message:new, a send is POST /api/conversations/{id}/messages under the
// client's retry policy (same clientId), and stored reads Postgres.
type campusTarget struct {
	b       *bench
	convs   []uuid.UUID      // conversation index → id
	convIdx map[string]int32 // id → conversation index
	paths   []string         // conversation index → /api/conversations/{id}/messages
	clients []*fasthttp.Client
	rngs    []*mrand.Rand // per person: the retry policy's jitter
	// rot is where sends go: the bench's server, or the cluster's nodes.
	rot   *rotation
	stats atomic.Pointer[msgAttempts]

	dropped atomic.Int64 // sockets the server closed (one node: not reopened)
	unknown atomic.Int64 // message:new frames of conversations the bench did not make
}

// msgAttempts are a phase's failed send attempts by status ("conn" for a
// connection error), the sends failed after the retry policy, and those a
// retry served.
type msgAttempts struct {
	mu       sync.Mutex
	attempts map[string]int
	failed   map[string]int
	retried  int
}

func newMsgAttempts() *msgAttempts {
	return &msgAttempts{attempts: map[string]int{}, failed: map[string]int{}}
}

func (a *msgAttempts) count(m map[string]int, status string) {
	a.mu.Lock()
	m[status]++
	a.mu.Unlock()
}

func newCampusTarget(b *bench) *campusTarget {
	t := &campusTarget{b: b, rot: newRotation([]*clNode{{addr: b.addr}}, 0)}
	t.rot.nodes[0].up.Store(true)
	t.stats.Store(newMsgAttempts())
	return t
}

func (t *campusTarget) name() string { return "Campus" }

// user is person p's index into the bench's users.
func (t *campusTarget) user(p int) int { return p }

// setup lets the people be messaged by everyone ("Who can message you"
// written as the API's PUT would, in one COPY: their seeded friendships do
// not cover the pairs and groups), then makes every conversation through
// POST /api/conversations as one of its members.
func (t *campusTarget) setup(ctx context.Context, people int, direct [][2]int, groups [][]int) error {
	b := t.b
	if people > len(b.w.users) {
		return fmt.Errorf("%d people but %d users", people, len(b.w.users))
	}
	var done atomic.Int64
	err := b.copyRows(ctx, "message_settings", "user_id, allow_from", people, &done, func(i int, bw *bufio.Writer) {
		fmt.Fprintf(bw, "%s\teveryone\n", b.w.users[t.user(i)])
	})
	if err != nil {
		return err
	}
	t.rot.cur = make([]atomic.Int32, people)
	t.clients = make([]*fasthttp.Client, people)
	t.rngs = make([]*mrand.Rand, people)
	for p := range people {
		t.clients[p] = t.httpClient()
		t.rngs[p] = mrand.New(mrand.NewPCG(uint64(b.o.seed), uint64(p)+60_000))
	}
	n := len(direct) + len(groups)
	t.convs = make([]uuid.UUID, n)
	t.paths = make([]string, n)
	t.convIdx = make(map[string]int32, n)
	var (
		next, made atomic.Int64
		mu         sync.Mutex
		firstErr   error
		wg         sync.WaitGroup
	)
	stop := b.ticker(func() string {
		return fmt.Sprintf("messages: %s/%s conversations made", group(made.Load()), group(int64(n)))
	})
	defer stop()
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := int(next.Add(1) - 1); c < n && ctx.Err() == nil; c = int(next.Add(1) - 1) {
				var by int
				var body []byte
				if c < len(direct) {
					by = direct[c][0]
					body = fmt.Appendf(nil, `{"kind":"direct","userId":%q}`, b.w.users[t.user(direct[c][1])])
				} else {
					g := groups[c-len(direct)]
					by = g[0]
					ids := make([]string, 0, len(g)-1)
					for _, p := range g[1:] {
						ids = append(ids, strconv.Quote(b.w.users[t.user(p)].String()))
					}
					body = fmt.Appendf(nil, `{"kind":"group","title":"Bench group %d","memberIds":[%s]}`, c-len(direct), strings.Join(ids, ","))
				}
				id, err := t.create(by, body)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("conversation %d: %w", c, err)
					}
					mu.Unlock()
					return
				}
				t.convs[c] = id
				t.paths[c] = "/api/conversations/" + id.String() + "/messages"
				made.Add(1)
			}
		}()
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return firstErr
	}
	for c, id := range t.convs {
		t.convIdx[id.String()] = int32(c)
	}
	return nil
}

// create is POST /api/conversations as person by; it answers the id.
func (t *campusTarget) create(by int, body []byte) (uuid.UUID, error) {
	st, resp, err := t.b.do("POST", "/api/conversations", t.b.w.auth[t.user(by)], body)
	switch {
	case err != nil:
		return uuid.Nil, fmt.Errorf("POST /api/conversations: %w", err)
	case st == fasthttp.StatusNotFound || st == fasthttp.StatusMethodNotAllowed:
		return uuid.Nil, fmt.Errorf("%w: POST /api/conversations answers %d", errUnavailable, st)
	case st != fasthttp.StatusCreated && st != fasthttp.StatusOK:
		return uuid.Nil, fmt.Errorf("POST /api/conversations answers %d: %.200s", st, resp)
	}
	id, err := uuid.Parse(jsonString(resp, "id"))
	if err != nil {
		return uuid.Nil, fmt.Errorf("POST /api/conversations: no id in %.200s", resp)
	}
	return id, nil
}

// httpClient is one person's connections: one per node at most.
func (t *campusTarget) httpClient() *fasthttp.Client {
	return &fasthttp.Client{
		Dial:                      t.b.dial.dial,
		MaxConnsPerHost:           1,
		ReadTimeout:               20 * time.Second,
		WriteTimeout:              20 * time.Second,
		MaxIdleConnDuration:       5 * time.Minute,
		NoDefaultUserAgentHeader:  true,
		DisablePathNormalizing:    true,
		MaxIdemponentCallAttempts: 1, // the retry policy is ours
	}
}

// listen opens person p's websocket on the (one) server; its deliveries
// come from its reader until ctx ends. A socket the server closes is not
// reopened: on one node that is a failure the check shows.
func (t *campusTarget) listen(ctx context.Context, p int, deliver func(msgDelivery)) error {
	c, err := dialReady(ctx, t.b.wsDialer(), "ws://"+t.rot.nodes[0].addr+"/api/ws", t.b.w.tokens[t.user(p)], 15*time.Second)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	go func() {
		defer stop()
		err := t.read(c, func(conv int32, clientID string, seq, at int64) {
			deliver(msgDelivery{conv: int(conv), clientID: clientID, seq: seq, at: t.b.t0.Add(time.Duration(at))})
		})
		if ctx.Err() == nil {
			t.dropped.Add(1)
			t.b.progress("messages: person %d's socket closed: %v", p, err)
		}
		_ = c.Close()
	}()
	return nil
}

var evMessageNew = []byte(`"event":"message:new"`)

// read receives frames until the socket fails and hands each message:new's
// conversation, clientId and seq to emit with its arrival (bench clock).
func (t *campusTarget) read(c *websocket.Conn, emit func(conv int32, clientID string, seq, at int64)) error {
	var buf bytes.Buffer
	for {
		_, rd, err := c.NextReader()
		if err != nil {
			return err
		}
		buf.Reset()
		if _, err := buf.ReadFrom(rd); err != nil {
			return err
		}
		framesReceived.Add(1)
		at := t.b.now()
		msg := buf.Bytes()
		if !bytes.Contains(msg, evMessageNew) {
			continue
		}
		// The frame is {"event":…,"data":{"conversationId":…,"message":{"id":…,
		// "conversationId":…,"seq":…,…,"clientId":…}}}: the first of each
		// key is the one wanted, and the bench's bodies hold no quotes.
		conv, ok := t.convIdx[jsonString(msg, "conversationId")]
		if !ok {
			t.unknown.Add(1)
			continue
		}
		seq, _ := jsonInt(msg, "seq")
		emit(conv, jsonString(msg, "clientId"), seq, at)
	}
}

// send posts a message under the retry policy; see sendVia.
func (t *campusTarget) send(ctx context.Context, p, c int, clientID, body string) (msgAck, error) {
	a, _, err := t.sendVia(ctx, p, c, clientID, body)
	return a, err
}

// sendVia is POST /api/conversations/{id}/messages {clientId, body} from
// person p to the node its rotation names, under the client's retry policy:
// a 503 or a connection error is sent again with the same clientId (the
// server answers a retry of a stored message with the original). It
// answers the acknowledgement and how it went.
func (t *campusTarget) sendVia(_ context.Context, p, c int, clientID, body string) (msgAck, msgVia, error) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	payload := fmt.Appendf(nil, `{"clientId":%q,"body":%q}`, clientID, body)
	st := t.stats.Load()
	var ack msgAck
	var lastBody string
	node, retries, ok, status := t.rot.do(p, t.rngs[p], func(node int) (bool, string, bool) {
		req.Reset()
		req.Header.SetMethod(fasthttp.MethodPost)
		req.SetRequestURI("http://" + t.rot.nodes[node].addr + t.paths[c])
		req.Header.Set("Authorization", t.b.w.auth[t.user(p)])
		req.Header.SetContentType("application/json")
		req.SetBody(payload)
		if err := t.clients[p].DoTimeout(req, resp, 20*time.Second); err != nil {
			lastBody = err.Error()
			return false, "conn", true
		}
		code := resp.StatusCode()
		if code == fasthttp.StatusCreated || code == fasthttp.StatusOK {
			if seq, found := jsonInt(resp.Body(), "seq"); found {
				ack = msgAck{seq: seq, at: time.Now()}
				return true, "", false
			}
		}
		lastBody = fmt.Sprintf("%.160s", resp.Body())
		return false, strconv.Itoa(code), code == fasthttp.StatusServiceUnavailable
	}, func(status string) { st.count(st.attempts, status) })
	if !ok {
		st.count(st.failed, status)
		return msgAck{}, msgVia{node, retries}, fmt.Errorf("POST /api/conversations/{id}/messages: %s after %d retries: %s", status, retries, lastBody)
	}
	if retries > 0 {
		st.mu.Lock()
		st.retried++
		st.mu.Unlock()
	}
	return ack, msgVia{node, retries}, nil
}

// stored reads conversation c's messages from Postgres in seq order.
func (t *campusTarget) stored(ctx context.Context, c int) ([]msgStored, error) {
	rows, err := t.b.db.QueryContext(ctx, "SELECT client_id, seq FROM messages WHERE conversation_id = ? ORDER BY seq", t.convs[c])
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []msgStored
	for rows.Next() {
		var s msgStored
		if err := rows.Scan(&s.clientID, &s.seq); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// lastSeqs reads every conversation's last seq.
func (t *campusTarget) lastSeqs(ctx context.Context) ([]int64, error) {
	rows, err := t.b.db.QueryContext(ctx, "SELECT id, last_seq FROM conversations WHERE id IN (?)", bun.In(t.convs))
	if err != nil {
		return nil, fmt.Errorf("read last seqs: %w", err)
	}
	defer rows.Close()
	out := make([]int64, len(t.convs))
	for rows.Next() {
		var id string
		var seq int64
		if err := rows.Scan(&id, &seq); err != nil {
			return nil, fmt.Errorf("read last seqs: %w", err)
		}
		if c, ok := t.convIdx[id]; ok {
			out[c] = seq
		}
	}
	return out, rows.Err()
}

// close drops the people's idle connections (the sockets end with their
// contexts).
func (t *campusTarget) close() {
	for _, c := range t.clients {
		c.CloseIdleConnections()
	}
}

// campusSocket is one person's websocket on the cluster, kept as the web
// client keeps it: when it closes it is opened again on another node, and
// the person fills each conversation from the last seq before its first
// hole with GET …/messages?afterSeq= (pages of 100 until hasMore is false),
// also when a push skips ahead; a seq already held is dropped (the check
// counts those).
type campusSocket struct {
	t    *campusTarget
	p    int
	rot  *rotation // the sockets' rotation (not the sends')
	emit func(msgGot)
	book *msgBook // names a delivery's message by its clientId
	http *fasthttp.Client
	rng  *mrand.Rand

	mu      sync.Mutex
	conn    int16
	held    map[int32]*heldSeqs
	filling map[int32]bool

	reconnects, fills *atomic.Int64
}

// heldSeqs is what a person holds of one conversation: every seq up to
// contig, and those above it.
type heldSeqs struct {
	contig int64
	high   int64
	above  map[int64]bool
}

func (h *heldSeqs) add(seq int64) {
	h.high = max(h.high, seq)
	if seq <= h.contig {
		return
	}
	h.above[seq] = true
	for h.above[h.contig+1] {
		delete(h.above, h.contig+1)
		h.contig++
	}
}

// listenCluster opens person p's socket on the node rot names and keeps it
// open until ctx ends; base[c] is conversation c's last seq when the
// listening starts (held already).
func (t *campusTarget) listenCluster(ctx context.Context, p int, rot *rotation, base []int64, convs []int,
	book *msgBook, emit func(msgGot), reconnects, fills *atomic.Int64) error {
	// Its gap fills run one per conversation, side by side.
	hc := t.httpClient()
	hc.MaxConnsPerHost, hc.MaxConnWaitTimeout = 4, 20*time.Second
	s := &campusSocket{t: t, p: p, rot: rot, emit: emit, book: book, http: hc, held: map[int32]*heldSeqs{},
		filling: map[int32]bool{}, reconnects: reconnects, fills: fills,
		rng: mrand.New(mrand.NewPCG(uint64(t.b.o.seed), uint64(p)+80_000))}
	for _, c := range convs {
		s.held[int32(c)] = &heldSeqs{contig: base[c], high: base[c], above: map[int64]bool{}}
	}
	opened := make(chan error, 1)
	go s.run(ctx, opened)
	return <-opened
}

func (s *campusSocket) run(ctx context.Context, opened chan<- error) {
	first := true
	for ctx.Err() == nil {
		node := s.rot.node(s.p)
		c, err := dialReady(ctx, s.t.b.wsDialer(), "ws://"+s.rot.nodes[node].addr+"/api/ws", s.t.b.w.tokens[s.t.user(s.p)], 15*time.Second)
		if err != nil {
			if first {
				opened <- err
				return
			}
			if errors.Is(err, syscall.ECONNREFUSED) {
				s.rot.down(node) // nothing listens there: the node is gone
			}
			s.rot.move(s.p)
			s.pause()
			continue
		}
		s.mu.Lock()
		s.conn++
		conn := s.conn
		s.mu.Unlock()
		if first {
			first = false
			opened <- nil
		} else {
			// Reopened: fill every conversation's gap, as the client does
			// for what changed while it was away.
			s.reconnects.Add(1)
			for cv := range s.held {
				go s.fill(ctx, cv, conn, node)
			}
		}
		stop := context.AfterFunc(ctx, func() { _ = c.Close() })
		_ = s.t.read(c, func(cv int32, clientID string, seq, at int64) {
			s.mu.Lock()
			h := s.held[cv]
			skipped := h != nil && seq > h.high+1
			if h != nil {
				h.add(seq)
			}
			s.mu.Unlock()
			s.emit(msgGot{at: at, seq: seq, msg: s.book.index(clientID), conv: cv, conn: conn, node: int8(node)})
			if skipped {
				// A push that skips ahead means one went missing.
				go s.fill(ctx, cv, conn, node)
			}
		})
		stop()
		_ = c.Close()
		if ctx.Err() != nil {
			return
		}
		// The socket closed under us: try the next node (a dial that is
		// refused takes this one out of the rotation).
		s.rot.move(s.p)
		s.pause()
	}
	if first {
		opened <- ctx.Err()
	}
}

// pause is the client's reconnect backoff: jittered, short.
func (s *campusSocket) pause() {
	time.Sleep(clJitterLo + time.Duration(s.rng.Int64N(int64(clJitterHi-clJitterLo))))
}

// fill reads conversation cv after the last seq before its first hole,
// page by page; one fill per conversation at a time (a second request
// while one runs is dropped: the running one reads to the end).
func (s *campusSocket) fill(ctx context.Context, cv int32, conn int16, node int) {
	s.mu.Lock()
	if s.filling[cv] {
		s.mu.Unlock()
		return
	}
	s.filling[cv] = true
	after := s.held[cv].contig
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.filling[cv] = false
		s.mu.Unlock()
	}()
	for round := 0; round < 100 && ctx.Err() == nil; round++ {
		s.fills.Add(1)
		page, err := s.page(cv, after, node)
		if err != nil {
			s.t.b.progress("messages: person %d's gap fill of conversation %d: %v", s.p, cv, err)
			return
		}
		at := s.t.b.now()
		top := after
		for _, m := range page.Data.Messages {
			s.mu.Lock()
			s.held[cv].add(m.Seq)
			s.mu.Unlock()
			s.emit(msgGot{at: at, seq: m.Seq, msg: s.book.index(m.ClientID), conv: cv, conn: conn, node: int8(node), gap: true})
			top = max(top, m.Seq)
		}
		if !page.Data.HasMore || top <= after {
			return
		}
		after = top
	}
}

type messagePage struct {
	Data struct {
		Messages []struct {
			Seq      int64  `json:"seq"`
			ClientID string `json:"clientId"`
		} `json:"messages"`
		HasMore bool `json:"hasMore"`
	} `json:"data"`
}

// page is GET …/messages?afterSeq=after&limit=100 on the socket's node,
// or the next one up if that one fails.
func (s *campusSocket) page(cv int32, after int64, node int) (*messagePage, error) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	var lastErr error
	for attempt := 0; attempt <= clRetries; attempt++ {
		if !s.rot.nodes[node].up.Load() {
			node = s.rot.node(s.p)
		}
		req.Reset()
		req.SetRequestURI("http://" + s.rot.nodes[node].addr + s.t.paths[cv] + "?afterSeq=" + strconv.FormatInt(after, 10) + "&limit=100")
		req.Header.Set("Authorization", s.t.b.w.auth[s.t.user(s.p)])
		err := s.http.DoTimeout(req, resp, 20*time.Second)
		if err == nil && resp.StatusCode() == fasthttp.StatusOK {
			var pg messagePage
			if err := json.Unmarshal(resp.Body(), &pg); err != nil {
				return nil, fmt.Errorf("GET …/messages?afterSeq=: %w", err)
			}
			return &pg, nil
		}
		if err != nil {
			lastErr = err
			s.rot.down(node)
		} else {
			lastErr = fmt.Errorf("status %d: %.160s", resp.StatusCode(), resp.Body())
		}
		node = s.rot.node(s.p)
		s.pause()
	}
	return nil, fmt.Errorf("GET …/messages?afterSeq=: %w", lastErr)
}

// messageHistory: a new conversation with --msg-history messages (seeded by
// COPY: fast, and a history is what it measures, not the sends), then the
// first screen (GET …/messages?limit=30) and five keyset pages back
// (beforeSeq = the oldest held), again and again with no other load.
func (b *bench) messageHistory(ctx context.Context, sc string, t *campusTarget) {
	N := b.o.msgHistory
	reader, other := b.w.users[t.user(0)], b.w.users[t.user(1)]
	conv := uuid.Must(uuid.NewV7())
	now := time.Now().UTC()
	b.progress("messages: history: seeding a conversation with %s messages", group(int64(N)))
	_, err := b.db.ExecContext(ctx, `INSERT INTO conversations (id, kind, title, created_by, last_seq, created_at, updated_at)
		VALUES (?, 'group', 'Bench history', ?, ?, ?, ?)`, conv, reader, N, now.Add(-time.Duration(N+1)*time.Second), now)
	if err == nil {
		_, err = b.db.ExecContext(ctx, `INSERT INTO conversation_members (conversation_id, user_id, role) VALUES (?, ?, 'admin'), (?, ?, 'member')`,
			conv, reader, conv, other)
	}
	if err != nil {
		b.rep.skip(sc, fmt.Errorf("history: seed the conversation: %w", err))
		return
	}
	var done atomic.Int64
	err = b.copyRows(ctx, "messages", "conversation_id, seq, id, sender_id, client_id, body, created_at", N, &done, func(i int, bw *bufio.Writer) {
		seq := i + 1
		sender := reader
		if seq%3 != 0 {
			sender = other
		}
		fmt.Fprintf(bw, "%s\t%d\t%s\t%s\th-%d\tHistory message %d: notes for the exam, page %d\t%s\n", conv, seq, uuid.Must(uuid.NewV7()),
			sender, seq, seq, seq%300, now.Add(-time.Duration(N-i)*time.Second).Format("2006-01-02 15:04:05.000000+00"))
	})
	if err == nil {
		_, err = b.db.ExecContext(ctx, "ANALYZE messages")
	}
	if err != nil {
		b.rep.skip(sc, fmt.Errorf("history: seed the messages: %w", err))
		return
	}
	rounds := 200
	if b.o.quick {
		rounds = 30
	}
	c := b.client()
	defer c.CloseIdleConnections()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	path := "/api/conversations/" + conv.String() + "/messages?limit=30"
	// get answers the page's latency and its seqs' range, or why it is wrong.
	get := func(uri string, wantLow, wantHigh int64) (int64, int64, error) {
		req.Reset()
		req.SetRequestURI(uri)
		req.Header.Set("Authorization", b.w.auth[t.user(0)])
		start := b.now()
		if err := c.DoTimeout(req, resp, 20*time.Second); err != nil {
			return 0, 0, err
		}
		took := b.now() - start
		if resp.StatusCode() != fasthttp.StatusOK {
			return 0, 0, fmt.Errorf("status %d: %.160s", resp.StatusCode(), resp.Body())
		}
		var pg messagePage
		if err := json.Unmarshal(resp.Body(), &pg); err != nil {
			return 0, 0, err
		}
		list := pg.Data.Messages
		if len(list) == 0 || list[0].Seq != wantLow || list[len(list)-1].Seq != wantHigh || len(list) != int(wantHigh-wantLow+1) {
			got := "none"
			if len(list) > 0 {
				got = fmt.Sprintf("%d messages, seqs %d..%d", len(list), list[0].Seq, list[len(list)-1].Seq)
			}
			return 0, 0, fmt.Errorf("want seqs %d..%d, got %s", wantLow, wantHigh, got)
		}
		return took, list[0].Seq, nil
	}
	done2 := b.cpu.phase("messages: history")
	var first, back []int64
	var bad string
	for range rounds {
		if ctx.Err() != nil {
			break
		}
		took, oldest, err := get(b.uri(path), int64(N-29), int64(N))
		if err != nil {
			bad = "first screen: " + err.Error()
			break
		}
		first = append(first, took)
		for range 5 {
			took, oldest, err = get(b.uri(path+"&beforeSeq="+strconv.FormatInt(oldest, 10)), oldest-30, oldest-1)
			if err != nil {
				bad = "page back: " + err.Error()
				break
			}
			back = append(back, took)
		}
		if bad != "" {
			break
		}
	}
	done2()
	if bad != "" {
		b.rep.text(sc, "c) history", bad).Result = resError
		return
	}
	f, p := distOf(first), distOf(back)
	b.rep.add(sc, "c) history: first screen p99", ms(f.p99), "ms").
		target(fmt.Sprintf("≤ %.0f ms", ms(tgtMsgHistoryP99)), f.n > 0 && f.p99 <= tgtMsgHistoryP99).
		note("GET …/messages?limit=30 of a %s-message conversation, round trip; p50 %.2f ms, %d calls, no other load",
			group(int64(N)), ms(f.p50), f.n)
	b.rep.add(sc, "c) history: page back p99", ms(p.p99), "ms").
		target(fmt.Sprintf("≤ %.0f ms", ms(tgtMsgHistoryP99)), p.n > 0 && p.p99 <= tgtMsgHistoryP99).
		note("…&beforeSeq= (keyset), 5 pages back after each first screen; p50 %.2f ms, %d calls", ms(p.p50), p.n)
}
