package persistence

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"campus/domain"
)

// ImageRef is a post image as lists show it: the original's url, type and
// size, its description and its smaller copies.
type ImageRef struct {
	URL      string         `json:"url"`
	Type     string         `json:"type"`
	Width    int            `json:"width"`
	Height   int            `json:"height"`
	Alt      string         `json:"alt"`
	Variants []ImageVariant `json:"variants"`
}

// PostRow is a post as its readers see it: with its author, its images in
// order and which of the readers like, saved and reposted it. One query
// fills a whole page.
//
// A repost row (RepostOf set) is the reposter's entry: its ID, author,
// Content (the comment) and times are the repost's, and Original is the
// post it shares. Then ImageList and the readers' positions (LikedBy,
// SavedBy, RepostedBy and the Is… of the first reader) are the original's,
// what the card shows and acts on.
type PostRow struct {
	Post `bun:",extend"`

	ImageList []ImageRef `bun:"image_list,scanonly,type:jsonb"`
	// IsLiked is whether the first (often the only) reader likes the post.
	IsLiked bool `bun:"is_liked,scanonly"`
	// IsSaved and IsReposted are whether the first reader bookmarked and
	// reposted the post.
	IsSaved    bool `bun:"-"`
	IsReposted bool `bun:"-"`
	// LikedBy are the positions, in the query's Viewers, of the readers who
	// like the post, ascending; SavedBy of those who bookmarked it and
	// RepostedBy of those who reposted it, likewise.
	LikedBy, SavedBy, RepostedBy []int `bun:"-"`
	// HiddenFor are the positions of the readers the post is hidden from:
	// a block stands between them and the author (or, for a repost, the
	// original's author), or (in the feed) they mute either.
	HiddenFor []int `bun:"-"`
	// Removed is whether a moderator removed the post (only PostByID
	// answers removed posts; lists leave them out).
	Removed bool `bun:"-"`
	// Group is the post's group; nil for a post outside groups.
	Group *PostGroup `bun:"-"`
	// Mentions are the people the post's text names (StoreMentions).
	Mentions []MentionRef `bun:"-"`
	// Original is the post a repost row shares; nil otherwise.
	Original *PostRow `bun:"-"`
	// SortAt is the row's place in its list: when it was posted, or, in
	// the Saved list, when the reader saved it. The next page's keyset.
	SortAt time.Time `bun:"-"`
}

// PostGroup is the group a post belongs to, as posts show it.
type PostGroup struct {
	ID                       uuid.UUID
	Handle, Name, Visibility string
}

// PostQuery selects a page of posts, newest first, for one or more readers.
type PostQuery struct {
	Viewers []uuid.UUID // whose likes fill LikedBy (and IsLiked, the first's)
	Author  uuid.UUID   // only this author's posts (and reposts); zero for everyone's
	// Group: only this group's posts. Zero with Author zero is the home
	// feed: posts outside groups (reposts among them) and those of the
	// groups in Groups.
	Group  uuid.UUID
	Groups []uuid.UUID
	// Saved: the posts this user bookmarked, newest saved first (After is
	// then a saved time); set, Author, Group and Groups are ignored.
	Saved uuid.UUID
	After Keyset // the last post of the previous page (SortAt, ID)
	Limit int
	// HiddenFrom leaves out, in the query, the posts hidden from this reader
	// (as HiddenFor marks them), so that the page still holds Limit posts
	// when more exist. For a query of one reader; zero for none.
	HiddenFrom uuid.UUID
}

// authorColumns are the user columns a post or comment shows (UserSummary).
func authorColumns(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Column("id", "name", "role", "university_id", "department", "avatar_url", "avatar_key", "avatar_variants")
}

// postsSQL is the one query behind the feed, a profile's posts, the Saved
// list and a single post: a page of posts (where filters them; already
// ordered and limited) joined to the authors, with images aggregated and
// the readers' likes, bookmarks and reposts looked up per row, all through
// indexes. Limiting inside makes the planner see a page of rows rather than
// the whole table, and each lookup is an index probe per post and reader
// however many posts the readers have liked or saved (a join to their likes
// may be planned as a hash of all of them). It answers the 1-based
// positions of the readers who like (save, repost) the post.
//
// $1 is the readers' ids as an array literal; where uses $2 on. The limit is a constant of the text so
// that a prepared statement's generic plan knows the page is small.
func postsSQL(where string, limit int) string {
	return postsSQLHiding(postsSource, where, "created_at", limit, false)
}

// hiddenSQL answers the positions of the readers who must not see the post:
// a block either way between reader and author (or the original's author,
// o.user_id, of a repost), or, with mutes, a mute of either by the reader.
// Index probes per post and reader, like the likes.
func hiddenSQL(mutes bool) string {
	q := `ARRAY(SELECT v.i FROM unnest($1::uuid[]) WITH ORDINALITY AS v (u, i)
		WHERE EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = v.u AND b.blocked_id = p.user_id)
		OR EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = p.user_id AND b.blocked_id = v.u)`
	if mutes {
		q += `
		OR EXISTS (SELECT FROM user_mutes m WHERE m.muter_id = v.u AND m.muted_id = p.user_id)`
	}
	q += `
		OR (o.user_id IS NOT NULL AND (EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = v.u AND b.blocked_id = o.user_id)
			OR EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = o.user_id AND b.blocked_id = v.u)`
	if mutes {
		q += `
			OR EXISTS (SELECT FROM user_mutes m WHERE m.muter_id = v.u AND m.muted_id = o.user_id)`
	}
	q += `))`
	// A post of a closed or secret group is for its members only, on
	// every path that reads posts through here.
	q += `
		OR (g.visibility IN ('closed', 'secret') AND NOT EXISTS (SELECT FROM group_members gm
			WHERE gm.group_id = p.group_id AND gm.user_id = v.u AND gm.status = 'member'))`
	return q + ` ORDER BY v.i)`
}

// hiddenUsersSQL selects the people whose posts are hidden from the reader
// $n: those with a block between them and the reader (and, with mutes,
// those the reader mutes).
func hiddenUsersSQL(n int, mutes bool) string {
	q := fmt.Sprintf(`SELECT blocked_id FROM user_blocks WHERE blocker_id = $%[1]d
		UNION ALL SELECT blocker_id FROM user_blocks WHERE blocked_id = $%[1]d`, n)
	if mutes {
		q += fmt.Sprintf(`
		UNION ALL SELECT muted_id FROM user_mutes WHERE muter_id = $%d`, n)
	}
	return q
}

// hiddenFromSQL is the condition that leaves out what hiddenSQL marks as
// hidden from the reader $n: the posts of the people hiddenUsersSQL
// selects, and the posts of closed and secret groups the reader is not a
// member of. The lists are read once per query (hashed subplans: a reader
// blocks few people and belongs to few groups), not probed per post. (A
// repost whose original's author is among them is left out by
// repostShownSQL.)
func hiddenFromSQL(n int, mutes bool) string {
	return ` AND user_id NOT IN (` + hiddenUsersSQL(n, mutes) + fmt.Sprintf(`)
		AND (group_id IS NULL OR group_id NOT IN (SELECT id FROM groups WHERE visibility IN ('closed', 'secret'))
			OR group_id IN (SELECT group_id FROM group_members WHERE user_id = $%d AND status = 'member'))`, n)
}

// repostShownSQL is the condition that a row, when it is a repost, shares
// an original that is listed too: not removed, its author not suspended
// (and, with hidden, not among those). A probe of the original's primary
// key for the few rows that are reposts: a scalar subquery, which the
// planner cannot turn into a hash of every post as it did an EXISTS (the
// OR keeps it from a join, and a hashed subplan read the whole table for
// one page of the feed).
func repostShownSQL(hidden string) string {
	q := ` AND (posts.repost_of IS NULL OR (SELECT o.removed_at IS NULL AND o.user_id NOT IN (` + suspendedUsersSQL + `)`
	if hidden != "" {
		q += ` AND o.user_id NOT IN (` + hidden + `)`
	}
	return q + ` FROM posts o WHERE o.id = posts.repost_of))`
}

// The inner lists postsSQLHiding reads from: every post (the feed, a
// profile, a group, one post), or one reader's saved posts with the time
// they saved each ($2 the reader).
const (
	postsColumns = `id, user_id, content, visibility, likes_count, comments_count, reposts_count, counts_version,
		created_at, updated_at, removed_at, group_id, repost_of`
	postsSource = `SELECT ` + postsColumns + `, created_at AS sort_at FROM posts`
	savedSource = `SELECT ` + postsColumns + `, sort_at FROM (SELECT p.*, b.created_at AS sort_at
		FROM post_bookmarks b JOIN posts p ON p.id = b.post_id WHERE b.user_id = $2) AS posts`
)

// postsSQLHiding is postsSQL on the rows source selects (postsSource,
// savedSource) ordered by sortKey, that also hides posts from readers who
// block or are blocked by the author (and who mute the author, with
// mutes). A repost's original comes in by one lateral primary-key lookup
// (nothing for the other rows); its images and the readers' likes, saves
// and reposts are looked up on the original. A save and a repost are
// looked up by scalar subqueries on both columns of their unique keys: an
// EXISTS was flattened into a join that probed by the post alone and
// filtered the readers after, every save or repost of a popular post read
// for each reader. And only for the readers who saved (reposted) anything
// at all (savers, reposters: one probe per reader): a page shared by
// hundreds of readers at an event, most of whom never saved a post, costs
// no more than before but those few probes.
func postsSQLHiding(source, where, sortKey string, limit int, mutes bool) string {
	return `WITH savers AS MATERIALIZED (SELECT v.u, v.i FROM unnest($1::uuid[]) WITH ORDINALITY AS v (u, i)
	WHERE (SELECT max(b.created_at) FROM post_bookmarks b WHERE b.user_id = v.u) IS NOT NULL
), reposters AS MATERIALIZED (SELECT v.u, v.i FROM unnest($1::uuid[]) WITH ORDINALITY AS v (u, i)
	WHERE (SELECT max(r.created_at) FROM posts r WHERE r.user_id = v.u AND r.repost_of IS NOT NULL) IS NOT NULL
)
SELECT p.id, p.user_id, p.content, p.visibility, p.likes_count, p.comments_count, p.reposts_count, p.counts_version,
	(extract(epoch FROM p.created_at) * 1000000)::int8, (extract(epoch FROM p.updated_at) * 1000000)::int8,
	(extract(epoch FROM p.sort_at) * 1000000)::int8,
	u.name, u.role, u.university_id, u.department, u.avatar_url, u.avatar_key, u.avatar_variants,
	(SELECT json_agg(json_build_object('url', pi.url, 'type', pi.type, 'width', pi.width, 'height', pi.height,
		'alt', pi.alt, 'variants', pi.variants) ORDER BY pi.position)
		FROM post_images pi WHERE pi.post_id = coalesce(p.repost_of, p.id)),
	ARRAY(SELECT v.i FROM unnest($1::uuid[]) WITH ORDINALITY AS v (u, i)
		WHERE EXISTS (SELECT FROM post_likes pl WHERE pl.post_id = coalesce(p.repost_of, p.id) AND pl.user_id = v.u) ORDER BY v.i),
	ARRAY(SELECT s.i FROM savers s
		WHERE (SELECT true FROM post_bookmarks pb WHERE pb.user_id = s.u AND pb.post_id = coalesce(p.repost_of, p.id)) ORDER BY s.i),
	ARRAY(SELECT s.i FROM reposters s
		WHERE (SELECT true FROM posts r WHERE r.repost_of = coalesce(p.repost_of, p.id) AND r.user_id = s.u) ORDER BY s.i),
	` + hiddenSQL(mutes) + `, p.removed_at IS NOT NULL, p.group_id, g.handle, g.name, g.visibility, p.repost_of, o.body,
	` + postMentionsSQL + `
FROM (` + source + where + `
	ORDER BY ` + sortKey + ` DESC, id DESC LIMIT ` + strconv.Itoa(limit) + `) AS p
JOIN users u ON u.id = p.user_id
LEFT JOIN groups g ON g.id = p.group_id
LEFT JOIN LATERAL (SELECT op.user_id, json_build_object('id', op.id, 'userId', op.user_id, 'content', op.content,
		'visibility', op.visibility, 'likes', op.likes_count, 'comments', op.comments_count, 'reposts', op.reposts_count,
		'version', op.counts_version, 'createdAt', (extract(epoch FROM op.created_at) * 1000000)::int8,
		'updatedAt', (extract(epoch FROM op.updated_at) * 1000000)::int8, 'name', ou.name, 'role', ou.role,
		'universityId', ou.university_id, 'department', ou.department, 'avatarUrl', ou.avatar_url,
		'avatarKey', ou.avatar_key, 'avatarVariants', ou.avatar_variants, 'mentions', ` + mentionsOfSQL("op") + `) AS body
	FROM posts op JOIN users ou ON ou.id = op.user_id WHERE op.id = p.repost_of) AS o ON true
ORDER BY p.sort_at DESC, p.id DESC`
}

// originalJSON is the original of a repost row as postsSQLHiding's lateral
// builds it.
type originalJSON struct {
	ID             uuid.UUID     `json:"id"`
	UserID         uuid.UUID     `json:"userId"`
	Content        string        `json:"content"`
	Visibility     string        `json:"visibility"`
	Likes          int           `json:"likes"`
	Comments       int           `json:"comments"`
	Reposts        int           `json:"reposts"`
	Version        int64         `json:"version"`
	CreatedAt      int64         `json:"createdAt"`
	UpdatedAt      int64         `json:"updatedAt"`
	Name           string        `json:"name"`
	Role           string        `json:"role"`
	UniversityID   *string       `json:"universityId"`
	Department     string        `json:"department"`
	AvatarURL      string        `json:"avatarUrl"`
	AvatarKey      string        `json:"avatarKey"`
	AvatarVariants ImageVariants `json:"avatarVariants"`
	Mentions       []MentionRef  `json:"mentions"`
}

// row is o as a PostRow (without the readers' positions, which the repost
// row carries).
func (o *originalJSON) row() *PostRow {
	r := &PostRow{Post: Post{ID: o.ID, UserID: o.UserID, Content: o.Content, Visibility: o.Visibility,
		LikesCount: o.Likes, CommentsCount: o.Comments, RepostsCount: o.Reposts, CountsVersion: o.Version,
		CreatedAt: time.UnixMicro(o.CreatedAt).UTC(), UpdatedAt: time.UnixMicro(o.UpdatedAt).UTC(),
		Author: &User{ID: o.UserID, Name: o.Name, Role: o.Role, Department: o.Department, AvatarURL: o.AvatarURL,
			AvatarKey: o.AvatarKey, AvatarVariants: o.AvatarVariants}}, Mentions: o.Mentions}
	if o.UniversityID != nil {
		r.Author.UniversityID = *o.UniversityID
	}
	r.SortAt = r.CreatedAt
	return r
}

// queryPosts runs a postsSQL query (prepared, on the pool) and scans its
// rows by hand: the feed is the busiest read, and reflection-driven
// scanning was the largest part of its cost in the server.
func queryPosts(ctx context.Context, db bun.IDB, query string, args ...any) ([]*PostRow, error) {
	rows, err := prepared(ctx, db, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*PostRow
	for rows.Next() {
		r := &PostRow{Post: Post{Author: &User{}}}
		var univ sql.NullString
		var images, original []byte
		var created, updated, sortAt int64
		var likedBy, savedBy, repostedBy, hiddenFor []byte
		var groupID, repostOf uuid.NullUUID
		var gHandle, gName, gVis sql.NullString
		var mentions []byte
		if err := rows.Scan(&r.ID, &r.UserID, &r.Content, &r.Visibility, &r.LikesCount, &r.CommentsCount, &r.RepostsCount,
			&r.CountsVersion, &created, &updated, &sortAt, &r.Author.Name, &r.Author.Role, &univ, &r.Author.Department,
			&r.Author.AvatarURL, &r.Author.AvatarKey, &r.Author.AvatarVariants, &images, &likedBy, &savedBy, &repostedBy,
			&hiddenFor, &r.Removed, &groupID, &gHandle, &gName, &gVis, &repostOf, &original, &mentions); err != nil {
			return nil, err
		}
		if groupID.Valid {
			r.Group = &PostGroup{ID: groupID.UUID, Handle: gHandle.String, Name: gName.String, Visibility: gVis.String}
		}
		var err error
		if r.Mentions, err = parseMentions(mentions); err != nil {
			return nil, err
		}
		if r.LikedBy, err = parsePositions(likedBy); err != nil {
			return nil, fmt.Errorf("liked by: %w", err)
		}
		if r.SavedBy, err = parsePositions(savedBy); err != nil {
			return nil, fmt.Errorf("saved by: %w", err)
		}
		if r.RepostedBy, err = parsePositions(repostedBy); err != nil {
			return nil, fmt.Errorf("reposted by: %w", err)
		}
		if r.HiddenFor, err = parsePositions(hiddenFor); err != nil {
			return nil, fmt.Errorf("hidden for: %w", err)
		}
		r.IsLiked = len(r.LikedBy) > 0 && r.LikedBy[0] == 0
		r.IsSaved = len(r.SavedBy) > 0 && r.SavedBy[0] == 0
		r.IsReposted = len(r.RepostedBy) > 0 && r.RepostedBy[0] == 0
		// Microseconds since the epoch, Postgres's own precision: reading
		// them is cheaper than parsing timestamps' text on both sides.
		r.CreatedAt, r.UpdatedAt = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
		r.SortAt = time.UnixMicro(sortAt).UTC()
		r.Author.ID, r.Author.UniversityID = r.UserID, univ.String
		r.ImageList = []ImageRef{}
		if len(images) > 0 {
			if err := json.Unmarshal(images, &r.ImageList); err != nil {
				return nil, fmt.Errorf("image list: %w", err)
			}
		}
		if repostOf.Valid {
			r.RepostOf = repostOf.UUID
			if len(original) == 0 {
				continue // the original went between the inner select and the join
			}
			var o originalJSON
			if err := json.Unmarshal(original, &o); err != nil {
				return nil, fmt.Errorf("original: %w", err)
			}
			r.Original = o.row()
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Posts answers a page of posts, newest first, and whether there are more.
func Posts(ctx context.Context, db bun.IDB, pq PostQuery) ([]*PostRow, bool, error) {
	query, args := postsQuery(pq)
	rows, err := queryPosts(ctx, db, query, args...)
	if err != nil {
		return nil, false, fmt.Errorf("persistence: posts: %w", err)
	}
	more := len(rows) > pq.Limit
	if more {
		rows = rows[:pq.Limit]
	}
	return rows, more, nil
}

// postsQuery is the statement and arguments of Posts (one row more than
// the page, which tells whether more follow).
func postsQuery(pq PostQuery) (string, []any) {
	args := []any{uuidArray(pq.Viewers)}
	// Removed posts are never listed, nor a suspended account's; a
	// reader's mutes hide posts from the feed only (not from the author's
	// own page, nor from the reader's saved posts).
	where := " WHERE removed_at IS NULL AND user_id NOT IN (" + suspendedUsersSQL + ")"
	source, sortKey := postsSource, "created_at"
	switch {
	case pq.Saved != uuid.Nil:
		args = append(args, pq.Saved)
		source, sortKey = savedSource, "sort_at"
	case pq.Group != uuid.Nil:
		args = append(args, pq.Group)
		where += " AND group_id = $2"
	case pq.Author != uuid.Nil:
		args = append(args, pq.Author)
		where += " AND user_id = $2"
	default:
		// The home feed: posts outside groups and the reader's groups'.
		// Readers sharing one query share their groups (app/pages.go).
		args = append(args, uuidArray(pq.Groups))
		where += " AND (group_id IS NULL OR group_id = ANY($2::uuid[]))"
	}
	if !pq.After.IsZero() {
		n := len(args)
		args = append(args, pq.After.At, pq.After.ID)
		where += fmt.Sprintf(" AND (%s, id) < ($%d, $%d)", sortKey, n+1, n+2)
	}
	mutes := pq.Author == uuid.Nil && pq.Group == uuid.Nil && pq.Saved == uuid.Nil
	hidden := ""
	if pq.HiddenFrom != uuid.Nil {
		args = append(args, pq.HiddenFrom)
		where += hiddenFromSQL(len(args), mutes)
		hidden = hiddenUsersSQL(len(args), mutes)
	}
	if pq.Group == uuid.Nil {
		where += repostShownSQL(hidden)
	}
	return postsSQLHiding(source, where, sortKey, pq.Limit+1, mutes), args
}

// PostByID loads one post as viewer sees it; domain.ErrNotFound if none.
func PostByID(ctx context.Context, db bun.IDB, id, viewer uuid.UUID) (*PostRow, error) {
	// A repost's row is no post of its own to read: it is addressed by its
	// original (RepostByUser).
	rows, err := queryPosts(ctx, db, postsSQL(" WHERE id = $2 AND repost_of IS NULL", 1), uuidArray([]uuid.UUID{viewer}), id)
	if err != nil {
		return nil, fmt.Errorf("persistence: post by id: %w", err)
	}
	if len(rows) == 0 {
		return nil, notFound(sql.ErrNoRows, "persistence: post by id")
	}
	return rows[0], nil
}

// InsertPost stores a new post with its images and tags and queues it for
// search.
func InsertPost(ctx context.Context, db bun.IDB, p *Post, images []*PostImage) error {
	if _, err := db.NewInsert().Model(p).Returning("created_at, updated_at").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert post: %w", err)
	}
	if tags := domain.ExtractTags(p.Content); len(tags) > 0 {
		if err := setPostTags(ctx, db, p.ID, tags); err != nil {
			return err
		}
	}
	if len(images) > 0 {
		if _, err := db.NewInsert().Model(&images).Exec(ctx); err != nil {
			return fmt.Errorf("persistence: insert post images: %w", err)
		}
	}
	if p.GroupID != uuid.Nil {
		if _, err := db.ExecContext(ctx, "UPDATE groups SET posts_count = posts_count + 1 WHERE id = ?", p.GroupID); err != nil {
			return fmt.Errorf("persistence: group posts count: %w", err)
		}
	}
	return AddOutbox(ctx, db, EntityPost, p.ID, OpUpsert)
}

// LockedPost is what an author's change needs to know about a post.
type LockedPost struct {
	AuthorID uuid.UUID
	Images   int
	GroupID  uuid.UUID // zero outside groups
	RepostOf uuid.UUID // the original, when the row is a repost
}

// LockPost locks the post's row for the rest of tx and answers its author
// and image count; domain.ErrNotFound if there is no such post.
func LockPost(ctx context.Context, tx bun.IDB, id uuid.UUID) (LockedPost, error) {
	var lp LockedPost
	var group, repostOf uuid.NullUUID
	err := tx.QueryRowContext(ctx, `SELECT p.user_id, (SELECT count(*) FROM post_images pi WHERE pi.post_id = p.id), p.group_id,
		p.repost_of FROM posts p WHERE p.id = ? FOR UPDATE`, id).Scan(&lp.AuthorID, &lp.Images, &group, &repostOf)
	if err != nil {
		return lp, notFound(err, "persistence: lock post")
	}
	lp.GroupID, lp.RepostOf = group.UUID, repostOf.UUID
	return lp, nil
}

// SetPostContent replaces a post's text and its tags and queues it for
// search.
func SetPostContent(ctx context.Context, db bun.IDB, id uuid.UUID, content string) error {
	_, err := db.NewUpdate().Model((*Post)(nil)).Set("content = ?", content).Set("updated_at = now()").
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: set post content: %w", err)
	}
	if err := setPostTags(ctx, db, id, domain.ExtractTags(content)); err != nil {
		return err
	}
	return AddOutbox(ctx, db, EntityPost, id, OpUpsert)
}

// SetPostImageAlts replaces the descriptions of a post's images: alts[i]
// is the image at position i's. Images past the end of alts keep theirs.
func SetPostImageAlts(ctx context.Context, db bun.IDB, id uuid.UUID, alts []string) error {
	if len(alts) == 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE post_images pi SET alt = a.alt
		FROM unnest(?::text[]) WITH ORDINALITY AS a (alt, i)
		WHERE pi.post_id = ? AND pi.position = a.i - 1`, pgdialect.Array(alts), id)
	if err != nil {
		return fmt.Errorf("persistence: set post image alts: %w", err)
	}
	return nil
}

// DeletePost removes a post and, by cascade, its images, likes, comments and
// notifications, telling search about the post and each comment, and every
// node's cached gate of it (at commit). It answers the storage keys of the
// images, to delete once the transaction commits.
func DeletePost(ctx context.Context, tx bun.IDB, id uuid.UUID) ([]string, error) {
	var keys []string
	if err := tx.NewSelect().Model((*PostImage)(nil)).Column("storage_key").Where("post_id = ?", id).
		Scan(ctx, &keys); err != nil {
		return nil, fmt.Errorf("persistence: post image keys: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_outbox (entity, entity_id, op)
		SELECT ?, id, ? FROM comments WHERE post_id = ?`, EntityComment, OpDelete, id); err != nil {
		return nil, fmt.Errorf("persistence: outbox post comments: %w", err)
	}
	if err := AddOutbox(ctx, tx, EntityPost, id, OpDelete); err != nil {
		return nil, err
	}
	var group uuid.NullUUID
	err := tx.QueryRowContext(ctx, "DELETE FROM posts WHERE id = ? RETURNING group_id", id).Scan(&group)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: delete post: %w", domain.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("persistence: delete post: %w", err)
	}
	if group.Valid {
		if _, err := tx.ExecContext(ctx, "UPDATE groups SET posts_count = posts_count - 1 WHERE id = ?", group.UUID); err != nil {
			return nil, fmt.Errorf("persistence: group posts count: %w", err)
		}
	}
	// A node that cached the post's gate would otherwise go on answering
	// its comments as an empty list until the cache starts over.
	if _, err := tx.ExecContext(ctx, "SELECT pg_notify(?, ?)", BlockChannel, PostRemovedPayload(id)); err != nil {
		return nil, fmt.Errorf("persistence: delete post: notify: %w", err)
	}
	return keys, nil
}

// Comments answers a page of a post's comments, oldest first, with their
// authors, and whether there are more. Removed comments, those of
// suspended accounts and those of people with a block between them and
// viewer are left out.
func Comments(ctx context.Context, db bun.IDB, postID, viewer uuid.UUID, after Keyset, limit int) ([]*Comment, bool, error) {
	var cs []*Comment
	q := db.NewSelect().Model(&cs).Relation("Author", authorColumns).
		Where("c.post_id = ? AND c.removed_at IS NULL", postID).
		Where(notSuspendedSQL("c.user_id")).
		Where("NOT EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = ?0 AND b.blocked_id = c.user_id)", viewer).
		Where("NOT EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = c.user_id AND b.blocked_id = ?0)", viewer).
		OrderExpr("c.created_at ASC, c.id ASC").Limit(int64(limit) + 1)
	if !after.IsZero() {
		q = q.Where("(c.created_at, c.id) > (?, ?)", after.At, after.ID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, fmt.Errorf("persistence: comments: %w", err)
	}
	more := len(cs) > limit
	if more {
		cs = cs[:limit]
	}
	if err := fillCommentMentions(ctx, db, cs); err != nil {
		return nil, false, err
	}
	return cs, more, nil
}

// PostExists reports whether the post is there.
func PostExists(ctx context.Context, db bun.IDB, id uuid.UUID) (bool, error) {
	ok, err := db.NewSelect().Model((*Post)(nil)).Where("id = ?", id).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: post exists: %w", err)
	}
	return ok, nil
}

// LikeChange is one user's like action on the batch's post.
type LikeChange struct {
	UserID uuid.UUID
	Op     domain.LikeAction
}

// CommentRemoval is a request by UserID to delete a comment.
type CommentRemoval struct {
	CommentID uuid.UUID
	UserID    uuid.UUID
}

// PostBatch is everything the post grain writes to one post in one
// transaction: like actions in arrival order, new comments (ID, UserID and
// Content set by the caller), and comment removals.
type PostBatch struct {
	PostID   uuid.UUID
	Likes    []LikeChange
	Comments []*Comment
	Removals []CommentRemoval
}

// PostBatchResult is what a committed batch did. Counts are the ones
// Postgres returned after the batch, so they are exact even if another
// writer (a twin grain activation) changed the post at the same time.
type PostBatchResult struct {
	AuthorID      uuid.UUID
	LikesCount    int
	CommentsCount int
	// RepostsCount is the post's repost count (reposts are written outside
	// the batches; it goes out with the live counts all the same).
	RepostsCount int
	// CountsVersion is the post's counts_version with these counts.
	CountsVersion int64
	// Liked is, per entry of Likes, whether the user likes the post after
	// that action.
	Liked []bool
	// NewLikers are the users whose like row this batch inserted.
	NewLikers []uuid.UUID
	// NewComments are the comments this batch inserted (a retried comment
	// that already existed is not among them); every Comments entry has its
	// CreatedAt filled either way.
	NewComments []*Comment
	// RemovalErrs is, per entry of Removals, nil when the comment is gone
	// (now or before), domain.ErrNotFound-kind for a comment not on this
	// post, domain.ErrForbidden-kind when the user may not delete it.
	RemovalErrs []error
}

// ErrPostGone means the batch's post does not exist (any more).
var ErrPostGone = fmt.Errorf("persistence: post: %w", domain.ErrNotFound)

// likePlan is one user's like actions resolved against the state before
// the batch.
type likePlan struct {
	ops []int // indexes into PostBatch.Likes, in order
	// needInitial is true when the first action is a toggle, whose result
	// depends on the state before the batch.
	needInitial bool
	// final is the state after all actions when it does not depend on the
	// initial state (some Set or Unset came first or later); flip means
	// "the opposite of the initial state", keep "the initial state".
	known, final, flip bool
}

// ApplyPostBatch writes b in one transaction: one multi-row like insert, one
// multi-row like delete and one counter update (a single statement when the
// batch holds only likes), plus the comment rows and their search outbox
// entries. Counters move by the rows actually inserted and deleted.
func ApplyPostBatch(ctx context.Context, db bun.IDB, b PostBatch) (PostBatchResult, error) {
	w := newBatchWork(b)
	var err error
	if len(b.Comments) == 0 && len(b.Removals) == 0 {
		err = w.write(ctx, db) // one statement: atomic without BEGIN/COMMIT
	} else {
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return w.write(ctx, tx) })
	}
	if err != nil {
		return PostBatchResult{}, err
	}
	return w.result(), nil
}

// ApplyPostBatches writes the batches of many posts in one transaction (one
// commit, one WAL flush, for all of them) and answers, per batch, its result
// or its error. It first locks the rows of the posts it writes, in id order:
// a post deleted meanwhile then fails only its own batch (ErrPostGone), and
// two such transactions (parallel writers, a twin grain's batch) lock in one
// order and cannot deadlock. Should a batch fail anyway (a liker's account
// deleted under it), the transaction is rolled back and written again with a
// savepoint per batch, so that only the failing batch's requests fail.
// When the transaction itself fails (the database is gone), every batch
// gets that error: nothing of it committed.
func ApplyPostBatches(ctx context.Context, db bun.IDB, bs []PostBatch) ([]PostBatchResult, []error) {
	res, errs := make([]PostBatchResult, len(bs)), make([]error, len(bs))
	if len(bs) == 1 {
		res[0], errs[0] = ApplyPostBatch(ctx, db, bs[0])
		return res, errs
	}
	order := make([]int, len(bs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(bs[a].PostID[:], bs[b].PostID[:]) })

	attempt := func(isolate bool) error {
		clear(res)
		clear(errs)
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			ptx := onPool(db, tx)
			present, err := lockPosts(ctx, ptx, bs)
			if err != nil {
				return err
			}
			works := make([]*batchWork, len(bs))
			var together, apart []int
			inStatement := make(map[uuid.UUID]bool)
			for _, i := range order {
				if !present[bs[i].PostID] {
					errs[i] = ErrPostGone
					continue
				}
				works[i] = newBatchWork(bs[i])
				// Like-only batches share one statement, one per post: two
				// batches of one post (twin grains) in one statement would
				// both start from the same snapshot.
				b := bs[i]
				if !isolate && len(b.Comments) == 0 && len(b.Removals) == 0 && !inStatement[b.PostID] {
					inStatement[b.PostID] = true
					together = append(together, i)
				} else {
					apart = append(apart, i)
				}
			}
			if len(together) == 1 {
				apart, together = append(together, apart...), nil
			}
			if len(together) > 0 {
				ws := make([]*batchWork, len(together))
				for k, i := range together {
					ws[k] = works[i]
				}
				if err := applyLikesTogether(ctx, ptx, ws); err != nil {
					return err
				}
				for _, i := range together {
					res[i] = works[i].result()
				}
			}
			for _, i := range apart {
				w := works[i]
				if !isolate {
					if err := w.write(ctx, ptx); err != nil {
						return fmt.Errorf("post %s: %w", bs[i].PostID, err)
					}
				} else if err := tx.RunInTx(ctx, nil, func(ctx context.Context, sp bun.Tx) error {
					return w.write(ctx, onPool(db, sp))
				}); err != nil {
					if ctx.Err() != nil {
						return err
					}
					errs[i] = err
					continue
				}
				res[i] = w.result()
			}
			return nil
		})
	}
	err := attempt(false)
	if err != nil && ctx.Err() == nil && !isConnectionError(err) {
		err = attempt(true)
	}
	if err != nil {
		err = fmt.Errorf("persistence: post batches: %w", err)
		for i := range errs {
			res[i], errs[i] = PostBatchResult{}, err
		}
	}
	return res, errs
}

// lockPosts locks the rows of the batches' posts, in id order, and answers
// which of them exist.
func lockPosts(ctx context.Context, tx bun.IDB, bs []PostBatch) (map[uuid.UUID]bool, error) {
	ids := make([]uuid.UUID, len(bs))
	for i, b := range bs {
		ids[i] = b.PostID
	}
	rows, err := prepared(ctx, tx, lockPostsSQL, uuidArray(ids))
	if err != nil {
		return nil, fmt.Errorf("lock posts: %w", err)
	}
	defer rows.Close()
	present := make(map[uuid.UUID]bool, len(bs))
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("lock posts: %w", err)
		}
		present[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("lock posts: %w", err)
	}
	return present, nil
}

// lockPostsSQL locks posts for a counter update without blocking readers
// or the key-share locks of new like and comment rows.
const lockPostsSQL = `SELECT id FROM posts WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`

// isConnectionError reports a failure of the connection or the server
// rather than of a statement: writing again, batch by batch, cannot help.
func isConnectionError(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	if errors.Is(err, ErrPostGone) {
		return false
	}
	type pgErr interface{ Field(byte) string }
	var pe pgErr
	if !errors.As(err, &pe) {
		return true // no SQLSTATE: the network or the driver failed
	}
	class := pe.Field('C')
	// 08 connection exception, 53 insufficient resources, 57 operator
	// intervention (shutdown), 58 system error.
	return strings.HasPrefix(class, "08") || strings.HasPrefix(class, "53") ||
		strings.HasPrefix(class, "57") || strings.HasPrefix(class, "58")
}

// batchWork is one post batch being written: its plan, and what the
// statements answered. A fresh one per attempt.
type batchWork struct {
	b                      PostBatch
	res                    PostBatchResult
	plans                  map[uuid.UUID]*likePlan
	set, unset, flip, need []string
	counts                 batchCounts
}

func newBatchWork(b PostBatch) *batchWork {
	w := &batchWork{b: b, res: PostBatchResult{Liked: make([]bool, len(b.Likes)), RemovalErrs: make([]error, len(b.Removals))}}
	var order []uuid.UUID
	w.plans, order = planLikes(b.Likes)
	for _, u := range order {
		p := w.plans[u]
		if p.needInitial {
			w.need = append(w.need, u.String())
		}
		switch {
		case p.known && p.final:
			w.set = append(w.set, u.String())
		case p.known:
			w.unset = append(w.unset, u.String())
		case p.flip:
			w.flip = append(w.flip, u.String())
		}
	}
	// Sorted, so that two writers on one post lock like rows in one order
	// and cannot deadlock.
	slices.Sort(w.set)
	slices.Sort(w.unset)
	slices.Sort(w.flip)
	return w
}

// write runs the batch's statements on db.
func (w *batchWork) write(ctx context.Context, db bun.IDB) error {
	b := w.b
	delta := 0
	if len(b.Comments) > 0 {
		n, err := insertComments(ctx, db, b.PostID, b.Comments, &w.res)
		if err != nil {
			return err
		}
		delta += n
	}
	if len(b.Removals) > 0 {
		n, err := removeComments(ctx, db, b.PostID, b.Removals, w.res.RemovalErrs)
		if err != nil {
			return err
		}
		delta -= n
	}
	var err error
	w.counts, err = applyLikes(ctx, db, b.PostID, w.set, w.unset, w.flip, w.need, delta)
	return err
}

// result is what the written batch did.
func (w *batchWork) result() PostBatchResult {
	res, counts := w.res, w.counts
	res.AuthorID, res.LikesCount, res.CommentsCount, res.CountsVersion = counts.author, counts.likes, counts.comments, counts.version
	res.RepostsCount = counts.reposts
	res.NewLikers = counts.inserted
	initial := make(map[uuid.UUID]bool, len(counts.initial))
	for _, u := range counts.initial {
		initial[u] = true
	}
	for u, p := range w.plans {
		state := initial[u]
		for _, i := range p.ops {
			switch w.b.Likes[i].Op {
			case domain.Like:
				state = true
			case domain.Unlike:
				state = false
			default:
				state = !state
			}
			res.Liked[i] = state
		}
	}
	return res
}

// planLikes groups like actions by user, keeping each user's order, and
// works out each user's final state.
func planLikes(likes []LikeChange) (map[uuid.UUID]*likePlan, []uuid.UUID) {
	plans := make(map[uuid.UUID]*likePlan)
	var order []uuid.UUID
	for i, l := range likes {
		p := plans[l.UserID]
		if p == nil {
			p = &likePlan{needInitial: l.Op == domain.ToggleLike}
			plans[l.UserID] = p
			order = append(order, l.UserID)
		}
		p.ops = append(p.ops, i)
		switch l.Op {
		case domain.Like:
			p.known, p.final, p.flip = true, true, false
		case domain.Unlike:
			p.known, p.final, p.flip = true, false, false
		default:
			if p.known {
				p.final = !p.final
			} else {
				p.flip = !p.flip
			}
		}
	}
	return plans, order
}

type batchCounts struct {
	author                   uuid.UUID
	likes, comments, reposts int
	version                  int64
	inserted, initial        []uuid.UUID
}

// likeStatement is the like part of a batch in one statement. init reads the
// state of users whose first action was a toggle; flips insert where there
// was no like and delete where there was; the counter moves by the rows the
// insert and delete actually touched. All parts see one snapshot.
//
// init and del look each user up in the primary key, one probe per user
// (the LATERAL … LIMIT 1 on both key columns; del then deletes the rows
// found by their ctid, and by nothing else: a post_id = $1 beside it became
// the index read below). A join, or an = ANY on the key's second column,
// leaves the planner free to read every like of the post and filter, and it
// takes that whenever the statistics say the post has a like or two: a
// post that turned hot since the last analyze, whose index also holds the
// dead entries of every toggle since the last vacuum. That read was 2.7 ms
// of a batch of five at a campus event, and in a storm 3.0 of a batch's
// 3.1 ms (4,865 entries read for 136 unlikes).
const likeStatement = `WITH init AS (
	SELECT n.u AS user_id FROM unnest($5::uuid[]) AS n (u),
		LATERAL (SELECT FROM post_likes pl WHERE pl.post_id = $1 AND pl.user_id = n.u LIMIT 1) AS hit
), want AS (
	SELECT u AS user_id FROM unnest($2::uuid[]) u
	UNION ALL
	SELECT f FROM unnest($4::uuid[]) f WHERE f NOT IN (SELECT user_id FROM init)
), ins AS (
	INSERT INTO post_likes (post_id, user_id)
	SELECT $1, user_id FROM want ORDER BY user_id
	ON CONFLICT DO NOTHING
	RETURNING user_id
), del AS (
	DELETE FROM post_likes pl
	WHERE pl.ctid = ANY (ARRAY(
		SELECT hit.tid FROM (SELECT u FROM unnest($3::uuid[]) u
			UNION SELECT user_id FROM init WHERE user_id = ANY($4::uuid[])) AS d (u),
		LATERAL (SELECT l.ctid AS tid FROM post_likes l WHERE l.post_id = $1 AND l.user_id = d.u LIMIT 1) AS hit))
	RETURNING pl.user_id
), upd AS (
	UPDATE posts SET
		likes_count = likes_count + (SELECT count(*) FROM ins) - (SELECT count(*) FROM del),
		comments_count = comments_count + $6,
		counts_version = counts_version + 1
	WHERE id = $1
	RETURNING user_id, likes_count, comments_count, reposts_count, counts_version
)
SELECT upd.user_id, upd.likes_count, upd.comments_count, upd.reposts_count, upd.counts_version,
	ARRAY(SELECT user_id FROM ins), ARRAY(SELECT user_id FROM init)
FROM upd`

// applyLikes runs likeStatement, prepared (outside a transaction): planning
// it cost as much as a fifth of running it for a batch of hundreds.
func applyLikes(ctx context.Context, db bun.IDB, postID uuid.UUID, set, unset, flip, need []string, commentDelta int) (batchCounts, error) {
	var c batchCounts
	var inserted, initial []byte
	err := func() error {
		rows, err := prepared(ctx, db, likeStatement, postID,
			arrayLiteral(set), arrayLiteral(unset), arrayLiteral(flip), arrayLiteral(need), commentDelta)
		if err != nil {
			return err
		}
		defer rows.Close()
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return err
			}
			return sql.ErrNoRows
		}
		if err := rows.Scan(&c.author, &c.likes, &c.comments, &c.reposts, &c.version, &inserted, &initial); err != nil {
			return err
		}
		return rows.Close()
	}()
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) || isPostGoneViolation(err) {
			return c, ErrPostGone
		}
		return c, fmt.Errorf("persistence: apply likes: %w", err)
	}
	if c.inserted, err = parseIDArray(inserted); err != nil {
		return c, err
	}
	c.initial, err = parseIDArray(initial)
	return c, err
}

// likesTogetherStatement is likeStatement for the like-only batches of
// many posts, one batch per post, in one statement (one round trip, one
// execution, instead of one of each per post): parallel arrays of (post,
// user) for set ($2, $3), unset ($4, $5), flip ($6, $7) and need ($8, $9);
// $1 the posts. It answers a row per post: author, counts, the users it
// inserted and the users of need that liked it before.
const likesTogetherStatement = `WITH init AS (
	SELECT n.p AS post_id, n.u AS user_id FROM unnest($8::uuid[], $9::uuid[]) AS n (p, u),
		LATERAL (SELECT FROM post_likes pl WHERE pl.post_id = n.p AND pl.user_id = n.u LIMIT 1) AS hit
), flip AS (
	SELECT f.p AS post_id, f.u AS user_id FROM unnest($6::uuid[], $7::uuid[]) AS f (p, u)
), want AS (
	SELECT s.p AS post_id, s.u AS user_id FROM unnest($2::uuid[], $3::uuid[]) AS s (p, u)
	UNION ALL
	SELECT f.post_id, f.user_id FROM flip f
	WHERE NOT EXISTS (SELECT FROM init i WHERE i.post_id = f.post_id AND i.user_id = f.user_id)
), ins AS (
	INSERT INTO post_likes (post_id, user_id)
	SELECT post_id, user_id FROM want ORDER BY post_id, user_id
	ON CONFLICT DO NOTHING
	RETURNING post_id, user_id
), del AS (
	DELETE FROM post_likes pl
	USING (SELECT x.p, x.u FROM unnest($4::uuid[], $5::uuid[]) AS x (p, u)
		UNION SELECT i.post_id, i.user_id FROM init i JOIN flip f USING (post_id, user_id)) AS d (post_id, user_id)
	WHERE pl.post_id = d.post_id AND pl.user_id = d.user_id
	RETURNING pl.post_id, pl.user_id
), delta AS (
	SELECT c.post_id, sum(c.n)::int8 AS n
	FROM (SELECT post_id, 1 AS n FROM ins UNION ALL SELECT post_id, -1 FROM del) AS c
	GROUP BY c.post_id
), upd AS (
	UPDATE posts p SET likes_count = p.likes_count + coalesce(d.n, 0), counts_version = p.counts_version + 1
	FROM unnest($1::uuid[]) AS t (id) LEFT JOIN delta d ON d.post_id = t.id
	WHERE p.id = t.id
	RETURNING p.id, p.user_id, p.likes_count, p.comments_count, p.reposts_count, p.counts_version
), ins_by AS (
	SELECT post_id, array_agg(user_id) AS users FROM ins GROUP BY post_id
), init_by AS (
	SELECT post_id, array_agg(user_id) AS users FROM init GROUP BY post_id
)
SELECT upd.id, upd.user_id, upd.likes_count, upd.comments_count, upd.reposts_count, upd.counts_version,
	coalesce(ins_by.users, '{}'), coalesce(init_by.users, '{}')
FROM upd LEFT JOIN ins_by ON ins_by.post_id = upd.id LEFT JOIN init_by ON init_by.post_id = upd.id`

// applyLikesTogether writes the like-only batches ws (of distinct posts,
// whose rows the caller locked) in one statement and fills their counts.
func applyLikesTogether(ctx context.Context, db bun.IDB, ws []*batchWork) error {
	var posts []string
	var setP, setU, unsetP, unsetU, flipP, flipU, needP, needU []string
	byPost := make(map[uuid.UUID]*batchWork, len(ws))
	for _, w := range ws {
		p := w.b.PostID.String()
		byPost[w.b.PostID] = w
		posts = append(posts, p)
		pair := func(ps, us *[]string, users []string) {
			for _, u := range users {
				*ps, *us = append(*ps, p), append(*us, u)
			}
		}
		pair(&setP, &setU, w.set)
		pair(&unsetP, &unsetU, w.unset)
		pair(&flipP, &flipU, w.flip)
		pair(&needP, &needU, w.need)
	}
	rows, err := unprepared(ctx, db, likesTogetherStatement, arrayLiteral(posts),
		arrayLiteral(setP), arrayLiteral(setU), arrayLiteral(unsetP), arrayLiteral(unsetU),
		arrayLiteral(flipP), arrayLiteral(flipU), arrayLiteral(needP), arrayLiteral(needU))
	if err != nil {
		return fmt.Errorf("persistence: apply likes of %d posts: %w", len(ws), err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var id uuid.UUID
		var c batchCounts
		var inserted, initial []byte
		if err := rows.Scan(&id, &c.author, &c.likes, &c.comments, &c.reposts, &c.version, &inserted, &initial); err != nil {
			return fmt.Errorf("persistence: apply likes of %d posts: %w", len(ws), err)
		}
		if c.inserted, err = parseIDArray(inserted); err != nil {
			return err
		}
		if c.initial, err = parseIDArray(initial); err != nil {
			return err
		}
		w := byPost[id]
		if w == nil {
			return fmt.Errorf("persistence: apply likes: a row for post %s not asked for", id)
		}
		w.counts = c
		seen++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("persistence: apply likes of %d posts: %w", len(ws), err)
	}
	if seen != len(ws) {
		// The caller locked the posts: a missing one is a bug, not a race.
		return fmt.Errorf("persistence: apply likes: %d of %d posts answered", seen, len(ws))
	}
	return nil
}

// insertComments inserts the new comments that are not there yet (a retried
// request carries the same id) with their outbox entries, fills every
// comment's CreatedAt, and answers how many rows it inserted.
func insertComments(ctx context.Context, db bun.IDB, postID uuid.UUID, cs []*Comment, res *PostBatchResult) (int, error) {
	ids, users, texts := make([]string, len(cs)), make([]string, len(cs)), make([]string, len(cs))
	byID := make(map[uuid.UUID]*Comment, len(cs))
	for i, c := range cs {
		c.PostID = postID
		ids[i], users[i], texts[i] = c.ID.String(), c.UserID.String(), c.Content
		byID[c.ID] = c
	}
	rows, err := db.QueryContext(ctx, `WITH ins AS (
		INSERT INTO comments (id, post_id, user_id, content)
		SELECT c.id, ?0, c.user_id, c.content FROM unnest(?1::uuid[], ?2::uuid[], ?3::text[]) AS c (id, user_id, content)
		ON CONFLICT (id) DO NOTHING
		RETURNING id, created_at
	), ob AS (
		INSERT INTO search_outbox (entity, entity_id, op) SELECT ?4, id, ?5 FROM ins
	)
	SELECT id, created_at FROM ins`, postID, pgdialect.Array(ids), pgdialect.Array(users), pgdialect.Array(texts),
		EntityComment, OpUpsert)
	if err != nil {
		if isPostGoneViolation(err) {
			return 0, ErrPostGone
		}
		return 0, fmt.Errorf("persistence: insert comments: %w", err)
	}
	first := len(res.NewComments)
	n, err := scanCreated(rows, byID, func(c *Comment) { res.NewComments = append(res.NewComments, c) })
	if err != nil {
		if isPostGoneViolation(err) {
			return 0, ErrPostGone
		}
		return 0, fmt.Errorf("persistence: insert comments: %w", err)
	}
	// Their mentions, in the same transaction: a comment is never stored
	// without them.
	for _, c := range res.NewComments[first:] {
		m, err := StoreMentions(ctx, db, MentionSource{PostID: postID, CommentID: c.ID, AuthorID: c.UserID,
			Handles: domain.MentionHandles(c.Content)})
		if err != nil {
			return 0, err
		}
		c.Mentions, c.MentionNotices = m.Refs, m.Notify
	}
	if len(byID) > 0 { // retries: already stored, read their time
		var missing []string
		for id := range byID {
			missing = append(missing, id.String())
		}
		rows, err := db.QueryContext(ctx, "SELECT id, created_at FROM comments WHERE id = ANY(?::uuid[])", pgdialect.Array(missing))
		if err != nil {
			return 0, fmt.Errorf("persistence: existing comments: %w", err)
		}
		if _, err := scanCreated(rows, byID, func(*Comment) {}); err != nil {
			return 0, fmt.Errorf("persistence: existing comments: %w", err)
		}
	}
	return n, nil
}

// scanCreated reads (id, created_at) rows into the matching comments,
// removing each from byID, and answers how many rows there were.
func scanCreated(rows *sql.Rows, byID map[uuid.UUID]*Comment, each func(*Comment)) (int, error) {
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id uuid.UUID
		var at time.Time
		if err := rows.Scan(&id, &at); err != nil {
			return n, err
		}
		if c := byID[id]; c != nil {
			c.CreatedAt, c.UpdatedAt = at, at
			delete(byID, id)
			each(c)
		}
		n++
	}
	return n, rows.Err()
}

// removeComments deletes the removals the requester may make (the comment's
// author or the post's author), records why the others were refused, and
// answers how many rows it deleted. A comment a moderator removed is gone
// for them too: it stays for the audit trail and is no longer counted.
func removeComments(ctx context.Context, db bun.IDB, postID uuid.UUID, rs []CommentRemoval, errs []error) (int, error) {
	var author uuid.UUID
	if err := db.QueryRowContext(ctx, "SELECT user_id FROM posts WHERE id = ?", postID).Scan(&author); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, ErrPostGone
		}
		return 0, fmt.Errorf("persistence: post author: %w", err)
	}
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = r.CommentID.String()
	}
	var found []struct {
		ID     uuid.UUID `bun:"id"`
		UserID uuid.UUID `bun:"user_id"`
	}
	if err := db.NewSelect().Model((*Comment)(nil)).Column("id", "user_id").
		Where("post_id = ? AND id = ANY(?::uuid[]) AND removed_at IS NULL", postID, pgdialect.Array(ids)).Scan(ctx, &found); err != nil {
		return 0, fmt.Errorf("persistence: comments to remove: %w", err)
	}
	owner := make(map[uuid.UUID]uuid.UUID, len(found))
	for _, f := range found {
		owner[f.ID] = f.UserID
	}
	var allowed []string
	for i, r := range rs {
		who, ok := owner[r.CommentID]
		switch {
		case !ok:
			errs[i] = domain.NotFound(domain.MsgCommentGone)
		case who != r.UserID && author != r.UserID:
			errs[i] = domain.Forbidden(domain.MsgNotYourRemark)
		default:
			allowed = append(allowed, r.CommentID.String())
		}
	}
	if len(allowed) == 0 {
		return 0, nil
	}
	var n int
	err := db.QueryRowContext(ctx, `WITH del AS (
		DELETE FROM comments WHERE post_id = ?0 AND id = ANY(?1::uuid[]) AND removed_at IS NULL RETURNING id
	), ob AS (
		INSERT INTO search_outbox (entity, entity_id, op) SELECT ?2, id, ?3 FROM del
	)
	SELECT count(*) FROM del`, postID, pgdialect.Array(allowed), EntityComment, OpDelete).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("persistence: delete comments: %w", err)
	}
	return n, nil
}

// isPostGoneViolation reports a violation of a row's foreign key to its
// post: in a batch, the post was deleted under it. (A like or comment of a
// user deleted meanwhile violates the user's key: that is no "post not
// found".)
func isPostGoneViolation(err error) bool {
	type pgErr interface{ Field(byte) string }
	var pe pgErr
	return errors.As(err, &pe) && pe.Field('C') == "23503" && strings.HasSuffix(pe.Field('n'), "_post_id_fkey")
}
