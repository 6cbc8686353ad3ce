package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// List sizes (docs/protocol.md §1.6): ?limit= defaults to 20 and is capped at 100.
const (
	notificationsPageDefault = 20
	notificationsPageMax     = 100
	// maxMarkRead caps the ids one mark-as-read call may carry.
	maxMarkRead = 500
)

var (
	errBadCursor             = domain.InvalidField("cursor", "Invalid cursor")
	errNotificationNotFound  = domain.NotFound("Notification not found")
	errNotificationIDsNeeded = domain.InvalidField("notificationIds", "notificationIds must list at least one notification id")
)

// NotificationsDeps are what the notification use cases need.
type NotificationsDeps struct {
	DB  *bun.DB
	Log zerolog.Logger
}

// Notifications lists a user's notifications and marks or clears them.
// Every call is scoped to the caller: another user's ids are never touched.
type Notifications struct {
	d NotificationsDeps
}

// NewNotifications wires the notification use cases.
func NewNotifications(d NotificationsDeps) *Notifications {
	return &Notifications{d: d}
}

// Pagination is the pagination block of GET /notifications.
type Pagination struct {
	UnreadCount int     `json:"unreadCount"`
	NextCursor  *string `json:"nextCursor"`
	Limit       int     `json:"limit"`
}

// NotificationsResult answers GET /notifications.
type NotificationsResult struct {
	Notifications []NotificationView `json:"notifications"`
	Pagination    Pagination         `json:"pagination"`
}

// List is one page of the caller's notifications, most recently changed
// first (a like roll-up moves up when liked again), with the unread count. limit 0 means the default; cursor "" the first page.
func (a *Notifications) List(ctx context.Context, p Principal, limit int, cursor string) (NotificationsResult, error) {
	limit = keysetLimit(limit, notificationsPageDefault, notificationsPageMax)
	after, err := decodeKeyset(cursor)
	if err != nil {
		return NotificationsResult{}, err
	}
	rows, err := persistence.NotificationsOf(ctx, a.d.DB, p.UserID, after, limit+1)
	if err != nil {
		return NotificationsResult{}, err
	}
	unread, err := persistence.UnreadNotificationCount(ctx, a.d.DB, p.UserID)
	if err != nil {
		return NotificationsResult{}, err
	}
	res := NotificationsResult{
		Notifications: make([]NotificationView, 0, min(len(rows), limit)),
		Pagination:    Pagination{UnreadCount: unread, Limit: limit},
	}
	if len(rows) > limit {
		last := rows[limit-1]
		next := encodeKeyset(persistence.Keyset{At: last.UpdatedAt, ID: last.ID})
		res.Pagination.NextCursor = &next
		rows = rows[:limit]
	}
	for _, n := range rows {
		res.Notifications = append(res.Notifications, NewNotificationView(n))
	}
	return res, nil
}

// MarkReadInput is the body of PATCH /notifications/mark-as-read. A single
// notificationId is accepted too.
type MarkReadInput struct {
	NotificationIDs []string `json:"notificationIds"`
	NotificationID  string   `json:"notificationId"`
}

// ReadResult answers the mark-as-read calls: how many changed and the
// caller's unread count after.
type ReadResult struct {
	Updated     int `json:"updated"`
	UnreadCount int `json:"unreadCount"`
}

// MarkRead marks those of the ids that are the caller's read. Ids of other
// users' notifications are ignored, never touched.
func (a *Notifications) MarkRead(ctx context.Context, p Principal, in MarkReadInput) (ReadResult, error) {
	raw := in.NotificationIDs
	if in.NotificationID != "" {
		raw = append(raw, in.NotificationID)
	}
	if len(raw) == 0 {
		return ReadResult{}, errNotificationIDsNeeded
	}
	if len(raw) > maxMarkRead {
		return ReadResult{}, domain.InvalidField("notificationIds", "At most 500 notifications can be marked at once")
	}
	ids := make([]uuid.UUID, 0, len(raw))
	for _, s := range raw {
		id, err := uuid.Parse(strings.TrimSpace(s))
		if err != nil {
			// No notification has such an id, so none is the caller's.
			continue
		}
		ids = append(ids, id)
	}
	n, err := persistence.MarkNotificationsRead(ctx, a.d.DB, p.UserID, ids)
	if err != nil {
		return ReadResult{}, err
	}
	unread, err := persistence.UnreadNotificationCount(ctx, a.d.DB, p.UserID)
	if err != nil {
		return ReadResult{}, err
	}
	return ReadResult{Updated: n, UnreadCount: unread}, nil
}

// MarkAllRead marks every notification of the caller read.
func (a *Notifications) MarkAllRead(ctx context.Context, p Principal) (ReadResult, error) {
	n, err := persistence.MarkAllNotificationsRead(ctx, a.d.DB, p.UserID)
	if err != nil {
		return ReadResult{}, err
	}
	return ReadResult{Updated: n, UnreadCount: 0}, nil
}

// DeleteResult answers DELETE /notifications/{id}.
type DeleteResult struct {
	ID          string `json:"id"`
	UnreadCount int    `json:"unreadCount"`
}

// Delete clears one of the caller's notifications; someone else's is 404,
// exactly like one that does not exist.
func (a *Notifications) Delete(ctx context.Context, p Principal, id uuid.UUID) (DeleteResult, error) {
	ok, err := persistence.DeleteNotification(ctx, a.d.DB, p.UserID, id)
	if err != nil {
		return DeleteResult{}, err
	}
	if !ok {
		return DeleteResult{}, errNotificationNotFound
	}
	unread, err := persistence.UnreadNotificationCount(ctx, a.d.DB, p.UserID)
	if err != nil {
		return DeleteResult{}, err
	}
	return DeleteResult{ID: id.String(), UnreadCount: unread}, nil
}

// keysetLimit applies a list's default and cap to a requested page size.
func keysetLimit(limit, def, maxLimit int) int {
	switch {
	case limit <= 0:
		return def
	case limit > maxLimit:
		return maxLimit
	}
	return limit
}

// keysetCursor is the JSON inside an opaque cursor.
type keysetCursor struct {
	At  int64     `json:"t,omitempty"` // unix microseconds, Postgres's precision
	Key string    `json:"k,omitempty"`
	ID  uuid.UUID `json:"i"`
}

// encodeKeyset makes the opaque nextCursor of a list.
func encodeKeyset(k persistence.Keyset) string {
	c := keysetCursor{Key: k.Key, ID: k.ID}
	if !k.At.IsZero() {
		c.At = k.At.UnixMicro()
	}
	b, _ := json.Marshal(c) // a struct of plain fields always marshals
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeKeyset reads a cursor made by encodeKeyset; "" is the first page.
func decodeKeyset(s string) (persistence.Keyset, error) {
	if s == "" {
		return persistence.Keyset{}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) > 512 {
		return persistence.Keyset{}, errBadCursor
	}
	var c keysetCursor
	if err := json.Unmarshal(b, &c); err != nil || c.ID == uuid.Nil || !domain.ValidText(c.Key) {
		return persistence.Keyset{}, errBadCursor
	}
	k := persistence.Keyset{Key: c.Key, ID: c.ID}
	if c.At != 0 {
		k.At = time.UnixMicro(c.At)
		// A cursor is opaque but not trusted: a time Postgres cannot
		// hold would fail the query instead of answering 400.
		if y := k.At.UTC().Year(); y < minCursorYear || y > maxCursorYear {
			return persistence.Keyset{}, errBadCursor
		}
	}
	return k, nil
}

// The years a cursor's time may name: within what timestamptz holds, with
// a margin for time zones at either end.
const (
	minCursorYear = 1
	maxCursorYear = 9999
)

// isNotFound reports whether err is a 404 of any message.
func isNotFound(err error) bool { return errors.Is(err, domain.ErrNotFound) }
