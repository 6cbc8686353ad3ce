package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"campus/persistence"
)

// Restore puts the backup in o.Dir back into an empty database and a media
// store. Before it changes anything it checks every file of the backup
// against the manifest (ErrCorrupt), that the database has no tables
// (ErrDatabaseNotEmpty) and that the store holds no other contents under a
// backed-up key (ErrMediaConflict; identical files are fine, so a restore
// that failed half-way can simply be run again). Then it copies the media
// files, restores the dump in a single transaction, and migrates the
// database forward: a newer campus may restore an older backup.
//
// The files go first because copying them again is harmless, while a
// restored database would make a second attempt refuse. The search index
// is not part of a backup: a node builds it at start when its data dir has
// none, and an index from before the restore must be removed.
func Restore(ctx context.Context, o Options) (*Manifest, error) {
	m, err := ReadManifest(o.Dir)
	if err != nil {
		return nil, err
	}
	if err := verify(ctx, o, m); err != nil {
		return nil, err
	}
	pgRestore, _, err := findTool(ctx, "pg_restore", m.Database.PgDumpMajor)
	if err != nil {
		return nil, err
	}
	conn, err := libpqFrom(o.DatabaseURL)
	if err != nil {
		return nil, err
	}
	db, err := persistence.Open(ctx, o.DatabaseURL, o.Log)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	c, err := persistence.ContentsOf(ctx, db)
	if err != nil {
		return nil, err
	}
	if !c.Empty() {
		if c.Users > 0 || c.Posts > 0 {
			return nil, fmt.Errorf("%w: it has %d users and %d posts; restore only into an empty database", ErrDatabaseNotEmpty, c.Users, c.Posts)
		}
		return nil, fmt.Errorf("%w: it has %d tables; restore only into an empty database (createdb a new one, or use a new CAMPUS_DATA_DIR)", ErrDatabaseNotEmpty, c.Tables)
	}
	todo, err := mediaToCopy(ctx, o, m)
	if err != nil {
		return nil, err
	}

	var total int64
	for _, f := range todo {
		total += f.Size
	}
	bar := o.Progress.step("restoring media", total)
	for _, f := range todo {
		if err := putOne(ctx, o, f, bar); err != nil {
			return nil, err
		}
	}
	bar.done(fmt.Sprintf("%d files, %s (%d already there)", len(todo), humanBytes(total), len(m.Media.Items)-len(todo)))

	step := o.Progress.step("restoring database", -1)
	err = runTool(ctx, pgRestore, []string{
		// Roles and grants of the dumped server need not exist here: the
		// restoring user owns everything.
		"--no-owner", "--no-privileges",
		"--exit-on-error", "--single-transaction",
		"--dbname=" + conn.conninfo,
		filepath.Join(o.Dir, DumpFile),
	}, conn)
	if err != nil {
		return nil, fmt.Errorf("restore: database: %w", err)
	}
	if err := persistence.Migrate(ctx, db); err != nil {
		return nil, fmt.Errorf("restore: migrate the restored database: %w", err)
	}
	step.done(fmt.Sprintf("%d users, %d posts", m.Database.Rows["users"], m.Database.Rows["posts"]))
	return m, nil
}

// verify checks every file the manifest lists against its size and
// checksum.
func verify(ctx context.Context, o Options, m *Manifest) error {
	bar := o.Progress.step("verifying backup", m.Database.Size+m.Media.Bytes)
	if err := verifyFile(ctx, filepath.Join(o.Dir, DumpFile), DumpFile, m.Database.Size, m.Database.SHA256, bar); err != nil {
		return err
	}
	for _, f := range m.Media.Items {
		if err := verifyFile(ctx, mediaPath(o.Dir, f.Key), "media file "+f.Key, f.Size, f.SHA256, bar); err != nil {
			return err
		}
	}
	bar.done(fmt.Sprintf("database dump and %d media files match the manifest", m.Media.Files))
	return nil
}

// verifyFile checks one file; name is how messages call it.
func verifyFile(ctx context.Context, path, name string, size int64, sum string, bar *meter) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s is missing", ErrCorrupt, name)
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file", ErrCorrupt, name)
	}
	if fi.Size() != size {
		return fmt.Errorf("%w: %s has %d bytes, the manifest says %d", ErrCorrupt, name, fi.Size(), size)
	}
	_, got, err := hashFile(ctx, path, bar)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if got != sum {
		return fmt.Errorf("%w: %s does not match its checksum", ErrCorrupt, name)
	}
	return nil
}

// mediaToCopy returns the files the store does not hold yet, and refuses
// when it holds other contents under one of the keys.
func mediaToCopy(ctx context.Context, o Options, m *Manifest) ([]MediaFile, error) {
	var todo []MediaFile
	var conflicts []string
	for _, f := range m.Media.Items {
		r, err := o.Media.Open(ctx, f.Key)
		if errors.Is(err, fs.ErrNotExist) {
			todo = append(todo, f)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("restore: media %s: %w", f.Key, err)
		}
		h := sha256.New()
		_, err = io.Copy(h, ctxReader{ctx, r})
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("restore: read media %s: %w", f.Key, err)
		}
		if hex.EncodeToString(h.Sum(nil)) != f.SHA256 {
			conflicts = append(conflicts, f.Key)
		}
	}
	if len(conflicts) > 0 {
		shown := conflicts[:min(len(conflicts), 3)]
		return nil, fmt.Errorf("%w: %d files differ from the backup's, e.g. %s; restore into an empty media directory", ErrMediaConflict, len(conflicts), strings.Join(shown, ", "))
	}
	return todo, nil
}

// putOne copies one file into the store. It checks the bytes again on the
// way: should the file have changed since verify, the reader fails at its
// end and the store keeps nothing.
func putOne(ctx context.Context, o Options, f MediaFile, bar *meter) error {
	src, err := os.Open(mediaPath(o.Dir, f.Key))
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer src.Close()
	r := &checkedReader{r: io.TeeReader(src, meterWriter{bar}), h: sha256.New(), want: f}
	if err := o.Media.Put(ctx, f.Key, r); err != nil {
		return fmt.Errorf("restore: media %s: %w", f.Key, err)
	}
	return nil
}

// checkedReader reads a file of the backup and turns its end into an error
// when the bytes read do not match the manifest.
type checkedReader struct {
	r    io.Reader
	h    hash.Hash
	n    int64
	want MediaFile
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	if errors.Is(err, io.EOF) && (c.n != c.want.Size || hex.EncodeToString(c.h.Sum(nil)) != c.want.SHA256) {
		return n, fmt.Errorf("%w: media %s changed after it was verified", ErrCorrupt, c.want.Key)
	}
	return n, err
}
