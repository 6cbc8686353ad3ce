package actors_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/actors"
	"campus/app"
	"campus/cluster"
	"campus/domain"
	"campus/persistence"
	"campus/persistence/testdb"
	"campus/realtime"
	"campus/testlog"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// likeStatements counts the statements that write like rows (one per post
// batch) and the transactions begun.
type likeStatements struct{ n, begins atomic.Int64 }

func (h *likeStatements) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (h *likeStatements) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	if strings.Contains(e.Query, "INSERT INTO post_likes") {
		h.n.Add(1)
	}
	if e.Query == "BEGIN" {
		h.begins.Add(1)
	}
}

// node is a cluster of one with the live core over a fresh database.
type node struct {
	db    *bun.DB
	live  *actors.Live
	node  *cluster.Node
	hub   *realtime.Hub
	stmts *likeStatements
}

func startNode(t *testing.T) *node {
	t.Helper()
	return startNodeOn(t, testdb.New(t))
}

// startNodeOn starts a cluster of one over db: two of them over one
// database are two actor systems that each activate their own grain for
// the same post, as a topology change can do.
func startNodeOn(t *testing.T, db *bun.DB) *node {
	t.Helper()
	return startNodeWith(t, db, nil)
}

// startNodeWith is startNodeOn with the live core's configuration changed
// by configure (nil for none).
func startNodeWith(t *testing.T, db *bun.DB, configure func(*actors.Config)) *node {
	t.Helper()
	log := testlog.New(t)
	stmts := &likeStatements{}
	db.AddQueryHook(stmts)
	cfg := actors.Config{DB: db, Log: log, Render: app.NotificationFrames, CallTimeout: 10 * time.Second}
	if configure != nil {
		configure(&cfg)
	}
	live := actors.New(cfg)
	n, err := cluster.Start(context.Background(), cluster.Options{
		Name: "campus-" + uuid.NewString()[:8], Addr: "127.0.0.1:0", Kinds: live.Kinds(), Log: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	live.Start(n.Cluster, n.Addresses, n.Confirm)
	hub, err := realtime.StartHub(n.System, log, realtime.HubOptions{CountInterval: cfg.CountInterval, Members: n.Members, PostsBy: live.PostsBy})
	if err != nil {
		n.Stop()
		t.Fatal(err)
	}
	// Stop the member before testdb drops the database under it.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		live.Drain(ctx)
		n.Stop()
	})
	return &node{db: db, live: live, node: n, hub: hub, stmts: stmts}
}

func (n *node) users(t *testing.T, count int) []*persistence.User {
	t.Helper()
	us := make([]*persistence.User, count)
	for i := range us {
		us[i] = &persistence.User{ID: persistence.NewID(), Name: fmt.Sprintf("User %d", i),
			Email: fmt.Sprintf("u%d-%s@example.edu", i, uuid.NewString()[:6]), PasswordHash: "x", Role: "student"}
	}
	if _, err := n.db.NewInsert().Model(&us).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return us
}

func (n *node) post(t *testing.T, author *persistence.User) uuid.UUID {
	t.Helper()
	p := &persistence.Post{ID: persistence.NewID(), UserID: author.ID, Content: "hot post"}
	if err := persistence.InsertPost(context.Background(), n.db, p, nil); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

// exact checks likes_count = like rows = want.
func (n *node) exact(t *testing.T, postID uuid.UUID, want int) {
	t.Helper()
	ctx := context.Background()
	var counter int
	if err := n.db.NewSelect().Model((*persistence.Post)(nil)).Column("likes_count").Where("id = ?", postID).Scan(ctx, &counter); err != nil {
		t.Fatal(err)
	}
	rows, err := n.db.NewSelect().Model((*persistence.PostLike)(nil)).Where("post_id = ?", postID).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counter != int(rows) || (want >= 0 && counter != want) {
		t.Fatalf("likes_count %d, rows %d, want %d", counter, rows, want)
	}
}

func TestLikeThroughGrain(t *testing.T) {
	n := startNode(t)
	ctx := context.Background()
	us := n.users(t, 3)
	author, a, b := us[0], us[1], us[2]
	postID := n.post(t, author)

	steps := []struct {
		name  string
		user  *persistence.User
		op    domain.LikeAction
		liked bool
		count int
	}{
		{"a likes", a, domain.Like, true, 1},
		{"a likes again", a, domain.Like, true, 1},
		{"b toggles on", b, domain.ToggleLike, true, 2},
		{"a toggles off", a, domain.ToggleLike, false, 1},
		{"a unlikes again", a, domain.Unlike, false, 1},
		{"author likes own post", author, domain.Like, true, 2},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			liked, count, _, err := n.live.Like(ctx, postID, s.user.ID, s.op, uuid.NewString())
			if err != nil {
				t.Fatal(err)
			}
			if liked != s.liked || count != s.count {
				t.Fatalf("got (%v, %d), want (%v, %d)", liked, count, s.liked, s.count)
			}
		})
	}
	n.exact(t, postID, 2)

	t.Run("missing post", func(t *testing.T) {
		_, _, _, err := n.live.Like(ctx, persistence.NewID(), a.ID, domain.Like, "")
		if err == nil || !strings.Contains(err.Error(), "Post not found") {
			t.Fatalf("err = %v", err)
		}
	})

	// One like notification for the post, rolled up: a and b, not the
	// author's own like, and a's second like is not a second row.
	waitFor(t, "one roll-up of a and b", func() (bool, error) {
		var rows []struct {
			Actors []string `bun:"actors,array"`
		}
		err := n.db.NewSelect().TableExpr("notifications").ColumnExpr("actor_ids::text[] AS actors").
			Where("user_id = ? AND type = 'like' AND post_id = ?", author.ID, postID).Scan(ctx, &rows)
		if err != nil {
			return false, err
		}
		return len(rows) == 1 && len(rows[0].Actors) == 2 && rows[0].Actors[1] == a.ID.String() &&
			rows[0].Actors[0] == b.ID.String(), nil
	})
	if c, err := persistence.UnreadNotificationCount(ctx, n.db, author.ID); err != nil || c != 1 {
		t.Fatalf("unread %d %v, want 1", c, err)
	}
}

// waitFor polls cond until it holds; 10 s without is a failure.
func waitFor(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := cond()
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLikeNotificationsRollUp: 1,000 users like one post at once. Its
// author gets one notification, counting 1,000, and an unread count that
// moved once; the pushes are coalesced, at most one per tick of the clock.
func TestLikeNotificationsRollUp(t *testing.T) {
	type render struct {
		at     time.Time
		count  int
		unread int
	}
	var mu sync.Mutex
	var likes []render
	var unreadMoves []int
	rec := func(nt *persistence.Notification, unread int) ([][]byte, error) {
		if nt.Type == persistence.NotifyLike {
			mu.Lock()
			likes = append(likes, render{at: time.Now(), count: nt.ActorCount, unread: unread})
			mu.Unlock()
		}
		return app.NotificationFrames(nt, unread)
	}
	db := testdb.New(t)
	// Every change of the author's counter, as the trigger writes it.
	n := startNodeWith(t, db, func(c *actors.Config) { c.Render = rec })
	us := n.users(t, 1001)
	author, likers := us[0], us[1:]
	postID := n.post(t, author)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE unread_moves (n int);
		CREATE FUNCTION record_unread_move() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO unread_moves VALUES (NEW.unread_notifications); RETURN NULL; END $$;
		CREATE TRIGGER record_unread_move AFTER UPDATE OF unread_notifications ON users
		FOR EACH ROW WHEN (OLD.unread_notifications IS DISTINCT FROM NEW.unread_notifications)
		EXECUTE FUNCTION record_unread_move();
		CREATE TABLE notification_statements (at timestamptz);
		CREATE FUNCTION record_notification_statement() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO notification_statements VALUES (clock_timestamp()); RETURN NULL; END $$;
		CREATE TRIGGER record_notification_statement AFTER INSERT ON notifications
		FOR EACH STATEMENT EXECUTE FUNCTION record_notification_statement();`); err != nil {
		t.Fatal(err)
	}

	started := time.Now()
	var wg sync.WaitGroup
	for _, u := range likers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, _, err := n.live.Like(ctx, postID, u.ID, domain.Like, uuid.NewString()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	waitFor(t, "the roll-up of 1,000", func() (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		return len(likes) > 0 && likes[len(likes)-1].count == 1000, nil
	})

	var rows []struct {
		Count  int  `bun:"actor_count"`
		IsRead bool `bun:"is_read"`
	}
	if err := db.NewSelect().TableExpr("notifications").Column("actor_count", "is_read").
		Where("user_id = ?", author.ID).Scan(ctx, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Count != 1000 || rows[0].IsRead {
		t.Fatalf("notifications %+v, want one unread roll-up of 1000", rows)
	}
	if err := db.NewSelect().TableExpr("unread_moves").Column("n").Scan(ctx, &unreadMoves); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(unreadMoves) != "[1]" {
		t.Fatalf("the author's unread count moved %v, want [1] (0 → 1 once)", unreadMoves)
	}
	mu.Lock()
	defer mu.Unlock()
	interval := actors.DefaultCountInterval
	for i := 1; i < len(likes); i++ {
		if likes[i].at.Truncate(interval).Equal(likes[i-1].at.Truncate(interval)) {
			t.Fatalf("two like pushes of one post within one tick: %v and %v", likes[i-1].at, likes[i].at)
		}
	}
	for _, r := range likes {
		if r.unread != 1 {
			t.Fatalf("a like push carried unread %d, want 1", r.unread)
		}
	}
	if len(likes) >= len(likers) {
		t.Fatalf("%d like pushes for %d likes: not coalesced", len(likes), len(likers))
	}
	// The author's like notifications are written at most once a second
	// (the first at once): a statement per post batch was most of
	// Postgres' work at a campus event.
	var statements int
	if err := db.NewSelect().TableExpr("notification_statements").ColumnExpr("count(*)").Scan(ctx, &statements); err != nil {
		t.Fatal(err)
	}
	if most := 2 + int(time.Since(started)/time.Second); statements > most {
		t.Fatalf("%d notification statements in %v, want at most %d (one a second)", statements, time.Since(started), most)
	}
}

// TestGroupCommit: 1,000 users like one post at once; the likes share
// transactions, and the database is exact.
func TestGroupCommit(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 1001)
	postID := n.post(t, us[0])
	likers := us[1:]
	before := n.live.Stats()

	var wg sync.WaitGroup
	var maxCount atomic.Int64
	errs := make(chan error, len(likers))
	for _, u := range likers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			liked, count, _, err := n.live.Like(context.Background(), postID, u.ID, domain.Like, uuid.NewString())
			if err != nil || !liked {
				errs <- fmt.Errorf("like: %v %v", liked, err)
				return
			}
			for {
				m := maxCount.Load()
				if int64(count) <= m || maxCount.CompareAndSwap(m, int64(count)) {
					break
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	n.exact(t, postID, len(likers))
	if maxCount.Load() != int64(len(likers)) {
		t.Fatalf("highest answered count %d, want %d", maxCount.Load(), len(likers))
	}
	st := n.live.Stats()
	batches, stmts := st.Batches-before.Batches, n.stmts.n.Load()
	t.Logf("1000 likes: %d post transactions, %d like statements", batches, stmts)
	if batches >= 200 || stmts >= 200 || st.Likes-before.Likes != int64(len(likers)) {
		t.Fatalf("%d transactions and %d like statements for %d likes: no group commit", batches, stmts, len(likers))
	}
}

// TestTwinActivations drives the cluster's activation of a post grain and a
// second activation of the same identity at once, as a topology change can
// produce (docs/architecture.md §4): the database stays exact and every answer agrees
// with it.
func TestTwinActivations(t *testing.T) {
	n := startNode(t)
	us := n.users(t, 301)
	postID := n.post(t, us[0])
	likers := us[1:]

	// The twin: the same grain kind, spawned directly with the identity
	// the cluster gives its own activation.
	kind := n.live.Kinds()[0]
	if kind.Kind != actors.PostKind {
		t.Fatalf("first kind %q", kind.Kind)
	}
	root := n.node.System.Root
	twin := root.Spawn(protocluster.WithClusterIdentity(kind.Props,
		protocluster.NewClusterIdentity(postID.String(), actors.PostKind)))
	viaTwin := func(user uuid.UUID, op actors.LikeOp) (*actors.LikeResponse, error) {
		res, err := root.RequestFuture(twin, &actors.LikeRequest{UserId: user.String(), Op: op, RequestId: uuid.NewString()}, 10*time.Second).Result()
		if err != nil {
			return nil, err
		}
		return res.(*actors.LikeResponse), nil
	}

	var wg sync.WaitGroup
	errs := make(chan error, 4*len(likers))
	for i, u := range likers {
		wg.Add(2)
		// Each user likes through one activation and toggles through the
		// other, at the same moment.
		go func() {
			defer wg.Done()
			if _, _, _, err := n.live.Like(context.Background(), postID, u.ID, domain.Like, uuid.NewString()); err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			op := actors.LikeOp_LIKE_OP_TOGGLE
			if i%3 == 0 {
				op = actors.LikeOp_LIKE_OP_UNLIKE
			}
			r, err := viaTwin(u.ID, op)
			if err != nil || r.Failure != actors.Failure_FAILURE_NONE {
				errs <- fmt.Errorf("twin: %v %v", r, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	n.exact(t, postID, -1)

	// After the storm both activations agree with the database.
	var counter int
	if err := n.db.NewSelect().Model((*persistence.Post)(nil)).Column("likes_count").Where("id = ?", postID).Scan(context.Background(), &counter); err != nil {
		t.Fatal(err)
	}
	u := likers[1]
	r, err := viaTwin(u.ID, actors.LikeOp_LIKE_OP_LIKE)
	if err != nil {
		t.Fatal(err)
	}
	_, count, _, err := n.live.Like(context.Background(), postID, u.ID, domain.Like, "")
	if err != nil {
		t.Fatal(err)
	}
	if int(r.LikesCount) != count {
		t.Fatalf("twin says %d, cluster activation says %d", r.LikesCount, count)
	}
	n.exact(t, postID, count)
	root.Poison(twin)
}

// TestTwinSystems runs the same post's grain in two separate actor systems
// (two clusters of one over one database) and hammers both at once: likes
// through one, toggles and unlikes through the other. The database must
// stay exact, and after a quiet like both systems report the count
// Postgres holds.
func TestTwinSystems(t *testing.T) {
	a := startNode(t)
	b := startNodeOn(t, a.db)
	us := a.users(t, 201)
	postID := a.post(t, us[0])
	likers := us[1:]

	var wg sync.WaitGroup
	errs := make(chan error, 2*len(likers))
	for i, u := range likers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, _, _, err := a.live.Like(context.Background(), postID, u.ID, domain.Like, uuid.NewString()); err != nil {
				errs <- fmt.Errorf("system a: %w", err)
			}
		}()
		go func() {
			defer wg.Done()
			op := domain.ToggleLike
			if i%3 == 0 {
				op = domain.Unlike
			}
			if _, _, _, err := b.live.Like(context.Background(), postID, u.ID, op, uuid.NewString()); err != nil {
				errs <- fmt.Errorf("system b: %w", err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	a.exact(t, postID, -1)

	// One more like through each system: each answers the count Postgres
	// returned, so both agree with the table.
	_, countA, _, err := a.live.Like(context.Background(), postID, likers[0].ID, domain.Like, uuid.NewString())
	if err != nil {
		t.Fatal(err)
	}
	_, countB, _, err := b.live.Like(context.Background(), postID, likers[1].ID, domain.Like, uuid.NewString())
	if err != nil {
		t.Fatal(err)
	}
	a.exact(t, postID, countB)
	if countA > countB {
		t.Fatalf("counts went backwards: a said %d, then b said %d", countA, countB)
	}
}
