package cluster_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"mime/multipart"
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

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/app"
	"campus/cluster/clustertest"
	"campus/freeport"
	"campus/httpapi/wstest"
	"campus/media/s3test"
	"campus/persistence"
	"campus/persistence/testdb"
)

// TestThreeProcesses runs three real `campus serve` processes over one
// database as an automanaged cluster on loopback (docs/architecture.md §4.4, §11.1): a user
// signs in on one node and is recognised on the others, likes sent through
// every node to grains that live on any of them stay exact, a socket on one
// node sees the counts of likes sent to the others, a sign-out on one node
// revokes the token on all, and after a node is killed the other two take
// over its grains and keep counting exactly.
func TestThreeProcesses(t *testing.T) {
	bin := buildCampus(t)
	dbURL := testdb.NewURL(t)
	db := openDB(t, dbURL)

	// Media in one bucket of a real S3-compatible server, shared by all nodes.
	s3 := s3test.Start(t)
	mediaEnv := s3.Env(s3.Bucket(t, "campus-cluster"))

	nodes := startCluster(t, bin, dbURL, 3, mediaEnv...)

	newUser, login := userMaker(t, db)

	author := newUser("Cluster Author")
	authorTok := login(nodes[0], author)
	var posts []string
	// Twelve posts: their grains land on at least two of the three nodes
	// (all on one would be a 1-in-177,000 chance of disthash).
	for i := range 12 {
		// The token node 0 signed is good on every node.
		status, env := nodes[i%3].call(t, "POST", "/api/posts", authorTok, map[string]any{
			"content": fmt.Sprintf("cluster post %d", i), "visibility": "public"})
		if status != 201 {
			t.Fatalf("create post on node %d: %d %v", i%3, status, env)
		}
		posts = append(posts, data(env)["post"].(map[string]any)["id"].(string))
	}
	// An image posted through node 0 is served by node 2 from the bucket.
	imgURL, imgBytes := postImage(t, nodes[0], authorTok)
	resp, err := httpClient.Get("http://" + nodes[2].addr + imgURL)
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || !bytes.Equal(served, imgBytes) {
		t.Fatalf("node 2 serves node 0's image %s: %d %q, %d bytes, want %d", imgURL, resp.StatusCode,
			resp.Header.Get("Content-Type"), len(served), len(imgBytes))
	}

	// A friend's socket on node 1 hears of a post made through node 2
	// (post:new, one DeliverToUsers broadcast to every node's hub).
	t.Run("post:new reaches a friend on another node", func(t *testing.T) {
		friend := newUser("Cluster Friend")
		if _, err := persistence.AddFriendship(context.Background(), db, author.ID, friend.ID); err != nil {
			t.Fatal(err)
		}
		fs := wstest.Connect(t, nodes[1].addr, login(nodes[1], friend))
		status, env := nodes[2].call(t, "POST", "/api/posts", authorTok, map[string]any{"content": "for my friends", "visibility": "public"})
		if status != 201 {
			t.Fatalf("create post on node 2: %d %v", status, env)
		}
		id := data(env)["post"].(map[string]any)["id"].(string)
		if f := fs.Next(t, "post:new"); f.Data["postId"] != id || f.Data["authorId"] != author.ID.String() {
			t.Fatalf("post:new %v, want %s by %s", f.Data, id, author.ID)
		}
	})

	watcher := newUser("Cluster Watcher")
	ws := wstest.Connect(t, nodes[2].addr, login(nodes[1], watcher))
	ws.Watch(t, posts...)

	const nLikers = 24
	likers := make([]*persistence.User, nLikers)
	tokens := make([]string, nLikers)
	for k := range likers {
		likers[k] = newUser(fmt.Sprintf("Cluster Liker %d", k))
		tokens[k] = login(nodes[k%3], likers[k])
	}

	// liked[k][p] is liker k's last answer on post p.
	liked := make([][]bool, nLikers)
	toggle := func(n *node, k, p int) error {
		status, env := n.call(t, "PATCH", "/api/posts/"+posts[p]+"/like", tokens[k], nil)
		if status != 200 {
			return fmt.Errorf("toggle via node %d: %d %v", n.i, status, env)
		}
		liked[k][p] = data(env)["isLiked"].(bool)
		return nil
	}
	t.Run("likes through every node stay exact", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make(chan error, nLikers)
		for k := range nLikers {
			liked[k] = make([]bool, len(posts))
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(k), 7))
				for range 15 {
					if err := toggle(nodes[rng.IntN(3)], k, rng.IntN(len(posts))); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		want := checkCounts(t, db, posts, liked)
		busy := 0
		for _, n := range nodes {
			if n.metric(t, "campus_post_transactions_total") > 0 {
				busy++
			}
		}
		if busy < 2 {
			t.Fatalf("post grains ran on %d node(s), want them spread", busy)
		}
		t.Run("a socket on another node sees the final counts", func(t *testing.T) {
			awaitCounts(t, ws, want, 10*time.Second)
		})
	})

	t.Run("signing out on one node revokes the token on all", func(t *testing.T) {
		if status, env := nodes[1].call(t, "POST", "/api/auth/logout", tokens[0], nil); status != 200 {
			t.Fatalf("logout: %d %v", status, env)
		}
		for _, n := range []*node{nodes[0], nodes[2]} {
			deadline := time.Now().Add(5 * time.Second)
			for {
				status, _ := n.call(t, "GET", "/api/posts/feed", tokens[0], nil)
				if status == 401 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("node %d still accepts a revoked token: %d", n.i, status)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	})

	t.Run("the others take over a killed node's grains", func(t *testing.T) {
		nodes[1].kill(t)
		nodes[0].waitMembers(t, 2, 30*time.Second)
		nodes[2].waitMembers(t, 2, 30*time.Second)
		for p := range posts {
			// Until the members agree the node is gone a call can fail
			// (and answer 500); it must succeed soon after.
			deadline := time.Now().Add(20 * time.Second)
			for {
				err := toggle(nodes[p%2*2], 1+p, p)
				if err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("post %d after the kill: %v", p, err)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
		checkCounts(t, db, posts, liked)
	})
}

// startCluster starts n `campus serve` processes over dbURL as one
// automanaged cluster on loopback, each with env (NAME=value) besides, and
// waits until every one is ready and sees all n members.
func startCluster(t *testing.T, bin, dbURL string, n int, env ...string) []*node {
	t.Helper()
	manage := make([]int, n)
	hosts := make([]string, n)
	for i := range manage {
		manage[i] = freePort(t)
		hosts[i] = "127.0.0.1:" + strconv.Itoa(manage[i])
	}
	nodes := make([]*node, n)
	for i := range nodes {
		nodes[i] = startNode(t, bin, i, dbURL, append([]string{
			"CAMPUS_CLUSTER_HOSTS=" + strings.Join(hosts, ","),
			"CAMPUS_CLUSTER_MANAGE_PORT=" + strconv.Itoa(manage[i])}, env...)...)
	}
	for _, nd := range nodes {
		nd.waitMembers(t, n, 90*time.Second)
	}
	return nodes
}

// userMaker answers newUser, which puts a verified student straight into
// the database, and login, which signs one in over HTTP on a node.
func userMaker(t *testing.T, db *bun.DB) (func(name string) *persistence.User, func(*node, *persistence.User) string) {
	t.Helper()
	const password = "correct horse battery"
	hash, err := app.NewHasher(1).Hash(context.Background(), password)
	if err != nil {
		t.Fatal(err)
	}
	newUser := func(name string) *persistence.User {
		u := &persistence.User{ID: persistence.NewID(), Name: name, Role: "student", PasswordHash: hash,
			Email: strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "@uni.edu", EmailVerifiedAt: time.Now()}
		if err := persistence.InsertUser(context.Background(), db, u); err != nil {
			t.Fatal(err)
		}
		return u
	}
	login := func(n *node, u *persistence.User) string {
		status, env := n.call(t, "POST", "/api/auth/login", "", map[string]any{
			"email": u.Email, "password": password, "role": "student"})
		if status != 200 {
			t.Fatalf("login on node %d: %d %v", n.i, status, env)
		}
		return data(env)["token"].(string)
	}
	return newUser, login
}

// checkCounts asserts, per post, likes_count = post_likes rows = the likers
// whose last answer was "liked", and answers those counts.
func checkCounts(t *testing.T, db *bun.DB, posts []string, liked [][]bool) map[string]int {
	t.Helper()
	want := make(map[string]int)
	for p, id := range posts {
		n := 0
		for _, l := range liked {
			if l != nil && l[p] {
				n++
			}
		}
		var count, rows int
		if err := db.QueryRowContext(context.Background(),
			`SELECT likes_count, (SELECT count(*) FROM post_likes WHERE post_id = p.id) FROM posts p WHERE id = ?`,
			id).Scan(&count, &rows); err != nil {
			t.Fatal(err)
		}
		if count != n || rows != n {
			t.Fatalf("post %d: likes_count %d, rows %d, answers say %d", p, count, rows, n)
		}
		want[id] = n
	}
	return want
}

// buildCampus builds the campus binary into the test's temp dir.
func buildCampus(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "campus")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = ".." // the module root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func openDB(t *testing.T, dsn string) *bun.DB {
	t.Helper()
	db := bun.NewDB(sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn))), pgdialect.New())
	t.Cleanup(func() { db.Close() })
	return db
}

// freePort picks a port below the ephemeral range (see freeport).
func freePort(t *testing.T) int { return freeport.Must(t) }

// node is one campus serve process.
type node struct {
	i    int
	addr string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

// startNode starts `campus serve` number i over dbURL with the cluster
// settings in clusterEnv (NAME=value), and stops it when the test ends.
func startNode(t *testing.T, bin string, i int, dbURL string, clusterEnv ...string) *node {
	t.Helper()
	dir := t.TempDir()
	n := &node{i: i, addr: "127.0.0.1:" + strconv.Itoa(freePort(t)), log: filepath.Join(dir, "server.log"),
		done: make(chan struct{})}
	logf, err := os.Create(n.log)
	if err != nil {
		t.Fatal(err)
	}
	n.cmd = exec.Command(bin, "serve")
	n.cmd.Env = append(os.Environ(),
		"DATABASE_URL="+dbURL,
		"CAMPUS_ADDR="+n.addr,
		"CAMPUS_DATA_DIR="+filepath.Join(dir, "data"),
		"CAMPUS_CLUSTER_ADDR=127.0.0.1:"+strconv.Itoa(freePort(t)),
		"CAMPUS_RATE_LIMITS=off",
		"CAMPUS_LOG_LEVEL=warn",
	)
	// Remoting is mutual TLS, as a cluster of several nodes requires.
	n.cmd.Env = append(n.cmd.Env, clustertest.TLSEnv(t, dir)...)
	n.cmd.Env = append(n.cmd.Env, clusterEnv...)
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
		case <-time.After(15 * time.Second):
			_ = n.cmd.Process.Kill()
			<-n.done
		}
		if t.Failed() {
			b, _ := os.ReadFile(n.log)
			if len(b) > 4000 {
				b = b[len(b)-4000:]
			}
			t.Logf("node %d log (tail):\n%s", n.i, b)
		}
	})
	return n
}

// logSize is how many bytes n has logged so far.
func (n *node) logSize(t *testing.T) int {
	t.Helper()
	fi, err := os.Stat(n.log)
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Size())
}

// logSince is what n logged after its first off bytes.
func (n *node) logSince(t *testing.T, off int) string {
	t.Helper()
	b, err := os.ReadFile(n.log)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[min(off, len(b)):])
}

// postImage posts a PNG through n and returns its URL and the PNG (which
// has no metadata to strip, so it is stored as sent).
func postImage(t *testing.T, n *node, token string) (string, []byte) {
	t.Helper()
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 6, 4))); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("content", "a picture")
	_ = mw.WriteField("visibility", "public")
	fw, err := mw.CreateFormFile("images", "a.png")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(img.Bytes())
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("POST", "http://"+n.addr+"/api/posts", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || resp.StatusCode != 201 {
		t.Fatalf("post an image on node %d: %d %v %v", n.i, resp.StatusCode, env, err)
	}
	images, _ := data(env)["post"].(map[string]any)["images"].([]any)
	if len(images) != 1 {
		t.Fatalf("post has images %v", images)
	}
	return images[0].(map[string]any)["url"].(string), img.Bytes()
}

// kill ends the node with SIGKILL, as a crash would.
func (n *node) kill(t *testing.T) {
	t.Helper()
	if err := n.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-n.done
}

// stop ends the node with SIGTERM, as an operator would, and waits for a
// clean exit.
func (n *node) stop(t *testing.T) {
	t.Helper()
	if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-n.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("node %d did not stop within 30s of SIGTERM", n.i)
	}
	if code := n.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("node %d exited with %d after SIGTERM", n.i, code)
	}
}

// waitMembers waits until the node is ready and sees want members.
func (n *node) waitMembers(t *testing.T, want int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	last := ""
	for time.Now().Before(deadline) {
		select {
		case <-n.done:
			t.Fatalf("node %d exited while starting", n.i)
		default:
		}
		status, env := n.try("GET", "/api/ready", "", nil)
		if status == 200 && data(env)["members"] == float64(want) {
			return
		}
		last = fmt.Sprintf("%d %v", status, env)
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("node %d: not ready with %d members within %s (last: %s)", n.i, want, within, last)
}

// metric reads one unlabelled series from the node's /metrics.
func (n *node) metric(t *testing.T, name string) float64 {
	t.Helper()
	resp, err := httpClient.Get("http://" + n.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	t.Fatalf("node %d has no metric %s", n.i, name)
	return 0
}

var httpClient = &http.Client{Timeout: 30 * time.Second}

// try sends one request; status 0 when it could not be sent.
func (n *node) try(method, path, token string, body any) (int, map[string]any) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://"+n.addr+path, r)
	if err != nil {
		return 0, nil
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, map[string]any{"error": err.Error()}
	}
	defer resp.Body.Close()
	var env map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &env); err != nil {
		return resp.StatusCode, map[string]any{"body": string(raw)}
	}
	return resp.StatusCode, env
}

func (n *node) call(t *testing.T, method, path, token string, body any) (int, map[string]any) {
	t.Helper()
	status, env := n.try(method, path, token, body)
	if status == 0 {
		t.Fatalf("%s %s on node %d: %v", method, path, n.i, env)
	}
	return status, env
}

func data(env map[string]any) map[string]any {
	d, _ := env["data"].(map[string]any)
	return d
}

// awaitCounts reads post:counts frames until every post's last count is the
// wanted one.
func awaitCounts(t *testing.T, c *wstest.Conn, want map[string]int, within time.Duration) {
	t.Helper()
	seen := make(map[string]int)
	deadline := time.Now().Add(within)
	for {
		match := true
		for id, n := range want {
			if got, ok := seen[id]; !ok || got != n {
				match = false
			}
		}
		if match {
			return
		}
		f, err := c.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("counts seen %v, want %v: %v", seen, want, err)
		}
		if f.Event == "post:counts" {
			for id, c := range wstest.Counts(t, f) {
				if _, err := uuid.Parse(id); err == nil {
					seen[id] = c.LikesCount
				}
			}
		}
	}
}
