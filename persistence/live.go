package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Queries of the user grain: the notifications it creates on the user's
// behalf, with the unread count it pushes with them.

// RecentActors is how many of a roll-up's newest likers it keeps: what a
// line of text ("Asha and Ben liked your post") and a stack of avatars show.
const RecentActors = 3

// notificationActors is the select-list expression of a notification's
// actors (alias n) as a JSON array, newest first: a roll-up's recent likers,
// or the sender. Names are read from users each time, never stored on the
// notification, so a deleted account's name cannot linger: a liker who is
// gone is simply not there.
const notificationActors = `(SELECT coalesce(json_agg(json_build_object(
		'id', u.id, 'name', u.name, 'role', u.role, 'universityId', coalesce(u.university_id, ''),
		'department', u.department, 'avatarUrl', u.avatar_url, 'avatarKey', u.avatar_key) ORDER BY a.o), '[]')
	FROM unnest(CASE WHEN n.type IN ('like', 'profile_like', 'mention', 'repost') AND cardinality(n.actor_ids) > 0 THEN n.actor_ids
		ELSE array_remove(ARRAY[n.sender_id], NULL) END) WITH ORDINALITY AS a (id, o)
	JOIN users u ON u.id = a.id)`

// notificationSnippet is the select-list expression of the start of the
// notification's post (alias n), its first 100 characters; "" without one.
const notificationSnippet = `coalesce((SELECT left(p.content, 100) FROM posts p WHERE p.id = n.post_id), '')`

// notificationColumns are what the display queries read of a notification
// (alias n), in the order scanNotification takes them.
const notificationColumns = `n.id, n.user_id, n.type, n.sender_id, n.post_id, n.comment_id, n.is_read,
	n.actor_count, n.created_at, n.updated_at, n.note, ` + notificationActors + `, ` + notificationSnippet + `,
	n.group_id, coalesce((SELECT gg.handle FROM groups gg WHERE gg.id = n.group_id), ''),
	coalesce((SELECT gg.name FROM groups gg WHERE gg.id = n.group_id), '')`

// actorJSON is one element of notificationActors.
type actorJSON struct {
	ID           uuid.UUID `json:"id"`
	Name         string    `json:"name"`
	Role         string    `json:"role"`
	UniversityID string    `json:"universityId"`
	Department   string    `json:"department"`
	AvatarURL    string    `json:"avatarUrl"`
	AvatarKey    string    `json:"avatarKey"`
}

// scanNotification reads notificationColumns, then the extra destinations.
func scanNotification(rows *sql.Rows, extra ...any) (*Notification, error) {
	n := &Notification{}
	var sender, post, comment, group sql.NullString
	var actors []byte
	dst := append([]any{&n.ID, &n.UserID, &n.Type, &sender, &post, &comment, &n.IsRead,
		&n.ActorCount, &n.CreatedAt, &n.UpdatedAt, &n.Note, &actors, &n.PostSnippet,
		&group, &n.GroupHandle, &n.GroupName}, extra...)
	if err := rows.Scan(dst...); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		v   sql.NullString
		dst *uuid.UUID
	}{{sender, &n.SenderID}, {post, &n.PostID}, {comment, &n.CommentID}, {group, &n.GroupID}} {
		if !f.v.Valid {
			continue
		}
		id, err := uuid.Parse(f.v.String)
		if err != nil {
			return nil, err
		}
		*f.dst = id
	}
	var as []actorJSON
	if err := json.Unmarshal(actors, &as); err != nil {
		return nil, err
	}
	for _, a := range as {
		n.Actors = append(n.Actors, &User{ID: a.ID, Name: a.Name, Role: a.Role, UniversityID: a.UniversityID,
			Department: a.Department, AvatarURL: a.AvatarURL, AvatarKey: a.AvatarKey})
	}
	return n, nil
}

// createNotificationsSQL is CreateNotifications's statement, numbered for
// a prepared statement: planning it cost more than running it, and in a
// campus event most likes notify someone.
//
// $1…$6 are parallel arrays (id, user, type, sender, post, comment; "" for
// none), $7 the user. Items whose user, sender, post or comment was deleted
// meanwhile are skipped rather than failing the batch on a foreign key, and
// so are items whose sender and user a block now stands between (the
// action was allowed before the block; its notification comes after).
//
//   - Other kinds are inserted, one row each, in the order given; an id
//     already stored (a retried request) is skipped.
//   - Profile likes roll up the same way: one `profile_like` row per
//     user, its count the people who like the profile now.
//   - Mentions roll up the same way, one `mention` row per person and
//     post: its count the people who mentioned them there (in the post
//     or its comments) with a notification, its comment the newest
//     mention's (none when it was the post's text).
//   - Reposts roll up the same way: one `repost` row per post, its count
//     the post's reposts now.
//   - Likes roll up: one row per post, inserted or updated in place (one's
//     own like of one's own post notifies no one). Its
//     actors become the batch's likers, newest first, then the ones it had,
//     without repeats, RecentActors at most; its count the people who like
//     the post now other than its author (the post's counter, committed
//     before the author is notified; an unlike moves no notification, the
//     next like corrects the count); updated_at now; unread again.
//
// The unread count answered is the counter as the statement's snapshot
// sees it plus the rows that became unread: those inserted and the
// roll-ups that were read (one that was unread already does not count
// again). The triggers move the counter the same way after the statement.
var createNotificationsSQL = numbered(`WITH input AS (
		SELECT x.id, x.user_id, x.type, nullif(x.sender, '')::uuid AS sender, nullif(x.post, '')::uuid AS post,
			nullif(x.comment, '')::uuid AS comment, x.ord
		FROM unnest(?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[])
			WITH ORDINALITY AS x (id, user_id, type, sender, post, comment, ord)
		WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = x.user_id)
		  AND (nullif(x.sender, '') IS NULL OR EXISTS (SELECT 1 FROM users u WHERE u.id = nullif(x.sender, '')::uuid))
		  AND (nullif(x.post, '') IS NULL OR EXISTS (SELECT 1 FROM posts p WHERE p.id = nullif(x.post, '')::uuid))
		  AND (nullif(x.comment, '') IS NULL OR EXISTS (SELECT 1 FROM comments c WHERE c.id = nullif(x.comment, '')::uuid))
		  AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = x.user_id AND b.blocked_id = nullif(x.sender, '')::uuid)
		  AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocked_id = x.user_id AND b.blocker_id = nullif(x.sender, '')::uuid)
	), ins AS (
		INSERT INTO notifications (id, user_id, type, sender_id, post_id, comment_id)
		SELECT id, user_id, type, sender, post, comment FROM input WHERE type NOT IN ('like', 'profile_like', 'mention', 'repost') ORDER BY ord
		ON CONFLICT DO NOTHING
		RETURNING *
	), likes AS (
		SELECT l.user_id, l.post, (array_agg(l.id ORDER BY l.ord DESC))[1] AS id,
			(SELECT array_agg(s.sender ORDER BY s.last DESC) FROM (
				SELECT i.sender, max(i.ord) AS last FROM input i
				WHERE i.type = 'like' AND i.user_id = l.user_id AND i.post = l.post AND i.sender <> i.user_id
				GROUP BY i.sender
				ORDER BY last DESC LIMIT ` + strconv.Itoa(RecentActors) + `) s) AS actors,
			count(DISTINCT l.sender) AS fresh
		FROM input l WHERE l.type = 'like' AND l.post IS NOT NULL AND l.sender IS NOT NULL AND l.sender <> l.user_id
		GROUP BY l.user_id, l.post
	), before AS (
		SELECT n.post_id FROM notifications n
		WHERE n.user_id = ? AND n.type = 'like' AND NOT n.is_read AND n.post_id IN (SELECT post FROM likes)
	), up AS (
		INSERT INTO notifications AS n (id, user_id, type, post_id, actor_ids, actor_count)
		SELECT l.id, l.user_id, 'like', l.post, l.actors, greatest(l.fresh, (
			SELECT p.likes_count - CASE WHEN EXISTS (
				SELECT 1 FROM post_likes pl WHERE pl.post_id = p.id AND pl.user_id = l.user_id) THEN 1 ELSE 0 END
			FROM posts p WHERE p.id = l.post))
		FROM likes l
		ON CONFLICT (user_id, post_id) WHERE type = 'like' DO UPDATE SET
			actor_ids = (SELECT array_agg(r.a ORDER BY r.o) FROM (
				SELECT a.a, min(a.o) AS o FROM unnest(excluded.actor_ids || n.actor_ids) WITH ORDINALITY AS a (a, o)
				GROUP BY a.a ORDER BY o LIMIT ` + strconv.Itoa(RecentActors) + `) r),
			actor_count = excluded.actor_count,
			updated_at = now(),
			is_read = false
		RETURNING *
	), plikes AS (
		SELECT l.user_id, (array_agg(l.id ORDER BY l.ord DESC))[1] AS id,
			(SELECT array_agg(s.sender ORDER BY s.last DESC) FROM (
				SELECT i.sender, max(i.ord) AS last FROM input i
				WHERE i.type = 'profile_like' AND i.user_id = l.user_id AND i.sender <> i.user_id
				GROUP BY i.sender
				ORDER BY last DESC LIMIT ` + strconv.Itoa(RecentActors) + `) s) AS actors,
			count(DISTINCT l.sender) AS fresh
		FROM input l WHERE l.type = 'profile_like' AND l.sender IS NOT NULL AND l.sender <> l.user_id
		GROUP BY l.user_id
	), pbefore AS (
		SELECT n.user_id FROM notifications n
		WHERE n.type = 'profile_like' AND NOT n.is_read AND n.user_id IN (SELECT user_id FROM plikes)
	), pup AS (
		INSERT INTO notifications AS n (id, user_id, type, actor_ids, actor_count)
		SELECT l.id, l.user_id, 'profile_like', l.actors, greatest(l.fresh,
			(SELECT count(*) FROM profile_likes pl WHERE pl.user_id = l.user_id))
		FROM plikes l
		ON CONFLICT (user_id) WHERE type = 'profile_like' DO UPDATE SET
			actor_ids = (SELECT array_agg(r.a ORDER BY r.o) FROM (
				SELECT a.a, min(a.o) AS o FROM unnest(excluded.actor_ids || n.actor_ids) WITH ORDINALITY AS a (a, o)
				GROUP BY a.a ORDER BY o LIMIT ` + strconv.Itoa(RecentActors) + `) r),
			actor_count = excluded.actor_count,
			updated_at = now(),
			is_read = false
		RETURNING *
	), ments AS (
		SELECT l.user_id, l.post, (array_agg(l.id ORDER BY l.ord DESC))[1] AS id,
			(array_agg(l.comment ORDER BY l.ord DESC))[1] AS comment,
			(SELECT array_agg(s.sender ORDER BY s.last DESC) FROM (
				SELECT i.sender, max(i.ord) AS last FROM input i
				WHERE i.type = 'mention' AND i.user_id = l.user_id AND i.post = l.post AND i.sender <> i.user_id
				GROUP BY i.sender
				ORDER BY last DESC LIMIT ` + strconv.Itoa(RecentActors) + `) s) AS actors,
			count(DISTINCT l.sender) AS fresh
		FROM input l WHERE l.type = 'mention' AND l.post IS NOT NULL AND l.sender IS NOT NULL AND l.sender <> l.user_id
		GROUP BY l.user_id, l.post
	), mbefore AS (
		SELECT n.post_id FROM notifications n
		WHERE n.type = 'mention' AND NOT n.is_read AND (n.user_id, n.post_id) IN (SELECT user_id, post FROM ments)
	), mup AS (
		INSERT INTO notifications AS n (id, user_id, type, post_id, comment_id, actor_ids, actor_count)
		SELECT m.id, m.user_id, 'mention', m.post, m.comment, m.actors, greatest(m.fresh, (
			SELECT count(DISTINCT x.author_id) FROM mentions x
			WHERE x.user_id = m.user_id AND x.post_id = m.post AND x.notified))
		FROM ments m
		ON CONFLICT (user_id, post_id) WHERE type = 'mention' DO UPDATE SET
			actor_ids = (SELECT array_agg(r.a ORDER BY r.o) FROM (
				SELECT a.a, min(a.o) AS o FROM unnest(excluded.actor_ids || n.actor_ids) WITH ORDINALITY AS a (a, o)
				GROUP BY a.a ORDER BY o LIMIT ` + strconv.Itoa(RecentActors) + `) r),
			actor_count = excluded.actor_count,
			comment_id = excluded.comment_id,
			updated_at = now(),
			is_read = false
		RETURNING *
	), reposts AS (
		SELECT l.user_id, l.post, (array_agg(l.id ORDER BY l.ord DESC))[1] AS id,
			(SELECT array_agg(s.sender ORDER BY s.last DESC) FROM (
				SELECT i.sender, max(i.ord) AS last FROM input i
				WHERE i.type = 'repost' AND i.user_id = l.user_id AND i.post = l.post AND i.sender <> i.user_id
				GROUP BY i.sender
				ORDER BY last DESC LIMIT ` + strconv.Itoa(RecentActors) + `) s) AS actors,
			count(DISTINCT l.sender) AS fresh
		FROM input l WHERE l.type = 'repost' AND l.post IS NOT NULL AND l.sender IS NOT NULL AND l.sender <> l.user_id
		GROUP BY l.user_id, l.post
	), rbefore AS (
		SELECT n.post_id FROM notifications n
		WHERE n.user_id = ? AND n.type = 'repost' AND NOT n.is_read AND n.post_id IN (SELECT post FROM reposts)
	), rup AS (
		INSERT INTO notifications AS n (id, user_id, type, post_id, actor_ids, actor_count)
		SELECT l.id, l.user_id, 'repost', l.post, l.actors, greatest(l.fresh,
			(SELECT p.reposts_count FROM posts p WHERE p.id = l.post))
		FROM reposts l
		ON CONFLICT (user_id, post_id) WHERE type = 'repost' DO UPDATE SET
			actor_ids = (SELECT array_agg(r.a ORDER BY r.o) FROM (
				SELECT a.a, min(a.o) AS o FROM unnest(excluded.actor_ids || n.actor_ids) WITH ORDINALITY AS a (a, o)
				GROUP BY a.a ORDER BY o LIMIT ` + strconv.Itoa(RecentActors) + `) r),
			actor_count = excluded.actor_count,
			updated_at = now(),
			is_read = false
		RETURNING *
	), done AS (
		SELECT * FROM ins UNION ALL SELECT * FROM up UNION ALL SELECT * FROM pup UNION ALL SELECT * FROM mup UNION ALL SELECT * FROM rup
	)
	SELECT ` + notificationColumns + `,
		(SELECT unread_notifications FROM users WHERE id = ?)
			+ (SELECT count(*) FROM ins)
			+ (SELECT count(*) FROM likes WHERE post NOT IN (SELECT post_id FROM before))
			+ (SELECT count(*) FROM plikes WHERE user_id NOT IN (SELECT user_id FROM pbefore))
			+ (SELECT count(*) FROM ments WHERE post NOT IN (SELECT post_id FROM mbefore))
			+ (SELECT count(*) FROM reposts WHERE post NOT IN (SELECT post_id FROM rbefore))
	FROM done n`)

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
	// Created are the notifications inserted or, for roll-ups, updated, in
	// their rolled-up state with their actors: the other kinds first, in the
	// order given, then one roll-up per post liked.
	Created []*Notification
	// Unread is the user's unread count after the statement (when Created
	// is not empty; nothing changed otherwise).
	Unread int
}

// CreateNotifications stores notifications of one user in one statement
// (createNotificationsSQL): the other kinds as rows, the likes rolled up
// per post, and answers them as shown with the unread count after. The user
// grain used three statements, and in a campus event, where most likes
// notify someone, they were half of the connections the node waited for.
func CreateNotifications(ctx context.Context, db bun.IDB, userID uuid.UUID, ns []*Notification) (CreatedNotifications, error) {
	var res CreatedNotifications
	if len(ns) == 0 {
		return res, nil
	}
	n := len(ns)
	ids, users, types := make([]string, n), make([]string, n), make([]string, n)
	senders, posts, comments := make([]string, n), make([]string, n), make([]string, n)
	for i, x := range ns {
		if x.UserID != userID {
			return res, fmt.Errorf("persistence: create notifications: a notification of %s among %s's", x.UserID, userID)
		}
		ids[i], users[i], types[i] = x.ID.String(), x.UserID.String(), x.Type
		senders[i], posts[i], comments[i] = optionalID(x.SenderID), optionalID(x.PostID), optionalID(x.CommentID)
	}
	rows, err := prepared(ctx, db, createNotificationsSQL,
		arrayLiteral(ids), arrayLiteral(users), arrayLiteral(types),
		arrayLiteral(senders), arrayLiteral(posts), arrayLiteral(comments), userID, userID, userID)
	if err != nil {
		return res, fmt.Errorf("persistence: create notifications: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		x, err := scanNotification(rows, &res.Unread)
		if err != nil {
			return res, fmt.Errorf("persistence: create notifications: %w", err)
		}
		res.Created = append(res.Created, x)
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("persistence: create notifications: %w", err)
	}
	return res, nil
}

func optionalID(id uuid.UUID) string {
	if id == uuid.Nil {
		return ""
	}
	return id.String()
}
