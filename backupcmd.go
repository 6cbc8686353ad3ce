package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"campus/backup"
	"campus/config"
	"campus/persistence/pgserver"
)

// runBackup writes a backup of the database and the media store into dir.
// With the embedded Postgres the node must be stopped (pgserver.ErrInUse
// otherwise); with DATABASE_URL it may keep running.
func runBackup(ctx context.Context, cfg config.Config, log zerolog.Logger, dir string, stderr io.Writer) error {
	url, closeDB, err := databaseURL(ctx, cfg, log)
	defer closeDB()
	if err != nil {
		return stopFirst(err)
	}
	store, err := openMedia(ctx, cfg, log)
	if err != nil {
		return err
	}
	_, err = backup.Backup(ctx, backup.Options{
		Dir: dir, DatabaseURL: url, Media: store, Version: version, Log: log,
		Progress: backup.NewProgress(stderr, isTerminal(stderr)),
	})
	return err
}

// runRestore restores the backup in dir into an empty database and the
// media store (CAMPUS_MEDIA_URL).
func runRestore(ctx context.Context, cfg config.Config, log zerolog.Logger, dir string, stderr io.Writer) error {
	url, closeDB, err := databaseURL(ctx, cfg, log)
	defer closeDB()
	if err != nil {
		return stopFirst(err)
	}
	store, err := openMedia(ctx, cfg, log)
	if err != nil {
		return err
	}
	m, err := backup.Restore(ctx, backup.Options{
		Dir: dir, DatabaseURL: url, Media: store, Log: log,
		Progress: backup.NewProgress(stderr, isTerminal(stderr)),
	})
	if err != nil {
		return err
	}
	// A node builds its search index at start when its data dir has none;
	// one that kept its index from before the restore must drop it (README,
	// Backup and restore).
	fmt.Fprintf(stderr, "restored the backup of %s (campus %s); start the nodes (a data dir that still holds a search index from before: remove %s first)\n",
		m.CreatedAt.Format("2006-01-02 15:04:05 UTC"), m.CampusVersion, cfg.SearchDir())
	return nil
}

// refusal reports whether err is one of the refusals that say everything in
// one line: the operator needs the reason, not a log record.
func refusal(err error) bool {
	for _, target := range []error{
		backup.ErrDirNotEmpty, backup.ErrDatabaseNotEmpty, backup.ErrMediaConflict, backup.ErrCorrupt, pgserver.ErrInUse,
	} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// stopFirst says what to do about an embedded Postgres a node holds.
func stopFirst(err error) error {
	if errors.Is(err, pgserver.ErrInUse) {
		return fmt.Errorf("%w (a node is running on this data dir: stop it first, or use DATABASE_URL)", err)
	}
	return err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}
