package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"campus/domain"
)

// Tags (issue 27 item 2): the #tags of posts, a tag's posts as a reader may
// list them, and the activity trending is computed from.

// setPostTags makes tags the post's tags: it drops the ones its text no
// longer has and adds the new ones, dated with the post.
func setPostTags(ctx context.Context, db bun.IDB, postID uuid.UUID, tags []string) error {
	if tags == nil {
		tags = []string{}
	}
	_, err := db.ExecContext(ctx, `WITH gone AS (
		DELETE FROM post_tags WHERE post_id = ?0 AND tag <> ALL(?1::text[])
	)
	INSERT INTO post_tags (post_id, tag, created_at)
	SELECT p.id, t.tag, p.created_at FROM posts p, unnest(?1::text[]) AS t (tag)
	WHERE p.id = ?0
	ON CONFLICT DO NOTHING`, postID, pgdialect.Array(tags))
	if err != nil {
		return fmt.Errorf("persistence: set post tags: %w", err)
	}
	return nil
}

// PostTags answers the post's tags, in tag order.
func PostTags(ctx context.Context, db bun.IDB, postID uuid.UUID) ([]string, error) {
	out := []string{}
	if err := db.NewSelect().TableExpr("post_tags").Column("tag").Where("post_id = ?", postID).
		OrderExpr("tag").Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("persistence: post tags: %w", err)
	}
	return out, nil
}

// listableSQL is the condition, on the unqualified columns of posts, that a
// list may show the post at all: not removed by a moderator, its author not
// suspended (as Posts lists). hiddenFromSQL adds the reader's own blocks,
// mutes and groups.
const listableSQL = ` removed_at IS NULL AND user_id NOT IN (` + suspendedUsersSQL + `)`

// TagSort orders a tag's posts.
type TagSort int

const (
	// TagNew is newest first.
	TagNew TagSort = iota
	// TagTop is the most liked and commented first (a comment weighs two
	// likes), then newest.
	TagTop
)

// TagPageQuery is a page of a tag's posts as Viewer may list them: the
// home feed's rules (no removed posts, no suspended authors, nothing of
// people with a block either way or whom the viewer mutes, and posts of
// closed and secret groups for their members only).
type TagPageQuery struct {
	Tag    string
	Viewer uuid.UUID
	Sort   TagSort
	// After is the last post of the previous page (At its creation, ID its
	// id), and AfterScore its score for TagTop.
	After      Keyset
	AfterScore int64
	Limit      int
}

// TagRef is one post of a tag's page, with what orders it.
type TagRef struct {
	ID        uuid.UUID
	CreatedAt time.Time
	Score     int64
}

// tagScoreSQL is a post's weight in a tag's Top order.
const tagScoreSQL = `(p.likes_count + 2 * p.comments_count)::int8`

// TagPage answers the posts of a page of q, in order, and whether more
// follow. The page is read through post_tags_tag_idx (newest first) and
// checked post by post, so it costs the page, not the tag.
func TagPage(ctx context.Context, db bun.IDB, q TagPageQuery) ([]TagRef, bool, error) {
	query, args := tagPageSQL(q)
	rows, err := prepared(ctx, db, query, args...)
	if err != nil {
		return nil, false, fmt.Errorf("persistence: tag page: %w", err)
	}
	defer rows.Close()
	var out []TagRef
	for rows.Next() {
		var r TagRef
		var at int64
		if err := rows.Scan(&r.ID, &at, &r.Score); err != nil {
			return nil, false, fmt.Errorf("persistence: tag page: %w", err)
		}
		r.CreatedAt = time.UnixMicro(at).UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("persistence: tag page: %w", err)
	}
	more := len(out) > q.Limit
	if more {
		out = out[:q.Limit]
	}
	return out, more, nil
}

// tagPageSQL is TagPage's statement ($1… placeholders) and arguments.
//
// Newest first, the tag's rows are walked in post_tags_tag_idx's order and
// each post is checked by a probe of its own (the OFFSET 0 keeps the
// planner from joining the tag's posts wholesale, which it prefers when it
// underestimates how many pass the checks), until the page is full. Top
// orders every post of the tag by its counts, so it joins them all.
func tagPageSQL(q TagPageQuery) (string, []any) {
	args := []any{q.Tag, q.Viewer}
	limit := ` LIMIT ` + strconv.Itoa(q.Limit+1)
	if q.Sort == TagTop {
		where := `pt.tag = $1 AND p.id = pt.post_id AND` + listableSQL + hiddenFromSQL(2, true)
		if !q.After.IsZero() {
			args = append(args, q.AfterScore, q.After.At, q.After.ID)
			where += ` AND (` + tagScoreSQL + `, pt.created_at, pt.post_id) < ($3, $4, $5)`
		}
		return `SELECT pt.post_id, (extract(epoch FROM pt.created_at) * 1000000)::int8, ` + tagScoreSQL + `
		FROM post_tags pt, posts p WHERE ` + where + `
		ORDER BY ` + tagScoreSQL + ` DESC, pt.created_at DESC, pt.post_id DESC` + limit, args
	}
	where := `pt.tag = $1`
	if !q.After.IsZero() {
		args = append(args, q.After.At, q.After.ID)
		where += ` AND (pt.created_at, pt.post_id) < ($3, $4)`
	}
	return `SELECT pt.post_id, (extract(epoch FROM pt.created_at) * 1000000)::int8, p.score
		FROM post_tags pt, LATERAL (SELECT ` + tagScoreSQL + ` AS score FROM posts p
			WHERE p.id = pt.post_id AND` + listableSQL + hiddenFromSQL(2, true) + ` OFFSET 0) AS p
		WHERE ` + where + `
		ORDER BY pt.created_at DESC, pt.post_id DESC` + limit, args
}

// TagCounts answers, for each of tags, how many posts of it viewer may
// list (TagPage's rules), counting at most upTo: a tag's count is shown,
// and "1,000+" says as much as an exact count would.
func TagCounts(ctx context.Context, db bun.IDB, tags []string, viewer uuid.UUID, upTo int) (map[string]int, error) {
	out := make(map[string]int, len(tags))
	if len(tags) == 0 {
		return out, nil
	}
	rows, err := unprepared(ctx, db, `SELECT t.tag, (SELECT count(*) FROM (SELECT FROM post_tags pt, posts p
			WHERE pt.tag = t.tag AND p.id = pt.post_id AND`+listableSQL+hiddenFromSQL(2, true)+`
			LIMIT $3) AS listed)
		FROM unnest($1::text[]) AS t (tag)`, arrayLiteral(tags), viewer, upTo)
	if err != nil {
		return nil, fmt.Errorf("persistence: tag counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var tag string
		var n int
		if err := rows.Scan(&tag, &n); err != nil {
			return nil, fmt.Errorf("persistence: tag counts: %w", err)
		}
		out[tag] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: tag counts: %w", err)
	}
	return out, nil
}

// ListablePostIDs answers which of ids viewer may see in a list (TagPage's
// rules: the home feed's).
func ListablePostIDs(ctx context.Context, db bun.IDB, ids []uuid.UUID, viewer uuid.UUID) (map[uuid.UUID]bool, error) {
	out := make(map[uuid.UUID]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := unprepared(ctx, db, `SELECT id FROM posts WHERE id = ANY($1::uuid[]) AND`+listableSQL+hiddenFromSQL(2, true),
		uuidArray(ids), viewer)
	if err != nil {
		return nil, fmt.Errorf("persistence: listable posts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("persistence: listable posts: %w", err)
		}
		out[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: listable posts: %w", err)
	}
	return out, nil
}

// TrendWindow shapes what trending reads.
type TrendWindow struct {
	// Posts: the posts written in the last Posts are candidates, the
	// newest Max of them.
	Posts time.Duration
	Max   int
	// Activity: the likes and comments of the last Activity count, each
	// weighing half as much every HalfLife of its age.
	Activity, HalfLife time.Duration
}

// TrendPost is a candidate post of trending: who wrote it where, when, its
// tags and how much it moved.
type TrendPost struct {
	ID, AuthorID uuid.UUID
	// Public: outside groups or in a public group (anyone may read it).
	Public    bool
	CreatedAt time.Time
	// Activity is its likes plus twice its comments in the window, each
	// decayed by its age (a like just now counts 1).
	Activity float64
	Tags     []string
}

// TrendPosts reads the candidates of w: one statement, the posts through
// posts_feed_idx and each one's recent likes and comments through their
// (post, time) indexes. Removed posts are left out; everything else that a
// reader may not see is for the caller to filter per reader.
func TrendPosts(ctx context.Context, db bun.IDB, w TrendWindow) ([]TrendPost, error) {
	interval := func(d time.Duration) string { return fmt.Sprintf("%d milliseconds", d.Milliseconds()) }
	rows, err := prepared(ctx, db, `WITH cand AS (
		SELECT p.id, p.user_id, p.group_id, p.created_at FROM posts p
		WHERE p.created_at > now() - $1::interval AND p.removed_at IS NULL
		ORDER BY p.created_at DESC, p.id DESC LIMIT $4
	)
	SELECT c.id, c.user_id, (extract(epoch FROM c.created_at) * 1000000)::int8,
		c.group_id IS NULL OR EXISTS (SELECT FROM groups g WHERE g.id = c.group_id AND g.visibility = 'public'),
		(SELECT coalesce(sum(power(0.5, extract(epoch FROM now() - pl.created_at) / $3)), 0) FROM post_likes pl
			WHERE pl.post_id = c.id AND pl.created_at > now() - $2::interval)
		+ 2 * (SELECT coalesce(sum(power(0.5, extract(epoch FROM now() - cm.created_at) / $3)), 0) FROM comments cm
			WHERE cm.post_id = c.id AND cm.created_at > now() - $2::interval AND cm.removed_at IS NULL),
		ARRAY(SELECT pt.tag FROM post_tags pt WHERE pt.post_id = c.id ORDER BY pt.tag)
	FROM cand c`, interval(w.Posts), interval(w.Activity), w.HalfLife.Seconds(), w.Max)
	if err != nil {
		return nil, fmt.Errorf("persistence: trend posts: %w", err)
	}
	defer rows.Close()
	var out []TrendPost
	for rows.Next() {
		var p TrendPost
		var at int64
		var tags []byte
		if err := rows.Scan(&p.ID, &p.AuthorID, &at, &p.Public, &p.Activity, &tags); err != nil {
			return nil, fmt.Errorf("persistence: trend posts: %w", err)
		}
		p.CreatedAt = time.UnixMicro(at).UTC()
		if p.Tags, err = parseTextArray(tags); err != nil {
			return nil, fmt.Errorf("persistence: trend posts: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: trend posts: %w", err)
	}
	return out, nil
}

// parseTextArray reads the text of a text[] whose elements are tags: no
// quotes, commas or backslashes (domain.ValidTag), so elements are quoted
// only when Postgres would otherwise misread them, which tags never need.
func parseTextArray(b []byte) ([]string, error) {
	els, err := arrayElements(b)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(els))
	for i, e := range els {
		if len(e) >= 2 && e[0] == '"' && e[len(e)-1] == '"' {
			e = e[1 : len(e)-1]
		}
		out[i] = string(e)
	}
	return out, nil
}

// backfillPage is how many posts a step of the tag backfill reads.
const backfillPage = 1000

// backfillTags gives the posts written before tags existed their tags
// (tag_backfill holds how far it got), a page per transaction, so that an
// interrupted start goes on where it stopped.
func backfillTags(ctx context.Context, db *bun.DB) error {
	for {
		done := false
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var after uuid.UUID
			err := tx.QueryRowContext(ctx, "SELECT after_id FROM tag_backfill FOR UPDATE").Scan(&after)
			if errors.Is(err, sql.ErrNoRows) {
				done = true
				return nil
			}
			if err != nil {
				return err
			}
			var posts []struct {
				ID      uuid.UUID `bun:"id"`
				Content string    `bun:"content"`
			}
			if err := tx.NewSelect().TableExpr("posts").Column("id", "content").Where("id > ?", after).
				OrderExpr("id").Limit(backfillPage).Scan(ctx, &posts); err != nil {
				return err
			}
			if len(posts) == 0 {
				done = true
				_, err := tx.ExecContext(ctx, "DELETE FROM tag_backfill")
				return err
			}
			for _, p := range posts {
				if tags := domain.ExtractTags(p.Content); len(tags) > 0 {
					if err := setPostTags(ctx, tx, p.ID, tags); err != nil {
						return err
					}
				}
			}
			_, err = tx.ExecContext(ctx, "UPDATE tag_backfill SET after_id = ?", posts[len(posts)-1].ID)
			return err
		})
		if err != nil {
			return fmt.Errorf("persistence: tag backfill: %w", err)
		}
		if done {
			return nil
		}
	}
}
