package persistence_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/persistence"
	"campus/persistence/testdb"
)

// TestLikePlansProbeTheKey: the like statement finds each liker through the
// primary key even when the statistics say the post has a single like (a
// post that turned hot after the last analyze), never by reading every like
// of the post through post_likes_recent_idx, which only the big screen's
// window count may use.
func TestLikePlansProbeTheKey(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	author := newUser("Plan Author")
	var likers []*persistence.User
	for i := range 20 {
		likers = append(likers, newUser(fmt.Sprintf("Plan Liker %d", i)))
	}
	insert(t, db, author)
	for _, u := range likers {
		insert(t, db, u)
	}
	hot := newPost(t, db, author, "hot", 0)
	// 3,000 cold posts with one like each, the hot one with one too, then
	// the statistics: every post looks like it has about one like.
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO posts (id, user_id, content) SELECT gen_random_uuid(), ?, 'cold' FROM generate_series(1, 3000)`, author.ID)
	ids := make([]uuid.UUID, len(likers))
	for i, u := range likers {
		ids[i] = u.ID
	}
	exec(`INSERT INTO post_likes (post_id, user_id)
		SELECT p.id, (?::uuid[])[1 + (row_number() OVER (ORDER BY p.id)) % 20] FROM posts p`, pgArray(ids))
	exec(`ANALYZE post_likes`)

	t.Run("like statement", func(t *testing.T) {
		set, unset, need := pgArray(ids[:5]), pgArray(ids[5:10]), pgArray(ids[10:15])
		// The statement's own numbered placeholders, filled in by the
		// driver as literals: a custom plan, the kind statistics steer.
		query := "EXPLAIN " + strings.NewReplacer("$1", "?0", "$2", "?1", "$3", "?2", "$4", "?3", "$5", "?4", "$6", "?5").
			Replace(persistence.LikeStatement)
		p := explain(t, db, query, hot.ID, set, unset, need, need, 0)
		// Each liker is a probe of the key on both columns: no index
		// read by post alone with the users filtered after it.
		if !strings.Contains(p, "post_likes_pkey") || strings.Contains(p, "post_likes_recent_idx") ||
			filtersLikes(p) || !strings.Contains(p, "Tid Scan on post_likes") {
			t.Errorf("the plan should probe post_likes_pkey for each user:\n%s", p)
		}
	})
	t.Run("the window count can use the partial index", func(t *testing.T) {
		// With the primary key out of the way (rolled back), the big
		// screen's count must find the partial index: its condition on
		// created_at implies the index's predicate.
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, "ALTER TABLE post_likes DROP CONSTRAINT post_likes_pkey"); err != nil {
			t.Fatal(err)
		}
		p := explain(t, tx, `EXPLAIN SELECT count(*) FROM post_likes pl
			WHERE pl.post_id = ? AND pl.created_at > now() - interval '10 minutes'`, hot.ID)
		if !strings.Contains(p, "post_likes_recent_idx") {
			t.Errorf("the window count should be able to use post_likes_recent_idx:\n%s", p)
		}
	})
}

// TestFeedPlanReadsOnePage: the feed (and the Saved list) reads one page
// of the newest rows through its keyset index and stops, reposts among
// them: a repost's original is one primary-key probe (the lateral), the
// readers' saves and reposts one probe each per post like their likes, and
// no plan reads a whole table.
func TestFeedPlanReadsOnePage(t *testing.T) {
	db := testdb.New(t)
	ctx := context.Background()
	authors := make([]uuid.UUID, 30)
	for i := range authors {
		u := newUser(fmt.Sprintf("Feed Plan %d", i))
		insert(t, db, u)
		authors[i] = u.ID
	}
	reader := authors[0]
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO posts (id, user_id, content, created_at)
		SELECT gen_random_uuid(), (?::uuid[])[1 + i % 30], 'post ' || i, now() - i * interval '1 minute'
		FROM generate_series(1, 5000) i`, pgArray(authors))
	// Every tenth author reposts a post of the next one's, now and then.
	exec(`INSERT INTO posts (id, user_id, content, repost_of, created_at)
		SELECT DISTINCT ON (o.id) gen_random_uuid(), (?::uuid[])[1 + (r.n + 1) % 30], 'look', o.id, o.created_at + interval '30 seconds'
		FROM (SELECT id, user_id, created_at, row_number() OVER (ORDER BY created_at) AS n FROM posts) o
		JOIN LATERAL (SELECT o.n AS n) r ON true
		WHERE o.n % 10 = 0 AND (?::uuid[])[1 + (r.n + 1) % 30] <> o.user_id`, pgArray(authors), pgArray(authors))
	// Everyone saved a hundred posts; the reader too.
	exec(`INSERT INTO post_bookmarks (user_id, post_id, created_at)
		SELECT a.u, p.id, now() - p.n * interval '1 second'
		FROM unnest(?::uuid[]) WITH ORDINALITY AS a (u, k)
		JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM posts WHERE repost_of IS NULL) p ON p.n % 30 = a.k - 1 AND p.n <= 3000`,
		pgArray(authors))
	exec(`ANALYZE posts`)
	exec(`ANALYZE post_bookmarks`)

	for _, tc := range []struct {
		name  string
		q     persistence.PostQuery
		index string
	}{
		{"home feed", persistence.PostQuery{Viewers: []uuid.UUID{reader}, Limit: 20}, "posts_feed_idx"},
		{"home feed, the reader's own", persistence.PostQuery{Viewers: []uuid.UUID{reader}, HiddenFrom: reader, Limit: 20}, "posts_feed_idx"},
		{"a profile", persistence.PostQuery{Viewers: []uuid.UUID{reader}, Author: authors[3], Limit: 20}, "posts_user_feed_idx"},
		{"saved", persistence.PostQuery{Viewers: []uuid.UUID{reader}, Saved: reader, HiddenFrom: reader, Limit: 20}, "post_bookmarks_list_idx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			query, args := persistence.PostsQuery(tc.q)
			// Bun's placeholders for the driver's literals: a custom plan.
			for i := len(args); i >= 1; i-- {
				query = strings.ReplaceAll(query, fmt.Sprintf("$%d", i), fmt.Sprintf("?%d", i-1))
			}
			p := explain(t, db, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) "+query, args...)
			if !strings.Contains(p, tc.index) || strings.Contains(p, "Seq Scan on posts") ||
				!strings.Contains(p, "Index Scan using posts_pkey on posts op") {
				t.Errorf("the plan should read a page through %s and probe a repost's original by key:\n%s", tc.index, p)
			}
			// Saved and reposted: both columns of the unique keys probed,
			// never every save or repost of the post filtered by reader;
			// whether a reader saved or reposted anything at all, one
			// probe of an index that leads with the reader.
			if !strings.Contains(p, "Index Only Scan using post_bookmarks_pkey") || !strings.Contains(p, "Index Only Scan using posts_repost_key") ||
				readerFilter.MatchString(p) || !strings.Contains(p, "using post_bookmarks_list_idx on post_bookmarks b ") ||
				!strings.Contains(p, "using posts_reposts_by_user_idx on posts r ") {
				t.Errorf("the readers' saves and reposts should be key probes:\n%s", p)
			}
			t.Logf("plan:\n%s", p)
		})
	}
}

// readerFilter matches a join that filters the readers (unnest v) after
// reading rows by the post alone.
var readerFilter = regexp.MustCompile(`Join Filter: \(v(_\d+)?\.u = `)

// filtersLikes reports whether a plan reads post_likes and filters what it
// read (rows fetched only to be thrown away).
func filtersLikes(plan string) bool {
	inLikes := false
	for _, line := range strings.Split(plan, "\n") {
		switch {
		case strings.Contains(line, "->") || strings.HasPrefix(line, "CTE Scan"):
			inLikes = strings.Contains(line, " on post_likes")
		case inLikes && strings.Contains(line, "Filter:"):
			return true
		}
	}
	return false
}

// explain answers the plan an EXPLAIN query prints.
func explain(t *testing.T, db bun.IDB, query string, args ...any) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan.String()
}

// pgArray is ids as a Postgres array literal.
func pgArray(ids []uuid.UUID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return "{" + strings.Join(s, ",") + "}"
}
