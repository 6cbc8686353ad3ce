package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
)

// RevokeChannel is the NOTIFY channel carrying the id of a user whose tokens
// were just revoked, so every node drops its cached token version at once.
const RevokeChannel = "campus_token_revoked"

// UserByID loads one user; domain.ErrNotFound when there is none.
func UserByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*User, error) {
	u := new(User)
	if err := db.NewSelect().Model(u).Where("u.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: user by id")
	}
	return u, nil
}

// UserByEmail loads the user with this e-mail, ignoring case.
func UserByEmail(ctx context.Context, db bun.IDB, email string) (*User, error) {
	u := new(User)
	if err := db.NewSelect().Model(u).Where("lower(u.email) = lower(?)", email).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: user by email")
	}
	return u, nil
}

// UserByUniversityID loads the user with this university ID, ignoring case.
func UserByUniversityID(ctx context.Context, db bun.IDB, id string) (*User, error) {
	u := new(User)
	if err := db.NewSelect().Model(u).Where("upper(u.university_id) = upper(?)", id).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: user by university id")
	}
	return u, nil
}

// TokenVersion is the user's current token version; domain.ErrNotFound for a
// deleted user (whose tokens are then all invalid).
func TokenVersion(ctx context.Context, db bun.IDB, id uuid.UUID) (int, error) {
	var v int
	err := db.NewSelect().Model((*User)(nil)).Column("token_version").Where("id = ?", id).Scan(ctx, &v)
	if err != nil {
		return 0, notFound(err, "persistence: token version")
	}
	return v, nil
}

// TokenVersions answers the current token version of each of ids that
// still exists (a revocation listener's catch-up after a reconnect).
func TokenVersions(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]int, error) {
	out := make(map[uuid.UUID]int, len(ids))
	const chunk = 5000
	for len(ids) > 0 {
		part := ids[:min(len(ids), chunk)]
		ids = ids[len(part):]
		var rows []struct {
			ID           uuid.UUID `bun:"id"`
			TokenVersion int       `bun:"token_version"`
		}
		err := db.NewSelect().Model((*User)(nil)).Column("id", "token_version").
			Where("id IN (?)", bun.In(part)).Scan(ctx, &rows)
		if err != nil {
			return nil, fmt.Errorf("persistence: token versions: %w", err)
		}
		for _, r := range rows {
			out[r.ID] = r.TokenVersion
		}
	}
	return out, nil
}

// RevokeTokens bumps the user's token version, invalidating every token
// issued before, and tells every node (NOTIFY, delivered at commit).
func RevokeTokens(ctx context.Context, db bun.IDB, id uuid.UUID) (int, error) {
	var v int
	err := db.NewUpdate().Model((*User)(nil)).
		Set("token_version = token_version + 1").Set("updated_at = now()").
		Where("id = ?", id).Returning("token_version").Scan(ctx, &v)
	if err != nil {
		return 0, notFound(err, "persistence: revoke tokens")
	}
	if err := NotifyRevoked(ctx, db, id); err != nil {
		return 0, err
	}
	return v, nil
}

// NotifyRevoked announces on RevokeChannel that id's tokens are revoked.
func NotifyRevoked(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := db.ExecContext(ctx, "SELECT pg_notify(?, ?)", RevokeChannel, id.String()); err != nil {
		return fmt.Errorf("persistence: notify revoked: %w", err)
	}
	return nil
}

// AddOutbox records that a searchable entity changed, in the caller's
// transaction, so the search index can never miss a committed write.
func AddOutbox(ctx context.Context, db bun.IDB, entity string, id uuid.UUID, op string) error {
	e := &OutboxEntry{Entity: entity, EntityID: id, Op: op}
	if _, err := db.NewInsert().Model(e).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: outbox %s %s: %w", entity, op, err)
	}
	return nil
}

// notFound maps sql.ErrNoRows to domain.ErrNotFound and wraps the rest.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, domain.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// IsUniqueViolation reports whether err is a unique-constraint violation,
// and on which constraint (or index) name.
func IsUniqueViolation(err error) (string, bool) {
	type pgErr interface{ Field(byte) string }
	var pe pgErr
	if errors.As(err, &pe) && pe.Field('C') == "23505" {
		return pe.Field('n'), true
	}
	return "", false
}
