// Package backup writes and restores a whole Campus: a pg_dump of the
// database and a copy of every media file, described by a manifest that
// lets a restore check the backup's integrity before it changes anything.
//
// A backup directory holds:
//
//	manifest.json      format, versions, checksums (see Manifest)
//	database.dump      pg_dump --format=custom
//	media/ab/ab….jpg   every media file, laid out like the file store
//
// The search index is not backed up: a node builds it from the restored
// database at start when its data dir has none.
package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/persistence"
)

// Errors a caller tells apart; each comes wrapped with a one-line reason.
var (
	// ErrDirNotEmpty: backup writes only into a new or empty directory.
	ErrDirNotEmpty = errors.New("backup: the backup directory is not empty")
	// ErrDatabaseNotEmpty: restore writes only into an empty database.
	ErrDatabaseNotEmpty = errors.New("restore: the database is not empty")
	// ErrMediaConflict: the media store holds a file under a backed-up key
	// with other contents.
	ErrMediaConflict = errors.New("restore: the media store already holds different files")
	// ErrCorrupt: the backup is incomplete or does not match its manifest.
	ErrCorrupt = errors.New("restore: the backup is damaged")
)

// MediaStore is the media store as backup and restore see it. The file
// store (media.Store) implements it; an object store can, too.
type MediaStore interface {
	// Walk calls fn for every stored file.
	Walk(ctx context.Context, fn func(key string, size int64) error) error
	// Open reads one file; a missing key gives an error matching
	// fs.ErrNotExist.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Put stores r under key whole or not at all.
	Put(ctx context.Context, key string, r io.Reader) error
}

// Options configure Backup and Restore.
type Options struct {
	// Dir is the backup directory.
	Dir string
	// DatabaseURL is the database to dump or restore into (a pgdriver URL).
	DatabaseURL string
	// Media is the store to copy from or into.
	Media MediaStore
	// Version is the campus version written into the manifest.
	Version string
	// Progress shows progress; nil shows nothing.
	Progress *Progress
	Log      zerolog.Logger
}

// Backup writes a backup of the database and the media store into o.Dir,
// which must be missing or empty.
//
// Consistency between the database and the files. The dump reads one
// snapshot, exported by a transaction of ours that also lists the media
// keys that snapshot refers to; the files are copied from the live store
// after the dump. Campus writes a file before the row that refers to it
// commits, and deletes it only after that row is gone, so every key the
// snapshot refers to was in the store when the snapshot was taken. A file
// can then be missing from the copy only because its row was deleted (a
// post deleted, an avatar replaced) after the snapshot: such keys are
// listed in the manifest's missing_media and reported, and the restored row
// shows a broken image of something its owner had already removed. Files
// uploaded after the snapshot are copied too; restored, they are orphans,
// as harmless as an upload whose post was never created.
func Backup(ctx context.Context, o Options) (_ *Manifest, err error) {
	cleanup, err := prepareDir(o.Dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	conn, err := libpqFrom(o.DatabaseURL)
	if err != nil {
		return nil, err
	}
	db, err := persistence.Open(ctx, o.DatabaseURL, o.Log)
	if err != nil {
		return nil, err
	}
	defer db.Close()

	m := &Manifest{
		Format:        FormatVersion,
		CampusVersion: o.Version,
		CreatedAt:     time.Now().UTC().Truncate(time.Second),
		Database:      Database{File: DumpFile, Format: "custom"},
	}
	referenced, err := dump(ctx, o, db, conn, m)
	if err != nil {
		return nil, err
	}
	copied, err := copyMedia(ctx, o, m)
	if err != nil {
		return nil, err
	}
	for _, k := range referenced {
		if !copied[k] {
			m.MissingMedia = append(m.MissingMedia, k)
		}
	}
	if n := len(m.MissingMedia); n > 0 {
		o.Log.Warn().Int("files", n).Strs("keys", m.MissingMedia[:min(n, 10)]).
			Msg("media files the database refers to were deleted during the backup; their rows are restored without them (all keys: missing_media in the manifest)")
	}
	if err := writeManifest(o.Dir, m); err != nil {
		return nil, err
	}
	o.Progress.line("backup written to %s: %d users, %d posts, %d media files (%s)",
		o.Dir, m.Database.Rows["users"], m.Database.Rows["posts"], m.Media.Files, humanBytes(m.Media.Bytes))
	return m, nil
}

// prepareDir creates dir, or checks that it is empty, and returns what
// removes a failed backup's leftovers.
func prepareDir(dir string) (cleanup func(), err error) {
	if dir == "" {
		return nil, errors.New("backup: no directory given")
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// 0700: the dump holds password hashes and the signing secret.
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("backup: %w", err)
		}
		return func() { os.RemoveAll(dir) }, nil // best effort: the error that led here matters more
	case err != nil:
		return nil, fmt.Errorf("backup: %w", err)
	case len(entries) > 0:
		return nil, fmt.Errorf("%w: %s", ErrDirNotEmpty, dir)
	}
	return func() {
		for _, name := range []string{DumpFile, MediaDir, "." + ManifestFile + ".tmp"} {
			os.RemoveAll(filepath.Join(dir, name)) // best effort, as above
		}
	}, nil
}

// dump writes the database dump from one exported snapshot and returns the
// media keys that snapshot refers to.
func dump(ctx context.Context, o Options, db *bun.DB, conn libpq, m *Manifest) ([]string, error) {
	snap, err := persistence.ExportSnapshot(ctx, db)
	if err != nil {
		return nil, err
	}
	// The snapshot must stay exported until pg_dump has taken it up; ending
	// it after the whole dump is simplest. A read-only rollback loses nothing.
	defer func() { _ = snap.Tx.Rollback() }()
	facts, err := persistence.Facts(ctx, snap.Tx)
	if err != nil {
		return nil, err
	}
	keys, err := persistence.MediaKeys(ctx, snap.Tx)
	if err != nil {
		return nil, err
	}
	pgDump, major, err := findTool(ctx, "pg_dump", facts.ServerMajor)
	if err != nil {
		return nil, err
	}
	m.Database.ServerVersion = facts.ServerVersion
	m.Database.Migration = facts.Migration
	m.Database.Rows = facts.Rows
	m.Database.PgDumpMajor = major

	path := filepath.Join(o.Dir, DumpFile)
	bar := o.Progress.step("dumping database", -1)
	stop := watchSize(path, bar)
	err = runTool(ctx, pgDump, []string{
		"--format=custom",
		"--snapshot=" + snap.ID,
		// The nodes' heartbeats are the running nodes' state, not data: a
		// restore starts without them (its nodes write their own).
		"--exclude-table-data=node_status",
		"--file=" + path,
		"--dbname=" + conn.conninfo,
	}, conn)
	stop()
	if err != nil {
		return nil, fmt.Errorf("backup: dump database: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	bar.done(humanBytes(fi.Size()))

	sum := o.Progress.step("checksumming the dump", fi.Size())
	m.Database.Size, m.Database.SHA256, err = hashFile(ctx, path, sum)
	if err != nil {
		return nil, fmt.Errorf("backup: checksum dump: %w", err)
	}
	sum.done(humanBytes(m.Database.Size))
	return keys, nil
}

// watchSize shows the growing size of the file at path on bar until the
// returned stop is called.
func watchSize(path string, bar *meter) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if fi, err := os.Stat(path); err == nil {
					bar.set(fi.Size())
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// copyMedia copies every file of the store into the backup.
func copyMedia(ctx context.Context, o Options, m *Manifest) (map[string]bool, error) {
	type item struct {
		key  string
		size int64
	}
	var items []item
	var total int64
	err := o.Media.Walk(ctx, func(key string, size int64) error {
		if err := checkKey(key); err != nil {
			return err
		}
		items = append(items, item{key, size})
		total += size
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("backup: list media: %w", err)
	}
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.key, b.key) })

	bar := o.Progress.step("copying media", total)
	copied := make(map[string]bool, len(items))
	for _, it := range items {
		f, err := copyOne(ctx, o, it.key, bar)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted since the listing: see Backup
		}
		if err != nil {
			return nil, err
		}
		m.Media.Items = append(m.Media.Items, f)
		m.Media.Files++
		m.Media.Bytes += f.Size
		copied[f.Key] = true
	}
	bar.done(fmt.Sprintf("%d files, %s", m.Media.Files, humanBytes(m.Media.Bytes)))
	return copied, nil
}

// copyOne copies one file and returns its size and checksum.
func copyOne(ctx context.Context, o Options, key string, bar *meter) (MediaFile, error) {
	src, err := o.Media.Open(ctx, key)
	if err != nil {
		return MediaFile{}, fmt.Errorf("backup: media %s: %w", key, err)
	}
	defer src.Close()
	path := mediaPath(o.Dir, key)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return MediaFile{}, fmt.Errorf("backup: %w", err)
	}
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return MediaFile{}, fmt.Errorf("backup: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(dst, h, meterWriter{bar}), ctxReader{ctx, src})
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return MediaFile{}, fmt.Errorf("backup: copy media %s: %w", key, err)
	}
	return MediaFile{Key: key, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// meterWriter counts bytes written into a meter.
type meterWriter struct{ m *meter }

func (w meterWriter) Write(p []byte) (int, error) {
	w.m.add(int64(len(p)))
	return len(p), nil
}

// ctxReader stops a copy between reads once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// hashFile returns the size and SHA-256 of the file at path, counting its
// bytes into bar.
func hashFile(ctx context.Context, path string, bar *meter) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(h, meterWriter{bar}), ctxReader{ctx, f})
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}
