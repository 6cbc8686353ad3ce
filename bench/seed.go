package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"campus/app"
)

// openDB connects to dsn with a pool of up to conns connections.
func openDB(ctx context.Context, dsn string, conns int) (*bun.DB, error) {
	c := pgdriver.NewConnector(
		pgdriver.WithDSN(dsn),
		pgdriver.WithApplicationName("campus-bench"),
		pgdriver.WithTimeout(30*time.Second),
		pgdriver.WithReadTimeout(5*time.Minute),
	)
	sqldb := sql.OpenDB(c)
	sqldb.SetMaxOpenConns(conns)
	sqldb.SetMaxIdleConns(conns)
	db := bun.NewDB(sqldb, pgdialect.New())
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	return db, nil
}

// world is what the bench seeded and knows about it.
type world struct {
	run     string // makes e-mails and university IDs unique per run (--url may reuse a database)
	users   []uuid.UUID
	userIdx map[uuid.UUID]int
	tokens  []string // JWT per user
	auth    []string // "Bearer <jwt>" per user

	// Posts of the bench's own, each used by one scenario so every
	// consistency check starts from zero likes.
	probe, naive, hot, feedHot, crash, fan uuid.UUID
	// event is the campus event's posts; eventPaced and eventShared the
	// same number again for its paced runs.
	event, eventPaced, eventShared []uuid.UUID
	// cluster is the cluster scenario's posts; netem the netem scenario's;
	// peerPosts the peers' count fan-out's (as many as the event's).
	cluster, netem, peerPosts []uuid.UUID
	// event2x is the event2x scenario's posts; clusterOne the cluster
	// scenario's one-node reference's (as many as cluster).
	event2x, clusterOne []uuid.UUID
	// space is the event space: a public event group whose posts are
	// spacePosts (the first pinned) and whose members are every user (the
	// likers are user k mod users); a nil id when the server has no groups.
	space       uuid.UUID
	spaceHandle string
	spacePosts  []uuid.UUID

	// Search terms: rare ones match a handful of documents, common ones
	// thousands.
	rare, common []string
	marker       string    // a word only in the post whose outbox row is the last
	markerPost   uuid.UUID // that post
	docs         int       // outbox rows: users + posts + comments
	outboxAt     time.Time
}

var firstNames = strings.Fields(`Aarav Aditi Akash Ananya Arjun Asha Bhavna Chetan Deepa Dev Divya Farhan Gauri Harsh
	Ishaan Isha Jaya Karan Kavya Kiran Lakshmi Manav Meera Mohan Naina Neha Nikhil Omkar Pooja Priya Rahul Riya Rohan
	Sahil Sana Sanjay Shreya Siddharth Sneha Tanvi Tarun Uma Varun Vidya Vikram Yash Zara Amit Bina Ravi`)

var lastNames = strings.Fields(`Sharma Verma Gupta Iyer Nair Reddy Patel Shah Mehta Joshi Kulkarni Desai Rao Das Bose
	Sen Ghosh Mukherjee Banerjee Chatterjee Pillai Menon Kapoor Malhotra Khanna Chopra Saxena Agarwal Bansal Mishra
	Pandey Tiwari Dubey Yadav Singh Chauhan Rathore Thakur Naidu Hegde Shetty Kamath Pai Bhat Dutta Roy Paul Fernandes Khan`)

// Campus words; posts draw them Zipf-distributed, so the first are common.
var vocab = strings.Fields(`campus exam library lecture project hackathon canteen hostel semester assignment placement
	seminar workshop festival cricket football music dance coding robotics internship professor notes lab deadline
	result quiz club society alumni department library sports trip weekend morning evening coffee friends team
	startup research paper conference poster election debate drama photography volunteer blood donation marathon`)

var syllables = strings.Fields("ka zo ri mu te va lo xi pe du qua ny sho bre fli gor tum wex jiv plo")

// rareWord is a made-up word; distinct i give distinct words.
func rareWord(i int) string {
	n := len(syllables)
	return syllables[i%n] + syllables[(i/n)%n] + syllables[(i/(n*n))%n] + syllables[(i/(n*n*n))%n] + "x"
}

// seed writes users, profiles, friendships, posts and comments with COPY,
// vacuums and analyzes them, then writes the search outbox.
func (b *bench) seed(ctx context.Context) (*world, error) {
	o := b.o
	rng := mrand.New(mrand.NewPCG(uint64(o.seed), 7))
	w := &world{run: randLetters(6), userIdx: make(map[uuid.UUID]int, o.users)}
	defer b.cpu.phase("seed")()

	hash, err := app.NewHasher(1).Hash(ctx, "bench-password-"+w.run)
	if err != nil {
		return nil, err
	}
	w.users = make([]uuid.UUID, o.users)
	for i := range w.users {
		w.users[i] = uuid.Must(uuid.NewV7())
		w.userIdx[w.users[i]] = i
	}
	now := time.Now().UTC()
	ts := func(t time.Time) string { return t.Format("2006-01-02 15:04:05.000000+00") }
	var done, total atomic.Int64
	var phase atomic.Value
	setPhase := func(name string, n int) {
		phase.Store(name)
		total.Store(int64(n))
		done.Store(0)
	}
	setPhase("users", o.users)
	stopTick := b.ticker(func() string {
		return fmt.Sprintf("seeding %s: %s/%s rows", phase.Load(), group(done.Load()), group(total.Load()))
	})
	defer stopTick()
	began := time.Now()

	// Users: every tenth is faculty (no university ID); one in fifty has a
	// made-up surname, so a name search can be rare too.
	names := make([]string, o.users)
	var rareNames []string
	for i := range names {
		last := lastNames[rng.IntN(len(lastNames))]
		if i%50 == 7 {
			last = strings.ToUpper(rareWord(900_000 + i)[:1]) + rareWord(900_000 + i)[1:]
			rareNames = append(rareNames, last)
		}
		names[i] = firstNames[rng.IntN(len(firstNames))] + " " + last
	}
	err = b.copyRows(ctx, "users", "id, name, email, email_verified_at, password_hash, role, university_id, department, course, batch, created_at, updated_at",
		o.users, &done, func(i int, bw *bufio.Writer) {
			created := ts(now.Add(-time.Duration(rng.Int64N(int64(365 * 24 * time.Hour)))))
			role, uni, dept, course, batch := "student", "BWU/BCA/"+w.run+"/"+strconv.Itoa(i), "Computer Applications", "BCA", "2021-2024"
			if i%10 == 0 {
				role, uni, course, batch = "faculty", `\N`, "", ""
			}
			fmt.Fprintf(bw, "%s\t%s\tb%s-u%d@bench.campus.test\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
				w.users[i], names[i], w.run, i, ts(now), hash, role, uni, dept, course, batch, created, created)
		})
	if err != nil {
		return nil, err
	}
	setPhase("profiles", o.users)
	err = b.copyRows(ctx, "profiles", "user_id, setup_completed_at", o.users, &done, func(i int, bw *bufio.Writer) {
		fmt.Fprintf(bw, "%s\t%s\n", w.users[i], ts(now))
	})
	if err != nil {
		return nil, err
	}

	// Friendships: user i with i+8, i+15, ...: distinct pairs while
	// the offsets sum to less than the number of users.
	nf := o.friends
	if 7*nf+1 >= o.users/2 {
		nf = 0
	}
	setPhase("friendships", o.users*nf)
	err = b.copyRows(ctx, "friendships", "user_low, user_high", o.users*nf, &done, func(k int, bw *bufio.Writer) {
		i, j := k/nf, k%nf+1
		a, c := w.users[i], w.users[(i+7*j+1)%o.users]
		if bytes.Compare(a[:], c[:]) > 0 {
			a, c = c, a
		}
		fmt.Fprintf(bw, "%s\t%s\n", a, c)
	})
	if err != nil {
		return nil, err
	}

	// The event space's group before its posts (posts.group_id refers to
	// it); its pinned post once they exist.
	hasGroups, err := b.hasTable(ctx, "groups")
	if err != nil {
		return nil, err
	}
	if hasGroups {
		w.space, w.spaceHandle = uuid.Must(uuid.NewV7()), "bench-event-"+w.run
		// The counters are kept by the app in the transaction that moves
		// the rows (persistence.moveMembers, InsertPost), not by triggers:
		// they are written here as the rows below will make them.
		_, err = b.db.ExecContext(ctx, `INSERT INTO groups (id, handle, name, description, kind, visibility,
			starts_at, ends_at, members_count, posts_count, created_at, updated_at)
			VALUES (?, ?, ?, ?, 'event', 'public', ?, ?, ?, ?, ?, ?)`,
			w.space, w.spaceHandle, "Bench event "+w.run, "The bench's event space: the campus event on one group's posts.",
			now.Add(-time.Hour), now.Add(3*time.Hour), o.users, o.evPosts, now.Add(-2*time.Hour), now.Add(-2*time.Hour))
		if err != nil {
			return nil, fmt.Errorf("insert event space: %w", err)
		}
	}

	// Posts: the bench's own first, then the feed's. Comments are counted
	// up front because posts.comments_count must match the rows.
	special := 6 + 5*o.evPosts + o.clPosts + o.nmPosts + o.ev2xPosts + o.clPosts
	nPosts := special + o.posts
	postIDs := make([]uuid.UUID, nPosts)
	for i := range postIDs {
		postIDs[i] = uuid.Must(uuid.NewV7())
	}
	w.probe, w.naive, w.hot, w.feedHot, w.crash, w.fan = postIDs[0], postIDs[1], postIDs[2], postIDs[3], postIDs[4], postIDs[5]
	w.event, w.eventPaced = postIDs[6:6+o.evPosts], postIDs[6+o.evPosts:6+2*o.evPosts]
	w.eventShared = postIDs[6+2*o.evPosts : 6+3*o.evPosts]
	w.cluster = postIDs[6+3*o.evPosts : 6+3*o.evPosts+o.clPosts]
	w.netem = postIDs[6+3*o.evPosts+o.clPosts : 6+3*o.evPosts+o.clPosts+o.nmPosts]
	w.peerPosts = postIDs[6+3*o.evPosts+o.clPosts+o.nmPosts : 6+4*o.evPosts+o.clPosts+o.nmPosts]
	spaceAt := 6 + 4*o.evPosts + o.clPosts + o.nmPosts
	spaceEnd := spaceAt + o.evPosts
	if hasGroups {
		w.spacePosts = postIDs[spaceAt:spaceEnd]
	}
	w.event2x = postIDs[spaceEnd : spaceEnd+o.ev2xPosts]
	w.clusterOne = postIDs[spaceEnd+o.ev2xPosts : special]
	commentPost := make([]int32, o.comments)
	commentCount := make([]int32, nPosts)
	for i := range commentPost {
		p := special + rng.IntN(o.posts)
		commentPost[i] = int32(p)
		commentCount[p]++
	}
	zipf := mrand.NewZipf(mrand.New(mrand.NewPCG(uint64(o.seed), 11)), 1.2, 2, uint64(len(vocab)-1))
	rarePool := max(o.posts/4, 100)
	usedRare := map[int]bool{}
	sentence := func(sb *strings.Builder, words int, rareOK bool) {
		for k := 0; k < words; k++ {
			if k > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(vocab[zipf.Uint64()])
		}
		if rareOK && rng.IntN(10) < 3 {
			r := rng.IntN(rarePool)
			usedRare[r] = true
			sb.WriteByte(' ')
			sb.WriteString(rareWord(r))
		}
	}
	w.marker = "zqmarker" + randLetters(8)
	w.markerPost = postIDs[nPosts-1]
	setPhase("posts", nPosts)
	postCols := "id, user_id, content, comments_count, created_at, updated_at"
	if hasGroups {
		postCols += ", group_id"
	}
	err = b.copyRows(ctx, "posts", postCols, nPosts, &done, func(i int, bw *bufio.Writer) {
		var sb strings.Builder
		author := w.users[rng.IntN(o.users)]
		created := now.Add(-time.Duration(rng.Int64N(int64(30 * 24 * time.Hour))))
		switch {
		case i < special:
			// Distinct authors: one author of every hot post would make
			// that user's notifications the bottleneck, unlike a real event.
			author, created = w.users[specialAuthor(i, o.users)], now.Add(-31*24*time.Hour)
			sb.WriteString("Bench post " + strconv.Itoa(i) + ": like it if you are here")
		case i == nPosts-1:
			// First, so it is in a result's snippet too.
			sb.WriteString(w.marker + " ")
			sentence(&sb, 6, false)
		default:
			sentence(&sb, 6+rng.IntN(12), true)
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\t%d\t%s\t%s", postIDs[i], author, sb.String(), commentCount[i], ts(created), ts(created))
		switch {
		case !hasGroups:
		case i >= spaceAt && i < spaceEnd:
			fmt.Fprintf(bw, "\t%s", w.space)
		default:
			bw.WriteString("\t\\N")
		}
		bw.WriteByte('\n')
	})
	if err != nil {
		return nil, err
	}
	if hasGroups {
		if err := b.seedSpace(ctx, w, specialAuthor(spaceAt, o.users), now, &done, setPhase); err != nil {
			return nil, err
		}
	}
	setPhase("comments", o.comments)
	commentIDs := make([]uuid.UUID, o.comments)
	err = b.copyRows(ctx, "comments", "id, post_id, user_id, content, created_at, updated_at", o.comments, &done, func(i int, bw *bufio.Writer) {
		var sb strings.Builder
		sentence(&sb, 3+rng.IntN(8), false)
		commentIDs[i] = uuid.Must(uuid.NewV7())
		created := ts(now.Add(-time.Duration(rng.Int64N(int64(29 * 24 * time.Hour)))))
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\t%s\n", commentIDs[i], postIDs[commentPost[i]], w.users[rng.IntN(o.users)], sb.String(), created, created)
	})
	if err != nil {
		return nil, err
	}
	b.progress("seeded %s users, %s friendships, %s posts, %s comments in %.1fs",
		group(int64(o.users)), group(int64(o.users*nf)), group(int64(nPosts)), group(int64(o.comments)), time.Since(began).Seconds())
	// VACUUM, not only ANALYZE: after a bulk load autovacuum otherwise
	// visits these tables a minute later, in the middle of a timed phase
	// (it did, under the feed read). Before the outbox, so it does not
	// compete with the indexing either.
	setPhase("vacuum analyze", 0)
	vacuum := "VACUUM (ANALYZE) users, profiles, friendships, posts, comments, post_likes"
	if hasGroups {
		vacuum += ", groups, group_members"
	}
	if _, err := b.db.ExecContext(ctx, vacuum); err != nil {
		return nil, fmt.Errorf("vacuum analyze: %w", err)
	}

	// The outbox last, in one statement (one NOTIFY), the marker post at
	// its very end: when a search finds the marker, the index has it all.
	// The event space's group (when there is one) is the first row: the
	// directory finds it like any group.
	nGroups := 0
	if hasGroups {
		nGroups = 1
	}
	w.docs = nGroups + o.users + o.comments + nPosts
	setPhase("search outbox", w.docs)
	err = b.copyRows(ctx, "search_outbox", "entity, entity_id, op", w.docs, &done, func(i int, bw *bufio.Writer) {
		if i < nGroups {
			fmt.Fprintf(bw, "group\t%s\tupsert\n", w.space)
			return
		}
		i -= nGroups
		switch {
		case i < o.users:
			fmt.Fprintf(bw, "user\t%s\tupsert\n", w.users[i])
		case i < o.users+o.comments:
			fmt.Fprintf(bw, "comment\t%s\tupsert\n", commentIDs[i-o.users])
		default:
			fmt.Fprintf(bw, "post\t%s\tupsert\n", postIDs[i-o.users-o.comments])
		}
	})
	if err != nil {
		return nil, err
	}
	w.outboxAt = time.Now()

	// Search terms from what was written.
	for r := range usedRare {
		w.rare = append(w.rare, rareWord(r))
		if len(w.rare) >= 2000 {
			break
		}
	}
	w.rare = append(w.rare, rareNames...)
	w.common = append(w.common, vocab[:12]...)
	w.common = append(w.common, firstNames[:12]...)
	w.common = append(w.common, lastNames[:12]...)
	return w, nil
}

// seedSpace makes every user a member of the event space (the likers are
// user k mod users, the viewers and screens user i mod users), user owner
// (the author of its first post) the owner, and pins that post.
func (b *bench) seedSpace(ctx context.Context, w *world, owner int, now time.Time, done *atomic.Int64, setPhase func(string, int)) error {
	joined := now.Add(-2 * time.Hour).Format("2006-01-02 15:04:05.000000+00")
	setPhase("event space members", len(w.users))
	err := b.copyRows(ctx, "group_members", "group_id, user_id, status, role, created_at, joined_at", len(w.users), done,
		func(i int, bw *bufio.Writer) {
			role := "member"
			if i == owner {
				role = "owner"
			}
			fmt.Fprintf(bw, "%s\t%s\tmember\t%s\t%s\t%s\n", w.space, w.users[i], role, joined, joined)
		})
	if err != nil {
		return err
	}
	if _, err := b.db.ExecContext(ctx, "UPDATE groups SET pinned_post_id = ? WHERE id = ?", w.spacePosts[0], w.space); err != nil {
		return fmt.Errorf("pin the event space's post: %w", err)
	}
	return nil
}

// specialAuthor is the index of the author of the bench's own post i.
func specialAuthor(i, users int) int { return (i*37 + 1) % users }

// hasTable reports whether the server's schema has a table (a server from
// before a feature lacks it; its scenario then reports unavailable).
func (b *bench) hasTable(ctx context.Context, table string) (bool, error) {
	var ok bool
	if err := b.db.QueryRowContext(ctx, "SELECT to_regclass(?) IS NOT NULL", table).Scan(&ok); err != nil {
		return false, fmt.Errorf("look for table %s: %w", table, err)
	}
	return ok, nil
}

// copyRows streams n rows made by row into table with COPY … FROM STDIN
// (text format: tab-separated, \N for NULL).
func (b *bench) copyRows(ctx context.Context, table, cols string, n int, done *atomic.Int64, row func(i int, bw *bufio.Writer)) error {
	if n == 0 {
		return nil
	}
	conn, err := b.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	defer conn.Close()
	pr, pw := io.Pipe()
	var broken atomic.Bool
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		bw := bufio.NewWriterSize(pw, 256<<10)
		for i := 0; i < n && !broken.Load(); i++ {
			row(i, bw)
			done.Add(1)
		}
		pw.CloseWithError(bw.Flush())
	}()
	_, err = pgdriver.CopyFrom(ctx, conn, pr, "COPY "+table+" ("+cols+") FROM STDIN")
	// Unblocks and stops the writer if COPY stopped reading early; the
	// generators share state, so it must be done before the next table.
	broken.Store(true)
	pr.CloseWithError(io.ErrClosedPipe)
	<-wrote
	if err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	return nil
}

// randLetters is n random lowercase letters (safe in e-mails, IDs and as a
// single search token).
func randLetters(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return string(b)
}
