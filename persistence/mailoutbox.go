package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// MailChannel is the LISTEN channel notified after mail_outbox inserts.
const MailChannel = "mail_outbox"

// QueuedMail is one e-mail waiting in the mail outbox. Its body may carry a
// live code, so it must never be logged; log ID and Kind instead.
type QueuedMail struct {
	bun.BaseModel `bun:"table:mail_outbox,alias:m"`

	ID uuid.UUID `bun:"id,pk,type:uuid"`
	// Kind says what the mail is for (a code purpose or a notice), for logs.
	Kind string `bun:"kind,notnull"`
	// UserID is the account the mail belongs to (zero: none).
	UserID uuid.UUID `bun:"user_id,type:uuid,nullzero"`
	// CodeID is the code the mail carries (zero: none). The mail is dropped
	// once that code is used or retired.
	CodeID        uuid.UUID `bun:"code_id,type:uuid,nullzero"`
	Recipient     string    `bun:"recipient,notnull"`
	Subject       string    `bun:"subject,notnull"`
	Text          string    `bun:"text_body,notnull"`
	HTML          string    `bun:"html_body,notnull"`
	Attempts      int       `bun:"attempts,notnull"`
	NextAttemptAt time.Time `bun:"next_attempt_at,nullzero,notnull,default:current_timestamp"`
	// ExpiresAt is when the mail stops being useful (its code expires).
	ExpiresAt time.Time `bun:"expires_at,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// QueueMail stores m for delivery, in the caller's transaction: the mail
// exists exactly when the change it belongs to commits. A zero ID is filled
// in.
func QueueMail(ctx context.Context, db bun.IDB, m *QueuedMail) error {
	if m.ID == uuid.Nil {
		m.ID = NewID()
	}
	if _, err := db.NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: queue mail: %w", err)
	}
	return nil
}

// usefulMail is true of a row still worth sending: not expired, and its
// code (if any) neither used nor replaced. It reads m and c, the outbox row
// left-joined to its code.
const usefulMail = "m.expires_at > now() AND c.consumed_at IS NULL"

// ClaimMail locks and returns the oldest due, still useful mail, skipping
// rows another sender holds; domain.ErrNotFound when there is none. The lock
// lasts until tx ends, so the caller sends while holding it and deletes the
// row (MailDone) or reschedules it (MailFailed) in the same transaction: two
// senders can never both hold, and so both send, one row.
func ClaimMail(ctx context.Context, tx bun.Tx) (*QueuedMail, error) {
	m := new(QueuedMail)
	err := tx.NewSelect().Model(m).
		Join("LEFT JOIN otp_codes AS c ON c.id = m.code_id").
		Where("m.next_attempt_at <= now()").Where(usefulMail).
		OrderExpr("m.next_attempt_at, m.created_at").Limit(1).
		For("UPDATE OF m SKIP LOCKED").Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: claim mail")
	}
	return m, nil
}

// MailDone deletes a delivered (or undeliverable) mail: its body is not
// kept a moment longer than needed.
func MailDone(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := db.NewDelete().Model((*QueuedMail)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: delete mail: %w", err)
	}
	return nil
}

// MailFailed counts a failed attempt and schedules the next one after retry.
func MailFailed(ctx context.Context, db bun.IDB, id uuid.UUID, retry time.Duration) error {
	_, err := db.NewUpdate().Model((*QueuedMail)(nil)).
		Set("attempts = attempts + 1").
		Set("next_attempt_at = now() + ? * interval '1 microsecond'", retry.Microseconds()).
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("persistence: reschedule mail: %w", err)
	}
	return nil
}

// RetryMailNow makes every waiting mail due at once: after an outage, the
// first delivery that works shows the server is back, and the codes that
// waited should not wait out their backoff as well. It returns how many rows
// it moved.
func RetryMailNow(ctx context.Context, db bun.IDB) (int64, error) {
	res, err := db.NewUpdate().Model((*QueuedMail)(nil)).Set("next_attempt_at = now()").
		Where("next_attempt_at > now()").Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("persistence: retry mail now: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// DroppedMail describes a mail deleted unsent, for the log.
type DroppedMail struct {
	ID       uuid.UUID `bun:"id"`
	Kind     string    `bun:"kind"`
	UserID   uuid.UUID `bun:"user_id,nullzero"`
	Attempts int       `bun:"attempts"`
	// Expired is true when the mail outlived expires_at; false when its
	// code was used or replaced by a newer one.
	Expired bool `bun:"expired"`
}

// DropUselessMail deletes up to limit mails that are no longer worth
// sending (expired, or their code used or replaced), skipping rows a sender
// holds right now, and describes them.
func DropUselessMail(ctx context.Context, db bun.IDB, limit int) ([]DroppedMail, error) {
	var out []DroppedMail
	err := db.NewRaw(`DELETE FROM mail_outbox WHERE id IN (
			SELECT m.id FROM mail_outbox m LEFT JOIN otp_codes c ON c.id = m.code_id
			WHERE NOT (`+usefulMail+`)
			LIMIT ? FOR UPDATE OF m SKIP LOCKED)
		RETURNING id, kind, user_id, attempts, expires_at <= now() AS expired`, limit).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("persistence: drop useless mail: %w", err)
	}
	return out, nil
}

// NextMailIn is how long until the earliest mail that is not yet due
// becomes due, measured on the database's clock; ok is false when no mail
// waits for a later attempt. Due rows are not counted: they are either being
// sent by another node right now or about to be claimed.
func NextMailIn(ctx context.Context, db bun.IDB) (d time.Duration, ok bool, err error) {
	var micros *int64
	err = db.NewSelect().Model((*QueuedMail)(nil)).
		ColumnExpr("(extract(epoch FROM min(next_attempt_at) - now()) * 1000000)::bigint").
		Where("next_attempt_at > now()").Scan(ctx, &micros)
	if err != nil {
		return 0, false, fmt.Errorf("persistence: next mail: %w", err)
	}
	if micros == nil {
		return 0, false, nil
	}
	return time.Duration(*micros) * time.Microsecond, true, nil
}
