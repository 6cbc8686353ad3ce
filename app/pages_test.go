package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// Many readers of one page at once share queries, and each still gets its
// own likes, encoded exactly as json.Marshal would; a like committed before
// a read is always in it.
func TestPageReadsShareQueriesPerReader(t *testing.T) {
	f := &searchFixture{t: t, db: testdb.New(t)}
	ctx := context.Background()
	author := f.user("Page Author", "student", "", "", "")
	var posts []uuid.UUID
	for i := range 25 {
		posts = append(posts, f.post(author, fmt.Sprintf("post %d", i)))
	}
	// Reader k likes posts k, k+7 and k+14 (mod 25): the first page holds
	// the 20 newest, posts 24 down to 5.
	const nReaders = 40
	readers := make([]uuid.UUID, nReaders)
	want := make([]map[uuid.UUID]bool, nReaders)
	for k := range readers {
		readers[k] = f.user(fmt.Sprintf("Reader %d", k), "student", "", "", "")
		want[k] = map[uuid.UUID]bool{}
		for _, i := range []int{k % 25, (k + 7) % 25, (k + 14) % 25} {
			if _, err := persistence.ApplyPostBatch(ctx, f.db, persistence.PostBatch{PostID: posts[i],
				Likes: []persistence.LikeChange{{UserID: readers[k], Op: domain.Like}}}); err != nil {
				t.Fatal(err)
			}
			want[k][posts[i]] = true
		}
	}
	pages := newPageReads(f.db, zerolog.Nop())

	check := func(k int, page PostPage) error {
		if len(page.Posts) != 20 || page.NextCursor == nil {
			return fmt.Errorf("reader %d: %d posts, cursor %v", k, len(page.Posts), page.NextCursor)
		}
		for i, p := range page.Posts {
			if p.ID != posts[24-i].String() {
				return fmt.Errorf("reader %d: post %d is %s", k, i, p.Content)
			}
			if p.IsLiked != want[k][posts[24-i]] {
				return fmt.Errorf("reader %d: %s liked %v", k, p.Content, p.IsLiked)
			}
		}
		enc, err := json.Marshal(page)
		if err != nil {
			return err
		}
		if got := page.AppendJSON(nil); string(got) != string(enc) {
			return fmt.Errorf("reader %d:\n got %s\nwant %s", k, got, enc)
		}
		return nil
	}

	tests := []struct {
		name   string
		rounds int
	}{{"one round", 1}, {"many rounds", 5}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make(chan error, nReaders*tt.rounds)
			for k := range nReaders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range tt.rounds {
						page, err := pages.read(ctx, persistence.PostQuery{Limit: 20}, readers[k])
						if err == nil {
							err = check(k, page)
						}
						if err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}

	t.Run("read your own like", func(t *testing.T) {
		// Others keep reading the page while reader 0 likes and reads.
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for k := 1; k < 8; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := pages.read(ctx, persistence.PostQuery{Limit: 20}, readers[k]); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		defer func() { close(stop); wg.Wait() }()
		for i := 5; i < 25; i++ {
			op := domain.Like
			if want[0][posts[i]] {
				op = domain.Unlike
			}
			res, err := persistence.ApplyPostBatch(ctx, f.db, persistence.PostBatch{PostID: posts[i],
				Likes: []persistence.LikeChange{{UserID: readers[0], Op: op}}})
			if err != nil {
				t.Fatal(err)
			}
			want[0][posts[i]] = op == domain.Like
			page, err := pages.read(ctx, persistence.PostQuery{Limit: 20}, readers[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := check(0, page); err != nil {
				t.Fatal(err)
			}
			if got := page.Posts[24-i].LikesCount; got != res.LikesCount {
				t.Fatalf("post %d: count %d after the like answered %d", i, got, res.LikesCount)
			}
		}
	})

	t.Run("later pages and authors", func(t *testing.T) {
		first, err := pages.read(ctx, persistence.PostQuery{Author: author, Limit: 20}, readers[3])
		if err != nil {
			t.Fatal(err)
		}
		after, err := decodeKeyset(*first.NextCursor)
		if err != nil {
			t.Fatal(err)
		}
		rest, err := pages.read(ctx, persistence.PostQuery{Author: author, After: after, Limit: 20}, readers[3])
		if err != nil {
			t.Fatal(err)
		}
		if len(rest.Posts) != 5 || rest.NextCursor != nil || rest.Posts[0].ID != posts[4].String() {
			t.Fatalf("second page: %d posts, cursor %v", len(rest.Posts), rest.NextCursor)
		}
		for i, p := range rest.Posts {
			if p.IsLiked != want[3][posts[4-i]] {
				t.Fatalf("%s liked %v", p.Content, p.IsLiked)
			}
		}
		none, err := pages.read(ctx, persistence.PostQuery{Author: readers[0], Limit: 20}, readers[3])
		if err != nil || len(none.Posts) != 0 || string(none.AppendJSON(nil)) != `{"posts":[],"nextCursor":null}` {
			t.Fatalf("no posts: %s, %v", none.AppendJSON(nil), err)
		}
	})
	// A group's runner answers its readers first and removes the group on
	// its next look at the queue, so the map empties shortly after the
	// last answer, not at it: wait for that rather than race it.
	var left int
	for deadline := time.Now().Add(10 * time.Second); ; {
		pages.mu.Lock()
		left = len(pages.groups)
		pages.mu.Unlock()
		if left == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if left != 0 {
		t.Fatalf("%d page groups left after every read", left)
	}
}

// Readers who share a page's query but hide some of its posts (they block
// or mute an author) still get full pages, their likes included, with the
// cursor of their own last post; readers who hide nothing share the page.
func TestPageReadsFullPagesPerReader(t *testing.T) {
	f := &searchFixture{t: t, db: testdb.New(t)}
	ctx := context.Background()
	other := f.user("Full Page Other", "student", "", "", "")
	hidden := f.user("Full Page Hidden", "student", "", "", "")
	// Newest last: every third post is the hidden author's.
	var all, visible []uuid.UUID // newest first
	for i := range 30 {
		author := other
		if i%3 == 1 {
			author = hidden
		}
		id := f.post(author, fmt.Sprintf("post %d", i))
		all = append([]uuid.UUID{id}, all...)
		if author == other {
			visible = append([]uuid.UUID{id}, visible...)
		}
	}
	const limit = 8
	const nReaders = 24
	readers := make([]uuid.UUID, nReaders)
	wants := make([][]uuid.UUID, nReaders)
	for k := range readers {
		readers[k] = f.user(fmt.Sprintf("Full Page Reader %d", k), "student", "", "", "")
		wants[k] = all
		var err error
		switch k % 3 { // one in three blocks the author, one mutes them
		case 1:
			_, err = persistence.BlockUser(ctx, f.db, readers[k], hidden)
			wants[k] = visible
		case 2:
			_, err = persistence.MuteUser(ctx, f.db, readers[k], hidden)
			wants[k] = visible
		}
		if err != nil {
			t.Fatal(err)
		}
		// Each reader likes the newest post they see.
		if _, err := persistence.ApplyPostBatch(ctx, f.db, persistence.PostBatch{PostID: wants[k][0],
			Likes: []persistence.LikeChange{{UserID: readers[k], Op: domain.Like}}}); err != nil {
			t.Fatal(err)
		}
	}
	pages := newPageReads(f.db, zerolog.Nop())

	// read pages through everything reader k sees, all readers at once.
	read := func(k int) error {
		var got []uuid.UUID
		cursor := ""
		for range 10 {
			after, err := decodeKeyset(cursor)
			if err != nil {
				return err
			}
			page, err := pages.read(ctx, persistence.PostQuery{Limit: limit, After: after}, readers[k])
			if err != nil {
				return err
			}
			if page.NextCursor != nil && len(page.Posts) != limit {
				return fmt.Errorf("reader %d: a page of %d posts before the last", k, len(page.Posts))
			}
			for _, p := range page.Posts {
				id := uuid.MustParse(p.ID)
				if p.IsLiked != (id == wants[k][0]) {
					return fmt.Errorf("reader %d: %s liked %v", k, p.Content, p.IsLiked)
				}
				got = append(got, id)
			}
			if page.NextCursor == nil {
				if fmt.Sprint(got) != fmt.Sprint(wants[k]) {
					return fmt.Errorf("reader %d: posts %v, want %v", k, got, wants[k])
				}
				return nil
			}
			cursor = *page.NextCursor
		}
		return fmt.Errorf("reader %d: more than 10 pages", k)
	}
	var wg sync.WaitGroup
	errs := make(chan error, nReaders)
	for k := range nReaders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := read(k); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
