package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
)

// The queries of `campus backup` and `campus restore` (package backup).

// Snapshot is a read-only REPEATABLE READ transaction whose snapshot other
// sessions (pg_dump --snapshot) can share while it stays open.
type Snapshot struct {
	Tx bun.Tx
	// ID names the snapshot for pg_dump --snapshot.
	ID string
}

// ExportSnapshot begins the transaction and exports its snapshot. The
// caller ends it with Tx.Rollback once every sharer has started.
func ExportSnapshot(ctx context.Context, db *bun.DB) (*Snapshot, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("persistence: begin snapshot: %w", err)
	}
	var id string
	if err := tx.QueryRowContext(ctx, "SELECT pg_export_snapshot()").Scan(&id); err != nil {
		_ = tx.Rollback() // the export failed; the rollback changes nothing
		return nil, fmt.Errorf("persistence: export snapshot: %w", err)
	}
	return &Snapshot{Tx: tx, ID: id}, nil
}

// MediaKeys returns every media key the database refers to: avatars,
// covers, post images and message images.
func MediaKeys(ctx context.Context, db bun.IDB) ([]string, error) {
	var keys []string
	err := db.NewRaw(`SELECT avatar_key FROM users WHERE avatar_key <> ''
		UNION SELECT cover_key FROM users WHERE cover_key <> ''
		UNION SELECT storage_key FROM post_images WHERE storage_key <> ''
		UNION SELECT storage_key FROM message_images WHERE storage_key <> ''`).Scan(ctx, &keys)
	if err != nil {
		return nil, fmt.Errorf("persistence: media keys: %w", err)
	}
	return keys, nil
}

// BackupFacts are what a backup's manifest records about the database.
type BackupFacts struct {
	ServerVersion string
	// ServerMajor is the server's major version (15 for 15.4).
	ServerMajor int
	// Migration is the newest applied migration's name.
	Migration string
	// Rows counts the main tables.
	Rows map[string]int64
}

// countedTables are the tables a manifest counts, for an operator to check
// a restore by.
var countedTables = []string{"users", "posts", "post_images", "post_likes", "comments", "friendships", "friend_requests", "notifications"}

// Facts reads the facts; run it in the snapshot so that they describe the
// dump.
func Facts(ctx context.Context, db bun.IDB) (BackupFacts, error) {
	f := BackupFacts{Rows: map[string]int64{}}
	var num int
	if err := db.QueryRowContext(ctx, "SELECT current_setting('server_version'), current_setting('server_version_num')::int").Scan(&f.ServerVersion, &num); err != nil {
		return f, fmt.Errorf("persistence: server version: %w", err)
	}
	f.ServerMajor = num / 10000
	err := db.QueryRowContext(ctx, "SELECT name FROM bun_migrations ORDER BY name DESC LIMIT 1").Scan(&f.Migration)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("persistence: newest migration: %w", err)
	}
	for _, t := range countedTables {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+t).Scan(&n); err != nil {
			return f, fmt.Errorf("persistence: count %s: %w", t, err)
		}
		f.Rows[t] = n
	}
	return f, nil
}

// Contents says what a database already holds: the number of tables
// outside the system schemas, and (when they exist) the users and posts.
type Contents struct {
	Tables       int
	Users, Posts int64
}

// Empty reports whether the database has no tables of its own at all.
func (c Contents) Empty() bool { return c.Tables == 0 }

// ContentsOf looks at what db holds.
func ContentsOf(ctx context.Context, db bun.IDB) (Contents, error) {
	var c Contents
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
		  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`).Scan(&c.Tables)
	if err != nil {
		return c, fmt.Errorf("persistence: count tables: %w", err)
	}
	for _, t := range []struct {
		name string
		n    *int64
	}{{"users", &c.Users}, {"posts", &c.Posts}} {
		var exists bool
		if err := db.QueryRowContext(ctx, "SELECT to_regclass(?) IS NOT NULL", "public."+t.name).Scan(&exists); err != nil {
			return c, fmt.Errorf("persistence: look for %s: %w", t.name, err)
		}
		if !exists {
			continue
		}
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+t.name).Scan(t.n); err != nil {
			return c, fmt.Errorf("persistence: count %s: %w", t.name, err)
		}
	}
	return c, nil
}
