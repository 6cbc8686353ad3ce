package persistence

import (
	"context"
	"database/sql/driver"
	"embed"
	"fmt"
	"io/fs"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// migrationFiles are the schema changes, applied in name order. Each runs in
// one transaction (the .tx. in its name). Once released, a migration is
// never edited: changes go in a new one.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrateLockKey names the advisory lock that serialises migrations of one
// database between nodes starting at the same time ("campus" in ASCII).
const migrateLockKey int64 = 0x63616d707573

// Migrate applies every pending migration, then the data steps a
// migration left to the application (the tags of older posts). Several
// nodes may call it at once: one migrates while the others wait, then find
// nothing to do.
func Migrate(ctx context.Context, db *bun.DB) error {
	return withMigrator(ctx, db, func(m *migrate.Migrator) error {
		if _, err := m.Migrate(ctx); err != nil {
			return fmt.Errorf("persistence: migrate: %w", err)
		}
		return backfillTags(ctx, db)
	})
}

// Rollback undoes the most recently applied group of migrations. It exists
// for tests; production only moves forward.
func Rollback(ctx context.Context, db *bun.DB) error {
	return withMigrator(ctx, db, func(m *migrate.Migrator) error {
		if _, err := m.Rollback(ctx); err != nil {
			return fmt.Errorf("persistence: rollback: %w", err)
		}
		return nil
	})
}

// withMigrator runs fn while holding the migration lock.
func withMigrator(ctx context.Context, db *bun.DB, fn func(*migrate.Migrator) error) (err error) {
	files, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return fmt.Errorf("persistence: migrations: %w", err)
	}
	ms := migrate.NewMigrations()
	if err := ms.Discover(files); err != nil {
		return fmt.Errorf("persistence: migrations: %w", err)
	}
	// Mark a migration applied only once it succeeded, so that a failed one
	// is retried on the next start instead of being skipped.
	m := migrate.NewMigrator(db, ms, migrate.WithMarkAppliedOnSuccess(true))

	unlock, err := lock(ctx, db)
	if err != nil {
		return err
	}
	defer func() {
		if uerr := unlock(); uerr != nil && err == nil {
			err = uerr
		}
	}()
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("persistence: init migrations: %w", err)
	}
	return fn(m)
}

// lock takes the migration advisory lock on a connection of its own. It
// polls pg_try_advisory_lock rather than blocking in pg_advisory_lock so
// that waiting obeys ctx, not the driver's read timeout.
func lock(ctx context.Context, db *bun.DB) (unlock func() error, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("persistence: migration lock: %w", err)
	}
	for {
		var ok bool
		if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(?)", migrateLockKey).Scan(&ok); err != nil {
			conn.Close()
			return nil, fmt.Errorf("persistence: migration lock: %w", err)
		}
		if ok {
			break
		}
		select {
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("persistence: waiting for another node's migration: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	return func() error {
		// Unlock even when ctx has ended; closing the connection would
		// release the lock too, but the pool may keep it open.
		_, err := conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", migrateLockKey)
		if err != nil {
			// The session may still hold the lock: drop the connection
			// rather than return it to the pool, which ends the session.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			conn.Close()
			return fmt.Errorf("persistence: migration unlock: %w", err)
		}
		if err := conn.Close(); err != nil {
			return fmt.Errorf("persistence: migration unlock: %w", err)
		}
		return nil
	}, nil
}
