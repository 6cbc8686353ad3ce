package persistence

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
)

// Conversation is a direct or group conversation (issue 29).
type Conversation struct {
	bun.BaseModel `bun:"table:conversations,alias:c"`

	ID    uuid.UUID `bun:"id,pk,type:uuid,nullzero"`
	Kind  string    `bun:"kind,notnull"`
	Title string    `bun:"title,notnull"`
	// UserLow and UserHigh are a direct conversation's two people (the
	// lower id first); nil for a group.
	UserLow   uuid.UUID `bun:"user_low,type:uuid,nullzero"`
	UserHigh  uuid.UUID `bun:"user_high,type:uuid,nullzero"`
	CreatedBy uuid.UUID `bun:"created_by,type:uuid,nullzero"`
	// GroupID is set on a group's chat, whose members follow the group's;
	// ClosedAt once the group's admins switched it off.
	GroupID   uuid.UUID `bun:"group_id,type:uuid,nullzero"`
	ClosedAt  time.Time `bun:"closed_at,nullzero"`
	LastSeq   int64     `bun:"last_seq,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// ConversationMember is one person's membership of a conversation, past or
// present: they see the messages after JoinedSeq, up to LeftSeq once they
// left.
type ConversationMember struct {
	bun.BaseModel `bun:"table:conversation_members,alias:cm"`

	ConversationID uuid.UUID `bun:"conversation_id,pk,type:uuid"`
	UserID         uuid.UUID `bun:"user_id,pk,type:uuid"`
	Role           string    `bun:"role,notnull"`
	JoinedSeq      int64     `bun:"joined_seq,notnull"`
	ReadSeq        int64     `bun:"read_seq,notnull"`
	LeftSeq        *int64    `bun:"left_seq"`
	LeftAt         time.Time `bun:"left_at,nullzero"`
	Muted          bool      `bun:"muted,notnull"`
	JoinedAt       time.Time `bun:"joined_at,nullzero,notnull,default:current_timestamp"`
}

// Message is one message of a conversation.
type Message struct {
	bun.BaseModel `bun:"table:messages,alias:msg"`

	ConversationID uuid.UUID `bun:"conversation_id,pk,type:uuid"`
	Seq            int64     `bun:"seq,pk"`
	ID             uuid.UUID `bun:"id,type:uuid,notnull"`
	// SenderID is nil once the sender's account was deleted.
	SenderID   uuid.UUID `bun:"sender_id,type:uuid,nullzero"`
	ClientID   string    `bun:"client_id,notnull"`
	Body       string    `bun:"body,notnull"`
	ReplyToSeq int64     `bun:"reply_to_seq,nullzero"`
	EditedAt   time.Time `bun:"edited_at,nullzero"`
	UnsentAt   time.Time `bun:"unsent_at,nullzero"`
	RemovedAt  time.Time `bun:"removed_at,nullzero"`
	CreatedAt  time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// MessageImage is one of a message's up to MaxMessageImages images, at
// Position 0-3.
type MessageImage struct {
	bun.BaseModel `bun:"table:message_images,alias:mi"`

	ConversationID uuid.UUID `bun:"conversation_id,pk,type:uuid"`
	Seq            int64     `bun:"seq,pk"`
	Position       int16     `bun:"position,pk"`
	StorageKey     string    `bun:"storage_key,notnull"`
	URL            string    `bun:"url,notnull"`
	Type           string    `bun:"type,nullzero,notnull,default:'image'"`
	ContentType    string    `bun:"content_type,notnull"`
	Width          int       `bun:"width,notnull"`
	Height         int       `bun:"height,notnull"`
	SizeBytes      int64     `bun:"size_bytes,notnull"`
	// Alt is the image's description for those who cannot see it.
	Alt       string        `bun:"alt,notnull"`
	Variants  ImageVariants `bun:"variants,notnull"`
	CreatedAt time.Time     `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// ShownImage is a message image as a reader gets it (read as JSON from the
// message's row).
type ShownImage struct {
	URL      string         `json:"url"`
	Type     string         `json:"type"`
	Width    int            `json:"width"`
	Height   int            `json:"height"`
	Alt      string         `json:"alt"`
	Variants []ImageVariant `json:"variants"`
}

// Hidden reports whether the message's text is gone for its readers:
// unsent by its sender or removed by a moderator.
func (m *Message) Hidden() bool { return !m.UnsentAt.IsZero() || !m.RemovedAt.IsZero() }

// DirectPair orders two people as a direct conversation stores them.
func DirectPair(a, b uuid.UUID) (low, high uuid.UUID) {
	if bytes.Compare(a[:], b[:]) < 0 {
		return a, b
	}
	return b, a
}

// ConversationState is a conversation as one person sees it: the row, their
// membership, and the facts the rules need.
type ConversationState struct {
	Conversation
	Role      string    `bun:"role"`
	JoinedSeq int64     `bun:"joined_seq"`
	ReadSeq   int64     `bun:"read_seq"`
	LeftSeq   *int64    `bun:"left_seq"`
	LeftAt    time.Time `bun:"left_at,nullzero"`
	Muted     bool      `bun:"muted"`
	// Unread counts the messages after ReadSeq that the person may read,
	// not sent by them and not unsent.
	Unread int `bun:"unread"`
	// Of a direct conversation: the other person, whether a block stands
	// between the two, whether they are friends, whether the other one
	// ever sent a message here (then the conversation is accepted), the
	// other's setting and what the course and department rules compare.
	OtherID         uuid.UUID `bun:"other_id,type:uuid,nullzero"`
	Blocked         bool      `bun:"blocked"`
	Friends         bool      `bun:"friends"`
	OtherSent       bool      `bun:"other_sent"`
	OtherAllowFrom  string    `bun:"other_allow_from"`
	OtherCourse     string    `bun:"other_course"`
	OtherBatch      string    `bun:"other_batch"`
	OtherDepartment string    `bun:"other_department"`
	// GroupHandle and GroupAvatarURL are the handle and the picture of
	// the group whose chat this is ('' for other conversations).
	GroupHandle    string `bun:"group_handle"`
	GroupAvatarURL string `bun:"group_avatar_url"`
}

// Left reports whether the person left (or was removed from) the
// conversation.
func (s *ConversationState) Left() bool { return s.LeftSeq != nil }

// VisibleTo is the newest seq the person may read: the conversation's last,
// or the last before they left.
func (s *ConversationState) VisibleTo() int64 {
	if s.LeftSeq != nil {
		return *s.LeftSeq
	}
	return s.LastSeq
}

// stateColumns select a ConversationState of the member m (the person ?0)
// in the conversation c.
const stateColumns = `c.*, m.role, m.joined_seq, m.read_seq, m.left_seq, m.left_at, m.muted,
	(SELECT count(*) FROM messages x WHERE x.conversation_id = c.id
		AND x.seq > greatest(m.read_seq, m.joined_seq) AND x.seq <= coalesce(m.left_seq, c.last_seq)
		AND x.sender_id IS DISTINCT FROM m.user_id AND x.unsent_at IS NULL AND x.removed_at IS NULL) AS unread,
	o.id AS other_id,
	coalesce(o.id IS NOT NULL AND ` + blockedPairSQL + `, false) AS blocked,
	coalesce(o.id IS NOT NULL AND EXISTS (SELECT FROM friendships f WHERE f.user_low = c.user_low AND f.user_high = c.user_high), false) AS friends,
	coalesce(o.id IS NOT NULL AND EXISTS (SELECT FROM messages y WHERE y.conversation_id = c.id AND y.sender_id = o.id), false) AS other_sent,
	coalesce((SELECT s.allow_from FROM message_settings s WHERE s.user_id = o.id), 'friends') AS other_allow_from,
	coalesce(o.course, '') AS other_course, coalesce(o.batch, '') AS other_batch, coalesce(o.department, '') AS other_department,
	coalesce(g.handle, '') AS group_handle, coalesce(g.avatar_url, '') AS group_avatar_url`

// blockedPairSQL: a block stands between a direct conversation's two people.
const blockedPairSQL = `EXISTS (SELECT FROM user_blocks bl WHERE (bl.blocker_id = c.user_low AND bl.blocked_id = c.user_high)
		OR (bl.blocker_id = c.user_high AND bl.blocked_id = c.user_low))`

// stateFrom joins a conversation c with the membership m of ?0 and, for a
// direct one, the other person o; for a group's chat, its group g.
const stateFrom = `FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
	LEFT JOIN users o ON c.kind = 'direct' AND o.id = CASE WHEN c.user_low = ?0 THEN c.user_high ELSE c.user_low END
	LEFT JOIN groups g ON g.id = c.group_id`

// ConversationStateOf loads the conversation id as user sees it;
// domain.ErrNotFound if user was never a member of it.
func ConversationStateOf(ctx context.Context, db bun.IDB, id, user uuid.UUID) (*ConversationState, error) {
	s := new(ConversationState)
	err := db.NewRaw(`SELECT `+stateColumns+` `+stateFrom+` WHERE m.user_id = ?0 AND m.conversation_id = ?1`, user, id).Scan(ctx, s)
	if err != nil {
		return nil, notFound(err, "persistence: conversation state")
	}
	return s, nil
}

// SendState is what a send checks, read in one statement: the
// conversation as the sender sees it (without the unread count, which a
// send does not need and which grows with the messages the sender has not
// read), the sender's account, and their suspension in force if any.
type SendState struct {
	ConversationState
	Sender User `bun:"embed:me_"`
	// Suspended is set while a suspension is in force: until its end
	// (nil: indefinite), for SuspensionReason.
	Suspended        bool       `bun:"sus_active"`
	SuspendedUntil   *time.Time `bun:"sus_until"`
	SuspensionReason string     `bun:"sus_reason"`
}

// sendStateColumns are stateColumns without the unread count, with the
// sender's account (me) and suspension (sus).
const sendStateColumns = `c.*, m.role, m.joined_seq, m.read_seq, m.left_seq, m.left_at, m.muted,
	o.id AS other_id,
	coalesce(o.id IS NOT NULL AND ` + blockedPairSQL + `, false) AS blocked,
	coalesce(o.id IS NOT NULL AND EXISTS (SELECT FROM friendships f WHERE f.user_low = c.user_low AND f.user_high = c.user_high), false) AS friends,
	coalesce(o.id IS NOT NULL AND EXISTS (SELECT FROM messages y WHERE y.conversation_id = c.id AND y.sender_id = o.id), false) AS other_sent,
	coalesce((SELECT s.allow_from FROM message_settings s WHERE s.user_id = o.id), 'friends') AS other_allow_from,
	coalesce(o.course, '') AS other_course, coalesce(o.batch, '') AS other_batch, coalesce(o.department, '') AS other_department,
	me.id AS me_id, me.name AS me_name, me.role AS me_role, me.avatar_url AS me_avatar_url, me.avatar_key AS me_avatar_key,
	me.avatar_variants AS me_avatar_variants, me.university_id AS me_university_id, me.course AS me_course,
	me.batch AS me_batch, me.department AS me_department, me.created_at AS me_created_at,
	sus.user_id IS NOT NULL AS sus_active, sus.until_at AS sus_until, coalesce(sus.reason, '') AS sus_reason`

// SendStateOf loads what a send of user into conversation id checks;
// domain.ErrNotFound if user was never a member of it (or has no account).
func SendStateOf(ctx context.Context, db bun.IDB, id, user uuid.UUID) (*SendState, error) {
	s := new(SendState)
	err := db.NewRaw(`SELECT `+sendStateColumns+` FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
		JOIN users me ON me.id = ?0
		LEFT JOIN users o ON c.kind = 'direct' AND o.id = CASE WHEN c.user_low = ?0 THEN c.user_high ELSE c.user_low END
		LEFT JOIN LATERAL (SELECT user_id, until_at, reason FROM account_suspensions
			WHERE user_id = ?0 AND (until_at IS NULL OR until_at > now()) LIMIT 1) sus ON true
		WHERE m.user_id = ?0 AND m.conversation_id = ?1`, user, id).Scan(ctx, s)
	if err != nil {
		return nil, notFound(err, "persistence: send state")
	}
	return s, nil
}

// ConversationsOf is a page of user's conversations, newest updatedAt
// first: the ones they are a member of now, without the direct ones
// someone else started and nobody wrote in yet.
func ConversationsOf(ctx context.Context, db bun.IDB, user uuid.UUID, after Keyset, limit int) ([]*ConversationState, error) {
	var out []*ConversationState
	q := `SELECT ` + stateColumns + ` ` + stateFrom + `
		WHERE m.user_id = ?0 AND m.left_seq IS NULL AND (c.kind = 'group' OR c.last_seq > 0 OR c.created_by = ?0)`
	args := []any{user, limit}
	if !after.IsZero() {
		q += ` AND (c.updated_at, c.id) < (?2, ?3)`
		args = append(args, after.At, after.ID)
	}
	q += ` ORDER BY c.updated_at DESC, c.id DESC LIMIT ?1`
	if err := db.NewRaw(q, args...).Scan(ctx, &out); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: conversations of user: %w", err)
	}
	return out, nil
}

// UnreadMessagesTotal is user's unread messages over the conversations
// they are in and did not mute (the badge's number).
func UnreadMessagesTotal(ctx context.Context, db bun.IDB, user uuid.UUID) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT coalesce(sum((SELECT count(*) FROM messages x WHERE x.conversation_id = c.id
			AND x.seq > greatest(m.read_seq, m.joined_seq) AND x.seq <= c.last_seq
			AND x.sender_id IS DISTINCT FROM m.user_id AND x.unsent_at IS NULL AND x.removed_at IS NULL)), 0)
		FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
		WHERE m.user_id = ? AND m.left_seq IS NULL AND NOT m.muted AND c.last_seq > greatest(m.read_seq, m.joined_seq)`, user).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("persistence: unread messages total: %w", err)
	}
	return n, nil
}

// MarkRead moves user's read pointer in the conversation to seq, never back
// and never past what they may read, and answers where it is now. Two
// reads racing each other leave the higher one (GREATEST under the row's
// lock). domain.ErrNotFound if user was never a member.
func MarkRead(ctx context.Context, db bun.IDB, conv, user uuid.UUID, seq int64) (int64, error) {
	var read int64
	err := db.QueryRowContext(ctx, `UPDATE conversation_members m
		SET read_seq = greatest(m.read_seq, least(?, coalesce(m.left_seq, c.last_seq)))
		FROM conversations c WHERE c.id = m.conversation_id AND m.conversation_id = ? AND m.user_id = ?
		RETURNING m.read_seq`, seq, conv, user).Scan(&read)
	if err != nil {
		return 0, notFound(err, "persistence: mark read")
	}
	return read, nil
}

// MemberBrief is a member with what a client shows of them.
type MemberBrief struct {
	ConversationID uuid.UUID `bun:"conversation_id,type:uuid"`
	User           User      `bun:"embed:u_"`
	Role           string    `bun:"role"`
	// ReadSeq is the member's read pointer (never before their joining).
	ReadSeq int64 `bun:"read_seq"`
}

// memberBriefColumns select a MemberBrief of the membership m and its user u.
const memberBriefColumns = `m.conversation_id, m.role, greatest(m.read_seq, m.joined_seq) AS read_seq, ` + userBriefColumns

// userBriefColumns select what a person's brief needs, prefixed u_.
const userBriefColumns = `u.id AS u_id, u.name AS u_name, u.role AS u_role, u.avatar_url AS u_avatar_url, u.avatar_key AS u_avatar_key, u.avatar_variants AS u_avatar_variants`

// CurrentMembers lists the members of each conversation now, oldest first.
func CurrentMembers(ctx context.Context, db bun.IDB, convs []uuid.UUID) (map[uuid.UUID][]MemberBrief, error) {
	out := make(map[uuid.UUID][]MemberBrief, len(convs))
	if len(convs) == 0 {
		return out, nil
	}
	var rows []MemberBrief
	err := db.NewRaw(`SELECT `+memberBriefColumns+`
		FROM conversation_members m JOIN users u ON u.id = m.user_id
		WHERE m.conversation_id IN (?) AND m.left_seq IS NULL
		ORDER BY m.conversation_id, m.joined_at, m.user_id`, bun.In(convs)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: current members: %w", err)
	}
	for _, r := range rows {
		out[r.ConversationID] = append(out[r.ConversationID], r)
	}
	return out, nil
}

// MembersAsOf lists who was a member of conv at the moment at (when
// someone left: the list they keep seeing), oldest first.
func MembersAsOf(ctx context.Context, db bun.IDB, conv uuid.UUID, at time.Time) ([]MemberBrief, error) {
	var rows []MemberBrief
	err := db.NewRaw(`SELECT `+memberBriefColumns+`
		FROM conversation_members m JOIN users u ON u.id = m.user_id
		WHERE m.conversation_id = ? AND m.joined_at <= ? AND (m.left_at IS NULL OR m.left_at >= ?)
		ORDER BY m.joined_at, m.user_id`, conv, at, at).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: members as of: %w", err)
	}
	return rows, nil
}

// CurrentMemberIDs are the ids of conv's members now.
func CurrentMemberIDs(ctx context.Context, db bun.IDB, conv uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := db.NewRaw(`SELECT user_id FROM conversation_members WHERE conversation_id = ? AND left_seq IS NULL`, conv).Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: current member ids: %w", err)
	}
	return ids, nil
}

// RecentConversations are the conversations that stored a message (or
// changed) within the last window by the database's clock, and that
// moment (since): what a repair after a lost cluster member pushes again.
// Conversations have no index on updated_at (every message moves it, and
// an index would cost every send); a repair is rare, so it scans.
func RecentConversations(ctx context.Context, db bun.IDB, window time.Duration) (ids []uuid.UUID, since time.Time, err error) {
	if err := db.QueryRowContext(ctx, `SELECT now() - make_interval(secs => ?)`, window.Seconds()).Scan(&since); err != nil {
		return nil, time.Time{}, fmt.Errorf("persistence: recent conversations: %w", err)
	}
	err = db.NewRaw(`SELECT id FROM conversations WHERE updated_at >= ? AND last_seq > 0`, since).Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, fmt.Errorf("persistence: recent conversations: %w", err)
	}
	return ids, since, nil
}

// RecentMessageSeqs are the seqs of conv's messages stored since since,
// the newest limit of them, ascending.
func RecentMessageSeqs(ctx context.Context, db bun.IDB, conv uuid.UUID, since time.Time, limit int) ([]int64, error) {
	var seqs []int64
	err := db.NewRaw(`SELECT seq FROM (SELECT seq FROM messages WHERE conversation_id = ? AND created_at >= ?
		ORDER BY seq DESC LIMIT ?) tail ORDER BY seq`, conv, since, limit).Scan(ctx, &seqs)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: recent message seqs: %w", err)
	}
	return seqs, nil
}

// Reaction is one emoji on a message: how many put it and whether the
// reader is one of them.
type Reaction struct {
	Emoji string `json:"emoji"`
	Count int    `json:"count"`
	Mine  bool   `json:"mine"`
}

// MessageRow is a message as a reader sees it: the row, its sender, what
// it replies to and its reactions.
type MessageRow struct {
	Message
	Sender User `bun:"embed:u_"`
	// ReplySenderName, ReplyBody, ReplyImages (how many it has) and
	// ReplyHidden describe the message this one replies to (when
	// ReplyToSeq is set).
	ReplySenderName string     `bun:"reply_sender_name"`
	ReplyBody       string     `bun:"reply_body"`
	ReplyImages     int        `bun:"reply_images"`
	ReplyHidden     bool       `bun:"reply_hidden"`
	Reactions       []Reaction `bun:"reactions,type:jsonb"`
	// Images are the message's images in order (none once unsent).
	Images []ShownImage `bun:"images,type:jsonb"`
}

// messageColumns select a MessageRow of msg for the reader ?0.
const messageColumns = `msg.*, ` + userBriefColumns + `,
	coalesce(ru.name, '') AS reply_sender_name, coalesce(r.body, '') AS reply_body,
	coalesce(r.unsent_at IS NOT NULL OR r.removed_at IS NOT NULL, false) AS reply_hidden,
	(SELECT count(*) FROM message_images ri WHERE ri.conversation_id = r.conversation_id AND ri.seq = r.seq) AS reply_images,
	(SELECT coalesce(jsonb_agg(jsonb_build_object('emoji', e.emoji, 'count', e.n, 'mine', e.mine) ORDER BY e.first, e.emoji), '[]')
		FROM (SELECT rx.emoji, count(*) AS n, bool_or(rx.user_id = ?0) AS mine, min(rx.created_at) AS first
			FROM message_reactions rx WHERE rx.conversation_id = msg.conversation_id AND rx.seq = msg.seq
			GROUP BY rx.emoji) e) AS reactions,
	(SELECT coalesce(jsonb_agg(jsonb_build_object('url', mi.url, 'type', mi.type, 'width', mi.width, 'height', mi.height,
			'alt', mi.alt, 'variants', mi.variants) ORDER BY mi.position), '[]')
		FROM message_images mi WHERE mi.conversation_id = msg.conversation_id AND mi.seq = msg.seq) AS images`

// messageImageCountSQL counts the images of the message msg.
const messageImageCountSQL = `(SELECT count(*) FROM message_images mi WHERE mi.conversation_id = msg.conversation_id AND mi.seq = msg.seq)`

const messageFrom = `FROM messages msg LEFT JOIN users u ON u.id = msg.sender_id
	LEFT JOIN messages r ON r.conversation_id = msg.conversation_id AND r.seq = msg.reply_to_seq
	LEFT JOIN users ru ON ru.id = r.sender_id`

// MessagePage reads the messages of conv seen by reader within (from, to]
// (the reader's window): before > 0 answers up to limit before it (newest
// of them last); else after >= 0 answers up to limit after it, oldest
// first. Rows come in ascending seq; more says whether the page was cut.
func MessagePage(ctx context.Context, db bun.IDB, conv, reader uuid.UUID, from, to, before, after int64, limit int) ([]*MessageRow, bool, error) {
	var rows []*MessageRow
	var q string
	args := []any{reader, conv, from, to, limit + 1}
	if before > 0 {
		q = `SELECT * FROM (SELECT ` + messageColumns + ` ` + messageFrom + `
			WHERE msg.conversation_id = ?1 AND msg.seq > ?2 AND msg.seq <= ?3 AND msg.seq < ?5
			ORDER BY msg.seq DESC LIMIT ?4) page ORDER BY seq`
		args = append(args, before)
	} else {
		q = `SELECT ` + messageColumns + ` ` + messageFrom + `
			WHERE msg.conversation_id = ?1 AND msg.seq > greatest(?2, ?5) AND msg.seq <= ?3
			ORDER BY msg.seq LIMIT ?4`
		args = append(args, after)
	}
	if err := db.NewRaw(q, args...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("persistence: message page: %w", err)
	}
	more := len(rows) > limit
	if more {
		if before > 0 {
			rows = rows[1:]
		} else {
			rows = rows[:limit]
		}
	}
	return rows, more, nil
}

// MessagesBySeq reads the messages seqs of conv for reader (the ones that
// exist), in ascending seq.
func MessagesBySeq(ctx context.Context, db bun.IDB, conv, reader uuid.UUID, seqs []int64) ([]*MessageRow, error) {
	var rows []*MessageRow
	if len(seqs) == 0 {
		return rows, nil
	}
	err := db.NewRaw(`SELECT `+messageColumns+` `+messageFrom+`
		WHERE msg.conversation_id = ?1 AND msg.seq IN (?2) ORDER BY msg.seq`, reader, conv, bun.In(seqs)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: messages by seq: %w", err)
	}
	return rows, nil
}

// LastMessages reads, of each conversation, the message at the given seq
// (its newest one the reader may see), keyed by conversation.
func LastMessages(ctx context.Context, db bun.IDB, reader uuid.UUID, at map[uuid.UUID]int64) (map[uuid.UUID]*MessageRow, error) {
	out := make(map[uuid.UUID]*MessageRow, len(at))
	if len(at) == 0 {
		return out, nil
	}
	convs := make([]uuid.UUID, 0, len(at))
	seqs := make([]int64, 0, len(at))
	for c, s := range at {
		convs = append(convs, c)
		seqs = append(seqs, s)
	}
	var rows []*MessageRow
	err := db.NewRaw(`SELECT `+messageColumns+` `+messageFrom+`
		JOIN unnest(?1::uuid[], ?2::bigint[]) AS want(conversation_id, seq)
			ON want.conversation_id = msg.conversation_id AND want.seq = msg.seq`,
		reader, uuidArray(convs), int64Array(seqs)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: last messages: %w", err)
	}
	for _, r := range rows {
		out[r.ConversationID] = r
	}
	return out, nil
}

// MessageAt loads one message of conv by its seq; domain.ErrNotFound if none.
func MessageAt(ctx context.Context, db bun.IDB, conv uuid.UUID, seq int64) (*Message, error) {
	m := new(Message)
	if err := db.NewSelect().Model(m).Where("msg.conversation_id = ? AND msg.seq = ?", conv, seq).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: message at")
	}
	return m, nil
}

// MessageByID loads a message by its id; domain.ErrNotFound if none.
func MessageByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Message, error) {
	m := new(Message)
	if err := db.NewSelect().Model(m).Where("msg.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: message by id")
	}
	return m, nil
}

// MessageImageKeys are the storage keys of the images of conv's message seq.
func MessageImageKeys(ctx context.Context, db bun.IDB, conv uuid.UUID, seq int64) ([]string, error) {
	var keys []string
	if err := db.NewRaw(`SELECT storage_key FROM message_images WHERE conversation_id = ? AND seq = ?`, conv, seq).
		Scan(ctx, &keys); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: message images: %w", err)
	}
	return keys, nil
}

// ErrMessageLocked refuses an edit or reaction of a message that is unsent
// or removed, or an edit by someone who did not send it.
var (
	ErrNotSender     = errors.New("persistence: not the message's sender")
	ErrMessageHidden = errors.New("persistence: the message is unsent or removed")
)

// EditMessage replaces the text of sender's message and marks it edited.
// domain.ErrNotFound if there is no such message; ErrNotSender or
// ErrMessageHidden when it may not be edited.
func EditMessage(ctx context.Context, db bun.IDB, conv uuid.UUID, seq int64, sender uuid.UUID, body string) error {
	return changeOwnMessage(ctx, db, conv, seq, sender, `body = ?, edited_at = now()`, body)
}

// UnsendMessage takes the text and images of sender's message away for
// everyone; the row stays as the stub ("Message unsent") and its reactions
// go. It answers the storage keys of the images' files, which the caller
// removes once tx commits (a rolled-back unsend keeps its files).
func UnsendMessage(ctx context.Context, tx bun.IDB, conv uuid.UUID, seq int64, sender uuid.UUID) ([]string, error) {
	if err := changeOwnMessage(ctx, tx, conv, seq, sender, `body = '', unsent_at = now()`); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM message_reactions WHERE conversation_id = ? AND seq = ?`, conv, seq); err != nil {
		return nil, fmt.Errorf("persistence: unsend: reactions: %w", err)
	}
	var keys []string
	if err := tx.NewRaw(`DELETE FROM message_images WHERE conversation_id = ? AND seq = ? RETURNING storage_key`, conv, seq).
		Scan(ctx, &keys); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: unsend: images: %w", err)
	}
	return keys, nil
}

func changeOwnMessage(ctx context.Context, db bun.IDB, conv uuid.UUID, seq int64, sender uuid.UUID, set string, args ...any) error {
	args = append(args, conv, seq, sender)
	res, err := db.ExecContext(ctx, `UPDATE messages SET `+set+`
		WHERE conversation_id = ? AND seq = ? AND sender_id = ? AND unsent_at IS NULL AND removed_at IS NULL`, args...)
	if err != nil {
		return fmt.Errorf("persistence: change message: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	m, err := MessageAt(ctx, db, conv, seq)
	switch {
	case err != nil:
		return err
	case m.SenderID != sender:
		return ErrNotSender
	default:
		return ErrMessageHidden
	}
}

// SetReaction puts user's emoji on a message, replacing theirs.
// domain.ErrNotFound if there is no such message, ErrMessageHidden if it
// was unsent or removed.
func SetReaction(ctx context.Context, db bun.IDB, conv uuid.UUID, seq int64, user uuid.UUID, emoji string) error {
	res, err := db.ExecContext(ctx, `INSERT INTO message_reactions (conversation_id, seq, user_id, emoji)
		SELECT conversation_id, seq, ?, ? FROM messages
		WHERE conversation_id = ? AND seq = ? AND unsent_at IS NULL AND removed_at IS NULL
		ON CONFLICT (conversation_id, seq, user_id) DO UPDATE SET emoji = EXCLUDED.emoji, created_at = now()`,
		user, emoji, conv, seq)
	if err != nil {
		return fmt.Errorf("persistence: set reaction: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	if _, err := MessageAt(ctx, db, conv, seq); err != nil {
		return err
	}
	return ErrMessageHidden
}

// RemoveReaction takes user's reaction off a message (none is no change).
func RemoveReaction(ctx context.Context, db bun.IDB, conv uuid.UUID, seq int64, user uuid.UUID) error {
	if _, err := db.ExecContext(ctx, `DELETE FROM message_reactions WHERE conversation_id = ? AND seq = ? AND user_id = ?`,
		conv, seq, user); err != nil {
		return fmt.Errorf("persistence: remove reaction: %w", err)
	}
	return nil
}

// DirectConversation finds the direct conversation of a and b;
// domain.ErrNotFound if they have none.
func DirectConversation(ctx context.Context, db bun.IDB, a, b uuid.UUID) (*Conversation, error) {
	low, high := DirectPair(a, b)
	c := new(Conversation)
	err := db.NewSelect().Model(c).Where("c.kind = 'direct' AND c.user_low = ? AND c.user_high = ?", low, high).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: direct conversation")
	}
	return c, nil
}

// CreateDirectConversation makes the direct conversation of creator and
// other, or finds the one they have (two people starting it at once get
// the same one): created says which.
func CreateDirectConversation(ctx context.Context, db bun.IDB, creator, other uuid.UUID) (*Conversation, bool, error) {
	low, high := DirectPair(creator, other)
	c := &Conversation{ID: NewID(), Kind: domain.ConversationDirect, UserLow: low, UserHigh: high, CreatedBy: creator}
	res, err := db.NewInsert().Model(c).On("CONFLICT (user_low, user_high) WHERE kind = 'direct' DO NOTHING").
		Returning("created_at, updated_at").Exec(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("persistence: create direct conversation: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		found, err := DirectConversation(ctx, db, creator, other)
		return found, false, err
	}
	ms := []*ConversationMember{
		{ConversationID: c.ID, UserID: creator, Role: domain.ConversationMember},
		{ConversationID: c.ID, UserID: other, Role: domain.ConversationMember},
	}
	if _, err := db.NewInsert().Model(&ms).Exec(ctx); err != nil {
		return nil, false, fmt.Errorf("persistence: create direct conversation: members: %w", err)
	}
	return c, true, nil
}

// CreateGroupConversation stores a group conversation with its creator as
// its admin and members.
func CreateGroupConversation(ctx context.Context, db bun.IDB, c *Conversation, members []uuid.UUID) error {
	c.Kind = domain.ConversationGroup
	if _, err := db.NewInsert().Model(c).Returning("created_at, updated_at").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: create group conversation: %w", err)
	}
	ms := []*ConversationMember{{ConversationID: c.ID, UserID: c.CreatedBy, Role: domain.ConversationAdmin}}
	for _, u := range members {
		ms = append(ms, &ConversationMember{ConversationID: c.ID, UserID: u, Role: domain.ConversationMember})
	}
	if _, err := db.NewInsert().Model(&ms).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: create group conversation: members: %w", err)
	}
	return nil
}

// LockConversation locks a conversation's row for the rest of the
// transaction (member changes serialize with sends this way) and answers
// it; domain.ErrNotFound if it is gone.
func LockConversation(ctx context.Context, tx bun.IDB, id uuid.UUID) (*Conversation, error) {
	c := new(Conversation)
	if err := tx.NewSelect().Model(c).Where("c.id = ?", id).For("UPDATE").Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: lock conversation")
	}
	return c, nil
}

// TouchConversation moves a conversation's updatedAt to now (a rename, a
// member change), optionally with a new title.
func TouchConversation(ctx context.Context, db bun.IDB, id uuid.UUID, title string) error {
	q := db.NewUpdate().Model((*Conversation)(nil)).Set("updated_at = now()").Where("id = ?", id)
	if title != "" {
		q = q.Set("title = ?", title)
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("persistence: touch conversation: %w", err)
	}
	return nil
}

// SetMuted mutes or unmutes a conversation for user.
func SetMuted(ctx context.Context, db bun.IDB, conv, user uuid.UUID, muted bool) error {
	if _, err := db.ExecContext(ctx, `UPDATE conversation_members SET muted = ? WHERE conversation_id = ? AND user_id = ?`,
		muted, conv, user); err != nil {
		return fmt.Errorf("persistence: set muted: %w", err)
	}
	return nil
}

// AddMembers makes users members of a (locked) group conversation from its
// seq lastSeq on: new ones join, former ones come back; current ones are
// left as they are. It answers who joined.
func AddMembers(ctx context.Context, tx bun.IDB, conv uuid.UUID, lastSeq int64, users []uuid.UUID) ([]uuid.UUID, error) {
	var joined []uuid.UUID
	if len(users) == 0 {
		return joined, nil
	}
	err := tx.NewRaw(`INSERT INTO conversation_members AS m (conversation_id, user_id, role, joined_seq, read_seq)
		SELECT ?, u, 'member', ?, ? FROM unnest(?::uuid[]) AS u
		ON CONFLICT (conversation_id, user_id) DO UPDATE
			SET role = 'member', joined_seq = EXCLUDED.joined_seq, read_seq = greatest(m.read_seq, EXCLUDED.read_seq),
				left_seq = NULL, left_at = NULL, muted = false, joined_at = now()
			WHERE m.left_seq IS NOT NULL
		RETURNING user_id`, conv, lastSeq, lastSeq, uuidArray(users)).Scan(ctx, &joined)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: add members: %w", err)
	}
	return joined, nil
}

// RemoveMember ends user's membership of a (locked) conversation at
// lastSeq: they keep reading what came before. false if they were not a
// member.
func RemoveMember(ctx context.Context, tx bun.IDB, conv, user uuid.UUID, lastSeq int64) (bool, error) {
	res, err := tx.ExecContext(ctx, `UPDATE conversation_members SET left_seq = ?, left_at = now(), role = 'member'
		WHERE conversation_id = ? AND user_id = ? AND left_seq IS NULL`, lastSeq, conv, user)
	if err != nil {
		return false, fmt.Errorf("persistence: remove member: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// PromoteOldestMember makes the longest-standing member of conv its admin
// when it has none left (its last admin left); no-op otherwise.
func PromoteOldestMember(ctx context.Context, tx bun.IDB, conv uuid.UUID) error {
	_, err := tx.ExecContext(ctx, `UPDATE conversation_members SET role = 'admin'
		WHERE conversation_id = ?0 AND user_id = (SELECT user_id FROM conversation_members
			WHERE conversation_id = ?0 AND left_seq IS NULL ORDER BY joined_at, user_id LIMIT 1)
		AND NOT EXISTS (SELECT FROM conversation_members WHERE conversation_id = ?0 AND left_seq IS NULL AND role = 'admin')`, conv)
	if err != nil {
		return fmt.Errorf("persistence: promote member: %w", err)
	}
	return nil
}

// CountCurrentMembers counts conv's members now.
func CountCurrentMembers(ctx context.Context, db bun.IDB, conv uuid.UUID) (int, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM conversation_members WHERE conversation_id = ? AND left_seq IS NULL`,
		conv).Scan(&n); err != nil {
		return 0, fmt.Errorf("persistence: count members: %w", err)
	}
	return n, nil
}

// MessagingFacts is what the rule of who may message whom needs to know of
// a sender and one recipient.
type MessagingFacts struct {
	UserID     uuid.UUID `bun:"id,type:uuid"`
	Name       string    `bun:"name"`
	AllowFrom  string    `bun:"allow_from"`
	Friends    bool      `bun:"friends"`
	Blocked    bool      `bun:"blocked"`
	Course     string    `bun:"course"`
	Batch      string    `bun:"batch"`
	Department string    `bun:"department"`
}

// MessagingFactsOf answers the facts of sender and each of recipients that
// is a verified account (the others are missing from the map).
func MessagingFactsOf(ctx context.Context, db bun.IDB, sender uuid.UUID, recipients []uuid.UUID) (map[uuid.UUID]MessagingFacts, error) {
	out := make(map[uuid.UUID]MessagingFacts, len(recipients))
	if len(recipients) == 0 {
		return out, nil
	}
	var rows []MessagingFacts
	err := db.NewRaw(`SELECT u.id, u.name, u.course, u.batch, u.department,
			coalesce((SELECT s.allow_from FROM message_settings s WHERE s.user_id = u.id), 'friends') AS allow_from,
			EXISTS (SELECT FROM friendships f WHERE f.user_low = least(u.id, ?0) AND f.user_high = greatest(u.id, ?0)) AS friends,
			`+blockedSQL("u.id", "?0")+` AS blocked
		FROM users u WHERE u.id IN (?1) AND u.email_verified_at IS NOT NULL`, sender, bun.In(recipients)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("persistence: messaging facts: %w", err)
	}
	for _, r := range rows {
		out[r.UserID] = r
	}
	return out, nil
}

// AllowFromOf answers user's "who can message you" (friends when unset).
func AllowFromOf(ctx context.Context, db bun.IDB, user uuid.UUID) (string, error) {
	var a string
	err := db.QueryRowContext(ctx, `SELECT coalesce((SELECT allow_from FROM message_settings WHERE user_id = ?), 'friends')`, user).Scan(&a)
	if err != nil {
		return "", fmt.Errorf("persistence: allow from: %w", err)
	}
	return a, nil
}

// SetAllowFrom stores user's "who can message you".
func SetAllowFrom(ctx context.Context, db bun.IDB, user uuid.UUID, allow string) error {
	if _, err := db.ExecContext(ctx, `INSERT INTO message_settings (user_id, allow_from) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET allow_from = EXCLUDED.allow_from, updated_at = now()`, user, allow); err != nil {
		return fmt.Errorf("persistence: set allow from: %w", err)
	}
	return nil
}

// RemoveMessage hides a message from its conversation on a moderator's
// word (the row is kept for the audit trail) and answers it as it was.
// domain.ErrNotFound if there is no such message or it is already removed.
func RemoveMessage(ctx context.Context, tx bun.IDB, id uuid.UUID) (*Message, error) {
	m := new(Message)
	if err := tx.NewSelect().Model(m).Where("msg.id = ? AND msg.removed_at IS NULL", id).For("UPDATE").Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: remove message")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE messages SET removed_at = now() WHERE id = ?`, id); err != nil {
		return nil, fmt.Errorf("persistence: remove message: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM message_reactions WHERE conversation_id = ? AND seq = ?`, m.ConversationID, m.Seq); err != nil {
		return nil, fmt.Errorf("persistence: remove message: reactions: %w", err)
	}
	return m, nil
}

// MessageSend is one send of a conversation's batch.
type MessageSend struct {
	ID         uuid.UUID
	SenderID   uuid.UUID
	ClientID   string
	Body       string
	ReplyToSeq int64
	// Images are stored with the message (their ConversationID, Seq and
	// Position are set then); a retried send stores none.
	Images []MessageImage
}

// MessageBatch is a conversation grain's sends to commit together.
type MessageBatch struct {
	ConversationID uuid.UUID
	Sends          []MessageSend
}

// MessageBatchResult answers a committed batch, send by send: the stored
// message (for a retried client id, the original), whether this batch
// stored it, or why it could not (ErrCannotSend). Members are the
// conversation's members at the commit: the ones the messages go to.
type MessageBatchResult struct {
	Messages []*Message
	New      []bool
	Errs     []error
	Members  []uuid.UUID
}

// ErrConversationGone fails a batch whose conversation does not exist.
var ErrConversationGone = errors.New("persistence: conversation gone")

// ErrCannotSend refuses one send: its sender is not a member now, or a
// block stands between a direct conversation's two people.
var ErrCannotSend = errors.New("persistence: sender cannot send in this conversation")

// ApplyMessageBatches commits the batches of many conversations in one
// transaction (the node-wide writer's group commit). Each conversation's
// row is locked first, in id order (two writers, or a twin grain's batch,
// cannot deadlock, and a twin's batch waits for this one); a retried
// client id is found under that lock and answered with the original; the
// new messages get the next seqs from `last_seq = last_seq + n RETURNING`
// in the same transaction, so seqs are gapless whoever sends. A batch that
// fails is rolled back to its savepoint and fails alone.
func ApplyMessageBatches(ctx context.Context, db bun.IDB, bs []MessageBatch) ([]MessageBatchResult, []error) {
	res, errs := make([]MessageBatchResult, len(bs)), make([]error, len(bs))
	order := make([]int, len(bs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return bytes.Compare(bs[a].ConversationID[:], bs[b].ConversationID[:])
	})
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ids := make([]uuid.UUID, 0, len(bs))
		for _, i := range order {
			if len(ids) == 0 || ids[len(ids)-1] != bs[i].ConversationID {
				ids = append(ids, bs[i].ConversationID)
			}
		}
		var convs []Conversation
		if err := tx.NewSelect().Model(&convs).Where("c.id IN (?)", bun.In(ids)).Order("c.id").For("UPDATE").Scan(ctx); err != nil &&
			!errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("lock conversations: %w", err)
		}
		byID := make(map[uuid.UUID]*Conversation, len(convs))
		for i := range convs {
			byID[convs[i].ID] = &convs[i]
		}
		for n, i := range order {
			c := byID[bs[i].ConversationID]
			if c == nil {
				errs[i] = ErrConversationGone
				continue
			}
			sp := fmt.Sprintf("batch_%d", n)
			if _, err := tx.ExecContext(ctx, "SAVEPOINT "+sp); err != nil {
				return err
			}
			r, err := applyMessageBatch(ctx, tx, c, bs[i])
			if err != nil {
				if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+sp); rerr != nil {
					return rerr
				}
				errs[i] = err
				continue
			}
			res[i] = r
		}
		return nil
	})
	if err != nil {
		err = fmt.Errorf("persistence: apply message batches: %w", err)
		for i := range errs {
			errs[i] = err
			res[i] = MessageBatchResult{}
		}
	}
	return res, errs
}

// applyMessageBatch writes one conversation's batch under its row's lock.
func applyMessageBatch(ctx context.Context, tx bun.Tx, c *Conversation, b MessageBatch) (MessageBatchResult, error) {
	n := len(b.Sends)
	r := MessageBatchResult{Messages: make([]*Message, n), New: make([]bool, n), Errs: make([]error, n)}
	var members []struct {
		UserID  uuid.UUID `bun:"user_id,type:uuid"`
		Current bool      `bun:"current"`
	}
	if err := tx.NewRaw(`SELECT user_id, left_seq IS NULL AS current FROM conversation_members WHERE conversation_id = ?`,
		c.ID).Scan(ctx, &members); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("members: %w", err)
	}
	may := make(map[uuid.UUID]bool, len(members))
	for _, m := range members {
		if m.Current {
			may[m.UserID] = true
			r.Members = append(r.Members, m.UserID)
		}
	}
	if c.Kind == domain.ConversationDirect {
		var blocked bool
		if err := tx.QueryRowContext(ctx, `SELECT `+blockedSQL("?0", "?1"), c.UserLow, c.UserHigh).Scan(&blocked); err != nil {
			return r, fmt.Errorf("block: %w", err)
		}
		if blocked {
			clear(may)
		}
	}
	// Retries: a client id this conversation already stored for its sender.
	senders := make([]uuid.UUID, 0, n)
	clients := make([]string, 0, n)
	for _, s := range b.Sends {
		senders = append(senders, s.SenderID)
		clients = append(clients, s.ClientID)
	}
	var existing []*Message
	if err := tx.NewSelect().Model(&existing).
		Where("msg.conversation_id = ?", c.ID).
		Where("(msg.sender_id, msg.client_id) IN (SELECT * FROM unnest(?::uuid[], ?::text[]))", uuidArray(senders), arrayLiteral(clients)).
		Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("retries: %w", err)
	}
	type key struct {
		sender uuid.UUID
		client string
	}
	stored := make(map[key]*Message, len(existing))
	for _, m := range existing {
		stored[key{m.SenderID, m.ClientID}] = m
	}
	var fresh []*Message
	var freshImages [][]MessageImage
	for i, s := range b.Sends {
		k := key{s.SenderID, s.ClientID}
		if m := stored[k]; m != nil {
			r.Messages[i] = m
			continue
		}
		if !may[s.SenderID] {
			r.Errs[i] = ErrCannotSend
			continue
		}
		m := &Message{ConversationID: c.ID, ID: s.ID, SenderID: s.SenderID, ClientID: s.ClientID, Body: s.Body, ReplyToSeq: s.ReplyToSeq}
		stored[k] = m // a second send of it in this batch joins this one
		r.Messages[i], r.New[i] = m, true
		fresh = append(fresh, m)
		freshImages = append(freshImages, s.Images)
	}
	if len(fresh) == 0 {
		return r, nil
	}
	var last int64
	if err := tx.QueryRowContext(ctx, `UPDATE conversations SET last_seq = last_seq + ?, updated_at = now()
		WHERE id = ? RETURNING last_seq`, len(fresh), c.ID).Scan(&last); err != nil {
		return r, fmt.Errorf("seq: %w", err)
	}
	first := last - int64(len(fresh)) + 1
	for k, m := range fresh {
		m.Seq = first + int64(k)
		if m.ReplyToSeq >= m.Seq {
			m.ReplyToSeq = 0 // a reply can only quote an older message
		}
	}
	if _, err := tx.NewInsert().Model(&fresh).Returning("created_at").Exec(ctx); err != nil {
		return r, fmt.Errorf("insert: %w", err)
	}
	var images []*MessageImage
	for k, m := range fresh {
		for p := range freshImages[k] {
			im := freshImages[k][p]
			im.ConversationID, im.Seq, im.Position = c.ID, m.Seq, int16(p)
			images = append(images, &im)
		}
	}
	if len(images) > 0 {
		if _, err := tx.NewInsert().Model(&images).Exec(ctx); err != nil {
			return r, fmt.Errorf("insert images: %w", err)
		}
	}
	c.LastSeq = last
	return r, nil
}

// int64Array is ns as a Postgres array literal.
func int64Array(ns []int64) string {
	ss := make([]string, len(ns))
	for i, n := range ns {
		ss[i] = fmt.Sprint(n)
	}
	return "{" + strings.Join(ss, ",") + "}"
}
