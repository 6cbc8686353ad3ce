package persistence

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"campus/domain"
)

// Mentions (issue 27): the people a post or comment names by @handle,
// stored when the text is, so that the text's readers get links to them
// and the people named are notified once.

// MentionRef is a mention as a post or comment shows it: the person and the
// handle the text names them by.
type MentionRef struct {
	UserID uuid.UUID `json:"id"`
	Handle string    `json:"handle"`
}

// MentionSource is a text that may mention people: a post (CommentID zero)
// or one of its comments, written by AuthorID.
type MentionSource struct {
	PostID, CommentID, AuthorID uuid.UUID
	// Handles are what the text mentions (domain.MentionHandles).
	Handles []string
	// Edit: the post's text replaces an earlier one, whose mentions are
	// stored (and notified) already.
	Edit bool
}

// StoredMentions is what StoreMentions stored: the people the text names,
// in its order, and those of them to notify now.
type StoredMentions struct {
	Refs   []MentionRef
	Notify []uuid.UUID
}

// resolveMentionsSQL finds the people ?0's handles name, in the handles'
// order, as the author ?1 of the post ?2 (or of a comment on it, ?3 true)
// may mention them: verified accounts with no block between them and the
// author either way (anyone else stays text). With each, whether a
// notification may reach them — not the author, not muting the author, not
// suspended, able to read the post (outside groups, a public group, or a
// group they are a member of) — and whether an earlier version of the post
// notified them, and how many it notified in all.
var resolveMentionsSQL = `SELECT u.id, u.handle,
	u.id <> ?1
	AND NOT EXISTS (SELECT FROM user_mutes m WHERE m.muter_id = u.id AND m.muted_id = ?1)
	AND ` + notSuspendedSQL("u.id") + `
	AND (p.group_id IS NULL OR g.visibility = 'public' OR EXISTS (SELECT FROM group_members gm
		WHERE gm.group_id = p.group_id AND gm.user_id = u.id AND gm.status = 'member')),
	coalesce(x.notified, false),
	CASE WHEN ?3 THEN 0 ELSE (SELECT count(*) FROM mentions c WHERE c.post_id = p.id AND c.comment_id IS NULL AND c.notified) END
FROM unnest(?0::text[]) WITH ORDINALITY AS h (handle, ord)
JOIN users u ON u.handle = h.handle
JOIN posts p ON p.id = ?2
LEFT JOIN groups g ON g.id = p.group_id
LEFT JOIN mentions x ON NOT ?3 AND x.post_id = p.id AND x.comment_id IS NULL AND x.user_id = u.id
WHERE u.email_verified_at IS NOT NULL
	AND NOT EXISTS (SELECT FROM user_blocks b
		WHERE (b.blocker_id = u.id AND b.blocked_id = ?1) OR (b.blocker_id = ?1 AND b.blocked_id = u.id))
ORDER BY h.ord`

// StoreMentions stores the mentions of src's text on db (the transaction
// that stores the text) and answers them, with whom to notify: of the
// people resolveMentionsSQL lets the text mention, those
// domain.MentionNotices picks (the first MaxMentionNotices reachable ones,
// over a post's edits; a person an earlier version notified is not
// notified again). An edit keeps the mentions it takes out, marked out of
// the text: putting one back then notifies no one.
func StoreMentions(ctx context.Context, db bun.IDB, src MentionSource) (StoredMentions, error) {
	var out StoredMentions
	if len(src.Handles) == 0 && !src.Edit {
		return out, nil
	}
	comment := src.CommentID != uuid.Nil
	var ids []uuid.UUID
	var cands []domain.MentionCandidate
	before := 0
	if len(src.Handles) > 0 {
		rows, err := db.QueryContext(ctx, resolveMentionsSQL, pgdialect.Array(src.Handles), src.AuthorID, src.PostID, comment)
		if err != nil {
			return out, fmt.Errorf("persistence: resolve mentions: %w", err)
		}
		for rows.Next() {
			var ref MentionRef
			var c domain.MentionCandidate
			if err := rows.Scan(&ref.UserID, &ref.Handle, &c.Reachable, &c.Notified, &before); err != nil {
				rows.Close()
				return out, fmt.Errorf("persistence: resolve mentions: %w", err)
			}
			out.Refs = append(out.Refs, ref)
			ids = append(ids, ref.UserID)
			cands = append(cands, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return out, fmt.Errorf("persistence: resolve mentions: %w", err)
		}
	}
	notify := domain.MentionNotices(cands, before)
	for i, n := range notify {
		if n {
			out.Notify = append(out.Notify, ids[i])
		}
	}
	if len(ids) > 0 {
		q := `INSERT INTO mentions (post_id, comment_id, user_id, author_id, notified)
			SELECT ?0, ?1, x.u, ?2, x.n FROM unnest(?3::uuid[], ?4::bool[]) AS x (u, n)`
		if comment {
			q += ` ON CONFLICT DO NOTHING` // a retried batch
		} else {
			q += ` ON CONFLICT (post_id, user_id) WHERE comment_id IS NULL
				DO UPDATE SET in_text = true, notified = mentions.notified OR excluded.notified`
		}
		var commentID any
		if comment {
			commentID = src.CommentID
		}
		if _, err := db.ExecContext(ctx, q, src.PostID, commentID, src.AuthorID, uuidArray(ids), pgdialect.Array(notify)); err != nil {
			return out, fmt.Errorf("persistence: store mentions: %w", err)
		}
	}
	if src.Edit && !comment {
		if _, err := db.ExecContext(ctx, `UPDATE mentions SET in_text = false
			WHERE post_id = ?0 AND comment_id IS NULL AND in_text AND NOT (user_id = ANY (?1::uuid[]))`,
			src.PostID, uuidArray(ids)); err != nil {
			return out, fmt.Errorf("persistence: mentions taken out: %w", err)
		}
	}
	return out, nil
}

// CommentMentions answers the mentions of the comments ids, by comment, each
// comment's in handle order. Comments without an @ need not be asked about.
func CommentMentions(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID][]MentionRef, error) {
	out := map[uuid.UUID][]MentionRef{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT m.comment_id, u.id, u.handle FROM mentions m JOIN users u ON u.id = m.user_id
		WHERE m.comment_id = ANY (?::uuid[]) ORDER BY m.comment_id, u.handle`, uuidArray(ids))
	if err != nil {
		return nil, fmt.Errorf("persistence: comment mentions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c uuid.UUID
		var ref MentionRef
		if err := rows.Scan(&c, &ref.UserID, &ref.Handle); err != nil {
			return nil, fmt.Errorf("persistence: comment mentions: %w", err)
		}
		out[c] = append(out[c], ref)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: comment mentions: %w", err)
	}
	return out, nil
}

// fillCommentMentions sets the Mentions of those of cs whose text has an @.
func fillCommentMentions(ctx context.Context, db bun.IDB, cs []*Comment) error {
	var ids []uuid.UUID
	for _, c := range cs {
		if mayMention(c.Content) {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	refs, err := CommentMentions(ctx, db, ids)
	if err != nil {
		return err
	}
	for _, c := range cs {
		c.Mentions = refs[c.ID]
	}
	return nil
}

// mayMention reports whether text can mention anyone at all: it has an @.
func mayMention(text string) bool { return strings.IndexByte(text, '@') >= 0 }

// postMentionsSQL is the select-list expression of the mentions of the post
// p (a JSON array, NULL for none); a post without an @ reads nothing.
var postMentionsSQL = mentionsOfSQL("p")

// mentionsOfSQL is postMentionsSQL for the post under alias (a repost's
// original is "op").
func mentionsOfSQL(alias string) string {
	return `CASE WHEN strpos(` + alias + `.content, '@') > 0 THEN (SELECT json_agg(json_build_object('id', mu.id, 'handle', mu.handle) ORDER BY mu.handle)
		FROM mentions pm JOIN users mu ON mu.id = pm.user_id WHERE pm.post_id = ` + alias + `.id AND pm.comment_id IS NULL AND pm.in_text) END`
}

// parseMentions reads a postMentionsSQL value.
func parseMentions(b []byte) ([]MentionRef, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var refs []MentionRef
	if err := json.Unmarshal(b, &refs); err != nil {
		return nil, fmt.Errorf("mentions: %w", err)
	}
	return refs, nil
}

// Relations of a suggested person to the one typing, closest first.
const (
	RelationFriend     = "friend"
	RelationBatch      = "batch"      // same course and batch
	RelationCourse     = "course"     // same course
	RelationDepartment = "department" // same department
)

// SuggestedUser is a person the typeahead offers, with how they relate to
// the one typing ("" for no relation).
type SuggestedUser struct {
	User     `bun:",extend"`
	Relation string `bun:"relation"`
}

// suggestCandidates bounds the people each way of matching offers before
// they are ranked: enough that the ones ranked first are among them while
// a word is typed (friends always are: they are matched apart).
const suggestCandidates = 200

// SuggestUsers answers the people viewer may mention matching q, at most
// limit: friends first, then people of viewer's course and batch, then of
// viewer's course or department, then everyone else; within each, an exact
// handle first, then by name. Only verified, unsuspended accounts with no
// block between them and viewer, never viewer. Every way of matching reads
// an index (the handle's prefix, the words of the name) or viewer's own
// friends, with a limit, so a keystroke costs a few index scans.
func SuggestUsers(ctx context.Context, db bun.IDB, viewer uuid.UUID, q domain.MentionQuery, limit int) ([]SuggestedUser, error) {
	var out []SuggestedUser
	if q.Empty() || limit <= 0 {
		return out, nil
	}
	query, args := suggestSQL(viewer, q, limit)
	if err := db.NewRaw(query, args...).Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("persistence: suggest users: %w", err)
	}
	return out, nil
}

// suggestSQL is SuggestUsers's query and its arguments (q not empty).
func suggestSQL(viewer uuid.UUID, q domain.MentionQuery, limit int) (string, []any) {
	// A name matches when each word starts one of its words; a handle
	// when it starts with q.Handle. The words are letters and digits only,
	// safe in a tsquery.
	tsq := ""
	for i, w := range q.Words {
		if i > 0 {
			tsq += " & "
		}
		tsq += w + ":*"
	}
	// Each way of matching reads the columns shown, so that no join back
	// to users reads more than the candidates (a hash join of every user,
	// the planner's pick when it expects many candidates, is what a
	// keystroke must not cost); friends come marked.
	const cols = `u.id, u.name, u.handle, u.role, u.university_id, u.department, u.course, u.batch,
		u.avatar_url, u.avatar_key, u.avatar_variants, u.email_verified_at`
	var branches []string
	args := []any{viewer, q.Handle, tsq, limit}
	limit200 := " LIMIT " + fmt.Sprint(suggestCandidates)
	if q.Handle != "" {
		branches = append(branches, `(SELECT false AS friend, `+cols+` FROM users u
			WHERE u.handle ~>=~ ?1 AND u.handle ~<~ (?1 || '{') ORDER BY u.handle`+limit200+`)`)
	}
	if tsq != "" {
		branches = append(branches, `(SELECT false AS friend, `+cols+` FROM users u
			WHERE to_tsvector('simple', u.name) @@ to_tsquery('simple', ?2)`+limit200+`)`)
	}
	match := "false"
	if q.Handle != "" {
		match = `(u.handle ~>=~ ?1 AND u.handle ~<~ (?1 || '{'))`
	}
	if tsq != "" {
		match += ` OR to_tsvector('simple', u.name) @@ to_tsquery('simple', ?2)`
	}
	branches = append(branches, `(SELECT true AS friend, `+cols+` FROM friendships f
		JOIN users u ON u.id = CASE WHEN f.user_low = ?0 THEN f.user_high ELSE f.user_low END
		WHERE (f.user_low = ?0 OR f.user_high = ?0) AND (`+match+`))`)
	query := `WITH me AS (SELECT course, batch, department FROM users WHERE id = ?0),
	cand AS (` + strings.Join(branches, " UNION ALL ") + `),
	uniq AS (SELECT DISTINCT ON (c.id) c.* FROM cand c ORDER BY c.id, c.friend DESC)
	SELECT s.* FROM (SELECT u.id, u.name, u.handle, u.role, u.university_id, u.department, u.course, u.batch,
		u.avatar_url, u.avatar_key, u.avatar_variants,
		CASE WHEN u.friend THEN '` + RelationFriend + `'
			WHEN u.course <> '' AND u.course = me.course AND u.batch <> '' AND u.batch = me.batch THEN '` + RelationBatch + `'
			WHEN u.course <> '' AND u.course = me.course THEN '` + RelationCourse + `'
			WHEN u.department <> '' AND u.department = me.department THEN '` + RelationDepartment + `'
			ELSE '' END AS relation
		FROM uniq u CROSS JOIN me
		WHERE u.id <> ?0 AND u.email_verified_at IS NOT NULL AND ` + notSuspendedSQL("u.id") + `
			AND NOT EXISTS (SELECT FROM user_blocks b
				WHERE (b.blocker_id = u.id AND b.blocked_id = ?0) OR (b.blocker_id = ?0 AND b.blocked_id = u.id))) s
	ORDER BY CASE s.relation WHEN '` + RelationFriend + `' THEN 0 WHEN '` + RelationBatch + `' THEN 1 WHEN '' THEN 3 ELSE 2 END,
		s.handle = ?1 DESC, lower(s.name), s.id
	LIMIT ?3`
	return query, args
}
