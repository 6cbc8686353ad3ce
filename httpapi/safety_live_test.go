package httpapi

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun/dialect/pgdialect"

	"campus/httpapi/wstest"
)

// mentions reports whether frame f is about post id: a post:counts entry of
// it or an event naming it.
func mentions(t *testing.T, f wstest.Frame, id string) bool {
	t.Helper()
	if f.Event == "post:counts" {
		_, ok := wstest.Counts(t, f)[id]
		return ok
	}
	return f.Data["postId"] == id
}

// countsUntil reads c's frames until a post:counts entry of mark with
// comments comments arrives, and answers whether any frame before it (or
// that one) was about other.
func countsUntil(t *testing.T, c *wstest.Conn, mark string, comments int, other string) (leaked bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := c.Read(time.Until(deadline))
		if err != nil {
			t.Fatalf("waiting for the counts of %s: %v", mark, err)
		}
		leaked = leaked || mentions(t, f, other)
		if f.Event == "post:counts" {
			if e, ok := wstest.Counts(t, f)[mark]; ok && e.CommentsCount == comments {
				return leaked
			}
		}
	}
}

// TestBlockStopsLiveEvents: A watches B's post and B watches A's; once A
// blocks B the block reaches the hub and neither socket hears of the
// other's post again, while a third person's post they both watch still
// updates (the sockets are alive). The block also deletes the
// notifications between the two.
func TestBlockStopsLiveEvents(t *testing.T) {
	sw := newSweepStack(t)
	a, aTok := sw.member(t, "Live Block Asha")
	b, bTok := sw.member(t, "Live Block Bikram")
	_, cTok := sw.member(t, "Live Block Chitra")
	aPost := sw.post(t, aTok, "asha's post")
	bPost := sw.post(t, bTok, "bikram's post")
	cPost := sw.post(t, cTok, "chitra's post")
	aSock, bSock := sw.connect(t, aTok), sw.connect(t, bTok)
	aSock.Watch(t, bPost, cPost)
	bSock.Watch(t, aPost, cPost)

	comments := 0
	// round has C comment on B's, A's and then C's own post, and answers
	// whether A's socket heard of B's post and B's socket of A's before
	// the count of C's post arrived.
	round := func() (aHeard, bHeard bool) {
		t.Helper()
		for _, id := range []string{bPost, aPost, cPost} {
			if status, env := sw.call(t, "POST", "/api/posts/"+id+"/comments", cTok, map[string]any{"content": "hello"}); status != 201 {
				t.Fatalf("comment: %d %v", status, env)
			}
		}
		comments++
		return countsUntil(t, aSock, cPost, comments, bPost), countsUntil(t, bSock, cPost, comments, aPost)
	}

	// Before the block both hear of the other's post: the test can fail.
	if aHeard, bHeard := round(); !aHeard || !bHeard {
		t.Fatalf("before the block: A heard of B's post %v, B of A's %v", aHeard, bHeard)
	}
	// B's comment on A's post notifies A, and so do B's likes: of aPost with
	// C's (one roll-up naming both) and of aOnly alone. The block must delete
	// the comment's and aOnly's and take B out of aPost's.
	aOnly := sw.post(t, aTok, "asha's other post")
	if status, env := sw.call(t, "POST", "/api/posts/"+aPost+"/comments", bTok, map[string]any{"content": "hi asha"}); status != 201 {
		t.Fatalf("comment: %d %v", status, env)
	}
	for _, like := range []struct{ tok, post string }{{cTok, aPost}, {bTok, aPost}, {bTok, aOnly}} {
		if status, env := sw.call(t, "POST", "/api/posts/"+like.post+"/like", like.tok, nil); status != 200 {
			t.Fatalf("like: %d %v", status, env)
		}
	}
	// Notifications are written by A's user grain after the answers: wait
	// for all three rows.
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := sw.db.NewSelect().Table("notifications").Where("user_id = ?", a.ID).
			Where("sender_id = ? OR (type = 'like' AND ? = ANY (actor_ids) AND (post_id = ? OR cardinality(actor_ids) = 1))",
				b.ID, b.ID, aPost).Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the 3 notifications of B to A", n)
		}
		time.Sleep(20 * time.Millisecond)
	}

	if status, env := sw.call(t, "POST", "/api/safety/blocks/"+b.ID.String(), aTok, nil); status != 200 {
		t.Fatalf("block: %d %v", status, env)
	}
	n, err := sw.db.NewSelect().Table("notifications").
		Where("(user_id = ?0 AND sender_id = ?1) OR (user_id = ?1 AND sender_id = ?0)", a.ID, b.ID).
		WhereOr("user_id IN (?0, ?1) AND (?0 = ANY (actor_ids) OR ?1 = ANY (actor_ids))", a.ID, b.ID).Count(context.Background())
	if err != nil || n != 0 {
		t.Fatalf("notifications between them after the block: %d %v", n, err)
	}
	var rollup []string
	if err := sw.db.NewSelect().Table("notifications").Column("actor_ids").Where("user_id = ? AND post_id = ? AND type = 'like'", a.ID, aPost).
		Scan(context.Background(), pgdialect.Array(&rollup)); err != nil || len(rollup) != 1 {
		t.Fatalf("aPost's roll-up after the block: %v %v", rollup, err)
	}

	// The block travels by NOTIFY to the hub: wait until two rounds in a
	// row are clean, then every further round must be.
	clean, deadline := 0, time.Now().Add(10*time.Second)
	for clean < 2 {
		if aHeard, bHeard := round(); aHeard || bHeard {
			clean = 0
		} else {
			clean++
		}
		if time.Now().After(deadline) {
			t.Fatal("the sockets still hear of the other's post after the block")
		}
	}
	for i := range 2 {
		if aHeard, bHeard := round(); aHeard || bHeard {
			t.Fatalf("round %d after the block: A heard of B's post %v, B of A's %v", i, aHeard, bHeard)
		}
	}
}
