package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// tempPrefix marks an upload being written. No key starts with a dot, so the
// handler can never serve one.
const tempPrefix = ".upload-"

// staleAfter is how old a temporary file must be before New removes it: it
// was left by a crash, not by an upload another process is still writing.
const staleAfter = time.Hour

// fileBackend keeps images in a directory, sharded by the first two hex
// digits of the key so that no directory grows past a few thousand entries.
// Several processes may share the directory.
type fileBackend struct {
	dir string
	log zerolog.Logger
}

// sweep removes temporary files last modified before cutoff.
func (b *fileBackend) sweep(cutoff time.Time) error {
	shards, err := os.ReadDir(b.dir)
	if err != nil {
		return fmt.Errorf("media: list store: %w", err)
	}
	for _, sh := range shards {
		if !sh.IsDir() || !isShard(sh.Name()) {
			continue
		}
		dir := filepath.Join(b.dir, sh.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("media: list shard: %w", err)
		}
		for _, f := range files {
			if !strings.HasPrefix(f.Name(), tempPrefix) {
				continue
			}
			info, err := f.Info()
			if err != nil || info.ModTime().After(cutoff) {
				continue // gone already, or still being written
			}
			path := filepath.Join(dir, f.Name())
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("media: remove stale upload: %w", err)
			}
			b.log.Info().Str("path", path).Msg("removed an interrupted upload")
		}
	}
	return nil
}

// put stores r under key. The bytes go to a temporary file in the final
// directory, are synced, and only then renamed into place, so a reader never
// sees a partial image and a failure leaves nothing behind.
func (b *fileBackend) put(ctx context.Context, key string, r io.Reader, _ int64) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("media: save: %w", err)
	}
	dir := filepath.Join(b.dir, key[:2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("media: create shard: %w", err)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("media: create temporary file: %w", err)
	}
	renamed := false
	defer func() {
		if renamed {
			return
		}
		_ = tmp.Close() // may already be closed; the removal below is what matters
		if rmErr := os.Remove(tmp.Name()); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			b.log.Warn().Err(rmErr).Str("path", tmp.Name()).Msg("could not remove a failed upload")
		}
	}()
	if _, err := io.Copy(tmp, ctxReader{ctx, r}); err != nil {
		return fmt.Errorf("media: write: %w", err)
	}
	// CreateTemp makes the file private; images are public and another
	// process (a reverse proxy, a backup) may read them.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("media: chmod: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("media: sync: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("media: close: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("media: save: %w", err)
	}
	final := b.path(key)
	if err := os.Rename(tmp.Name(), final); err != nil {
		return fmt.Errorf("media: rename: %w", err)
	}
	renamed = true
	// The rename is durable only once the directory entry is.
	if err := syncDir(dir); err != nil {
		if rmErr := os.Remove(final); rmErr != nil {
			b.log.Warn().Err(rmErr).Str("path", final).Msg("could not remove an unsynced upload")
		}
		return err
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("media: open shard: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("media: sync shard: %w", err)
	}
	return nil
}

// open opens key's file. Anything but a regular file (a directory named like
// a key) is as missing as no file at all.
func (b *fileBackend) open(_ context.Context, key string) (io.ReadCloser, int64, error) {
	f, err := os.Open(b.path(key))
	if err != nil {
		return nil, 0, fmt.Errorf("media: open: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close() // read-only; nothing to lose
		return nil, 0, fmt.Errorf("media: stat: %w", err)
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, 0, fmt.Errorf("media: open %q: not a file: %w", key, fs.ErrNotExist)
	}
	return f, info.Size(), nil
}

func (b *fileBackend) stat(_ context.Context, key string) (int64, error) {
	info, err := os.Stat(b.path(key))
	if err != nil {
		return 0, fmt.Errorf("media: stat: %w", err)
	}
	if !info.Mode().IsRegular() {
		return 0, fmt.Errorf("media: stat %q: not a file: %w", key, fs.ErrNotExist)
	}
	return info.Size(), nil
}

func (b *fileBackend) check(context.Context) error {
	fi, err := os.Stat(b.dir)
	if err != nil {
		return fmt.Errorf("media: check: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("media: check: %s is not a directory", b.dir)
	}
	return nil
}

func (b *fileBackend) remove(_ context.Context, key string) error {
	if err := os.Remove(b.path(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("media: delete: %w", err)
	}
	return nil
}

// walk lists the store shard by shard. Uploads still being written are not
// images yet and are skipped, as is anything else not named like a key.
func (b *fileBackend) walk(ctx context.Context, fn func(key string, size int64) error) error {
	shards, err := os.ReadDir(b.dir)
	if err != nil {
		return fmt.Errorf("media: list store: %w", err)
	}
	for _, sh := range shards {
		if !sh.IsDir() || !isShard(sh.Name()) {
			continue
		}
		files, err := os.ReadDir(filepath.Join(b.dir, sh.Name()))
		if err != nil {
			return fmt.Errorf("media: list shard: %w", err)
		}
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("media: walk: %w", err)
			}
			key := f.Name()
			if !f.Type().IsRegular() || !validKey(key) || key[:2] != sh.Name() {
				continue
			}
			info, err := f.Info()
			if errors.Is(err, fs.ErrNotExist) {
				continue // deleted since the listing
			}
			if err != nil {
				return fmt.Errorf("media: stat: %w", err)
			}
			if err := fn(key, info.Size()); err != nil {
				return err
			}
		}
	}
	return nil
}

// path is where key lives on disk. key must have passed validKey.
func (b *fileBackend) path(key string) string {
	return filepath.Join(b.dir, key[:2], key)
}

func isShard(name string) bool {
	return len(name) == 2 && isHex(name[0]) && isHex(name[1])
}
