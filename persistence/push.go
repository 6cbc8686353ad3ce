package persistence

import (
	"context"
	"database/sql"
	"errors"
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
	ID uuid.UUID `bun:"id"`
	// NotificationID is the notification to push, or ConversationID the
	// conversation with news up to WantedSeq (exactly one is set).
	NotificationID uuid.UUID `bun:"notification_id,nullzero"`
	ConversationID uuid.UUID `bun:"conversation_id,nullzero"`
	WantedSeq      int64     `bun:"wanted_seq"`
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
	err := tx.NewRaw(`SELECT o.id, o.notification_id, o.conversation_id, coalesce(o.wanted_seq, 0) AS wanted_seq, o.attempts, s.id AS subscription_id, s.user_id,
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

// LeaseMessagePush marks a claimed message push as going out, covering the
// messages up to seq, and keeps other senders off it for lease: a message
// push is sent after its claim commits (its row is not locked while the
// push service answers, so new messages never wait on one). A sender that
// dies meanwhile leaves the row to be taken again when the lease ends.
func LeaseMessagePush(ctx context.Context, db bun.IDB, id uuid.UUID, seq int64, lease time.Duration) error {
	_, err := db.NewRaw(`UPDATE push_outbox SET sending_seq = ?,
		next_attempt_at = now() + ? * interval '1 microsecond' WHERE id = ?`, seq, lease.Microseconds(), id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: lease message push: %w", err)
	}
	return nil
}

// MessagePushDone ends a message push that covered the messages up to seq:
// the row goes, unless a newer message moved it meanwhile; then it is due
// again at once (the next push replaces this one on the device).
func MessagePushDone(ctx context.Context, db bun.IDB, id uuid.UUID, seq int64) error {
	res, err := db.NewRaw("DELETE FROM push_outbox WHERE id = ? AND wanted_seq <= ?", id, seq).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: delete message push: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	if _, err := db.NewRaw(`UPDATE push_outbox SET attempts = 0, sending_seq = NULL, next_attempt_at = now()
		WHERE id = ?`, id).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: requeue message push: %w", err)
	}
	return nil
}

// MessagePushFacts are what a message push shows a member: the
// conversation's kind and title, the member's unread count and, of the
// unread messages from others that are still there, how many people sent
// them and the newest one's sender and text.
type MessagePushFacts struct {
	Kind  string `bun:"kind"`
	Title string `bun:"title"`
	// Skip is true when nothing is to be pushed: the member left, muted
	// the conversation, a block stands in a direct one, or nothing is unread.
	Skip       bool   `bun:"skip"`
	Unread     int    `bun:"unread"`
	Senders    int    `bun:"senders"`
	SenderName string `bun:"sender_name"`
	Body       string `bun:"body"`
	Images     int    `bun:"images"`
}

// MessagePushFactsOf reads what a push of conv to user shows;
// domain.ErrNotFound when user was never a member.
func MessagePushFactsOf(ctx context.Context, db bun.IDB, conv, user uuid.UUID) (*MessagePushFacts, error) {
	st, err := ConversationStateOf(ctx, db, conv, user)
	if err != nil {
		return nil, err
	}
	f := &MessagePushFacts{Kind: st.Kind, Title: st.Title, Unread: st.Unread}
	if st.Left() || st.Muted || st.Blocked || st.Unread == 0 {
		f.Skip = true
		return f, nil
	}
	from := max(st.ReadSeq, st.JoinedSeq)
	err = db.NewRaw(`SELECT coalesce(u.name, '') AS sender_name, msg.body, `+messageImageCountSQL+` AS images,
			(SELECT count(DISTINCT x.sender_id) FROM messages x WHERE x.conversation_id = ?0 AND x.seq > ?2
				AND x.seq <= ?3 AND x.sender_id IS DISTINCT FROM ?1 AND x.unsent_at IS NULL AND x.removed_at IS NULL) AS senders
		FROM messages msg LEFT JOIN users u ON u.id = msg.sender_id
		WHERE msg.conversation_id = ?0 AND msg.seq > ?2 AND msg.seq <= ?3 AND msg.sender_id IS DISTINCT FROM ?1
			AND msg.unsent_at IS NULL AND msg.removed_at IS NULL
		ORDER BY msg.seq DESC LIMIT 1`, conv, user, from, st.LastSeq).Scan(ctx, f)
	if errors.Is(err, sql.ErrNoRows) {
		f.Skip = true
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("persistence: message push facts: %w", err)
	}
	return f, nil
}
