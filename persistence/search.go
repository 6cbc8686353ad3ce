package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// The search index's queries: tailing the outbox, loading what the index
// holds (in batches and by keyset scans for rebuilds), and loading what a
// result page shows.

// searchUserColumns are the user columns search indexes and shows.
var searchUserColumns = []string{"id", "name", "handle", "role", "university_id", "department", "course", "batch", "avatar_url", "avatar_key", "avatar_variants"}

// SearchText is the searchable text of a post or comment.
type SearchText struct {
	ID      uuid.UUID `bun:"id,type:uuid"`
	Content string    `bun:"content"`
}

// OutboxAfter lists outbox entries with an id above after, plus those whose
// ids are in also (ids the caller saw missing before: their transactions
// may have committed since), in id order, at most limit.
func OutboxAfter(ctx context.Context, db bun.IDB, after int64, also []int64, limit int) ([]OutboxEntry, error) {
	var out []OutboxEntry
	q := db.NewSelect().Model(&out).Where("id > ?", after)
	if len(also) > 0 {
		q = q.WhereOr("id IN (?)", bun.In(also))
	}
	if err := q.OrderExpr("id").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: outbox after %d: %w", after, err)
	}
	return out, nil
}

// MaxOutboxID is the highest outbox id visible now; 0 when it is empty.
func MaxOutboxID(ctx context.Context, db bun.IDB) (int64, error) {
	var id int64
	if err := db.NewSelect().Model((*OutboxEntry)(nil)).ColumnExpr("coalesce(max(id), 0)").Scan(ctx, &id); err != nil {
		return 0, fmt.Errorf("persistence: max outbox id: %w", err)
	}
	return id, nil
}

// MissingOutboxIDs lists the ids in [from, to] that have no visible outbox
// row: rolled back, pruned, or written by a transaction still in flight.
func MissingOutboxIDs(ctx context.Context, db bun.IDB, from, to int64) ([]int64, error) {
	var ids []int64
	if from > to {
		return nil, nil
	}
	err := db.NewSelect().ColumnExpr("g").
		TableExpr("generate_series(?::bigint, ?::bigint) AS g", from, to).
		Where("NOT EXISTS (SELECT 1 FROM search_outbox so WHERE so.id = g)").
		OrderExpr("g").Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("persistence: missing outbox ids: %w", err)
	}
	return ids, nil
}

// PruneOutbox deletes entries older than age among the oldest limit
// entries, and says how many went. Looking only at the oldest rows keeps it
// an index range scan however large the table is.
func PruneOutbox(ctx context.Context, db bun.IDB, age time.Duration, limit int) (int64, error) {
	res, err := db.ExecContext(ctx, `DELETE FROM search_outbox WHERE id IN (
		SELECT id FROM (SELECT id, created_at FROM search_outbox ORDER BY id LIMIT ?) oldest
		WHERE created_at < now() - ?::interval)`, limit, fmt.Sprintf("%d seconds", int64(age.Seconds())))
	if err != nil {
		return 0, fmt.Errorf("persistence: prune outbox: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// SearchCounts is how many users, posts and comments exist (for a rebuild's
// progress).
func SearchCounts(ctx context.Context, db bun.IDB) (users, posts, comments int64, err error) {
	err = db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM posts),
		(SELECT count(*) FROM comments)`).Scan(&users, &posts, &comments)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("persistence: search counts: %w", err)
	}
	return users, posts, comments, nil
}

// SearchUsersByIDs loads the searchable and shown columns of the users
// among ids that exist, in no particular order.
func SearchUsersByIDs(ctx context.Context, db bun.IDB, ids []uuid.UUID) ([]User, error) {
	var out []User
	if len(ids) == 0 {
		return out, nil
	}
	if err := db.NewSelect().Model(&out).Column(searchUserColumns...).Where("id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: search users: %w", err)
	}
	return out, nil
}

// ShownUsersByIDs loads, of the users among ids, those search may show:
// the ones who verified their e-mail (an unfinished signup is nobody yet,
// as on profiles) and are not suspended. Neither verifying nor a suspension
// adds an outbox entry, so the index holds every account and the filter is
// here.
func ShownUsersByIDs(ctx context.Context, db bun.IDB, ids []uuid.UUID) ([]User, error) {
	var out []User
	if len(ids) == 0 {
		return out, nil
	}
	if err := db.NewSelect().Model(&out).Column(searchUserColumns...).
		Where("id IN (?) AND email_verified_at IS NOT NULL", bun.In(ids)).Where(notSuspendedSQL("?TableAlias.id")).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: shown users: %w", err)
	}
	return out, nil
}

// SearchUsersAfter is a keyset page of users in id order, for rebuilds.
func SearchUsersAfter(ctx context.Context, db bun.IDB, after uuid.UUID, limit int) ([]User, error) {
	var out []User
	if err := db.NewSelect().Model(&out).Column(searchUserColumns...).Where("id > ?", after).
		OrderExpr("id").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: scan users: %w", err)
	}
	return out, nil
}

// PostTexts loads the content of the posts among ids that exist.
func PostTexts(ctx context.Context, db bun.IDB, ids []uuid.UUID) ([]SearchText, error) {
	return textsByIDs(ctx, db, "posts", ids)
}

// CommentTexts loads the content of the comments among ids that exist.
func CommentTexts(ctx context.Context, db bun.IDB, ids []uuid.UUID) ([]SearchText, error) {
	return textsByIDs(ctx, db, "comments", ids)
}

// GroupText is what the index reads of a group.
type GroupText struct {
	ID          uuid.UUID `bun:"id,type:uuid"`
	Name        string    `bun:"name"`
	Handle      string    `bun:"handle"`
	Description string    `bun:"description"`
}

// GroupTexts loads the groups among ids that exist.
func GroupTexts(ctx context.Context, db bun.IDB, ids []uuid.UUID) ([]GroupText, error) {
	var out []GroupText
	if len(ids) == 0 {
		return out, nil
	}
	if err := db.NewSelect().Column("id", "name", "handle", "description").Table("groups").
		Where("id IN (?)", bun.In(ids)).Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("persistence: group texts: %w", err)
	}
	return out, nil
}

// GroupTextsAfter is a keyset page of groups in id order.
func GroupTextsAfter(ctx context.Context, db bun.IDB, after uuid.UUID, limit int) ([]GroupText, error) {
	var out []GroupText
	if err := db.NewSelect().Column("id", "name", "handle", "description").Table("groups").
		Where("id > ?", after).Order("id").Limit(int64(limit)).Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("persistence: group texts after: %w", err)
	}
	return out, nil
}

// PostTextsAfter is a keyset page of post contents in id order.
func PostTextsAfter(ctx context.Context, db bun.IDB, after uuid.UUID, limit int) ([]SearchText, error) {
	return textsAfter(ctx, db, "posts", after, limit)
}

// CommentTextsAfter is a keyset page of comment contents in id order.
func CommentTextsAfter(ctx context.Context, db bun.IDB, after uuid.UUID, limit int) ([]SearchText, error) {
	return textsAfter(ctx, db, "comments", after, limit)
}

func textsByIDs(ctx context.Context, db bun.IDB, table string, ids []uuid.UUID) ([]SearchText, error) {
	var out []SearchText
	if len(ids) == 0 {
		return out, nil
	}
	err := db.NewSelect().Column("id", "content").TableExpr("?", bun.Ident(table)).
		Where("id IN (?) AND removed_at IS NULL", bun.In(ids)).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: %s texts: %w", table, err)
	}
	return out, nil
}

func textsAfter(ctx context.Context, db bun.IDB, table string, after uuid.UUID, limit int) ([]SearchText, error) {
	var out []SearchText
	err := db.NewSelect().Column("id", "content").TableExpr("?", bun.Ident(table)).
		Where("id > ? AND removed_at IS NULL", after).
		// A repost's comment is not a post of its own to find.
		Apply(func(q *bun.SelectQuery) *bun.SelectQuery {
			if table == "posts" {
				return q.Where("repost_of IS NULL")
			}
			return q
		}).OrderExpr("id").Limit(int64(limit)).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: scan %s: %w", table, err)
	}
	return out, nil
}

// RecentContents is the text of the n newest posts and the n newest
// comments: a sample of what people write now.
func RecentContents(ctx context.Context, db bun.IDB, n int) ([]string, error) {
	var out []string
	err := db.NewRaw(`(SELECT content FROM posts ORDER BY id DESC LIMIT ?0)
		UNION ALL (SELECT content FROM comments ORDER BY id DESC LIMIT ?0)`, n).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: recent contents: %w", err)
	}
	return out, nil
}

// SearchPost is what a post result shows.
type SearchPost struct {
	ID           uuid.UUID `bun:"id,type:uuid"`
	AuthorID     uuid.UUID `bun:"author_id,type:uuid"`
	Content      string    `bun:"content"`
	AuthorName   string    `bun:"author_name"`
	AuthorAvatar string    `bun:"author_avatar"`
}

// SearchPostsByIDs loads the posts among ids that exist, with their authors.
//
// Posts of closed and secret groups are left out unless reader is a member,
// and posts of suspended accounts for everyone (the index holds every
// post; who may read one is decided here, per reader, at query time).
func SearchPostsByIDs(ctx context.Context, db bun.IDB, ids []uuid.UUID, reader uuid.UUID) ([]SearchPost, error) {
	var out []SearchPost
	if len(ids) == 0 {
		return out, nil
	}
	err := db.NewSelect().TableExpr("posts AS p").Join("JOIN users AS u ON u.id = p.user_id").
		ColumnExpr("p.id, p.user_id AS author_id, p.content, u.name AS author_name, u.avatar_url AS author_avatar").
		Where("p.id IN (?) AND p.removed_at IS NULL", bun.In(ids)).
		Where(notSuspendedSQL("p.user_id")).
		Where(groupReadable, reader).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: search posts: %w", err)
	}
	return out, nil
}

// SearchComment is what a comment result shows: the comment, its author's
// avatar, and the name of the author of the post it is on.
type SearchComment struct {
	ID             uuid.UUID `bun:"id,type:uuid"`
	PostID         uuid.UUID `bun:"post_id,type:uuid"`
	AuthorID       uuid.UUID `bun:"author_id,type:uuid"`
	PostAuthorID   uuid.UUID `bun:"post_author_id,type:uuid"`
	Content        string    `bun:"content"`
	AuthorAvatar   string    `bun:"author_avatar"`
	PostAuthorName string    `bun:"post_author_name"`
}

// SearchCommentsByIDs loads the comments among ids that exist.
// Comments on posts of closed and secret groups are left out unless reader
// is a member, and comments by or on suspended accounts for everyone.
func SearchCommentsByIDs(ctx context.Context, db bun.IDB, ids []uuid.UUID, reader uuid.UUID) ([]SearchComment, error) {
	var out []SearchComment
	if len(ids) == 0 {
		return out, nil
	}
	err := db.NewSelect().TableExpr("comments AS c").
		Join("JOIN users AS cu ON cu.id = c.user_id").
		Join("JOIN posts AS p ON p.id = c.post_id").
		Join("JOIN users AS pu ON pu.id = p.user_id").
		ColumnExpr("c.id, c.post_id, c.user_id AS author_id, p.user_id AS post_author_id, c.content, cu.avatar_url AS author_avatar, pu.name AS post_author_name").
		Where("c.id IN (?) AND c.removed_at IS NULL AND p.removed_at IS NULL", bun.In(ids)).
		Where(notSuspendedSQL("c.user_id")).Where(notSuspendedSQL("p.user_id")).
		Where(groupReadable, reader).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: search comments: %w", err)
	}
	return out, nil
}

// groupReadable is the condition that the post p is outside groups, in a
// public group, or in a group ?0 is a member of.
var groupReadable = groupReadableBy("?0")

// groupReadableBy is groupReadable with reader as the reader's placeholder.
func groupReadableBy(reader string) string {
	return `p.group_id IS NULL OR EXISTS (SELECT FROM groups rg WHERE rg.id = p.group_id AND rg.visibility = 'public')
	OR EXISTS (SELECT FROM group_members rgm WHERE rgm.group_id = p.group_id AND rgm.user_id = ` + reader + ` AND rgm.status = 'member')`
}
