package faults

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fasthttp/websocket"

	"campus/cluster/etcdtest"
	"campus/persistence/testdb"
)

// TestNodeCutFromDatabaseHandsOver (issue 26, real network faults): three
// `campus serve` processes found through a real etcd; node C reaches
// Postgres through a proxy the test can cut, as a network does: its bytes
// stop moving both ways, nothing refuses, nothing closes. Under a steady
// load of likes through A and B, C's database is cut. C must hand its grains
// to A and B (leave the cluster gracefully while they reach Postgres), or
// every like of a post whose grain C owns fails, through whichever node it
// comes, for as long as the cut lasts. Then:
//
//   - A and B list two members while the cut stands, every post takes a
//     like through A meanwhile, and C's socket is closed with 1012;
//   - after the heal every node is ready with three members again;
//   - every acknowledged like or unlike is what Postgres has (lost = 0),
//     nothing else is (phantom = 0), likes_count = rows, and no request was
//     answered anything but success or 503 + Retry-After.
func TestNodeCutFromDatabaseHandsOver(t *testing.T) {
	endpoint, _ := etcdtest.Start(t)
	dbURL := testdb.NewURL(t)
	db := openDB(t, dbURL)
	cut := newCutProxy(t, dbURL)
	env := []string{"CAMPUS_CLUSTER_PROVIDER=etcd", "CAMPUS_ETCD_ENDPOINTS=" + endpoint}
	a := startNode(t, dbURL, env...)
	b := startNode(t, dbURL, env...)
	c := startNode(t, cut.url, env...)
	nodes := []*node{a, b, c}
	for _, n := range nodes {
		waitFor(t, 60*time.Second, "three members on every node", func() bool { return members(n) == 3 })
	}

	people := newUsers(t, db)
	_, authorTok := people.add(t, a, "Cut Author")
	posts := make([]string, 12)
	for i := range posts {
		posts[i] = createPost(t, nodes[i%2], authorTok, fmt.Sprintf("cut post %d", i))
	}
	load := &likeLoad{name: "Cut Liker", posts: posts, via: []*node{a, b}}
	for k := range 6 {
		_, tok := people.add(t, nodes[k%2], fmt.Sprintf("Cut Liker %d", k))
		load.tokens = append(load.tokens, tok)
		load.state = append(load.state, make([]int, len(posts)))
	}
	_, probeTok := people.add(t, a, "Cut Prober")
	_, watchTok := people.add(t, a, "Cut Watcher")
	w := watch(t, c, watchTok, posts)
	waitFor(t, 30*time.Second, "the socket on C connected", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.opened) > 0
	})
	halt, wait := load.start()
	time.Sleep(2 * time.Second) // likes in flight on C's grains when the cut comes

	cut.cut()
	for _, n := range []*node{a, b} {
		waitFor(t, 60*time.Second, "A and B without C", func() bool { return members(n) == 2 })
	}
	if status, _ := readiness(c); status == 200 {
		t.Fatal("C answers ready while its database is cut off")
	}
	// Every post takes a like through A while the cut stands: its grain
	// is on a node that reaches Postgres.
	for _, p := range posts {
		waitFor(t, 30*time.Second, "a like of post "+p+" through A during the cut", func() bool {
			return a.try("POST", "/api/posts/"+p+"/like", probeTok, nil).status == 200
		})
	}
	if !cut.isCut() {
		t.Fatal("the cut ended before the likes were checked")
	}
	// C closed its socket with 1012 as it stepped out, so its client
	// reconnects to a node that serves it.
	waitFor(t, 30*time.Second, "C's socket closed with 1012", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return slices.Contains(w.closes, websocket.CloseServiceRestart)
	})
	if !c.logged(t, "cluster: the database is out of reach of this node but not of its peers; handing the grains over") {
		t.Fatal("C did not log that it handed its grains over")
	}

	cut.heal()
	for _, n := range nodes {
		waitFor(t, 60*time.Second, "three members on every node after the heal", func() bool { return members(n) == 3 })
	}
	halt()
	refused := wait()
	load.check(t, db)
	t.Logf("%d acknowledged answers, %d refused with 503 + Retry-After", load.acks, refused)
}

// cutProxy forwards TCP connections to the database until cut: then it
// holds every byte (new connections are accepted and held too), as a
// partitioned network does, until heal lets them go on.
type cutProxy struct {
	url    string
	target string
	ln     net.Listener

	mu     sync.Mutex
	held   bool
	healed chan struct{} // closed at heal; replaced at cut
	conns  []net.Conn
}

func newCutProxy(t *testing.T, dbURL string) *cutProxy {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{target: u.Host, ln: ln, healed: make(chan struct{})}
	close(p.healed)
	u.Host = ln.Addr().String()
	p.url = u.String()
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.held {
		p.held, p.healed = true, make(chan struct{})
	}
}

func (p *cutProxy) heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held {
		p.held = false
		close(p.healed)
	}
}

func (p *cutProxy) isCut() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// pass blocks while the proxy is cut.
func (p *cutProxy) pass() {
	p.mu.Lock()
	healed := p.healed
	p.mu.Unlock()
	<-healed
}

func (p *cutProxy) accept() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conns = append(p.conns, in)
		p.mu.Unlock()
		go func() {
			p.pass()
			out, err := net.Dial("tcp", p.target)
			if err != nil {
				in.Close()
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, out)
			p.mu.Unlock()
			go p.copy(out, in)
			p.copy(in, out)
		}()
	}
}

// copy moves src's bytes to dst, each read waiting while the proxy is cut.
func (p *cutProxy) copy(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.pass()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil { // EOF or closed: the other side goes too
			return
		}
	}
}

func (p *cutProxy) close() {
	p.heal()
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}
