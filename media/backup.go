package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The methods below let `campus backup` and `campus restore` copy the
// store's files without knowing how it lays them out (see package backup).

// Walk calls fn with the key and size of every stored image, shard by shard.
// Uploads still being written are not images yet and are skipped, as is
// anything else that is not named like a key. An error from fn stops the
// walk and is returned.
func (s *Store) Walk(ctx context.Context, fn func(key string, size int64) error) error {
	shards, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("media: list store: %w", err)
	}
	for _, sh := range shards {
		if !sh.IsDir() || !isShard(sh.Name()) {
			continue
		}
		files, err := os.ReadDir(filepath.Join(s.dir, sh.Name()))
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

// Open reads the image stored under key. A missing image gives an error
// matching fs.ErrNotExist; a key Save could not have produced, ErrKey.
func (s *Store) Open(_ context.Context, key string) (io.ReadCloser, error) {
	if !validKey(key) {
		return nil, fmt.Errorf("media: open %q: %w", key, ErrKey)
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		return nil, fmt.Errorf("media: open: %w", err)
	}
	return f, nil
}

// Put stores r under key as it is, for a restore: the bytes are not checked
// or stripped again (Save did that when they were uploaded), and an image
// already stored under key is replaced. Like Save it writes whole or not at
// all. A key Save could not have produced is refused with ErrKey.
func (s *Store) Put(ctx context.Context, key string, r io.Reader) error {
	if !validKey(key) {
		return fmt.Errorf("media: put %q: %w", key, ErrKey)
	}
	return s.put(ctx, key, r)
}
