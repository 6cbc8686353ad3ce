package media

import (
	"context"
	"fmt"
	"io"
)

// The methods below let `campus backup` and `campus restore` copy the
// store's images without knowing where or how it keeps them (see package
// backup).

// Walk calls fn with the key and size of every stored image. Uploads still
// being written are not images yet and are skipped, as is anything else that
// is not named like a key. An error from fn stops the walk and is returned.
func (s *Store) Walk(ctx context.Context, fn func(key string, size int64) error) error {
	return s.b.walk(ctx, fn)
}

// Open reads the image stored under key. A missing image gives an error
// matching fs.ErrNotExist; a key Save could not have produced, ErrKey.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if !validKey(key) {
		return nil, fmt.Errorf("media: open %q: %w", key, ErrKey)
	}
	rc, _, err := s.b.open(ctx, key)
	return rc, err
}

// Put stores r under key as it is, for a restore: the bytes are not checked
// or stripped again (Save did that when they were uploaded), and an image
// already stored under key is replaced. Like Save it writes whole or not at
// all. A key Save could not have produced is refused with ErrKey.
func (s *Store) Put(ctx context.Context, key string, r io.Reader) error {
	if !validKey(key) {
		return fmt.Errorf("media: put %q: %w", key, ErrKey)
	}
	return s.b.put(ctx, key, r, -1)
}
