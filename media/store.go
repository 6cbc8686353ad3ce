// Package media accepts uploaded images, removes their metadata, stores them
// under random names on local disk and serves them back.
//
// An upload is trusted in nothing: its type comes from its magic bytes, its
// dimensions are checked from the header before anything is decoded, and the
// stored bytes are the original's minus every metadata segment we know of
// (EXIF with GPS, XMP, comments, text chunks), rewritten without re-encoding.
package media

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"campus/domain"
)

// Limits on an upload.
//
// MaxPixels and MaxSide bound what a browser (and any later thumbnailer) has
// to allocate: a 5 MB file can declare an image of billions of pixels, and
// decoding 40 megapixels already costs 160 MB as RGBA. Real photos are far
// below this: a 5 MB JPEG from a phone is about 12 megapixels, a long
// panorama or screenshot fits under 12000 pixels per side.
const (
	MaxBytes  = 5 << 20    // bytes per image, as the spec's "5MB"
	MaxPixels = 40_000_000 // width × height
	MaxSide   = 12_000     // width or height
)

// Messages shown to users as written (spec §5 for the first two).
const (
	msgTooLarge   = "File size must be less than 5MB."
	msgNotImage   = "Please select only image files. Videos are not supported."
	msgDimensions = "Image dimensions are too large. The limit is 40 megapixels and 12000 pixels per side."
	msgCorrupt    = "The image file is damaged or incomplete."
	msgVariant    = "This kind of image file is not supported. Please use a standard JPEG, PNG, GIF or WebP image."
)

// ErrKey is returned by Delete for a key this package could not have made.
var ErrKey = errors.New("media: not a media key")

// tempPrefix marks an upload being written. No key starts with a dot, so the
// handler can never serve one.
const tempPrefix = ".upload-"

// staleAfter is how old a temporary file must be before New removes it: it
// was left by a crash, not by an upload another process is still writing.
const staleAfter = time.Hour

// Store keeps images in a directory, sharded by the first two hex digits of
// the key so that no directory grows past a few thousand entries. It holds
// no state beyond its directory and is safe for concurrent use, also by
// several processes sharing the directory.
type Store struct {
	dir string
	log zerolog.Logger
}

// Image describes a stored image.
type Image struct {
	Key         string // the name to keep and pass to Delete: 32 hex digits and an extension
	URL         string // "/media/" + Key
	ContentType string // image/jpeg, image/png, image/gif or image/webp
	Type        string // always "image"; posts may carry other kinds of media later
	// Width and Height are as displayed, that is after the JPEG's EXIF
	// orientation (which Save keeps) swaps them for a quarter turn.
	Width, Height int
	Size          int64 // bytes stored, after metadata was removed
}

// New opens the store in dir, creating it if needed, and removes temporary
// files that a crash left behind.
func New(dir string, log zerolog.Logger) (*Store, error) {
	if dir == "" {
		return nil, errors.New("media: empty directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("media: create store: %w", err)
	}
	s := &Store{dir: dir, log: log}
	if err := s.sweep(time.Now().Add(-staleAfter)); err != nil {
		return nil, err
	}
	return s, nil
}

// sweep removes temporary files last modified before cutoff.
func (s *Store) sweep(cutoff time.Time) error {
	shards, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("media: list store: %w", err)
	}
	for _, sh := range shards {
		if !sh.IsDir() || !isShard(sh.Name()) {
			continue
		}
		dir := filepath.Join(s.dir, sh.Name())
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
			s.log.Info().Str("path", path).Msg("removed an interrupted upload")
		}
	}
	return nil
}

// Save reads one image from r, checks it, removes its metadata and stores it
// under a new random key. User mistakes come back as *domain.Error: 413 for
// too many bytes or pixels, 415 for anything that is not a JPEG, PNG, GIF or
// WebP by its content, 400 for a damaged file. If ctx ends or r fails, nothing
// is left in the store.
func (s *Store) Save(ctx context.Context, r io.Reader) (Image, error) {
	data, err := readUpload(ctx, r)
	if err != nil {
		return Image{}, err
	}
	f := sniff(data)
	if f == nil {
		return Image{}, domain.Unsupported(msgNotImage)
	}
	// Only the header is parsed. The pixels are never decoded here: that
	// would let a small file make us allocate width×height×8 bytes, and the
	// strip below already checks the file's structure end to end.
	cfg, err := f.config(bytes.NewReader(data))
	if err != nil {
		return Image{}, configError(err)
	}
	if err := checkSize(cfg.Width, cfg.Height); err != nil {
		return Image{}, err
	}
	clean, orient, err := f.strip(data)
	if err != nil {
		return Image{}, domain.Invalid(msgCorrupt)
	}
	key, err := s.write(ctx, f.ext, clean)
	if err != nil {
		return Image{}, err
	}
	w, h := cfg.Width, cfg.Height
	if orient >= 5 { // orientations 5–8 turn the image a quarter
		w, h = h, w
	}
	return Image{
		Key:         key,
		URL:         "/media/" + key,
		ContentType: f.contentType,
		Type:        "image",
		Width:       w,
		Height:      h,
		Size:        int64(len(clean)),
	}, nil
}

// Delete removes the image stored under key. Deleting a missing image is not
// an error, so a retried cleanup succeeds; a key Save could not have produced
// is refused with ErrKey rather than turned into a path.
func (s *Store) Delete(key string) error {
	if !validKey(key) {
		return fmt.Errorf("media: delete %q: %w", key, ErrKey)
	}
	if err := os.Remove(s.path(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("media: delete: %w", err)
	}
	return nil
}

// readUpload reads the whole upload, at most MaxBytes of it. One byte more is
// read to tell "exactly 5 MB" from "more".
func readUpload(ctx context.Context, r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(ctxReader{ctx, r}, MaxBytes+1)); err != nil {
		return nil, fmt.Errorf("media: read upload: %w", err)
	}
	if buf.Len() > MaxBytes {
		return nil, domain.TooLarge(msgTooLarge)
	}
	return buf.Bytes(), nil
}

// ctxReader stops a read between chunks once ctx is done, so a cancelled
// request does not go on consuming its body.
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

// write stores data under a new key.
func (s *Store) write(ctx context.Context, ext string, data []byte) (string, error) {
	key, err := newKey(ext)
	if err != nil {
		return "", err
	}
	if err := s.put(ctx, key, bytes.NewReader(data)); err != nil {
		return "", err
	}
	return key, nil
}

// put stores r under key, which must have passed validKey. The bytes go to
// a temporary file in the final directory, are synced, and only then renamed
// into place, so a reader never sees a partial image and a failure leaves
// nothing behind.
func (s *Store) put(ctx context.Context, key string, r io.Reader) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("media: save: %w", err)
	}
	dir := filepath.Join(s.dir, key[:2])
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
			s.log.Warn().Err(rmErr).Str("path", tmp.Name()).Msg("could not remove a failed upload")
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
	final := s.path(key)
	if err := os.Rename(tmp.Name(), final); err != nil {
		return fmt.Errorf("media: rename: %w", err)
	}
	renamed = true
	// The rename is durable only once the directory entry is.
	if err := syncDir(dir); err != nil {
		if rmErr := os.Remove(final); rmErr != nil {
			s.log.Warn().Err(rmErr).Str("path", final).Msg("could not remove an unsynced upload")
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

// path is where key lives on disk. key must have passed validKey.
func (s *Store) path(key string) string {
	return filepath.Join(s.dir, key[:2], key)
}

// keyHex is the length of a key's random part: 128 bits in hex.
const keyHex = 32

// newKey returns 128 random bits in hex plus ext: unguessable, so a key is
// as good as a capability, and never colliding in practice.
func newKey(ext string) (string, error) {
	var b [keyHex / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("media: random name: %w", err)
	}
	return hex.EncodeToString(b[:]) + "." + ext, nil
}

// validKey reports whether k has exactly the shape newKey gives: lower-case
// hex and a known extension. Nothing else ever reaches the file system, which
// rules out "..", slashes, absolute paths and temporary files.
func validKey(k string) bool {
	name, ext, ok := strings.Cut(k, ".")
	if !ok || len(name) != keyHex || byExt(ext) == nil {
		return false
	}
	for i := range len(name) {
		if !isHex(name[i]) {
			return false
		}
	}
	return true
}

func isShard(name string) bool {
	return len(name) == 2 && isHex(name[0]) && isHex(name[1])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
}
