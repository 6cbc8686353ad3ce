package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
)

// SaveBookmark adds post to user's saved posts; saving a saved post again
// changes nothing (it keeps its place in the list). domain.ErrNotFound if
// the post is gone.
func SaveBookmark(ctx context.Context, db bun.IDB, user, post uuid.UUID) error {
	_, err := db.ExecContext(ctx, `INSERT INTO post_bookmarks (user_id, post_id) VALUES (?, ?)
		ON CONFLICT DO NOTHING`, user, post)
	if isPostGoneViolation(err) {
		return fmt.Errorf("persistence: save bookmark: %w", domain.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("persistence: save bookmark: %w", err)
	}
	return nil
}

// DeleteBookmark takes post out of user's saved posts, if it is there.
func DeleteBookmark(ctx context.Context, db bun.IDB, user, post uuid.UUID) error {
	if _, err := db.ExecContext(ctx, `DELETE FROM post_bookmarks WHERE user_id = ? AND post_id = ?`, user, post); err != nil {
		return fmt.Errorf("persistence: delete bookmark: %w", err)
	}
	return nil
}

// RepostCounts are the original's counts after a repost or its undoing, as
// the statement that moved them returned them (what the live counts send).
type RepostCounts struct {
	AuthorID                 uuid.UUID
	Likes, Comments, Reposts int
	Version                  int64
	// Changed is whether the statement inserted (deleted) the repost: false
	// for a repeat, which moves neither the count nor the version.
	Changed bool
	// RepostID is the repost's row: the one inserted or deleted, or, for a
	// repeated repost, the one already there.
	RepostID uuid.UUID
}

// InsertRepost stores r (ID, UserID, Content and RepostOf set) unless its
// author reposted the original already, and moves the original's repost
// count and counts version in the same statement. domain.ErrNotFound if the
// original is gone.
func InsertRepost(ctx context.Context, db bun.IDB, r *Post) (RepostCounts, error) {
	var c RepostCounts
	var existing uuid.NullUUID
	err := db.QueryRowContext(ctx, `WITH ins AS (
		INSERT INTO posts (id, user_id, content, visibility, repost_of) VALUES (?0, ?1, ?2, 'public', ?3)
		ON CONFLICT (repost_of, user_id) WHERE repost_of IS NOT NULL DO NOTHING
		RETURNING id
	), upd AS (
		UPDATE posts SET reposts_count = reposts_count + (SELECT count(*) FROM ins),
			counts_version = counts_version + (SELECT count(*) FROM ins)
		WHERE id = ?3
		RETURNING user_id, likes_count, comments_count, reposts_count, counts_version
	)
	SELECT upd.*, EXISTS (SELECT FROM ins),
		(SELECT id FROM posts WHERE repost_of = ?3 AND user_id = ?1) FROM upd`,
		r.ID, r.UserID, r.Content, r.RepostOf).
		Scan(&c.AuthorID, &c.Likes, &c.Comments, &c.Reposts, &c.Version, &c.Changed, &existing)
	if errors.Is(err, sql.ErrNoRows) || isPostGoneViolation(err) || isRepostOfGoneViolation(err) {
		return c, fmt.Errorf("persistence: insert repost: %w", domain.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("persistence: insert repost: %w", err)
	}
	// The statement's snapshot does not see the row it inserted.
	c.RepostID = r.ID
	if !c.Changed {
		c.RepostID = existing.UUID
	}
	return c, nil
}

// DeleteRepost deletes user's repost of original, if there is one, and
// moves the original's repost count and counts version in the same
// statement. domain.ErrNotFound if the original is gone.
func DeleteRepost(ctx context.Context, db bun.IDB, original, user uuid.UUID) (RepostCounts, error) {
	var c RepostCounts
	var deleted uuid.NullUUID
	err := db.QueryRowContext(ctx, `WITH del AS (
		DELETE FROM posts WHERE repost_of = ?0 AND user_id = ?1 RETURNING id
	), upd AS (
		UPDATE posts SET reposts_count = reposts_count - (SELECT count(*) FROM del),
			counts_version = counts_version + (SELECT count(*) FROM del)
		WHERE id = ?0
		RETURNING user_id, likes_count, comments_count, reposts_count, counts_version
	)
	SELECT upd.*, (SELECT id FROM del) FROM upd`, original, user).
		Scan(&c.AuthorID, &c.Likes, &c.Comments, &c.Reposts, &c.Version, &deleted)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("persistence: delete repost: %w", domain.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("persistence: delete repost: %w", err)
	}
	c.Changed, c.RepostID = deleted.Valid, deleted.UUID
	return c, nil
}

// RepostByUser loads user's repost of original as viewer sees it (in a
// list, the row postsSQL renders with its original); domain.ErrNotFound if
// there is none.
func RepostByUser(ctx context.Context, db bun.IDB, original, user, viewer uuid.UUID) (*PostRow, error) {
	rows, err := queryPosts(ctx, db, postsSQL(" WHERE repost_of = $2 AND user_id = $3", 1),
		uuidArray([]uuid.UUID{viewer}), original, user)
	if err != nil {
		return nil, fmt.Errorf("persistence: repost by user: %w", err)
	}
	if len(rows) == 0 {
		return nil, notFound(sql.ErrNoRows, "persistence: repost by user")
	}
	return rows[0], nil
}

// RepostEntryByID loads the repost row id as viewer sees it, with its
// original, when the reposter is not suspended and the original is listed
// (not removed, its author not suspended); domain.ErrNotFound otherwise.
// HiddenFor says whether a block stands between viewer and either person.
func RepostEntryByID(ctx context.Context, db bun.IDB, id, viewer uuid.UUID) (*PostRow, error) {
	rows, err := queryPosts(ctx, db, postsSQL(" WHERE id = $2 AND repost_of IS NOT NULL AND user_id NOT IN ("+
		suspendedUsersSQL+")"+repostShownSQL(""), 1), uuidArray([]uuid.UUID{viewer}), id)
	if err != nil {
		return nil, fmt.Errorf("persistence: repost entry: %w", err)
	}
	if len(rows) == 0 || rows[0].Original == nil {
		return nil, notFound(sql.ErrNoRows, "persistence: repost entry")
	}
	return rows[0], nil
}

// isRepostOfGoneViolation reports a violation of a repost's foreign key to
// its original: the original was deleted under the insert.
func isRepostOfGoneViolation(err error) bool {
	type pgErr interface{ Field(byte) string }
	var pe pgErr
	return errors.As(err, &pe) && pe.Field('C') == "23503" && pe.Field('n') == "posts_repost_of_fkey"
}
