package actors_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/actors"
	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// holdPost locks a post's row in a transaction of its own until release is
// called: a writer that writes the post waits, and the batches handed in
// meanwhile queue behind it.
func holdPost(t *testing.T, db *bun.DB, postID uuid.UUID) (release func()) {
	t.Helper()
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(context.Background(), "SELECT 1 FROM posts WHERE id = ? FOR UPDATE", postID); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() { once.Do(func() { _ = tx.Rollback() }) }
	t.Cleanup(release)
	return release
}

// busyWriter makes the node's single writer busy on a like of a post held
// by holdPost, and answers when the writer has taken that batch.
func busyWriter(t *testing.T, n *node, author *persistence.User, liker uuid.UUID) (release func(), answered <-chan error) {
	t.Helper()
	blocker := n.post(t, author)
	release = holdPost(t, n.db, blocker)
	before := n.live.Stats().Batches
	done := make(chan error, 1)
	go func() {
		_, _, _, err := n.live.Like(context.Background(), blocker, liker, domain.Like, uuid.NewString())
		done <- err
	}()
	waitFor(t, "the writer to take the blocked batch", func() (bool, error) {
		return n.live.Stats().Batches == before+1 && n.live.WriterQueued() == 0, nil
	})
	return release, done
}

type likeAnswer struct {
	liked bool
	count int
	err   error
}

func likeAsync(n *node, postID, user uuid.UUID, op domain.LikeAction, rid string) <-chan likeAnswer {
	ch := make(chan likeAnswer, 1)
	go func() {
		liked, count, _, err := n.live.Like(context.Background(), postID, user, op, rid)
		ch <- likeAnswer{liked, count, err}
	}()
	return ch
}

// TestSharedCommit: the batches of several posts that queue while the
// writer is busy go into one transaction; a post deleted meanwhile fails
// only its own likes, and the others commit and are answered.
func TestSharedCommit(t *testing.T) {
	n := startNodeWith(t, testdb.New(t), func(c *actors.Config) { c.Writers = 1 })
	us := n.users(t, 4)
	author, a, b := us[0], us[1], us[2]
	posts := make([]uuid.UUID, 6)
	for i := range posts {
		posts[i] = n.post(t, author)
	}
	const deleted = 3
	if _, err := persistence.DeletePost(context.Background(), n.db, posts[deleted]); err != nil {
		t.Fatal(err)
	}

	release, blocked := busyWriter(t, n, author, us[3].ID)
	before, begins := n.live.Stats(), n.stmts.begins.Load()
	answers := make([][]<-chan likeAnswer, len(posts))
	for i, p := range posts {
		// a likes the even posts, b toggles the odd ones: one request
		// each, so that each post's batch holds all of its requests.
		if i%2 == 0 {
			answers[i] = append(answers[i], likeAsync(n, p, a.ID, domain.Like, uuid.NewString()))
		} else {
			answers[i] = append(answers[i], likeAsync(n, p, b.ID, domain.ToggleLike, uuid.NewString()))
		}
	}
	waitFor(t, "every post's batch to queue at the writer", func() (bool, error) { return n.live.WriterQueued() == len(posts), nil })
	release()
	if err := <-blocked; err != nil {
		t.Fatal(err)
	}

	for i, p := range posts {
		t.Run(fmt.Sprintf("post %d", i), func(t *testing.T) {
			want := 1
			for _, ch := range answers[i] {
				r := <-ch
				if i == deleted {
					if !errors.Is(r.err, domain.ErrNotFound) {
						t.Fatalf("a like of the deleted post answered %+v, want not found", r)
					}
					continue
				}
				if r.err != nil || !r.liked {
					t.Fatalf("answered %+v", r)
				}
			}
			if i != deleted {
				n.exact(t, p, want)
			}
		})
	}
	after := n.live.Stats()
	// The blocked batch's transaction, then one for the six queued batches
	// (one BEGIN: the blocked one was a lone batch, written without one).
	if tx := after.Transactions - before.Transactions; tx != 2 {
		t.Fatalf("%d transactions after the blocked one, want 2 (the blocked and one shared)", tx)
	}
	if got := n.stmts.begins.Load() - begins; got != 1 {
		t.Fatalf("%d transactions begun for %d posts, want 1", got, len(posts))
	}
}

// TestBackpressure: with the grain's queue or the node's backlog full a
// like is refused at once as unavailable (503 + Retry-After), and a retry
// with the same request id joins the original: in flight, answered, or
// refused (then the retry is a fresh attempt).
func TestBackpressure(t *testing.T) {
	tests := []struct {
		name      string
		configure func(*actors.Config)
		// samePost: the requests after the one in flight go to the post
		// that is written (the grain's queue); otherwise to other posts
		// (the node's backlog).
		samePost bool
	}{
		{"node backlog full", func(c *actors.Config) { c.Writers, c.MaxPending = 1, 2 }, false},
		{"grain queue full", func(c *actors.Config) { c.Writers, c.MaxQueue = 1, 1 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := startNodeWith(t, testdb.New(t), tt.configure)
			us := n.users(t, 4)
			author, a, b := us[0], us[1], us[2]
			hot, other := n.post(t, author), n.post(t, author)
			target := other
			if tt.samePost {
				target = hot
			}
			// One like in flight (the writer waits on the post's lock).
			release := holdPost(t, n.db, hot)
			first := likeAsync(n, hot, us[3].ID, domain.Like, uuid.NewString())
			waitFor(t, "the first like to be written", func() (bool, error) { return n.live.Stats().Batches == 1, nil })

			// Two sends of one toggle: the second joins the first.
			rid := uuid.NewString()
			joined := []<-chan likeAnswer{likeAsync(n, target, a.ID, domain.ToggleLike, rid)}
			waitFor(t, "the toggle to queue", func() (bool, error) { return n.live.Pending() == 2, nil })
			joined = append(joined, likeAsync(n, target, a.ID, domain.ToggleLike, rid))

			// Full: refused at once, retryable.
			refusedRID := uuid.NewString()
			_, _, _, err := n.live.Like(context.Background(), target, b.ID, domain.ToggleLike, refusedRID)
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.KindUnavailable || de.RetryAfter < 1 {
				t.Fatalf("a like past the bound answered %v, want unavailable with a retry delay", err)
			}
			if n.live.Stats().Refused < 1 {
				t.Fatal("no refusal counted")
			}

			release()
			if r := <-first; r.err != nil {
				t.Fatal(r.err)
			}
			for i, ch := range joined {
				if r := <-ch; r.err != nil || !r.liked {
					t.Fatalf("send %d of the toggle answered %+v", i, r)
				}
			}
			// The refused toggle's retry is a fresh attempt; its own retry
			// then gets the same answer and toggles nothing.
			for i := range 2 {
				liked, _, _, err := n.live.Like(context.Background(), target, b.ID, domain.ToggleLike, refusedRID)
				if err != nil || !liked {
					t.Fatalf("retry %d of the refused toggle: liked %v, %v", i, liked, err)
				}
			}
			want := 2
			if tt.samePost {
				want = 3
			}
			n.exact(t, target, want)
		})
	}
}

// TestLikeStorm: 250 users send 500 like, unlike and toggle requests at
// once over a few posts; every request is answered and each post's counter
// equals its like rows.
func TestLikeStorm(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 251)
	posts := make([]uuid.UUID, 5)
	for i := range posts {
		posts[i] = n.post(t, us[0])
	}
	ops := []domain.LikeAction{domain.Like, domain.Unlike, domain.ToggleLike}
	var wg sync.WaitGroup
	errs := make(chan error, 500)
	for i, u := range us[1:] {
		for j := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := posts[rand.IntN(len(posts))]
				op := ops[(i+j)%len(ops)]
				if _, _, _, err := n.live.Like(context.Background(), p, u.ID, op, uuid.NewString()); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i, p := range posts {
		t.Run(fmt.Sprintf("post %d", i), func(t *testing.T) { n.exact(t, p, -1) })
	}
}
