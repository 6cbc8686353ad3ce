package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// Queries of the user grain: the notifications it creates on the user's
// behalf, with the unread count it pushes with them.

// InsertNotificationsOnce stores ns in one statement and answers those it
// inserted, with CreatedAt filled, in the order given. A notification whose
// id is already stored (a retried request) or that would be a second like
// notification of one liker on one post (notifications_like_key) is skipped.
func InsertNotificationsOnce(ctx context.Context, db bun.IDB, ns []*Notification) ([]*Notification, error) {
	if len(ns) == 0 {
		return nil, nil
	}
	n := len(ns)
	ids, users, types := make([]string, n), make([]string, n), make([]string, n)
	senders, posts, comments := make([]string, n), make([]string, n), make([]string, n)
	byID := make(map[uuid.UUID]*Notification, n)
	for i, x := range ns {
		ids[i], users[i], types[i] = x.ID.String(), x.UserID.String(), x.Type
		senders[i], posts[i], comments[i] = optionalID(x.SenderID), optionalID(x.PostID), optionalID(x.CommentID)
		byID[x.ID] = x
	}
	rows, err := db.QueryContext(ctx, `WITH ins AS (`+insertNotifications+`)
		SELECT id, created_at FROM ins`,
		pgdialect.Array(ids), pgdialect.Array(users), pgdialect.Array(types),
		pgdialect.Array(senders), pgdialect.Array(posts), pgdialect.Array(comments))
	if err != nil {
		return nil, fmt.Errorf("persistence: insert notifications: %w", err)
	}
	defer rows.Close()
	inserted := make(map[uuid.UUID]bool, n)
	for rows.Next() {
		var id uuid.UUID
		var at time.Time
		if err := rows.Scan(&id, &at); err != nil {
			return nil, fmt.Errorf("persistence: insert notifications: %w", err)
		}
		if x := byID[id]; x != nil {
			x.CreatedAt = at
			inserted[id] = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: insert notifications: %w", err)
	}
	out := make([]*Notification, 0, len(inserted))
	for _, x := range ns {
		if inserted[x.ID] {
			out = append(out, x)
		}
	}
	return out, nil
}

// insertNotifications inserts the notifications of six parallel arrays
// (id, user, type, sender, post, comment; "" for none) and returns the id,
// created_at and sender_id of those it inserted. WITH ORDINALITY keeps the
// given order, so that the notifications of one batch are created oldest
// first. Rows whose user, sender, post or comment was deleted meanwhile are
// skipped rather than failing the batch on a foreign key.
const insertNotifications = `INSERT INTO notifications (id, user_id, type, sender_id, post_id, comment_id)
		SELECT n.id, n.user_id, n.type, nullif(n.sender, '')::uuid, nullif(n.post, '')::uuid, nullif(n.comment, '')::uuid
		FROM unnest(?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[])
			WITH ORDINALITY AS n (id, user_id, type, sender, post, comment, ord)
		WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id)
		  AND (nullif(n.sender, '') IS NULL OR EXISTS (SELECT 1 FROM users u WHERE u.id = nullif(n.sender, '')::uuid))
		  AND (nullif(n.post, '') IS NULL OR EXISTS (SELECT 1 FROM posts p WHERE p.id = nullif(n.post, '')::uuid))
		  AND (nullif(n.comment, '') IS NULL OR EXISTS (SELECT 1 FROM comments c WHERE c.id = nullif(n.comment, '')::uuid))
		ORDER BY n.ord
		ON CONFLICT DO NOTHING
		RETURNING id, created_at, sender_id`

// createNotificationsSQL is CreateNotifications's statement, numbered for
// a prepared statement: planning it cost more than running it, and in a
// campus event most likes notify someone.
var createNotificationsSQL = numbered(`WITH ins AS (` + insertNotifications + `)
		SELECT ins.id, ins.created_at,
			(SELECT unread_notifications FROM users WHERE id = ?) + (SELECT count(*) FROM ins),
			u.id, u.name, u.role, u.university_id, u.department, u.avatar_url, u.avatar_key
		FROM ins LEFT JOIN users u ON u.id = ins.sender_id`)

// numbered turns Bun's ? placeholders into $1, $2, … in order (the
// statements it is used on have no other question marks).
func numbered(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CreatedNotifications is what CreateNotifications did.
type CreatedNotifications struct {
	// Created are the notifications inserted, CreatedAt filled, in the
	// order given.
	Created []*Notification
	// Unread is the user's unread count after the insert.
	Unread int
	// Senders are the senders of Created (the columns a user summary
	// shows), keyed by id.
	Senders map[uuid.UUID]*User
}

// CreateNotifications is InsertNotificationsOnce for notifications of one
// user, with the user's unread count after it and the senders, in one
// statement: the user grain used three, and in a campus event, where most
// likes notify someone, they were half of the connections the node waited
// for. (The count adds the rows inserted to the user's unread counter as
// the statement's snapshot sees it; the insert's trigger moves the counter
// after the statement.)
func CreateNotifications(ctx context.Context, db bun.IDB, userID uuid.UUID, ns []*Notification) (CreatedNotifications, error) {
	res := CreatedNotifications{Senders: map[uuid.UUID]*User{}}
	if len(ns) == 0 {
		return res, nil
	}
	n := len(ns)
	ids, users, types := make([]string, n), make([]string, n), make([]string, n)
	senders, posts, comments := make([]string, n), make([]string, n), make([]string, n)
	byID := make(map[uuid.UUID]*Notification, n)
	for i, x := range ns {
		if x.UserID != userID {
			return res, fmt.Errorf("persistence: create notifications: a notification of %s among %s's", x.UserID, userID)
		}
		ids[i], users[i], types[i] = x.ID.String(), x.UserID.String(), x.Type
		senders[i], posts[i], comments[i] = optionalID(x.SenderID), optionalID(x.PostID), optionalID(x.CommentID)
		byID[x.ID] = x
	}
	rows, err := prepared(ctx, db, createNotificationsSQL,
		arrayLiteral(ids), arrayLiteral(users), arrayLiteral(types),
		arrayLiteral(senders), arrayLiteral(posts), arrayLiteral(comments), userID)
	if err != nil {
		return res, fmt.Errorf("persistence: create notifications: %w", err)
	}
	defer rows.Close()
	inserted := make(map[uuid.UUID]bool, n)
	for rows.Next() {
		var id uuid.UUID
		var at time.Time
		var sid, name, role, univ, dept, avatarURL, avatarKey sql.NullString
		if err := rows.Scan(&id, &at, &res.Unread, &sid, &name, &role, &univ, &dept, &avatarURL, &avatarKey); err != nil {
			return res, fmt.Errorf("persistence: create notifications: %w", err)
		}
		if x := byID[id]; x != nil {
			x.CreatedAt = at
			inserted[id] = true
		}
		if sid.Valid {
			u := &User{Name: name.String, Role: role.String, UniversityID: univ.String, Department: dept.String,
				AvatarURL: avatarURL.String, AvatarKey: avatarKey.String}
			if u.ID, err = uuid.Parse(sid.String); err != nil {
				return res, fmt.Errorf("persistence: create notifications: %w", err)
			}
			res.Senders[u.ID] = u
		}
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("persistence: create notifications: %w", err)
	}
	for _, x := range ns {
		if inserted[x.ID] {
			res.Created = append(res.Created, x)
		}
	}
	return res, nil
}

// UsersByIDs loads the given users, keyed by id; missing ones are absent.
func UsersByIDs(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]*User, error) {
	out := make(map[uuid.UUID]*User, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var us []*User
	if err := db.NewSelect().Model(&us).Where("u.id IN (?)", bun.In(ids)).Scan(ctx); err != nil && err != sql.ErrNoRows {
		return nil, fmt.Errorf("persistence: users by ids: %w", err)
	}
	for _, u := range us {
		out[u.ID] = u
	}
	return out, nil
}

func optionalID(id uuid.UUID) string {
	if id == uuid.Nil {
		return ""
	}
	return id.String()
}
