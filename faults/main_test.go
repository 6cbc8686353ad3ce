// Package faults holds fault tests over the real stack (issue 14): a real
// `campus serve` process, real Postgres, real Bleve, real websockets, and a
// fault injected under it — Postgres stopped with an immediate shutdown
// mid-storm and started again, the search index deleted or replaced while
// the node runs. The package has tests only.
package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/app"
	"campus/cluster/clustertest"
	"campus/freeport"
	"campus/httpapi/wstest"
	"campus/persistence"
	"campus/persistence/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// The campus binary, built once for the package's tests.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func campusBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "campus-faults-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "campus")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = ".." // the module root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// node is one `campus serve` process.
type node struct {
	addr    string
	dataDir string
	log     string
	cmd     *exec.Cmd
	done    chan struct{}
}

// startNode starts `campus serve` over dbURL with env (NAME=value) added,
// waits until it is ready and stops it when the test ends.
func startNode(t *testing.T, dbURL string, env ...string) *node {
	t.Helper()
	bin := campusBinary(t)
	dir := t.TempDir()
	n := &node{addr: "127.0.0.1:" + strconv.Itoa(freePort(t)), dataDir: filepath.Join(dir, "data"),
		log: filepath.Join(dir, "server.log"), done: make(chan struct{})}
	logf, err := os.Create(n.log)
	if err != nil {
		t.Fatal(err)
	}
	n.cmd = exec.Command(bin, "serve")
	n.cmd.Env = append(os.Environ(),
		"DATABASE_URL="+dbURL,
		"CAMPUS_ADDR="+n.addr,
		"CAMPUS_DATA_DIR="+n.dataDir,
		"CAMPUS_CLUSTER_ADDR=127.0.0.1:"+strconv.Itoa(freePort(t)),
		"CAMPUS_RATE_LIMITS=off",
		"CAMPUS_LOG_LEVEL=info",
		"CAMPUS_LOG_FORMAT=json",
	)
	// Mutual TLS on remoting, which a node in a cluster of several needs
	// (and a cluster of one uses when it is given).
	n.cmd.Env = append(n.cmd.Env, clustertest.TLSEnv(t, dir)...)
	n.cmd.Env = append(n.cmd.Env, env...)
	n.cmd.Stdout, n.cmd.Stderr = logf, logf
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = n.cmd.Wait()
		logf.Close()
		close(n.done)
	}()
	t.Cleanup(func() {
		_ = n.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-n.done:
		case <-time.After(20 * time.Second):
			_ = n.cmd.Process.Kill()
			<-n.done
		}
		if t.Failed() {
			b, _ := os.ReadFile(n.log)
			if len(b) > 6000 {
				b = b[len(b)-6000:]
			}
			t.Logf("node log (tail):\n%s", b)
		}
	})
	n.waitReady(t, 90*time.Second)
	return n
}

// alive fails the test if the process has exited.
func (n *node) alive(t *testing.T) {
	t.Helper()
	select {
	case <-n.done:
		t.Fatalf("the node exited: %v", n.cmd.ProcessState)
	default:
	}
}

func (n *node) waitReady(t *testing.T, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	last := ""
	for time.Now().Before(deadline) {
		n.alive(t)
		a := n.try("GET", "/api/ready", "", nil)
		if a.status == 200 {
			return
		}
		last = fmt.Sprintf("%d %v", a.status, a.env)
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("node not ready within %s (last: %s)", within, last)
}

// logged reports whether the node's log has a line whose message is msg.
func (n *node) logged(t *testing.T, msg string) bool {
	t.Helper()
	b, err := os.ReadFile(n.log)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(b, []byte(`"message":"`+msg+`"`))
}

// answer is one HTTP answer; status 0 when the request could not be sent.
type answer struct {
	status     int
	retryAfter string
	env        map[string]any
}

func (a answer) data() map[string]any {
	d, _ := a.env["data"].(map[string]any)
	return d
}

var httpClient = &http.Client{Timeout: 30 * time.Second}

func (n *node) try(method, path, token string, body any) answer {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return answer{env: map[string]any{"error": err.Error()}}
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://"+n.addr+path, r)
	if err != nil {
		return answer{env: map[string]any{"error": err.Error()}}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return answer{env: map[string]any{"error": err.Error()}}
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &a.env); err != nil {
		a.env = map[string]any{"body": string(raw)}
	}
	return a
}

// call is try that must get an answer with the wanted status.
func (n *node) call(t *testing.T, want int, method, path, token string, body any) answer {
	t.Helper()
	a := n.try(method, path, token, body)
	if a.status != want {
		t.Fatalf("%s %s: %d %v, want %d", method, path, a.status, a.env, want)
	}
	return a
}

// fine reports whether a is an answer a client may get while a dependency
// is away: success, or 503 telling it when to retry. Anything else (a 500,
// no answer at all) is a fault.
func fine(a answer) bool {
	return a.status >= 200 && a.status < 300 || unavailable(a)
}

func unavailable(a answer) bool {
	return a.status == http.StatusServiceUnavailable && a.retryAfter != ""
}

const password = "correct horse battery"

// users makes verified users straight in the database and signs them in
// over HTTP.
type users struct {
	db   *bun.DB
	hash string
}

func newUsers(t *testing.T, db *bun.DB) *users {
	t.Helper()
	hash, err := app.NewHasher(1).Hash(context.Background(), password)
	if err != nil {
		t.Fatal(err)
	}
	return &users{db: db, hash: hash}
}

func (u *users) add(t *testing.T, n *node, name string) (*persistence.User, string) {
	t.Helper()
	user := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: u.hash,
		Email: strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "@uni.edu", EmailVerifiedAt: time.Now()}
	if err := persistence.InsertUser(context.Background(), u.db, user); err != nil {
		t.Fatal(err)
	}
	a := n.call(t, 200, "POST", "/api/auth/login", "", map[string]any{
		"email": user.Email, "password": password, "role": "student"})
	return user, a.data()["token"].(string)
}

func createPost(t *testing.T, n *node, token, content string) string {
	t.Helper()
	a := n.call(t, 201, "POST", "/api/posts", token, map[string]any{"content": content, "visibility": "public"})
	return a.data()["post"].(map[string]any)["id"].(string)
}

// openDB opens the test's own pool the way the node does (persistence.Open),
// so it too drops the connections a restart of Postgres killed.
func openDB(t *testing.T, dsn string) *bun.DB {
	t.Helper()
	db, err := persistence.Open(context.Background(), dsn, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// freePort picks a port below the ephemeral range (see freeport).
func freePort(t *testing.T) int { return freeport.Must(t) }

// awaitClosed waits until the server closes c (a close frame or the
// connection ending), failing after within.
func awaitClosed(t *testing.T, c *wstest.Conn, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		_ = c.SetReadDeadline(deadline)
		_, _, err := c.ReadMessage()
		if err == nil {
			continue // a frame still on its way
		}
		var ce *websocket.CloseError
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("socket still open %s later", within)
		}
		if errors.As(err, &ce) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return
		}
		t.Fatalf("socket read: %v", err)
	}
}

// waitFor polls cond every 50 ms until it holds, failing with what after
// within.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
