package persistence_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
)

// rollupFixture is an author, a post of theirs and helpers to like it for
// real (post_likes and the counter, as the post grain does) and notify the
// author the way the user grain does.
type rollupFixture struct {
	t      *testing.T
	db     bun.IDB
	author *persistence.User
	post   *persistence.Post
}

func newRollupFixture(t *testing.T, db bun.IDB) *rollupFixture {
	author := newUser("Rollup Author " + persistence.NewID().String()[:8])
	insert(t, db, author)
	return &rollupFixture{t: t, db: db, author: author, post: newPost(t, db, author, "A post about the campus event", 0)}
}

// likers makes n users named prefix 0 … prefix n-1.
func (f *rollupFixture) likers(prefix string, n int) []*persistence.User {
	f.t.Helper()
	us := make([]*persistence.User, n)
	for i := range us {
		us[i] = newUser(fmt.Sprintf("%s %d", prefix, i))
	}
	if _, err := f.db.NewInsert().Model(&us).Exec(context.Background()); err != nil {
		f.t.Fatal(err)
	}
	return us
}

// like commits the likes of us on the post, then notifies the author of
// them in one CreateNotifications, and answers what it did.
func (f *rollupFixture) like(us ...*persistence.User) persistence.CreatedNotifications {
	f.t.Helper()
	ctx := context.Background()
	batch := persistence.PostBatch{PostID: f.post.ID}
	for _, u := range us {
		batch.Likes = append(batch.Likes, persistence.LikeChange{UserID: u.ID, Op: domain.Like})
	}
	if _, err := persistence.ApplyPostBatch(ctx, f.db, batch); err != nil {
		f.t.Fatal(err)
	}
	// The author's own like is passed on too: the statement must skip it.
	var ns []*persistence.Notification
	for _, u := range us {
		ns = append(ns, &persistence.Notification{ID: persistence.NewID(), UserID: f.author.ID,
			Type: persistence.NotifyLike, SenderID: u.ID, PostID: f.post.ID})
	}
	res, err := persistence.CreateNotifications(ctx, f.db, f.author.ID, ns)
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

// state is the author's counter, their unread rows, and their rows.
func (f *rollupFixture) state() (counter, unreadRows, rows int) {
	f.t.Helper()
	ctx := context.Background()
	counter, err := persistence.UnreadNotificationCount(ctx, f.db, f.author.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.db.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE NOT is_read), count(*)
		FROM notifications WHERE user_id = ?`, f.author.ID).Scan(&unreadRows, &rows); err != nil {
		f.t.Fatal(err)
	}
	return counter, unreadRows, rows
}

func names(us []*persistence.User) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Name
	}
	return out
}

func TestLikesRollUpIntoOneNotification(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	f := newRollupFixture(t, db)
	likers := f.likers("Event Liker", 1000)

	// A thousand likes in batches, as the user grain sends them: the
	// counter goes 0 → 1 with the first batch and never again.
	var last persistence.CreatedNotifications
	for i := 0; i < len(likers); i += 200 {
		last = f.like(likers[i : i+200]...)
		if counter, unread, rows := f.state(); counter != 1 || unread != 1 || rows != 1 || last.Unread != 1 {
			t.Fatalf("after %d likes: counter %d, unread rows %d, rows %d, answered unread %d; want 1 of each",
				i+200, counter, unread, rows, last.Unread)
		}
	}
	if len(last.Created) != 1 {
		t.Fatalf("last batch answered %d notifications, want the one roll-up", len(last.Created))
	}
	n := last.Created[0]
	if n.Type != persistence.NotifyLike || n.ActorCount != 1000 || n.PostID != f.post.ID || n.IsRead ||
		n.PostSnippet != "A post about the campus event" {
		t.Fatalf("roll-up %+v", n)
	}
	// The newest three likers, newest first (a batch's last liker is its newest).
	if got, want := fmt.Sprint(names(n.Actors)), fmt.Sprint([]string{"Event Liker 999", "Event Liker 998", "Event Liker 997"}); got != want {
		t.Fatalf("actors %s, want %s", got, want)
	}
	list, err := persistence.NotificationsOf(ctx, db, f.author.ID, persistence.Keyset{}, 10)
	if err != nil || len(list) != 1 || list[0].ID != n.ID || list[0].ActorCount != 1000 || len(list[0].Actors) != 3 {
		t.Fatalf("list %+v %v", list, err)
	}
}

func TestRollupUnreadCounterIsExactOnEveryPath(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	f := newRollupFixture(t, db)
	ls := f.likers("Path Liker", 6)
	otherPost := newPost(t, db, f.author, "The other post", 0)
	rollupID := func() uuid.UUID {
		var id uuid.UUID
		if err := db.QueryRowContext(ctx, `SELECT id FROM notifications WHERE user_id = ? AND post_id = ? AND type = 'like'`,
			f.author.ID, f.post.ID).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	var commentNote *persistence.Notification

	steps := []struct {
		name          string
		do            func() error
		counter, rows int
		actorCount    int // of the post's roll-up; 0 when it is gone
		newestActor   string
	}{
		{"first like", func() error { f.like(ls[0]); return nil }, 1, 1, 1, "Path Liker 0"},
		{"more likes on the unread roll-up do not move it", func() error { f.like(ls[1], ls[2]); return nil }, 1, 1, 3, "Path Liker 2"},
		{"self-like notifies no one", func() error {
			if res := f.like(f.author); len(res.Created) != 0 {
				return fmt.Errorf("a self-like created %+v", res.Created[0])
			}
			return nil
		}, 1, 1, 3, "Path Liker 2"},
		{"a self-like among others is skipped", func() error { f.like(f.author, ls[2]); return nil }, 1, 1, 3, "Path Liker 2"},
		{"read", func() error {
			_, err := persistence.MarkNotificationsRead(ctx, db, f.author.ID, []uuid.UUID{rollupID()})
			return err
		}, 0, 1, 3, "Path Liker 2"},
		{"another like makes it unread again", func() error { f.like(ls[3]); return nil }, 1, 1, 4, "Path Liker 3"},
		{"read all", func() error { _, err := persistence.MarkAllNotificationsRead(ctx, db, f.author.ID); return err }, 0, 1, 4, "Path Liker 3"},
		{"like again: unread again", func() error { f.like(ls[4]); return nil }, 1, 1, 5, "Path Liker 4"},
		{"a comment is a notification of its own", func() error {
			c := &persistence.Comment{ID: persistence.NewID(), UserID: ls[0].ID, Content: "nice"}
			if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: f.post.ID, Comments: []*persistence.Comment{c}}); err != nil {
				return err
			}
			commentNote = &persistence.Notification{ID: persistence.NewID(), UserID: f.author.ID, Type: persistence.NotifyComment,
				SenderID: ls[0].ID, PostID: f.post.ID, CommentID: c.ID}
			second := &persistence.Notification{ID: persistence.NewID(), UserID: f.author.ID, Type: persistence.NotifyComment,
				SenderID: ls[0].ID, PostID: f.post.ID, CommentID: c.ID}
			res, err := persistence.CreateNotifications(ctx, db, f.author.ID, []*persistence.Notification{commentNote, second})
			if err == nil && (res.Unread != 3 || len(res.Created) != 2) {
				err = fmt.Errorf("answered unread %d, %d created", res.Unread, len(res.Created))
			}
			return err
		}, 3, 3, 5, "Path Liker 4"},
		{"a retried comment notification is not stored twice", func() error {
			res, err := persistence.CreateNotifications(ctx, db, f.author.ID, []*persistence.Notification{commentNote})
			if err == nil && len(res.Created) != 0 {
				err = fmt.Errorf("%d created", len(res.Created))
			}
			return err
		}, 3, 3, 5, "Path Liker 4"},
		{"delete the unread roll-up", func() error {
			_, err := persistence.DeleteNotification(ctx, db, f.author.ID, rollupID())
			return err
		}, 2, 2, 0, ""},
		{"a like after the delete starts a new roll-up with the post's count", func() error { f.like(ls[5]); return nil }, 3, 3, 6, "Path Liker 5"},
		{"the newest liker's account goes", func() error {
			return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.DeleteAccount(ctx, tx, ls[5].ID)
				return err
			})
		}, 3, 3, 5, ""}, // the new roll-up had only them: "5 people liked your post"
		{"a like on the other post", func() error {
			_, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: otherPost.ID,
				Likes: []persistence.LikeChange{{UserID: ls[1].ID, Op: domain.Like}}})
			if err != nil {
				return err
			}
			res, err := persistence.CreateNotifications(ctx, db, f.author.ID, []*persistence.Notification{{ID: persistence.NewID(),
				UserID: f.author.ID, Type: persistence.NotifyLike, SenderID: ls[1].ID, PostID: otherPost.ID}})
			if err == nil && res.Unread != 4 {
				err = fmt.Errorf("answered unread %d", res.Unread)
			}
			return err
		}, 4, 4, 5, ""},
		{"the post goes with its roll-up and comments", func() error {
			return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := persistence.DeletePost(ctx, tx, f.post.ID)
				return err
			})
		}, 1, 1, 0, ""},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		counter, unread, rows := f.state()
		if counter != st.counter || unread != st.counter || rows != st.rows {
			t.Fatalf("%s: counter %d, unread rows %d, rows %d; want %d unread of %d", st.name, counter, unread, rows, st.counter, st.rows)
		}
		var count int
		var newest string
		err := db.QueryRowContext(ctx, `SELECT n.actor_count, coalesce((SELECT name FROM users WHERE id = n.actor_ids[1]), '')
			FROM notifications n WHERE n.user_id = ? AND n.post_id = ? AND n.type = 'like'`, f.author.ID, f.post.ID).Scan(&count, &newest)
		if err != nil && st.actorCount != 0 {
			t.Fatalf("%s: roll-up: %v", st.name, err)
		}
		if count != st.actorCount || newest != st.newestActor {
			t.Fatalf("%s: roll-up of %d by %q, want %d by %q", st.name, count, newest, st.actorCount, st.newestActor)
		}
	}
}

// A deleted liker's name leaves the roll-up, whether or not they still
// like the post, and a roll-up left with nobody goes.
func TestDeletedLikerLeavesTheRollup(t *testing.T) {
	ctx := context.Background()
	deleteAccount := func(t *testing.T, db bun.IDB, u *persistence.User) {
		t.Helper()
		if err := db.(*bun.DB).RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := persistence.DeleteAccount(ctx, tx, u.ID)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name       string
		likers     int
		unlike     bool // the deleted liker had unliked first
		wantRows   int
		wantCount  int
		wantActors []string
	}{
		{"the only liker", 1, false, 0, 0, nil},
		{"the newest of three", 3, false, 1, 2, []string{"Gone Liker 1", "Gone Liker 0"}},
		{"the newest of three, who had unliked", 3, true, 1, 3, []string{"Gone Liker 1", "Gone Liker 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := testdb.New(t)
			f := newRollupFixture(t, db)
			ls := f.likers("Gone Liker", tt.likers)
			f.like(ls...)
			gone := ls[len(ls)-1]
			if tt.unlike {
				if _, err := persistence.ApplyPostBatch(ctx, db, persistence.PostBatch{PostID: f.post.ID,
					Likes: []persistence.LikeChange{{UserID: gone.ID, Op: domain.Unlike}}}); err != nil {
					t.Fatal(err)
				}
			}
			deleteAccount(t, db, gone)
			list, err := persistence.NotificationsOf(ctx, db, f.author.ID, persistence.Keyset{}, 10)
			if err != nil || len(list) != tt.wantRows {
				t.Fatalf("list %+v %v, want %d rows", list, err, tt.wantRows)
			}
			if counter, unread, _ := f.state(); counter != tt.wantRows || unread != tt.wantRows {
				t.Fatalf("counter %d, unread rows %d, want %d", counter, unread, tt.wantRows)
			}
			if tt.wantRows == 0 {
				return
			}
			if list[0].ActorCount != tt.wantCount || fmt.Sprint(names(list[0].Actors)) != fmt.Sprint(tt.wantActors) {
				t.Fatalf("roll-up of %d by %v, want %d by %v", list[0].ActorCount, names(list[0].Actors), tt.wantCount, tt.wantActors)
			}
		})
	}
}

// Rows move to the top when a roll-up changes; the (updated_at, id) cursor
// still hands out every other row exactly once.
func TestNotificationPagesWithMovingRows(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author := newUser("Paged Author")
	insert(t, db, author)
	liker := newUser("Paged Liker")
	insert(t, db, liker)
	var posts []*persistence.Post
	for i := range 6 {
		p := newPost(t, db, author, fmt.Sprintf("paged %d", i), 0)
		posts = append(posts, p)
		f := &rollupFixture{t: t, db: db, author: author, post: p}
		f.like(liker)
	}
	// Oldest first: post 0's roll-up is at the bottom.
	page := func(after persistence.Keyset) []*persistence.Notification {
		t.Helper()
		ns, err := persistence.NotificationsOf(ctx, db, author.ID, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		return ns
	}
	cursor := func(ns []*persistence.Notification) persistence.Keyset {
		last := ns[len(ns)-1]
		return persistence.Keyset{At: last.UpdatedAt, ID: last.ID}
	}
	seen := map[uuid.UUID]int{}
	first := page(persistence.Keyset{})
	for _, n := range first {
		seen[n.PostID]++
	}
	// Post 1's roll-up (on a later page) moves to the top, and so does
	// post 5's, which the first page already showed.
	second := newUser("Paged Second")
	insert(t, db, second)
	for _, p := range []*persistence.Post{posts[1], posts[5]} {
		(&rollupFixture{t: t, db: db, author: author, post: p}).like(second)
	}
	for after := cursor(first); ; {
		ns := page(after)
		for _, n := range ns {
			seen[n.PostID]++
		}
		if len(ns) < 2 {
			break
		}
		after = cursor(ns)
	}
	for i, p := range posts {
		want := 1
		if i == 1 {
			want = 0 // moved above the cursor: the next refresh shows it at the top
		}
		if seen[p.ID] != want {
			t.Errorf("post %d seen %d times, want %d", i, seen[p.ID], want)
		}
	}
	top := page(persistence.Keyset{})
	if top[0].PostID != posts[5].ID || top[1].PostID != posts[1].ID || top[0].ActorCount != 2 {
		t.Fatalf("top after the moves: %v, %v", top[0].PostID, top[1].PostID)
	}
}

// The migration collapses the like rows of before: one per (user, post),
// the newest kept with its newest likers, the count of rows, unread if any
// was, and the counter exact through it.
func TestRollupMigrationCollapsesLikeRows(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	run := func(file string) {
		t.Helper()
		b, err := os.ReadFile("migrations/" + file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, string(b)); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	run("20261124000002_rollup.tx.down.sql")

	author := newUser("Migrated Author")
	insert(t, db, author)
	ls := make([]*persistence.User, 4)
	for i := range ls {
		ls[i] = newUser(fmt.Sprintf("Migrated Liker %d", i))
		insert(t, db, ls[i])
	}
	unreadPost, readPost := newPost(t, db, author, "unread one", 0), newPost(t, db, author, "read one", 0)
	base := now().Add(-time.Hour)
	old := func(post *persistence.Post, liker *persistence.User, minute int, read bool) {
		t.Helper()
		if _, err := db.ExecContext(ctx, `INSERT INTO notifications (id, user_id, type, sender_id, post_id, is_read, created_at)
			VALUES (?, ?, 'like', ?, ?, ?, ?)`, persistence.NewID(), author.ID, liker.ID, post.ID, read,
			base.Add(time.Duration(minute)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	for i, l := range ls {
		old(unreadPost, l, i, i == 0) // the oldest read, the rest unread
	}
	old(readPost, ls[0], 0, true)
	old(readPost, ls[1], 1, true)
	if c, _ := persistence.UnreadNotificationCount(ctx, db, author.ID); c != 3 {
		t.Fatalf("before: counter %d, want 3", c)
	}

	run("20261124000002_rollup.tx.up.sql")
	list, err := persistence.NotificationsOf(ctx, db, author.ID, persistence.Keyset{}, 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("list %+v %v", list, err)
	}
	want := []struct {
		post   uuid.UUID
		read   bool
		count  int
		actors string
	}{
		{unreadPost.ID, false, 4, "[Migrated Liker 3 Migrated Liker 2 Migrated Liker 1]"},
		{readPost.ID, true, 2, "[Migrated Liker 1 Migrated Liker 0]"},
	}
	for i, w := range want {
		n := list[i]
		if n.PostID != w.post || n.IsRead != w.read || n.ActorCount != w.count || fmt.Sprint(names(n.Actors)) != w.actors ||
			n.SenderID != uuid.Nil {
			t.Errorf("row %d: %+v %v, want %+v", i, n, names(n.Actors), w)
		}
	}
	if c, _ := persistence.UnreadNotificationCount(ctx, db, author.ID); c != 1 {
		t.Fatalf("after: counter %d, want 1", c)
	}
}
