package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
)

// PushChannel is the LISTEN channel notified after pushes are queued.
const PushChannel = "push_outbox"

// MaxPushSubscriptions is how many devices of one user keep push on; a
// new one beyond it retires the least recently renewed.
const MaxPushSubscriptions = 20

// PushSubscription is one device's Web Push subscription: its push
// service endpoint and the keys payloads are encrypted to (RFC 8291).
type PushSubscription struct {
	bun.BaseModel `bun:"table:push_subscriptions,alias:s"`

	ID        uuid.UUID `bun:"id,pk,type:uuid"`
	UserID    uuid.UUID `bun:"user_id,type:uuid,notnull"`
	Endpoint  string    `bun:"endpoint,notnull"`
	P256dh    string    `bun:"p256dh,notnull"`
	Auth      string    `bun:"auth,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
}

// SavePushSubscription stores s for s.UserID, or renews the subscription
// with the same endpoint (moving it to s.UserID: one device, one account),
// and retires the user's oldest beyond MaxPushSubscriptions. s.ID is set.
func SavePushSubscription(ctx context.Context, db bun.IDB, s *PushSubscription) error {
	if s.ID == uuid.Nil {
		s.ID = NewID()
	}
	err := db.NewInsert().Model(s).
		On("CONFLICT (endpoint) DO UPDATE").
		Set("user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, updated_at = now()").
		Returning("id, created_at, updated_at").Scan(ctx)
	if err != nil {
		return fmt.Errorf("persistence: save push subscription: %w", err)
	}
	_, err = db.NewRaw(`DELETE FROM push_subscriptions WHERE id IN (
			SELECT id FROM push_subscriptions WHERE user_id = ?
			ORDER BY updated_at DESC, id DESC OFFSET ?)`, s.UserID, MaxPushSubscriptions).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: retire push subscriptions: %w", err)
	}
	return nil
}

// DeletePushSubscription removes userID's subscription with endpoint and
// reports whether there was one; another user's is never touched.
func DeletePushSubscription(ctx context.Context, db bun.IDB, userID uuid.UUID, endpoint string) (bool, error) {
	res, err := db.NewDelete().Model((*PushSubscription)(nil)).
		Where("user_id = ?", userID).Where("endpoint = ?", endpoint).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: delete push subscription: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// DeletePushSubscriptionByID removes a subscription the push service said
// is gone (404/410), with its queued pushes.
func DeletePushSubscriptionByID(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := db.NewDelete().Model((*PushSubscription)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: delete push subscription: %w", err)
	}
	return nil
}

// QueuedPush is one claimed push: the notification to send and the
// subscription to send it to.
type QueuedPush struct {
	ID             uuid.UUID `bun:"id"`
	NotificationID uuid.UUID `bun:"notification_id"`
	Attempts       int       `bun:"attempts"`
	SubscriptionID uuid.UUID `bun:"subscription_id"`
	UserID         uuid.UUID `bun:"user_id"`
	Endpoint       string    `bun:"endpoint"`
	P256dh         string    `bun:"p256dh"`
	Auth           string    `bun:"auth"`
}

// ClaimPush locks and returns the oldest due, unexpired push with its
// subscription, skipping rows another sender holds; domain.ErrNotFound when
// there is none. The lock lasts until tx ends: the caller sends while
// holding it, then deletes (PushDone) or reschedules (PushFailed) the row in
// the same transaction, so no two senders ever send one row.
func ClaimPush(ctx context.Context, tx bun.Tx) (*QueuedPush, error) {
	var out []QueuedPush
	err := tx.NewRaw(`SELECT o.id, o.notification_id, o.attempts, s.id AS subscription_id, s.user_id,
			s.endpoint, s.p256dh, s.auth
		FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
		WHERE o.next_attempt_at <= now() AND o.expires_at > now()
		ORDER BY o.next_attempt_at, o.created_at LIMIT 1
		FOR UPDATE OF o SKIP LOCKED`).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: claim push: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("persistence: claim push: %w", domain.ErrNotFound)
	}
	return &out[0], nil
}

// PushDone deletes a sent (or pointless) push.
func PushDone(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := db.NewRaw("DELETE FROM push_outbox WHERE id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: delete push: %w", err)
	}
	return nil
}

// PushFailed counts a failed attempt and schedules the next one after retry.
func PushFailed(ctx context.Context, db bun.IDB, id uuid.UUID, retry time.Duration) error {
	_, err := db.NewRaw(`UPDATE push_outbox SET attempts = attempts + 1,
		next_attempt_at = now() + ? * interval '1 microsecond' WHERE id = ?`, retry.Microseconds(), id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: reschedule push: %w", err)
	}
	return nil
}

// DropExpiredPushes deletes up to limit pushes past their expiry, skipping
// rows a sender holds, and returns how many went.
func DropExpiredPushes(ctx context.Context, db bun.IDB, limit int) (int, error) {
	res, err := db.NewRaw(`DELETE FROM push_outbox WHERE id IN (
			SELECT id FROM push_outbox WHERE expires_at <= now() LIMIT ? FOR UPDATE SKIP LOCKED)`, limit).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("persistence: drop expired pushes: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// NextPushIn is how long until the earliest push not yet due becomes due,
// on the database's clock; ok is false when none waits.
func NextPushIn(ctx context.Context, db bun.IDB) (d time.Duration, ok bool, err error) {
	var micros *int64
	err = db.NewRaw(`SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000000)::bigint
		FROM push_outbox WHERE next_attempt_at > now()`).Scan(ctx, &micros)
	if err != nil {
		return 0, false, fmt.Errorf("persistence: next push: %w", err)
	}
	if micros == nil {
		return 0, false, nil
	}
	return time.Duration(*micros) * time.Microsecond, true, nil
}

// NotificationByID reads one notification with its actors and post
// snippet, as the lists show it; domain.ErrNotFound when it is gone.
func NotificationByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Notification, error) {
	rows, err := db.QueryContext(ctx, `SELECT `+notificationColumns+` FROM notifications n WHERE n.id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("persistence: notification: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("persistence: notification: %w", err)
		}
		return nil, fmt.Errorf("persistence: notification %s: %w", id, domain.ErrNotFound)
	}
	n, err := scanNotification(rows)
	if err != nil {
		return nil, fmt.Errorf("persistence: notification: %w", err)
	}
	return n, nil
}
