package persistence_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// newPost stores a post by author with the given number of images.
func newPost(t *testing.T, db bun.IDB, author *persistence.User, content string, images int) *persistence.Post {
	t.Helper()
	p := &persistence.Post{ID: persistence.NewID(), UserID: author.ID, Content: content}
	var ims []*persistence.PostImage
	for i := range images {
		ims = append(ims, &persistence.PostImage{ID: persistence.NewID(), PostID: p.ID, Position: int16(i),
			StorageKey: fmt.Sprintf("%032x.png", i), URL: fmt.Sprintf("/media/%d.png", i)})
	}
	if err := persistence.InsertPost(context.Background(), db, p, ims); err != nil {
		t.Fatal(err)
	}
	return p
}

// likeState reads the post's counter and its like rows.
func likeState(t *testing.T, db bun.IDB, postID uuid.UUID) (counter, rows int) {
	t.Helper()
	ctx := context.Background()
	if err := db.NewSelect().Model((*persistence.Post)(nil)).Column("likes_count").Where("id = ?", postID).Scan(ctx, &counter); err != nil {
		t.Fatal(err)
	}
	n, err := db.NewSelect().Model((*persistence.PostLike)(nil)).Where("post_id = ?", postID).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return counter, int(n)
}

// countsVersion reads a post's counts_version.
func countsVersion(t *testing.T, db bun.IDB, postID uuid.UUID) int64 {
	t.Helper()
	var v int64
	if err := db.NewSelect().Model((*persistence.Post)(nil)).Column("counts_version").Where("id = ?", postID).
		Scan(context.Background(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestApplyPostBatchLikes(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author, a, b, c := newUser("Post Author"), newUser("Liker A"), newUser("Liker B"), newUser("Liker C")
	insert(t, db, author, a, b, c)
	post := newPost(t, db, author, "hello", 0)
	// b already likes the post before the batches below.
	insert(t, db, &persistence.PostLike{PostID: post.ID, UserID: b.ID})
	if _, err := db.ExecContext(ctx, "UPDATE posts SET likes_count = 1 WHERE id = ?", post.ID); err != nil {
		t.Fatal(err)
	}
	L := func(u *persistence.User, op domain.LikeAction) persistence.LikeChange {
		return persistence.LikeChange{UserID: u.ID, Op: op}
	}
	tests := []struct {
		name      string
		likes     []persistence.LikeChange
		liked     []bool
		count     int
		newLikers []uuid.UUID
	}{
		{"like is idempotent", []persistence.LikeChange{L(a, domain.Like), L(a, domain.Like), L(b, domain.Like)},
			[]bool{true, true, true}, 2, []uuid.UUID{a.ID}},
		{"toggles follow the database state per user",
			[]persistence.LikeChange{L(a, domain.ToggleLike), L(c, domain.ToggleLike), L(a, domain.ToggleLike), L(c, domain.ToggleLike), L(c, domain.ToggleLike)},
			[]bool{false, true, true, false, true}, 3, []uuid.UUID{c.ID}},
		{"toggle then set, unset then toggle",
			[]persistence.LikeChange{L(a, domain.ToggleLike), L(a, domain.Like), L(b, domain.Unlike), L(b, domain.ToggleLike), L(c, domain.Unlike)},
			[]bool{false, true, false, true, false}, 2, nil},
		{"unlike everyone", []persistence.LikeChange{L(a, domain.Unlike), L(b, domain.Unlike), L(b, domain.Unlike)},
			[]bool{false, false, false}, 0, nil},
		{"even toggles change nothing", []persistence.LikeChange{L(a, domain.ToggleLike), L(a, domain.ToggleLike)},
			[]bool{true, false}, 0, nil},
	}
	// Every committed batch moves the counts version on, and answers it.
	version := countsVersion(t, db, post.ID)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: post.ID, Likes: tt.likes})
			if err != nil {
				t.Fatal(err)
			}
			if now := countsVersion(t, db, post.ID); res.CountsVersion != now || now <= version {
				t.Errorf("counts version answered %d, stored %d, before %d", res.CountsVersion, now, version)
			} else {
				version = now
			}
			if fmt.Sprint(res.Liked) != fmt.Sprint(tt.liked) {
				t.Errorf("liked = %v, want %v", res.Liked, tt.liked)
			}
			if res.LikesCount != tt.count || res.AuthorID != author.ID {
				t.Errorf("count %d author %v, want %d %v", res.LikesCount, res.AuthorID, tt.count, author.ID)
			}
			if fmt.Sprint(res.NewLikers) != fmt.Sprint(tt.newLikers) && !(len(res.NewLikers) == 0 && len(tt.newLikers) == 0) {
				t.Errorf("new likers %v, want %v", res.NewLikers, tt.newLikers)
			}
			if counter, rows := likeState(t, db, post.ID); counter != tt.count || rows != tt.count {
				t.Errorf("counter %d rows %d, want %d", counter, rows, tt.count)
			}
		})
	}
	t.Run("missing post", func(t *testing.T) {
		for _, op := range []domain.LikeAction{domain.Like, domain.Unlike} {
			_, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: persistence.NewID(),
				Likes: []persistence.LikeChange{L(a, op)}})
			if !errors.Is(err, persistence.ErrPostGone) || !errors.Is(err, domain.ErrNotFound) {
				t.Fatalf("op %d: err = %v, want ErrPostGone", op, err)
			}
		}
	})
}

// TestConcurrentBatchWriters runs two writers (as two activations of one
// post grain would be) on one post with overlapping users: the counter must
// equal the rows, whatever the interleaving.
func TestConcurrentBatchWriters(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author := newUser("Twin Author")
	insert(t, db, author)
	post := newPost(t, db, author, "twins", 0)
	users := make([]*persistence.User, 40)
	for i := range users {
		users[i] = newUser(fmt.Sprintf("Twin Liker %d", i))
		insert(t, db, users[i])
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 30 {
				var likes []persistence.LikeChange
				for i, u := range users {
					op := domain.LikeAction((i+round+w)%3 + 1)
					likes = append(likes, persistence.LikeChange{UserID: u.ID, Op: op})
				}
				if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: post.ID, Likes: likes}); err != nil {
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
	if counter, rows := likeState(t, db, post.ID); counter != rows {
		t.Fatalf("likes_count %d but %d rows", counter, rows)
	}
}

func TestApplyPostBatchComments(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author, other, third := newUser("Comment Author"), newUser("Commenter"), newUser("Bystander")
	insert(t, db, author, other, third)
	post := newPost(t, db, author, "talk", 0)
	c1 := &persistence.Comment{ID: persistence.NewID(), UserID: other.ID, Content: "first"}
	c2 := &persistence.Comment{ID: persistence.NewID(), UserID: author.ID, Content: "second"}
	res, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: post.ID, Comments: []*persistence.Comment{c1, c2},
		Likes: []persistence.LikeChange{{UserID: other.ID, Op: domain.Like}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.CommentsCount != 2 || res.LikesCount != 1 || len(res.NewComments) != 2 || c1.CreatedAt.IsZero() {
		t.Fatalf("result %+v", res)
	}
	// A retry of c1 (same id) stores nothing more but still has its time.
	again := &persistence.Comment{ID: c1.ID, UserID: other.ID, Content: "first"}
	res, err = persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: post.ID, Comments: []*persistence.Comment{again}})
	if err != nil || res.CommentsCount != 2 || len(res.NewComments) != 0 || !again.CreatedAt.Equal(c1.CreatedAt) {
		t.Fatalf("retry: %+v %v", res, err)
	}

	tests := []struct {
		name    string
		removal persistence.CommentRemoval
		want    error
		count   int
	}{
		{"bystander may not", persistence.CommentRemoval{CommentID: c1.ID, UserID: third.ID}, domain.ErrForbidden, 2},
		{"unknown comment", persistence.CommentRemoval{CommentID: persistence.NewID(), UserID: author.ID}, domain.ErrNotFound, 2},
		{"post author may", persistence.CommentRemoval{CommentID: c1.ID, UserID: author.ID}, nil, 1},
		{"already gone", persistence.CommentRemoval{CommentID: c1.ID, UserID: author.ID}, domain.ErrNotFound, 1},
		{"comment author may", persistence.CommentRemoval{CommentID: c2.ID, UserID: author.ID}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: post.ID, Removals: []persistence.CommentRemoval{tt.removal}})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.RemovalErrs[0]; (tt.want == nil) != (got == nil) || (tt.want != nil && !errors.Is(got, tt.want)) {
				t.Fatalf("removal error %v, want %v", got, tt.want)
			}
			if res.CommentsCount != tt.count {
				t.Fatalf("comments_count %d, want %d", res.CommentsCount, tt.count)
			}
		})
	}
	var ops []string
	if err := db.NewSelect().Model((*persistence.OutboxEntry)(nil)).ColumnExpr("entity || ':' || op").
		Where("entity = ?", persistence.EntityComment).OrderExpr("id").Scan(ctx, &ops); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ops) != "[comment:upsert comment:upsert comment:delete comment:delete]" {
		t.Fatalf("comment outbox %v", ops)
	}
}

func TestPostsPagesAndDelete(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author, viewer := newUser("Page Author"), newUser("Page Viewer")
	insert(t, db, author, viewer)
	var posts []*persistence.Post
	for i := range 5 {
		posts = append(posts, newPost(t, db, author, fmt.Sprintf("post %d", i), i%4))
		time.Sleep(2 * time.Millisecond) // distinct created_at
	}
	if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: posts[3].ID,
		Likes: []persistence.LikeChange{{UserID: viewer.ID, Op: domain.Like}}}); err != nil {
		t.Fatal(err)
	}

	var got []string
	var after persistence.Keyset
	for pages := 0; ; pages++ {
		rows, more, err := persistence.Posts(ctx, db, persistence.PostQuery{Viewers: []uuid.UUID{viewer.ID}, After: after, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			got = append(got, r.Content)
			if r.Author == nil || r.Author.Name != "Page Author" {
				t.Fatalf("author %+v", r.Author)
			}
			i := int(r.Content[len(r.Content)-1] - '0')
			if len(r.ImageList) != i%4 || (len(r.ImageList) > 0 && r.ImageList[0].URL != "/media/0.png") {
				t.Fatalf("%s images %+v", r.Content, r.ImageList)
			}
			if r.IsLiked != (i == 3) || (i == 3 && r.LikesCount != 1) {
				t.Fatalf("%s liked %v count %d", r.Content, r.IsLiked, r.LikesCount)
			}
		}
		if !more {
			if pages != 2 {
				t.Fatalf("%d pages", pages+1)
			}
			break
		}
		last := rows[len(rows)-1]
		after = persistence.Keyset{At: last.CreatedAt, ID: last.ID}
	}
	if fmt.Sprint(got) != "[post 4 post 3 post 2 post 1 post 0]" {
		t.Fatalf("order %v", got)
	}

	// One query for several readers: each reader's likes, by position.
	other, third := newUser("Other Viewer"), newUser("Third Viewer")
	insert(t, db, other, third)
	if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: posts[1].ID,
		Likes: []persistence.LikeChange{{UserID: other.ID, Op: domain.Like}, {UserID: viewer.ID, Op: domain.Like}}}); err != nil {
		t.Fatal(err)
	}
	readers := []uuid.UUID{other.ID, viewer.ID, third.ID}
	rows, _, err := persistence.Posts(ctx, db, persistence.PostQuery{Viewers: readers, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	likedBy := map[string]string{}
	for _, r := range rows {
		likedBy[r.Content] = fmt.Sprint(r.LikedBy, r.IsLiked)
	}
	want := map[string]string{"post 4": "[] false", "post 3": "[1] false", "post 2": "[] false", "post 1": "[0 1] true", "post 0": "[] false"}
	if fmt.Sprint(likedBy) != fmt.Sprint(want) {
		t.Fatalf("liked by %v, want %v", likedBy, want)
	}

	// Deleting takes likes, comments, images and notifications along and
	// tells search about the post and its comments.
	target := posts[3]
	comment := &persistence.Comment{ID: persistence.NewID(), UserID: viewer.ID, Content: "bye"}
	if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: target.ID, Comments: []*persistence.Comment{comment}}); err != nil {
		t.Fatal(err)
	}
	insert(t, db, &persistence.Notification{ID: persistence.NewID(), UserID: author.ID, Type: persistence.NotifyLike,
		SenderID: viewer.ID, PostID: target.ID})
	var keys []string
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		lp, err := persistence.LockPost(ctx, tx, target.ID)
		if err != nil || lp.AuthorID != author.ID || lp.Images != 3 {
			return fmt.Errorf("lock: %+v %v", lp, err)
		}
		keys, err = persistence.DeletePost(ctx, tx, target.ID)
		return err
	})
	if err != nil || len(keys) != 3 {
		t.Fatalf("delete: %v %v", keys, err)
	}
	for _, table := range []string{"posts", "post_likes", "comments", "post_images", "notifications"} {
		col := "post_id"
		if table == "posts" {
			col = "id"
		}
		n, err := db.NewSelect().TableExpr(table).Where("? = ?", bun.Ident(col), target.ID).Count(ctx)
		if err != nil || n != 0 {
			t.Fatalf("%s: %d rows left (%v)", table, n, err)
		}
	}
	n, err := db.NewSelect().Model((*persistence.OutboxEntry)(nil)).
		Where("op = 'delete' AND entity_id IN (?, ?)", target.ID, comment.ID).Count(ctx)
	if err != nil || n != 2 {
		t.Fatalf("outbox deletes %d (%v)", n, err)
	}
	if _, err := persistence.PostByID(ctx, db, target.ID, viewer.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("deleted post still readable: %v", err)
	}
}

// statementCounter counts the statements a database ran by kind.
type statementCounter struct {
	mu     sync.Mutex
	begins int
	likes  int
}

func (h *statementCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (h *statementCounter) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case e.Query == "BEGIN":
		h.begins++
	case strings.Contains(e.Query, "INSERT INTO post_likes"):
		h.likes++
	}
}

// ApplyPostBatches writes the batches of several posts in one transaction;
// a post deleted before, or a batch that fails on its own (a liker who does
// not exist), fails only its own batch while the others commit.
func TestApplyPostBatches(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author, a, b := newUser("Post Author"), newUser("Liker A"), newUser("Liker B")
	insert(t, db, author, a, b)
	var posts []*persistence.Post
	for i := range 4 {
		posts = append(posts, newPost(t, db, author, fmt.Sprintf("post %d", i), 0))
	}
	deleted := newPost(t, db, author, "deleted", 0)
	if _, err := persistence.DeletePost(ctx, db, deleted.ID); err != nil {
		t.Fatal(err)
	}
	hook := &statementCounter{}
	db.AddQueryHook(hook)
	likes := func(us ...*persistence.User) []persistence.LikeChange {
		var ls []persistence.LikeChange
		for _, u := range us {
			ls = append(ls, persistence.LikeChange{UserID: u.ID, Op: domain.ToggleLike})
		}
		return ls
	}
	ghost := newUser("Never stored") // a foreign key violation of its own batch
	comment := &persistence.Comment{ID: persistence.NewID(), UserID: a.ID, Content: "first"}

	tests := []struct {
		name    string
		batches []persistence.PostBatch
		// wantErr per batch: nil, ErrPostGone, or errAny for "some error".
		wantErr []error
		counts  []int
		begins  int
	}{
		{"four posts in one transaction", []persistence.PostBatch{
			{PostID: posts[0].ID, Likes: likes(a, b)},
			{PostID: posts[1].ID, Likes: likes(a)},
			{PostID: posts[2].ID, Likes: likes(b), Comments: []*persistence.Comment{comment}},
			{PostID: posts[3].ID, Likes: likes(a, b, a)},
		}, []error{nil, nil, nil, nil}, []int{2, 1, 1, 1}, 1},
		{"a deleted post fails alone", []persistence.PostBatch{
			{PostID: posts[0].ID, Likes: likes(a)},
			{PostID: deleted.ID, Likes: likes(a)},
			{PostID: posts[1].ID, Likes: likes(b)},
		}, []error{nil, persistence.ErrPostGone, nil}, []int{1, -1, 2}, 1},
		{"a failing batch fails alone", []persistence.PostBatch{
			{PostID: posts[2].ID, Likes: likes(a)},
			{PostID: posts[3].ID, Likes: likes(ghost, b)},
			{PostID: posts[0].ID, Likes: likes(b)},
		}, []error{nil, errAny, nil}, []int{2, 1, 0}, 2},
		{"two batches of one post (twin grains) apply in turn", []persistence.PostBatch{
			{PostID: posts[1].ID, Likes: likes(a)},
			{PostID: posts[3].ID, Likes: likes(b)},
			{PostID: posts[1].ID, Likes: likes(a)},
			{PostID: posts[2].ID, Likes: []persistence.LikeChange{{UserID: a.ID, Op: domain.Like}}},
		}, []error{nil, nil, nil, nil}, []int{-1, 0, 2, 2}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hook.mu.Lock()
			hook.begins = 0
			hook.mu.Unlock()
			res, errs := persistence.ApplyPostBatches(ctx, db, tt.batches)
			for i, want := range tt.wantErr {
				switch {
				case want == nil && errs[i] != nil:
					t.Errorf("batch %d: %v", i, errs[i])
				case want == errAny && errs[i] == nil, want != nil && want != errAny && !errors.Is(errs[i], want):
					t.Errorf("batch %d: err %v, want %v", i, errs[i], want)
				}
				if tt.counts[i] < 0 {
					continue
				}
				if errs[i] == nil && res[i].LikesCount != tt.counts[i] {
					t.Errorf("batch %d answered %d likes, want %d", i, res[i].LikesCount, tt.counts[i])
				}
				if counter, rows := likeState(t, db, tt.batches[i].PostID); counter != tt.counts[i] || rows != tt.counts[i] {
					t.Errorf("batch %d: counter %d rows %d, want %d", i, counter, rows, tt.counts[i])
				}
				if v := countsVersion(t, db, tt.batches[i].PostID); errs[i] == nil && res[i].CountsVersion != v {
					t.Errorf("batch %d answered counts version %d, stored %d", i, res[i].CountsVersion, v)
				}
			}
			// A post's two batches: the later has the higher version.
			for i := range tt.batches {
				for j := i + 1; j < len(tt.batches); j++ {
					if tt.batches[i].PostID == tt.batches[j].PostID && errs[i] == nil && errs[j] == nil &&
						res[j].CountsVersion <= res[i].CountsVersion {
						t.Errorf("batches %d and %d of one post: counts versions %d, %d", i, j, res[i].CountsVersion, res[j].CountsVersion)
					}
				}
			}
			hook.mu.Lock()
			begins := hook.begins
			hook.mu.Unlock()
			if begins != tt.begins {
				t.Errorf("%d transactions, want %d", begins, tt.begins)
			}
		})
	}
	if comment.CreatedAt.IsZero() {
		t.Fatal("the comment's time was not filled")
	}
}

var errAny = errors.New("any error")
