package faults

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"campus/cluster/etcdtest"
	"campus/httpapi/wstest"
	"campus/persistence/testdb"
)

// lease is the etcd provider's lease (cluster/etcd.go, etcdLeaseTTL): the
// pauses are multiples of it.
const lease = 3 * time.Second

// TestPausedNodeRejoins (issue 26, a paused node): three `campus serve` processes found
// through a real etcd, sockets on node C watching every post, and a steady
// load of likes and unlikes through nodes A and B. C is stopped with
// SIGSTOP (what a VM pause, a long stall or a partition looks like to its
// peers) for 2, 5 and 20 times the lease, then continued. The peers drop it
// meanwhile (their leases and grace run out; protoactor never takes a
// dropped member back), so C must find out and rejoin as a new member, or
// it stays ready, listing members that no longer list it, while no like
// through A or B ever reaches its sockets again. After each pause:
//
//   - every node is ready and lists the same three members;
//   - every socket client on C (reconnected, watching again and resuming,
//     as the real client does after a 1012 close) receives the final count
//     of every post after a last like of each through A or B;
//   - every acknowledged like or unlike is what Postgres has (lost = 0),
//     nothing else is (phantom = 0: a paused node must not commit, when it
//     resumes, requests that waited in it while the grains' new owners
//     answered newer ones), likes_count = rows, and no request was answered
//     anything but success or 503 + Retry-After.
//
// The times (C unready, C ready again, counts flowing again on its
// sockets) are logged, not asserted; the README's fault-test section has
// them.
func TestPausedNodeRejoins(t *testing.T) {
	endpoint, _ := etcdtest.Start(t)
	url := testdb.NewURL(t)
	db := openDB(t, url)
	env := []string{"CAMPUS_CLUSTER_PROVIDER=etcd", "CAMPUS_ETCD_ENDPOINTS=" + endpoint}
	a := startNode(t, url, env...)
	b := startNode(t, url, env...)
	c := startNode(t, url, env...)
	nodes := []*node{a, b, c}
	for _, n := range nodes {
		waitFor(t, 60*time.Second, "three members on every node", func() bool { return members(n) == 3 })
	}

	people := newUsers(t, db)
	_, authorTok := people.add(t, a, "Pause Author")
	posts := make([]string, 16)
	for i := range posts {
		posts[i] = createPost(t, nodes[i%2], authorTok, fmt.Sprintf("pause post %d", i))
	}
	// Two loads through A and B: one until C resumes, one from then on,
	// by other likers (see below).
	newLoad := func(name string) *likeLoad {
		l := &likeLoad{name: name, posts: posts, via: []*node{a, b}}
		for k := range 6 {
			_, tok := people.add(t, nodes[k%2], fmt.Sprintf("%s %d", name, k))
			l.tokens = append(l.tokens, tok)
			l.state = append(l.state, make([]int, len(posts)))
		}
		return l
	}
	early, late := newLoad("Pause Liker"), newLoad("Pause Late Liker")
	watchers := make([]*watcher, 3)
	for i := range watchers {
		_, tok := people.add(t, a, fmt.Sprintf("Pause Watcher %d", i))
		watchers[i] = watch(t, c, tok, posts)
	}
	for i, w := range watchers {
		waitFor(t, 30*time.Second, fmt.Sprintf("socket %d on C connected", i), func() bool {
			w.mu.Lock()
			defer w.mu.Unlock()
			return len(w.opened) > 0
		})
	}

	for round, pause := range []time.Duration{2 * lease, 5 * lease, 20 * lease} {
		t.Run(fmt.Sprintf("paused %s", pause), func(t *testing.T) {
			haltEarly, waitEarly := early.start()
			time.Sleep(2 * time.Second) // likes in flight, and queued in C's grains, when it stops

			readies := make([]*sampler, len(nodes))
			for i, n := range nodes {
				readies[i] = sample(n)
			}
			stopped := time.Now()
			if err := c.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			continued := false
			cont := func() {
				if !continued {
					continued = true
					_ = c.cmd.Process.Signal(syscall.SIGCONT)
				}
			}
			defer cont()
			time.Sleep(pause)
			// The early load stops as C resumes: a request that waited in C
			// while its grains' new owners answered newer ones of the same
			// liker and post must not be committed now, and later likes of
			// the same pairs would hide it if it were. The late load, by
			// other likers, goes on from the resume.
			haltEarly()
			cont()
			resumed := time.Now()
			haltLate, waitLate := late.start()
			refused := waitEarly()

			// Settled: A and B list three members (C's, new or not), then
			// C is ready with three, all seen after the resume. (Right after
			// the resume C still answers as before the pause: ready, three
			// members; A and B list three only once it joined them again.)
			for i := range nodes {
				waitFor(t, 90*time.Second, fmt.Sprintf("node %c ready with three members after the pause", 'A'+i), func() bool {
					return readies[i].settled(resumed)
				})
			}
			for i, w := range watchers {
				waitFor(t, 60*time.Second, fmt.Sprintf("socket %d on C gets counts again", i), func() bool {
					return !w.countsAgain(resumed).IsZero()
				})
			}
			time.Sleep(2 * time.Second) // the late load goes on through the new member's grains
			haltLate()
			refused += waitLate()
			for _, r := range readies {
				r.stop()
			}

			// A last like of every post through A or B: its count is the
			// final one, and every socket on C must get it.
			_, finalTok := people.add(t, a, fmt.Sprintf("Pause Final %d", round))
			lastLike := time.Now()
			for p, id := range posts {
				n := nodes[p%2]
				waitFor(t, 30*time.Second, "the last like is acknowledged", func() bool {
					return n.try("POST", "/api/posts/"+id+"/like", finalTok, nil).status == 200
				})
			}
			want := likeCounts(t, db, posts)
			for i, w := range watchers {
				deadline := time.Now().Add(60 * time.Second)
				for !w.has(want) {
					if time.Now().After(deadline) {
						t.Fatalf("socket %d on C: no final counts 60s after the last likes: %s", i, w.describe(want))
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			arrived := time.Since(lastLike)
			early.check(t, db)
			late.check(t, db)
			for i, w := range watchers {
				w.mu.Lock()
				err := w.fatal
				w.mu.Unlock()
				if err != nil {
					t.Fatalf("socket %d on C: %v", i, err)
				}
			}
			for _, n := range nodes {
				if status, m := readiness(n); status != 200 || m != 3 {
					t.Fatalf("node %s at the end: ready %d with %d members, want 200 with 3", n.addr, status, m)
				}
			}

			// The figures: when the peers dropped C (from the stop), and
			// from the resume on when C went unready, was ready again, the
			// peers listed its member again, its sockets were connected
			// again and got counts again.
			since := func(at, from time.Time) string {
				if at.IsZero() {
					return "never"
				}
				return at.Sub(from).Round(time.Millisecond).String()
			}
			dropped := earlier(readies[0].firstBelow(stopped), readies[1].firstBelow(stopped))
			reconnected, counts := watchers[0].reconnected(resumed), watchers[0].countsAgain(resumed)
			for _, w := range watchers[1:] {
				reconnected = later(reconnected, w.reconnected(resumed))
				counts = later(counts, w.countsAgain(resumed))
			}
			t.Logf("paused %s: a peer dropped C %s into the pause; after the resume C was unready at %s, ready with 3 members at %s, "+
				"listed by A and B at %s, its sockets connected again at %s (connections per socket: %s) and got counts again at %s; "+
				"%d likes answered 503 in the round; a last like's count was on every socket %s after it was sent",
				pause, since(dropped, stopped), since(readies[2].firstUnready(resumed), resumed),
				since(readies[2].readyAgain(resumed), resumed),
				since(later(readies[0].readyAgain(resumed), readies[1].readyAgain(resumed)), resumed),
				since(reconnected, resumed), connections(watchers), since(counts, resumed),
				refused, arrived.Round(time.Millisecond))
		})
	}
}

// later is the later of two times, zero if either is (not happened).
func later(a, b time.Time) time.Time {
	if a.IsZero() || b.IsZero() {
		return time.Time{}
	}
	if a.After(b) {
		return a
	}
	return b
}

// earlier is the earlier of two times, ignoring one that is zero (not
// happened).
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// sampler polls a node's readiness every 20 ms until stopped.
type sampler struct {
	mu      sync.Mutex
	samples []readySample
	quit    chan struct{}
	done    chan struct{}
}

// readySample is one answer of /api/ready: its status and the members it
// named, and when it came.
type readySample struct {
	at              time.Time
	status, members int
}

func sample(n *node) *sampler {
	s := &sampler{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			status, m := readiness(n)
			s.mu.Lock()
			s.samples = append(s.samples, readySample{at: time.Now(), status: status, members: m})
			s.mu.Unlock()
			select {
			case <-s.quit:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return s
}

func (s *sampler) stop() {
	close(s.quit)
	<-s.done
}

func (s *sampler) all() []readySample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.samples)
}

func (r readySample) good() bool { return r.status == 200 && r.members == 3 }

// settled reports whether the node answered ready with three members after
// from, and has not answered otherwise since.
func (s *sampler) settled(from time.Time) bool {
	all := s.all()
	return len(all) > 0 && all[len(all)-1].good() && all[len(all)-1].at.After(from) && !s.readyAgain(from).IsZero()
}

// firstBelow is the first answer after from that was not ready with three
// members (zero: none).
func (s *sampler) firstBelow(from time.Time) time.Time {
	for _, r := range s.all() {
		if r.at.After(from) && !r.good() {
			return r.at
		}
	}
	return time.Time{}
}

// firstUnready is the first answer after from that was not 200.
func (s *sampler) firstUnready(from time.Time) time.Time {
	for _, r := range s.all() {
		if r.at.After(from) && r.status != 200 {
			return r.at
		}
	}
	return time.Time{}
}

// readyAgain is the first answer ready with three members after the last
// one that was not, counting only answers after from.
func (s *sampler) readyAgain(from time.Time) time.Time {
	var at time.Time
	for _, r := range s.all() {
		if !r.at.After(from) {
			continue
		}
		switch {
		case !r.good():
			at = time.Time{}
		case at.IsZero():
			at = r.at
		}
	}
	return at
}

// readiness answers a node's /api/ready status and the members it sees.
func readiness(n *node) (int, int) {
	a := n.try("GET", "/api/ready", "", nil)
	m, _ := a.data()["members"].(float64)
	return a.status, int(m)
}

// members answers how many members a ready node sees (0 when not ready).
func members(n *node) int {
	status, m := readiness(n)
	if status != 200 {
		return 0
	}
	return m
}

// likeCounts reads every post's likes_count.
func likeCounts(t *testing.T, db *bun.DB, posts []string) map[string]int {
	t.Helper()
	want := make(map[string]int, len(posts))
	for _, id := range posts {
		var n int
		if err := db.QueryRowContext(context.Background(), `SELECT likes_count FROM posts WHERE id = ?`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		want[id] = n
	}
	return want
}

// likeLoad is a steady load of likes and unlikes: each liker walks the
// posts in turn, liking them on one pass and unliking them on the next,
// through the nodes in via, one request at a time and a little apart.
type likeLoad struct {
	name   string // the likers' names: name 0, name 1, …
	posts  []string
	tokens []string
	via    []*node

	mu sync.Mutex
	// state[k][p] is liker k's last answer on post p: 1 liked, 2 not liked
	// (acknowledged), 3 unanswered or refused (either is right).
	state   [][]int
	acks    int
	refused int
	bad     []string
	step    []int // each liker's next step, kept across rounds
}

// start runs the load until the first returned func is called; the second
// waits for the requests in flight then (their answers are kept: a request
// stuck on the paused node's grains is answered within its deadline) and
// answers how many requests were refused with 503.
func (l *likeLoad) start() (halt func(), wait func() int) {
	if l.step == nil {
		l.step = make([]int, len(l.tokens))
	}
	l.mu.Lock()
	l.refused = 0
	l.mu.Unlock()
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for k := range l.tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-quit:
					return
				case <-time.After(40 * time.Millisecond):
				}
				i := l.step[k]
				l.step[k]++
				p := (k + i) % len(l.posts)
				like := i/len(l.posts)%2 == 0
				method := "DELETE"
				if like {
					method = "POST"
				}
				a := l.via[(k+i)%len(l.via)].try(method, "/api/posts/"+l.posts[p]+"/like", l.tokens[k], nil)
				l.mu.Lock()
				switch {
				case a.status == 200 && like:
					l.state[k][p], l.acks = 1, l.acks+1
				case a.status == 200:
					l.state[k][p], l.acks = 2, l.acks+1
				default:
					l.state[k][p] = 3
					if unavailable(a) {
						l.refused++
					} else {
						l.bad = append(l.bad, fmt.Sprintf("%s like: %d %v", method, a.status, a.env))
					}
				}
				l.mu.Unlock()
			}
		}()
	}
	return func() { close(quit) }, func() int {
		wg.Wait()
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.refused
	}
}

// check compares the answers with Postgres: an acknowledged like is a row
// (lost = 0), an acknowledged unlike or no like at all is none (phantom =
// 0), and every post's likes_count is its rows.
func (l *likeLoad) check(t *testing.T, db *bun.DB) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.bad) > 0 {
		t.Fatalf("%d likes answered neither success nor 503 + Retry-After, first: %s", len(l.bad), l.bad[0])
	}
	rows, err := db.QueryContext(context.Background(),
		`SELECT u.name, l.post_id FROM post_likes l JOIN users u ON u.id = l.user_id WHERE u.name LIKE ?`, l.name+" %")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	present := map[string]bool{}
	for rows.Next() {
		var name, post string
		if err := rows.Scan(&name, &post); err != nil {
			t.Fatal(err)
		}
		present[name+"/"+post] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	lost, phantom := 0, 0
	for k := range l.tokens {
		for p, st := range l.state[k] {
			has := present[fmt.Sprintf("%s %d/%s", l.name, k, l.posts[p])]
			switch {
			case st == 1 && !has:
				lost++
			case (st == 0 || st == 2) && has:
				phantom++
			}
		}
	}
	var drift int
	if err := db.QueryRowContext(context.Background(),
		`SELECT count(*) FROM posts p WHERE p.id = ANY(?) AND p.likes_count <> (SELECT count(*) FROM post_likes WHERE post_id = p.id)`,
		pgdialect.Array(l.posts)).Scan(&drift); err != nil {
		t.Fatal(err)
	}
	if lost > 0 || phantom > 0 || drift > 0 {
		t.Fatalf("%s: after %d acknowledged answers: lost %d, phantom %d, posts whose likes_count is not their rows %d",
			l.name, l.acks, lost, phantom, drift)
	}
}

// watcher is a socket client on one node, watching posts, that reconnects,
// watches again and resumes after any close but 1008, as the real client
// does (docs/protocol.md §2.6). It keeps the newest counts it got of each
// post.
type watcher struct {
	addr, token string
	posts       []string

	mu     sync.Mutex
	likes  map[string]int   // by post: the newest count
	vers   map[string]int64 // by post: its countsVersion
	frames []countsFrame
	opened []time.Time // when each connection was made
	closes []int
	fatal  error
}

// countsFrame is when a post:counts frame came, and on which connection.
type countsFrame struct {
	at   time.Time
	conn int
}

// watch starts a watcher of posts on n; it stops when the test ends.
func watch(t *testing.T, n *node, token string, posts []string) *watcher {
	t.Helper()
	w := &watcher{addr: n.addr, token: token, posts: posts, likes: map[string]int{}, vers: map[string]int64{}}
	quit := make(chan struct{})
	done := make(chan struct{})
	// cur is the open connection; ended is set by the cleanup, after
	// which a connection made meanwhile is closed at once (else the
	// cleanup closed the one before it and waited forever on a reader of
	// the new one: cc14 hung 20 minutes there).
	var cur struct {
		sync.Mutex
		c     *websocket.Conn
		ended bool
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			default:
			}
			c, err := w.connect()
			if err != nil {
				time.Sleep(200 * time.Millisecond) // unready or refusing: again, as the client's backoff would
				continue
			}
			cur.Lock()
			if cur.ended {
				cur.Unlock()
				c.Close()
				return
			}
			cur.c = c
			cur.Unlock()
			code := w.read(c)
			c.Close()
			w.mu.Lock()
			w.closes = append(w.closes, code)
			if code == websocket.ClosePolicyViolation {
				w.fatal = fmt.Errorf("socket closed with 1008: the client would sign out")
			}
			w.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		close(quit)
		cur.Lock()
		cur.ended = true
		if cur.c != nil {
			cur.c.Close()
		}
		cur.Unlock()
		<-done
	})
	return w
}

// connect dials, waits for ready, watches the posts and resumes.
func (w *watcher) connect() (*websocket.Conn, error) {
	d := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	c, _, err := d.Dial("ws://"+w.addr+"/api/ws?token="+w.token, http.Header{})
	if err != nil {
		return nil, err
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var f wstest.Frame
	if err := c.ReadJSON(&f); err != nil || f.Event != "ready" {
		c.Close()
		return nil, fmt.Errorf("no ready frame: %v %v", f, err)
	}
	_ = c.SetReadDeadline(time.Time{})
	for _, m := range []map[string]any{
		{"event": "watch", "data": map[string]any{"postIds": w.posts}},
		{"event": "resume", "data": map[string]any{"since": time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)}},
	} {
		if err := c.WriteJSON(m); err != nil {
			c.Close()
			return nil, err
		}
	}
	w.mu.Lock()
	w.opened = append(w.opened, time.Now())
	w.mu.Unlock()
	// As the web client does after a reconnect: re-read the posts over
	// REST (short timeout), so a change made while the socket was away is
	// not missed.
	hc := &http.Client{Timeout: 3 * time.Second}
	for _, id := range w.posts {
		req, _ := http.NewRequest("GET", "http://"+w.addr+"/api/posts/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+w.token)
		resp, err := hc.Do(req)
		if err != nil {
			c.Close()
			return nil, err
		}
		var env struct {
			Data struct {
				Post struct {
					LikesCount    int   `json:"likesCount"`
					CountsVersion int64 `json:"countsVersion"`
				} `json:"post"`
			} `json:"data"`
		}
		err = json.NewDecoder(resp.Body).Decode(&env)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			c.Close()
			return nil, fmt.Errorf("re-read post %s: %d %v", id, resp.StatusCode, err)
		}
		w.mu.Lock()
		if v, ok := w.vers[id]; !ok || env.Data.Post.CountsVersion >= v {
			w.likes[id], w.vers[id] = env.Data.Post.LikesCount, env.Data.Post.CountsVersion
		}
		w.mu.Unlock()
	}
	return c, nil
}

// read takes frames until the socket ends and answers its close code (0:
// no close frame).
func (w *watcher) read(c *websocket.Conn) int {
	for {
		var f struct {
			Event string `json:"event"`
			Data  struct {
				Posts []struct {
					PostID        string `json:"postId"`
					LikesCount    int    `json:"likesCount"`
					CountsVersion int64  `json:"countsVersion"`
				} `json:"posts"`
			} `json:"data"`
		}
		if err := c.ReadJSON(&f); err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code
			}
			return 0
		}
		if f.Event != "post:counts" {
			continue
		}
		w.mu.Lock()
		w.frames = append(w.frames, countsFrame{at: time.Now(), conn: len(w.opened) - 1})
		for _, p := range f.Data.Posts {
			if v, ok := w.vers[p.PostID]; !ok || p.CountsVersion >= v {
				w.likes[p.PostID], w.vers[p.PostID] = p.LikesCount, p.CountsVersion
			}
		}
		w.mu.Unlock()
	}
}

// reconnected is when the first connection made after from was made (zero:
// none).
func (w *watcher) reconnected(from time.Time) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, at := range w.opened {
		if at.After(from) {
			return at
		}
	}
	return time.Time{}
}

// countsAgain is when counts came again after from: the first post:counts
// frame on the last connection, when it was made after from (the socket
// was closed and reconnected), else the first frame after from (zero:
// none yet). Frames that waited in the node while it was stopped are
// delivered as it resumes, so only a new connection proves the node's
// sockets are fed again once it was dropped.
func (w *watcher) countsAgain(from time.Time) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	last := len(w.opened) - 1
	reconnected := last >= 0 && w.opened[last].After(from)
	for _, f := range w.frames {
		if f.at.After(from) && (!reconnected || f.conn == last) {
			return f.at
		}
	}
	return time.Time{}
}

// has reports whether the newest counts the watcher got are want's.
func (w *watcher) has(want map[string]int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for id, n := range want {
		if got, ok := w.likes[id]; !ok || got != n {
			return false
		}
	}
	return true
}

// describe says how the watcher's counts differ from want, and how its
// connections went.
func (w *watcher) describe(want map[string]int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var diff []string
	for id, n := range want {
		if got, ok := w.likes[id]; !ok || got != n {
			diff = append(diff, fmt.Sprintf("%s: %d (seen: %v, %d)", id, n, ok, got))
		}
	}
	var opened []string
	for _, at := range w.opened {
		opened = append(opened, at.Format("15:04:05.000"))
	}
	last := "none"
	if len(w.frames) > 0 {
		f := w.frames[len(w.frames)-1]
		last = fmt.Sprintf("%s on connection %d", f.at.Format("15:04:05.000"), f.conn)
	}
	return fmt.Sprintf("posts wanted (got): %s; connections opened %v, closes %v; last counts frame %s",
		strings.Join(diff, ", "), opened, w.closes, last)
}

// connections describes how the watchers' sockets went: connections made
// and the close codes seen, per watcher.
func connections(ws []*watcher) string {
	var parts []string
	for _, w := range ws {
		w.mu.Lock()
		parts = append(parts, fmt.Sprintf("%d (closed %v)", len(w.opened), slices.Clone(w.closes)))
		w.mu.Unlock()
	}
	return strings.Join(parts, ", ")
}
