package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// InsertNotification stores n (its ID is made here when zero) as a row of
// its own and fills in its created_at and updated_at. Likes roll up and are
// made by CreateNotifications instead.
func InsertNotification(ctx context.Context, db bun.IDB, n *Notification) error {
	if n.ID == uuid.Nil {
		n.ID = NewID()
	}
	if n.UpdatedAt.IsZero() {
		n.UpdatedAt = n.CreatedAt // zero too: both default to now
	}
	if _, err := db.NewInsert().Model(n).Returning("created_at, updated_at, actor_count").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert notification: %w", err)
	}
	return nil
}

// UnreadNotificationCount is how many of userID's notifications are unread
// (the counter the notifications' triggers keep; 0 for no such user).
func UnreadNotificationCount(ctx context.Context, db bun.IDB, userID uuid.UUID) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT unread_notifications FROM users WHERE id = ?", userID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("persistence: unread notifications: %w", err)
	}
	return n, nil
}

// notificationReadable leaves out the notifications about a post of a
// closed or secret group the recipient is not a member of (any more): a
// group's posts reach nobody else through any path.
const notificationReadable = ` AND NOT EXISTS (SELECT FROM posts np JOIN groups ng ON ng.id = np.group_id
	WHERE np.id = n.post_id AND ng.visibility <> 'public' AND NOT EXISTS (SELECT FROM group_members ngm
		WHERE ngm.group_id = ng.id AND ngm.user_id = n.user_id AND ngm.status = 'member'))`

// NotificationsOf lists userID's notifications, most recently changed
// first, with their actors and post snippets, starting after the keyset
// (At is updated_at). A roll-up that changes moves to the top: a reader
// paging on past it does not meet it again, and every other row keeps its
// place, so no row is repeated or skipped because one moved.
func NotificationsOf(ctx context.Context, db bun.IDB, userID uuid.UUID, after Keyset, limit int) ([]*Notification, error) {
	q := `SELECT ` + notificationColumns + ` FROM notifications n WHERE n.user_id = ?` + notificationReadable
	args := []any{userID}
	if !after.IsZero() {
		q += ` AND (n.updated_at, n.id) < (?, ?)`
		args = append(args, after.At, after.ID)
	}
	q += ` ORDER BY n.updated_at DESC, n.id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("persistence: notifications: %w", err)
	}
	defer rows.Close()
	var out []*Notification
	for rows.Next() {
		n, err := scanNotification(rows)
		if err != nil {
			return nil, fmt.Errorf("persistence: notifications: %w", err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: notifications: %w", err)
	}
	return out, nil
}

// NotificationsSince lists userID's notifications changed at or after
// since (a resuming socket's newest updatedAt: a row at exactly since may
// come again, which the client recognises by id), oldest first; of more
// than limit, the newest limit.
func NotificationsSince(ctx context.Context, db bun.IDB, userID uuid.UUID, since time.Time, limit int) ([]*Notification, error) {
	q := `SELECT ` + notificationColumns + ` FROM notifications n WHERE n.user_id = ? AND n.updated_at >= ?` + notificationReadable + `
		ORDER BY n.updated_at DESC, n.id DESC LIMIT ?`
	rows, err := db.QueryContext(ctx, q, userID, since, limit)
	if err != nil {
		return nil, fmt.Errorf("persistence: notifications since: %w", err)
	}
	defer rows.Close()
	var out []*Notification
	for rows.Next() {
		n, err := scanNotification(rows)
		if err != nil {
			return nil, fmt.Errorf("persistence: notifications since: %w", err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: notifications since: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}

// MarkNotificationsRead marks those of ids that belong to userID read and
// returns how many changed; other users' ids are ignored.
func MarkNotificationsRead(ctx context.Context, db bun.IDB, userID uuid.UUID, ids []uuid.UUID) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	res, err := db.NewUpdate().Model((*Notification)(nil)).Set("is_read = true").
		Where("user_id = ? AND id IN (?) AND NOT is_read", userID, bun.In(ids)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("persistence: mark notifications read: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// MarkAllNotificationsRead marks every unread notification of userID read.
func MarkAllNotificationsRead(ctx context.Context, db bun.IDB, userID uuid.UUID) (int, error) {
	res, err := db.NewUpdate().Model((*Notification)(nil)).Set("is_read = true").
		Where("user_id = ? AND NOT is_read", userID).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("persistence: mark all notifications read: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// DeleteNotification removes userID's notification id; false when userID
// has no such notification (someone else's counts as none).
func DeleteNotification(ctx context.Context, db bun.IDB, userID, id uuid.UUID) (bool, error) {
	res, err := db.NewDelete().Model((*Notification)(nil)).Where("id = ? AND user_id = ?", id, userID).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: delete notification: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// DeleteFriendRequestNotifications removes the friend_request notifications
// that sender's requests left with recipient (a declined or cancelled
// request takes its notification with it).
func DeleteFriendRequestNotifications(ctx context.Context, db bun.IDB, recipient, sender uuid.UUID) error {
	_, err := db.NewDelete().Model((*Notification)(nil)).
		Where("user_id = ? AND sender_id = ? AND type = ?", recipient, sender, NotifyFriendRequest).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: delete friend request notifications: %w", err)
	}
	return nil
}

// ReadFriendRequestNotifications marks sender's friend_request
// notifications to recipient read (the request was answered).
func ReadFriendRequestNotifications(ctx context.Context, db bun.IDB, recipient, sender uuid.UUID) error {
	_, err := db.NewUpdate().Model((*Notification)(nil)).Set("is_read = true").
		Where("user_id = ? AND sender_id = ? AND type = ? AND NOT is_read", recipient, sender, NotifyFriendRequest).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: read friend request notifications: %w", err)
	}
	return nil
}
