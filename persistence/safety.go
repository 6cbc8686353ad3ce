package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// NotifyModeration is the type of a notification telling an author that a
// moderator acted on their content; its Note says why.
const NotifyModeration = "moderation"

// Report statuses.
const (
	ReportOpen      = "open"
	ReportDismissed = "dismissed"
	ReportActioned  = "actioned"
)

// BlockUser records that blocker blocks blocked and ends what stood between
// them: their friendship, pending requests either way and every
// notification either sent the other (a like roll-up loses the other among
// its likers), and tells every node (BlockChannel). It answers whether the
// block is new. Run it in a transaction so the block and its consequences
// land together, and the NOTIFY goes out at commit.
func BlockUser(ctx context.Context, tx bun.IDB, blocker, blocked uuid.UUID) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO user_blocks (blocker_id, blocked_id) VALUES (?, ?)
		ON CONFLICT DO NOTHING`, blocker, blocked)
	if err != nil {
		if _, fk := isFKViolation(err); fk {
			return false, fmt.Errorf("persistence: block: %w", notFound(sql.ErrNoRows, "user"))
		}
		return false, fmt.Errorf("persistence: block: %w", err)
	}
	n, _ := res.RowsAffected()
	low, high := blocker, blocked
	if high.String() < low.String() {
		low, high = high, low
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM friendships WHERE user_low = ? AND user_high = ?`, low, high); err != nil {
		return false, fmt.Errorf("persistence: block: end friendship: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE friend_requests SET status = 'cancelled', updated_at = now()
		WHERE status = 'pending' AND ((sender_id = ?0 AND receiver_id = ?1) OR (sender_id = ?1 AND receiver_id = ?0))`,
		blocker, blocked); err != nil {
		return false, fmt.Errorf("persistence: block: end requests: %w", err)
	}
	// Every notification either sent the other goes, not only the requests':
	// a like or comment notified just before the block must not surface later.
	if _, err := tx.ExecContext(ctx, `DELETE FROM notifications
		WHERE (user_id = ?0 AND sender_id = ?1) OR (user_id = ?1 AND sender_id = ?0)`,
		blocker, blocked); err != nil {
		return false, fmt.Errorf("persistence: block: notifications: %w", err)
	}
	// A like (or mention) roll-up names its people in actor_ids, not
	// sender_id: one that names only the other goes, the other leaves the
	// rest.
	for _, pair := range [][2]uuid.UUID{{blocker, blocked}, {blocked, blocker}} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM notifications WHERE user_id = ?0 AND type IN (?2, ?3, ?4)
			AND actor_ids = ARRAY[?1]::uuid[]`, pair[0], pair[1], NotifyLike, NotifyProfileLike, NotifyMention); err != nil {
			return false, fmt.Errorf("persistence: block: like roll-ups: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE notifications SET actor_ids = array_remove(actor_ids, ?1)
			WHERE user_id = ?0 AND type IN (?2, ?3, ?4) AND ?1 = ANY (actor_ids)`, pair[0], pair[1], NotifyLike, NotifyProfileLike, NotifyMention); err != nil {
			return false, fmt.Errorf("persistence: block: like roll-ups: %w", err)
		}
	}
	// Every node's socket hub hears of the block at commit (BlockChannel).
	if _, err := tx.ExecContext(ctx, "SELECT pg_notify(?, ?)", BlockChannel, BlockPayload(blocker, blocked)); err != nil {
		return false, fmt.Errorf("persistence: block: notify: %w", err)
	}
	return n == 1, nil
}

// BlockChannel is the NOTIFY channel of new blocks: every node LISTENs on
// it (with the revocations) so that its socket hub stops the live events
// between the two at once.
const BlockChannel = "campus_block"

// BlockPayload is the NOTIFY payload of a block of b by a.
func BlockPayload(a, b uuid.UUID) string { return a.String() + ":" + b.String() }

// ParseBlockPayload reads a BlockPayload; ok is false for anything else.
func ParseBlockPayload(payload string) (a, b uuid.UUID, ok bool) {
	x, y, found := strings.Cut(payload, ":")
	if !found {
		return uuid.Nil, uuid.Nil, false
	}
	a, errA := uuid.Parse(x)
	b, errB := uuid.Parse(y)
	return a, b, errA == nil && errB == nil
}

// unblockPrefix, postRemovedPrefix and suspensionPrefix mark the other
// payloads of BlockChannel; none parses as a BlockPayload, so a listener
// that knows only blocks skips them.
const (
	unblockPrefix     = "unblock:"
	postRemovedPrefix = "post-removed:"
	suspensionPrefix  = "suspension:"
)

// SuspensionPayload is the NOTIFY payload of a suspension of user made,
// replaced or lifted: cached gates forget whether user is suspended.
func SuspensionPayload(user uuid.UUID) string { return suspensionPrefix + user.String() }

// ParseSuspensionPayload reads a SuspensionPayload.
func ParseSuspensionPayload(payload string) (uuid.UUID, bool) {
	rest, found := strings.CutPrefix(payload, suspensionPrefix)
	if !found {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(rest)
	return id, err == nil
}

// suspendedUsersSQL selects the users suspended now. A suspension hides
// its account and everything it wrote from everyone but moderators while
// it lasts (README, Safety and moderation); the lists read it once per
// query (a hashed subplan: few accounts are suspended at a time).
const suspendedUsersSQL = `SELECT user_id FROM account_suspensions WHERE until_at IS NULL OR until_at > now()`

// notSuspendedSQL is the condition that the user user (an SQL expression)
// is not suspended now: an index probe, for queries of a few rows.
func notSuspendedSQL(user string) string {
	return `NOT EXISTS (SELECT FROM account_suspensions sus WHERE sus.user_id = ` + user + `
		AND (sus.until_at IS NULL OR sus.until_at > now()))`
}

// UnblockPayload is the NOTIFY payload of a lifted block of b by a.
func UnblockPayload(a, b uuid.UUID) string { return unblockPrefix + BlockPayload(a, b) }

// ParseUnblockPayload reads an UnblockPayload; ok is false for anything else.
func ParseUnblockPayload(payload string) (a, b uuid.UUID, ok bool) {
	rest, found := strings.CutPrefix(payload, unblockPrefix)
	if !found {
		return uuid.Nil, uuid.Nil, false
	}
	return ParseBlockPayload(rest)
}

// memberChangedPrefix and groupChangedPrefix mark the payloads the group
// triggers send (migration 20261124000009): a membership row of (group,
// user) changed; a group's visibility changed or the group went.
const (
	memberChangedPrefix = "member-changed:"
	groupChangedPrefix  = "group-changed:"
)

// ParseMemberChangedPayload reads a member-changed payload.
func ParseMemberChangedPayload(payload string) (group, user uuid.UUID, ok bool) {
	rest, found := strings.CutPrefix(payload, memberChangedPrefix)
	if !found {
		return uuid.Nil, uuid.Nil, false
	}
	return ParseBlockPayload(rest)
}

// ParseGroupChangedPayload reads a group-changed payload.
func ParseGroupChangedPayload(payload string) (uuid.UUID, bool) {
	rest, found := strings.CutPrefix(payload, groupChangedPrefix)
	if !found {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(rest)
	return id, err == nil
}

// PostRemovedPayload is the NOTIFY payload of a post a moderator removed
// or its author (or a group admin) deleted: cached gates forget it.
func PostRemovedPayload(id uuid.UUID) string { return postRemovedPrefix + id.String() }

// ParsePostRemovedPayload reads a PostRemovedPayload.
func ParsePostRemovedPayload(payload string) (uuid.UUID, bool) {
	rest, found := strings.CutPrefix(payload, postRemovedPrefix)
	if !found {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(rest)
	return id, err == nil
}

// BlocksSince answers the blocks (blocker, blocked) made at or after since.
func BlocksSince(ctx context.Context, db bun.IDB, since time.Time) ([][2]uuid.UUID, error) {
	rows, err := db.QueryContext(ctx, `SELECT blocker_id, blocked_id FROM user_blocks WHERE created_at >= ?`, since)
	if err != nil {
		return nil, fmt.Errorf("persistence: blocks since: %w", err)
	}
	defer rows.Close()
	var out [][2]uuid.UUID
	for rows.Next() {
		var p [2]uuid.UUID
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			return nil, fmt.Errorf("persistence: blocks since: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: blocks since: %w", err)
	}
	return out, nil
}

// PostsByAmong answers which of ids are posts written by author.
func PostsByAmong(ctx context.Context, db bun.IDB, author uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var out []uuid.UUID
	err := db.NewRaw(`SELECT id FROM posts WHERE user_id = ? AND id IN (?)`, author, bun.In(ids)).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: posts by among: %w", err)
	}
	return out, nil
}

// WatchablePosts answers which of ids viewer may watch live: posts that
// exist, are not removed, whose author has no block with viewer either
// way, and that are outside groups, in a public group or in one of viewer's
// groups. One query for a watch frame however many posts it lists (at most
// realtime.MaxWatched), through the primary keys.
func WatchablePosts(ctx context.Context, db bun.IDB, viewer uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var out []uuid.UUID
	err := db.NewRaw(`SELECT p.id FROM posts p WHERE p.id = ANY (?0::uuid[]) AND p.removed_at IS NULL
		AND `+notSuspendedSQL("p.user_id")+`
		AND NOT EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = p.user_id AND b.blocked_id = ?1)
		AND NOT EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = p.user_id)
		AND (p.group_id IS NULL OR `+groupReadableBy("?1")+`)`,
		uuidArray(ids), viewer).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: watchable posts: %w", err)
	}
	return out, nil
}

// isFKViolation reports a foreign-key violation and its constraint.
func isFKViolation(err error) (string, bool) {
	type pgErr interface{ Field(byte) string }
	var pe pgErr
	if errors.As(err, &pe) && pe.Field('C') == "23503" {
		return pe.Field('n'), true
	}
	return "", false
}

// UnblockUser removes blocker's block of blocked; it answers whether there
// was one. Every node hears of it (BlockChannel, UnblockPayload) at commit,
// so their cached post gates let the two reach each other again.
func UnblockUser(ctx context.Context, db bun.IDB, blocker, blocked uuid.UUID) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `WITH d AS (
		DELETE FROM user_blocks WHERE blocker_id = ? AND blocked_id = ? RETURNING 1
	) SELECT count(*) FROM d, LATERAL (SELECT pg_notify(?, ?)) AS n`,
		blocker, blocked, BlockChannel, UnblockPayload(blocker, blocked)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("persistence: unblock: %w", err)
	}
	return n == 1, nil
}

// IsBlocked reports whether either of a and b blocks the other.
func IsBlocked(ctx context.Context, db bun.IDB, a, b uuid.UUID) (bool, error) {
	var ok bool
	err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT FROM user_blocks WHERE blocker_id = ?0 AND blocked_id = ?1)
		OR EXISTS (SELECT FROM user_blocks WHERE blocker_id = ?1 AND blocked_id = ?0)`, a, b).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("persistence: is blocked: %w", err)
	}
	return ok, nil
}

// BlockedWith answers everyone who blocks user or whom user blocks.
func BlockedWith(ctx context.Context, db bun.IDB, user uuid.UUID) (map[uuid.UUID]bool, error) {
	var ids []uuid.UUID
	err := db.NewRaw(`SELECT blocked_id FROM user_blocks WHERE blocker_id = ?0
		UNION SELECT blocker_id FROM user_blocks WHERE blocked_id = ?0`, user).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("persistence: blocked with: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// ListedUser is a user in a block or mute list, with when they were added.
type ListedUser struct {
	User     `bun:",extend"`
	ListedAt time.Time `bun:"listed_at"`
}

// BlockList is a keyset page (newest first) of the people user blocks.
func BlockList(ctx context.Context, db bun.IDB, user uuid.UUID, after Keyset, limit int) ([]ListedUser, error) {
	return listedUsers(ctx, db, "user_blocks", "blocker_id", "blocked_id", user, after, limit)
}

// MuteList is a keyset page (newest first) of the people user mutes.
func MuteList(ctx context.Context, db bun.IDB, user uuid.UUID, after Keyset, limit int) ([]ListedUser, error) {
	return listedUsers(ctx, db, "user_mutes", "muter_id", "muted_id", user, after, limit)
}

func listedUsers(ctx context.Context, db bun.IDB, table, owner, other string, user uuid.UUID, after Keyset, limit int) ([]ListedUser, error) {
	var out []ListedUser
	q := db.NewSelect().Model(&out).ColumnExpr("u.*").ColumnExpr("l.created_at AS listed_at").
		Join("JOIN ? AS l ON l.? = u.id", bun.Ident(table), bun.Ident(other)).
		Where("l.? = ?", bun.Ident(owner), user)
	if !after.IsZero() {
		q = q.Where("(l.created_at, l.?) < (?, ?)", bun.Ident(other), after.At, after.ID)
	}
	err := q.OrderExpr("l.created_at DESC, l.? DESC", bun.Ident(other)).Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("persistence: %s list: %w", table, err)
	}
	return out, nil
}

// MuteUser records that muter mutes muted; it answers whether the mute is new.
func MuteUser(ctx context.Context, db bun.IDB, muter, muted uuid.UUID) (bool, error) {
	res, err := db.ExecContext(ctx, `INSERT INTO user_mutes (muter_id, muted_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, muter, muted)
	if err != nil {
		if _, fk := isFKViolation(err); fk {
			return false, fmt.Errorf("persistence: mute: %w", notFound(sql.ErrNoRows, "user"))
		}
		return false, fmt.Errorf("persistence: mute: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// UnmuteUser removes a mute; it answers whether there was one.
func UnmuteUser(ctx context.Context, db bun.IDB, muter, muted uuid.UUID) (bool, error) {
	res, err := db.ExecContext(ctx, `DELETE FROM user_mutes WHERE muter_id = ? AND muted_id = ?`, muter, muted)
	if err != nil {
		return false, fmt.Errorf("persistence: unmute: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Capabilities answers the capabilities user holds (moderator, admin).
func Capabilities(ctx context.Context, db bun.IDB, user uuid.UUID) ([]string, error) {
	var caps []string
	err := db.NewRaw(`SELECT capability FROM account_capabilities WHERE user_id = ? ORDER BY capability`, user).Scan(ctx, &caps)
	if err != nil {
		return nil, fmt.Errorf("persistence: capabilities: %w", err)
	}
	return caps, nil
}

// GrantCapability gives user capability; it answers whether it is new.
func GrantCapability(ctx context.Context, db bun.IDB, user uuid.UUID, capability string, by uuid.UUID) (bool, error) {
	res, err := db.ExecContext(ctx, `INSERT INTO account_capabilities (user_id, capability, granted_by)
		VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, user, capability, nullID(by))
	if err != nil {
		return false, fmt.Errorf("persistence: grant %s: %w", capability, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RevokeCapability takes capability from user; it answers whether it was held.
func RevokeCapability(ctx context.Context, db bun.IDB, user uuid.UUID, capability string) (bool, error) {
	res, err := db.ExecContext(ctx, `DELETE FROM account_capabilities WHERE user_id = ? AND capability = ?`, user, capability)
	if err != nil {
		return false, fmt.Errorf("persistence: revoke %s: %w", capability, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// CapabilityHolder is a user holding a capability.
type CapabilityHolder struct {
	User      `bun:",extend"`
	GrantedAt time.Time `bun:"granted_at"`
}

// CapabilityHolders is a keyset page (newest grant first) of who holds capability.
func CapabilityHolders(ctx context.Context, db bun.IDB, capability string, after Keyset, limit int) ([]CapabilityHolder, error) {
	var out []CapabilityHolder
	q := db.NewSelect().Model(&out).ColumnExpr("u.*").ColumnExpr("c.created_at AS granted_at").
		Join("JOIN account_capabilities AS c ON c.user_id = u.id").Where("c.capability = ?", capability)
	if !after.IsZero() {
		q = q.Where("(c.created_at, c.user_id) < (?, ?)", after.At, after.ID)
	}
	if err := q.OrderExpr("c.created_at DESC, c.user_id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: capability holders: %w", err)
	}
	return out, nil
}

func nullID(id uuid.UUID) any {
	if id == uuid.Nil {
		return nil
	}
	return id
}

// Suspension is an account's current suspension.
type Suspension struct {
	UserID    uuid.UUID  `bun:"user_id,type:uuid"`
	Until     *time.Time `bun:"until_at"`
	Reason    string     `bun:"reason"`
	CreatedBy uuid.UUID  `bun:"created_by,type:uuid,nullzero"`
	CreatedAt time.Time  `bun:"created_at"`
}

// SuspendUser suspends user until until (nil: for good), replacing any
// earlier suspension, and tells every node's cached gates (at commit).
func SuspendUser(ctx context.Context, db bun.IDB, user uuid.UUID, until *time.Time, reason string, by uuid.UUID) error {
	_, err := db.ExecContext(ctx, `INSERT INTO account_suspensions (user_id, until_at, reason, created_by)
		VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE
		SET until_at = EXCLUDED.until_at, reason = EXCLUDED.reason, created_by = EXCLUDED.created_by, created_at = now()`,
		user, until, reason, nullID(by))
	if err != nil {
		return fmt.Errorf("persistence: suspend: %w", err)
	}
	return notifySuspension(ctx, db, user)
}

// UnsuspendUser lifts user's suspension and tells every node's cached
// gates (at commit); it answers whether one was in force.
func UnsuspendUser(ctx context.Context, db bun.IDB, user uuid.UUID) (bool, error) {
	res, err := db.ExecContext(ctx, `DELETE FROM account_suspensions WHERE user_id = ? AND (until_at IS NULL OR until_at > now())`, user)
	if err != nil {
		return false, fmt.Errorf("persistence: unsuspend: %w", err)
	}
	n, _ := res.RowsAffected()
	if _, err := db.ExecContext(ctx, `DELETE FROM account_suspensions WHERE user_id = ?`, user); err != nil {
		return false, fmt.Errorf("persistence: unsuspend: %w", err)
	}
	if n == 1 {
		if err := notifySuspension(ctx, db, user); err != nil {
			return false, err
		}
	}
	return n == 1, nil
}

func notifySuspension(ctx context.Context, db bun.IDB, user uuid.UUID) error {
	if _, err := db.ExecContext(ctx, "SELECT pg_notify(?, ?)", BlockChannel, SuspensionPayload(user)); err != nil {
		return fmt.Errorf("persistence: suspension: notify: %w", err)
	}
	return nil
}

// SuspensionOf answers user's suspension in force now, or nil.
func SuspensionOf(ctx context.Context, db bun.IDB, user uuid.UUID) (*Suspension, error) {
	var s Suspension
	err := db.NewRaw(`SELECT user_id, until_at, reason, created_by, created_at FROM account_suspensions
		WHERE user_id = ? AND (until_at IS NULL OR until_at > now())`, user).Scan(ctx, &s)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("persistence: suspension: %w", err)
	}
	return &s, nil
}

// ItemAuthor answers who wrote a reportable item that reader can see: a
// post or comment not removed, on a post outside groups, in a public group
// or in one reader is a member of; a verified profile; and none with a
// block between reader and its author (or, for a comment, its post's
// author), nor by a suspended account (hidden while suspended).
// domain.ErrNotFound otherwise, alike whether the item does not exist or
// reader may not see it: a report must not tell which.
func ItemAuthor(ctx context.Context, db bun.IDB, itemType string, id, reader uuid.UUID) (uuid.UUID, error) {
	var q string
	switch itemType {
	case "post":
		q = `SELECT p.user_id FROM posts p WHERE p.id = ?0 AND p.removed_at IS NULL
			AND NOT ` + blockedSQL("p.user_id", "?1") + ` AND ` + notSuspendedSQL("p.user_id") + `
			AND (` + groupReadableBy("?1") + `)`
	case "comment":
		q = `SELECT c.user_id FROM comments c JOIN posts p ON p.id = c.post_id
			WHERE c.id = ?0 AND c.removed_at IS NULL AND p.removed_at IS NULL
			AND NOT ` + blockedSQL("c.user_id", "?1") + ` AND NOT ` + blockedSQL("p.user_id", "?1") + `
			AND ` + notSuspendedSQL("c.user_id") + ` AND ` + notSuspendedSQL("p.user_id") + `
			AND (` + groupReadableBy("?1") + `)`
	case "profile":
		q = `SELECT u.id FROM users u WHERE u.id = ?0 AND u.email_verified_at IS NOT NULL
			AND NOT ` + blockedSQL("u.id", "?1") + ` AND ` + notSuspendedSQL("u.id")
	default:
		return uuid.Nil, notFound(sql.ErrNoRows, "persistence: item author")
	}
	var author uuid.UUID
	if err := db.QueryRowContext(ctx, q, id, reader).Scan(&author); err != nil {
		return uuid.Nil, notFound(err, "persistence: item author")
	}
	return author, nil
}

// blockedSQL is the condition that a block stands between the users a and
// b (SQL expressions), either way.
func blockedSQL(a, b string) string {
	return `(EXISTS (SELECT FROM user_blocks bl WHERE bl.blocker_id = ` + a + ` AND bl.blocked_id = ` + b + `)
		OR EXISTS (SELECT FROM user_blocks bl WHERE bl.blocker_id = ` + b + ` AND bl.blocked_id = ` + a + `))`
}

// Report is one report row.
type Report struct {
	bun.BaseModel `bun:"table:reports"`

	ID           uuid.UUID `bun:"id,pk,type:uuid"`
	ReporterID   uuid.UUID `bun:"reporter_id,type:uuid"`
	ItemType     string    `bun:"item_type"`
	ItemID       uuid.UUID `bun:"item_id,type:uuid"`
	ItemAuthorID uuid.UUID `bun:"item_author_id,type:uuid"`
	Reason       string    `bun:"reason"`
	Details      string    `bun:"details"`
	// Snapshot is a reported message's text when it was reported: all a
	// moderator sees of a conversation ('' for other items, which
	// moderators open where they are).
	Snapshot  string    `bun:"snapshot,notnull"`
	Status    string    `bun:"status"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// InsertReport stores an open report; IsDuplicateReport tells a second open
// report of the same item by the same reporter.
func InsertReport(ctx context.Context, db bun.IDB, r *Report) error {
	r.Status = ReportOpen
	if _, err := db.NewInsert().Model(r).Returning("created_at").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert report: %w", err)
	}
	return nil
}

// IsDuplicateReport reports whether err is InsertReport meeting an open
// report of the same item by the same reporter.
func IsDuplicateReport(err error) bool {
	name, ok := IsUniqueViolation(err)
	return ok && name == "reports_open_key"
}

// QueueItem is one reported item of the moderation queue: its open reports
// counted, with the item's content and author.
type QueueItem struct {
	ItemType string    `bun:"item_type"`
	ItemID   uuid.UUID `bun:"item_id,type:uuid"`
	AuthorID uuid.UUID `bun:"author_id,type:uuid"`
	Reports  int       `bun:"reports"`
	LatestAt time.Time `bun:"latest_at"`
	Reasons  []string  `bun:"reasons,array"`
	Details  []string  `bun:"details,array"`
	Content  string    `bun:"content"`
	// Snapshot is the latest report's copy of a reported message.
	Snapshot  string    `bun:"snapshot"`
	PostID    uuid.UUID `bun:"post_id,type:uuid,nullzero"`
	Removed   bool      `bun:"removed"`
	Suspended bool      `bun:"suspended"`

	AuthorName   string `bun:"author_name"`
	AuthorAvatar string `bun:"author_avatar"`
	AuthorRole   string `bun:"author_role"`
}

// ReportQueue is a keyset page of the items with open reports, the most
// recently reported first. after.At is the last item's LatestAt and
// after.ID its item id.
func ReportQueue(ctx context.Context, db bun.IDB, after Keyset, limit int) ([]QueueItem, error) {
	var out []QueueItem
	having := ""
	args := []any{limit}
	if !after.IsZero() {
		having = "HAVING (max(r.created_at), r.item_id) < (?1, ?2)"
		args = append(args, after.At, after.ID)
	}
	err := db.NewRaw(`WITH q AS (
		SELECT r.item_type, r.item_id, r.item_author_id AS author_id, count(*) AS reports,
			max(r.created_at) AS latest_at, array_agg(DISTINCT r.reason) AS reasons,
			array_remove(array_agg(r.details ORDER BY r.created_at DESC), '') AS details,
			(array_agg(r.snapshot ORDER BY r.created_at DESC))[1] AS snapshot
		FROM reports r WHERE r.status = 'open'
		GROUP BY r.item_type, r.item_id, r.item_author_id `+having+`
		ORDER BY latest_at DESC, r.item_id DESC LIMIT ?0)
	SELECT q.*,
		coalesce(p.content, c.content, CASE WHEN q.item_type = 'message' THEN q.snapshot END, u.bio, '') AS content,
		c.post_id,
		coalesce(p.removed_at IS NOT NULL, c.removed_at IS NOT NULL, msg.removed_at IS NOT NULL, false) AS removed,
		EXISTS (SELECT FROM account_suspensions s WHERE s.user_id = q.author_id
			AND (s.until_at IS NULL OR s.until_at > now())) AS suspended,
		coalesce(u.name, '') AS author_name, coalesce(u.avatar_url, '') AS author_avatar, coalesce(u.role, '') AS author_role
	FROM q
	LEFT JOIN posts p ON q.item_type = 'post' AND p.id = q.item_id
	LEFT JOIN comments c ON q.item_type = 'comment' AND c.id = q.item_id
	LEFT JOIN messages msg ON q.item_type = 'message' AND msg.id = q.item_id
	LEFT JOIN users u ON u.id = q.author_id
	ORDER BY q.latest_at DESC, q.item_id DESC`, args...).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: report queue: %w", err)
	}
	return out, nil
}

// Reported reports whether an item was ever reported.
func Reported(ctx context.Context, db bun.IDB, itemType string, id uuid.UUID) (bool, error) {
	var ok bool
	if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT FROM reports WHERE item_type = ? AND item_id = ?)`,
		itemType, id).Scan(&ok); err != nil {
		return false, fmt.Errorf("persistence: reported: %w", err)
	}
	return ok, nil
}

// ResolveReports closes the open reports of an item with status; it
// answers how many it closed.
func ResolveReports(ctx context.Context, db bun.IDB, itemType string, id uuid.UUID, status string, by uuid.UUID) (int, error) {
	res, err := db.ExecContext(ctx, `UPDATE reports SET status = ?, resolved_by = ?, resolved_at = now()
		WHERE item_type = ? AND item_id = ? AND status = 'open'`, status, by, itemType, id)
	if err != nil {
		return 0, fmt.Errorf("persistence: resolve reports: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// RemovedItem is what removing a post or comment found. Of a comment,
// Likes and Comments are its post's counts after the removal.
type RemovedItem struct {
	AuthorID                 uuid.UUID
	PostID                   uuid.UUID
	Content                  string
	Likes, Comments, Reposts int
	CountsVersion            int64 // of Likes, Comments and Reposts
	// ConversationID and Seq place a removed message.
	ConversationID uuid.UUID
	Seq            int64
}

// RemovePost hides a post from everyone but moderators (the row is kept)
// and takes it and its comments out of the search index. domain.ErrNotFound
// if there is no such post or it is already removed.
func RemovePost(ctx context.Context, tx bun.IDB, id uuid.UUID) (RemovedItem, error) {
	it := RemovedItem{PostID: id}
	err := tx.QueryRowContext(ctx, `UPDATE posts SET removed_at = now() WHERE id = ? AND removed_at IS NULL
		RETURNING user_id, content`, id).Scan(&it.AuthorID, &it.Content)
	if err != nil {
		return it, notFound(err, "persistence: remove post")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_outbox (entity, entity_id, op)
		SELECT ?, id, ? FROM comments WHERE post_id = ?`, EntityComment, OpDelete, id); err != nil {
		return it, fmt.Errorf("persistence: remove post: outbox comments: %w", err)
	}
	// Every node's cached gate of the post hears of it at commit.
	if _, err := tx.ExecContext(ctx, "SELECT pg_notify(?, ?)", BlockChannel, PostRemovedPayload(id)); err != nil {
		return it, fmt.Errorf("persistence: remove post: notify: %w", err)
	}
	return it, AddOutbox(ctx, tx, EntityPost, id, OpDelete)
}

// RemoveComment hides a comment from everyone but moderators, counts it
// out of its post's comments (a removed comment is no longer one anybody
// reads) and takes it out of the search index. domain.ErrNotFound if none
// or already removed.
func RemoveComment(ctx context.Context, tx bun.IDB, id uuid.UUID) (RemovedItem, error) {
	var it RemovedItem
	err := tx.QueryRowContext(ctx, `WITH c AS (
		UPDATE comments SET removed_at = now() WHERE id = ? AND removed_at IS NULL
		RETURNING user_id, post_id, content
	), p AS (
		UPDATE posts SET comments_count = greatest(posts.comments_count - 1, 0), counts_version = posts.counts_version + 1
		FROM c WHERE posts.id = c.post_id
		RETURNING posts.likes_count, posts.comments_count, posts.reposts_count, posts.counts_version
	)
	SELECT c.user_id, c.post_id, c.content, p.likes_count, p.comments_count, p.reposts_count, p.counts_version FROM c, p`, id).
		Scan(&it.AuthorID, &it.PostID, &it.Content, &it.Likes, &it.Comments, &it.Reposts, &it.CountsVersion)
	if err != nil {
		return it, notFound(err, "persistence: remove comment")
	}
	return it, AddOutbox(ctx, tx, EntityComment, id, OpDelete)
}

// AuditEntry is one line of the moderation audit log.
type AuditEntry struct {
	bun.BaseModel `bun:"table:moderation_audit,alias:a"`

	ID        uuid.UUID `bun:"id,pk,type:uuid"`
	ActorID   uuid.UUID `bun:"actor_id,type:uuid"`
	Action    string    `bun:"action"`
	ItemType  string    `bun:"item_type"`
	ItemID    uuid.UUID `bun:"item_id,type:uuid"`
	TargetID  uuid.UUID `bun:"target_id,type:uuid,nullzero"`
	Reason    string    `bun:"reason"`
	Snapshot  string    `bun:"snapshot"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`

	ActorName  string `bun:"actor_name,scanonly"`
	TargetName string `bun:"target_name,scanonly"`
}

// InsertAudit writes one audit line (in the action's transaction).
func InsertAudit(ctx context.Context, db bun.IDB, e *AuditEntry) error {
	if e.ID == uuid.Nil {
		e.ID = NewID()
	}
	if _, err := db.NewInsert().Model(e).Returning("created_at").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: audit: %w", err)
	}
	return nil
}

// AuditLog is a keyset page of the audit log, newest first, with the
// names of the actor and target where their accounts still exist.
func AuditLog(ctx context.Context, db bun.IDB, after Keyset, limit int) ([]AuditEntry, error) {
	var out []AuditEntry
	q := db.NewSelect().Model(&out).ColumnExpr("a.*").
		ColumnExpr("coalesce(ua.name, '') AS actor_name, coalesce(ut.name, '') AS target_name").
		Join("LEFT JOIN users AS ua ON ua.id = a.actor_id").
		Join("LEFT JOIN users AS ut ON ut.id = a.target_id")
	if !after.IsZero() {
		q = q.Where("(a.created_at, a.id) < (?, ?)", after.At, after.ID)
	}
	if err := q.OrderExpr("a.created_at DESC, a.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: audit log: %w", err)
	}
	return out, nil
}

// PostGate is what a like or comment needs to know about a post first.
type PostGate struct {
	AuthorID uuid.UUID
	Removed  bool
	Blocked  bool // a block stands between the post's author and the viewer
	// GroupLocked: the post is in a closed or secret group the viewer is
	// not a member of.
	GroupLocked bool
	// AuthorSuspended: the post's author is suspended now, which hides it
	// from everyone but moderators.
	AuthorSuspended bool
}

// PostMeta is what a post's gate needs of the post itself.
type PostMeta struct {
	AuthorID uuid.UUID
	Removed  bool
	GroupID  uuid.UUID // uuid.Nil outside groups
}

// PostMetaOf answers post id's author, whether it was removed and its
// group; domain.ErrNotFound if there is no such post (a repost's row is
// none: it is liked, saved and commented on through its original).
func PostMetaOf(ctx context.Context, db bun.IDB, id uuid.UUID) (PostMeta, error) {
	var m PostMeta
	var group uuid.NullUUID
	err := db.QueryRowContext(ctx, `SELECT user_id, removed_at IS NOT NULL, group_id FROM posts WHERE id = ? AND repost_of IS NULL`, id).
		Scan(&m.AuthorID, &m.Removed, &group)
	if err != nil {
		return m, notFound(err, "persistence: post meta")
	}
	m.GroupID = group.UUID
	return m, nil
}

// GroupAccess answers group's visibility and whether user is a member of
// it; domain.ErrNotFound if there is no such group.
func GroupAccess(ctx context.Context, db bun.IDB, group, user uuid.UUID) (visibility string, member bool, err error) {
	err = db.QueryRowContext(ctx, `SELECT g.visibility, EXISTS (SELECT FROM group_members gm
		WHERE gm.group_id = g.id AND gm.user_id = ? AND gm.status = 'member') FROM groups g WHERE g.id = ?`,
		user, group).Scan(&visibility, &member)
	if err != nil {
		return "", false, notFound(err, "persistence: group access")
	}
	return visibility, member, nil
}

// PostGateOf answers the gate of post id for viewer; domain.ErrNotFound if
// there is no such post.
func PostGateOf(ctx context.Context, db bun.IDB, id, viewer uuid.UUID) (PostGate, error) {
	var g PostGate
	err := db.QueryRowContext(ctx, `SELECT p.user_id, p.removed_at IS NOT NULL,
		EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = p.user_id AND b.blocked_id = ?1)
		OR EXISTS (SELECT FROM user_blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = p.user_id),
		p.group_id IS NOT NULL AND EXISTS (SELECT FROM groups g WHERE g.id = p.group_id AND g.visibility <> 'public')
		AND NOT EXISTS (SELECT FROM group_members gm WHERE gm.group_id = p.group_id AND gm.user_id = ?1 AND gm.status = 'member'),
		NOT `+notSuspendedSQL("p.user_id")+`
		FROM posts p WHERE p.id = ?0 AND p.repost_of IS NULL`, id, viewer).Scan(&g.AuthorID, &g.Removed, &g.Blocked, &g.GroupLocked, &g.AuthorSuspended)
	if err != nil {
		return g, notFound(err, "persistence: post gate")
	}
	return g, nil
}
