package cluster_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"campus/cluster"
	"campus/persistence/testdb"
)

// TestEtcdDiscovery runs real `campus serve` processes over one database
// with the etcd provider against a real etcd (DESIGN §4.4): nothing lists
// the nodes anywhere, so two nodes find each other through etcd, a third
// started later joins and takes likes, a node stopped with SIGTERM leaves at
// once, and a node killed with SIGKILL leaves when its lease runs out, after
// which the survivor takes over every post's grain and counts stay exact.
func TestEtcdDiscovery(t *testing.T) {
	endpoint := cluster.StartEtcd(t)
	bin := buildCampus(t)
	dbURL := testdb.NewURL(t)
	db := openDB(t, dbURL)

	start := func(i int) *node {
		return startNode(t, bin, i, dbURL,
			"CAMPUS_CLUSTER_PROVIDER=etcd",
			"CAMPUS_ETCD_ENDPOINTS="+endpoint)
	}
	a, b := start(0), start(1)
	a.waitMembers(t, 2, 60*time.Second)
	b.waitMembers(t, 2, 60*time.Second)

	newUser, login := userMaker(t, db)
	author := newUser("Etcd Author")
	authorTok := login(a, author)
	var posts []string
	for i := range 8 {
		n := []*node{a, b}[i%2]
		status, env := n.call(t, "POST", "/api/posts", authorTok, map[string]any{
			"content": fmt.Sprintf("etcd post %d", i), "visibility": "public"})
		if status != 201 {
			t.Fatalf("create post on node %d: %d %v", n.i, status, env)
		}
		posts = append(posts, data(env)["post"].(map[string]any)["id"].(string))
	}

	const nLikers = 12
	tokens := make([]string, nLikers)
	liked := make([][]bool, nLikers)
	for k := range nLikers {
		tokens[k] = login([]*node{a, b}[k%2], newUser(fmt.Sprintf("Etcd Liker %d", k)))
		liked[k] = make([]bool, len(posts))
	}
	toggle := func(n *node, k, p int) error {
		status, env := n.call(t, "PATCH", "/api/posts/"+posts[p]+"/like", tokens[k], nil)
		if status != 200 {
			return fmt.Errorf("toggle via node %d: %d %v", n.i, status, env)
		}
		liked[k][p] = data(env)["isLiked"].(bool)
		return nil
	}
	// likeThrough has every liker toggle random posts through random nodes
	// at once; each liker's answers are in order, so the last one is the truth.
	likeThrough := func(t *testing.T, nodes []*node, seed uint64) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make(chan error, nLikers)
		for k := range nLikers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(k), seed))
				for range 10 {
					if err := toggle(nodes[rng.IntN(len(nodes))], k, rng.IntN(len(posts))); err != nil {
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
		checkCounts(t, db, posts, liked)
	}

	t.Run("two nodes found through etcd count likes exactly", func(t *testing.T) {
		likeThrough(t, []*node{a, b}, 1)
	})

	c := start(2)
	t.Run("a node listed nowhere joins and takes likes", func(t *testing.T) {
		for _, n := range []*node{a, b, c} {
			n.waitMembers(t, 3, 60*time.Second)
		}
		likeThrough(t, []*node{a, b, c}, 2)
	})

	t.Run("a node stopped with SIGTERM leaves", func(t *testing.T) {
		b.stop(t)
		a.waitMembers(t, 2, 15*time.Second)
		c.waitMembers(t, 2, 15*time.Second)
	})

	t.Run("a killed node leaves when its lease expires and its grains move", func(t *testing.T) {
		before := a.metric(t, "campus_post_transactions_total")
		c.kill(t)
		// The provider's lease lives 3 s; the bound leaves room for a busy machine.
		a.waitMembers(t, 1, 15*time.Second)
		for p := range posts {
			// A call may fail while the survivor's member list catches up; it
			// must succeed soon after.
			deadline := time.Now().Add(20 * time.Second)
			for {
				err := toggle(a, p, p)
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
		if a.metric(t, "campus_post_transactions_total") < before+float64(len(posts)) {
			t.Fatal("the survivor did not run every post's grain")
		}
	})
}
