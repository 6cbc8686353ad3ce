// Package media accepts uploaded images, removes their metadata, stores them
// under random names, on local disk or in an S3-compatible bucket, and serves
// them back.
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
	"strconv"
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

// Messages shown to users as written (docs/product.md §5 for the first two).
const (
	msgTooLarge   = "File size must be less than 5MB."
	msgNotImage   = "Please select only image files. Videos are not supported."
	msgDimensions = "Image dimensions are too large. The limit is 40 megapixels and 12000 pixels per side."
	msgCorrupt    = "The image file is damaged or incomplete."
	msgVariant    = "This kind of image file is not supported. Please use a standard JPEG, PNG, GIF or WebP image."
)

// ErrKey is returned by Delete for a key this package could not have made.
var ErrKey = errors.New("media: not a media key")

// Store checks, cleans and keeps images. Where the bytes go is its backend's
// business: a directory (New) or an S3-compatible bucket (NewS3). Checking
// and stripping happen here, once, for both. It holds no state beyond its
// backend and is safe for concurrent use, also by several processes (nodes)
// sharing one directory or bucket.
type Store struct {
	b   backend
	log zerolog.Logger
}

// backend is where a Store keeps bytes. Keys reaching it have passed
// validKey. A missing key gives an error matching fs.ErrNotExist.
type backend interface {
	// put stores r, size bytes or -1 when unknown, under key: whole or not at all.
	put(ctx context.Context, key string, r io.Reader, size int64) error
	// open returns the bytes stored under key and their number.
	open(ctx context.Context, key string) (io.ReadCloser, int64, error)
	// stat returns the size of what is stored under key.
	stat(ctx context.Context, key string) (int64, error)
	// remove deletes key; a missing key is not an error.
	remove(ctx context.Context, key string) error
	// walk calls fn for every stored image; an error from fn stops it.
	walk(ctx context.Context, fn func(key string, size int64) error) error
	// check answers nil while the store can be reached: the directory
	// exists, the bucket answers.
	check(ctx context.Context) error
}

// checkTimeout bounds Check: a readiness probe must answer quickly.
const checkTimeout = time.Second

// Check answers nil while the store can be reached (its directory exists;
// its bucket answers), for the readiness answer's media state.
func (s *Store) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	return s.b.check(ctx)
}

// deleteTimeout bounds Delete, whose callers give it no context: it runs
// after a commit, and a hung object store must not hold the request forever.
const deleteTimeout = 30 * time.Second

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
	// Variants are smaller copies, ascending by width (AvatarWidth,
	// ThumbWidth, FeedWidth, DisplayWidth; those narrower than the image);
	// none when the image is not wider than AvatarWidth or
	// is an animated GIF, and an image stored before variants existed has
	// none either: clients fall back to URL.
	Variants []Variant
}

// New opens the file store in dir, creating it if needed, and removes
// temporary files that a crash left behind.
func New(dir string, log zerolog.Logger) (*Store, error) {
	if dir == "" {
		return nil, errors.New("media: empty directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("media: create store: %w", err)
	}
	b := &fileBackend{dir: dir, log: log}
	if err := b.sweep(time.Now().Add(-staleAfter)); err != nil {
		return nil, err
	}
	return &Store{b: b, log: log}, nil
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
	// The copies are made before anything is written, so a failure here
	// leaves nothing to clean up. Their pixels are decoded only now that
	// the header's size is known to be within the limits.
	variants, err := makeVariants(ctx, f, clean, orient, cfg)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return Image{}, fmt.Errorf("media: save: %w", ctxErr)
	}
	if err != nil {
		s.log.Warn().Err(err).Str("content_type", f.contentType).Msg("image stored without smaller copies")
		variants = nil
	}
	key, err := newKey(f.ext)
	if err != nil {
		return Image{}, err
	}
	w, h := cfg.Width, cfg.Height
	if orient >= 5 { // orientations 5–8 turn the image a quarter
		w, h = h, w
	}
	img := Image{
		Key:         key,
		URL:         "/media/" + key,
		ContentType: f.contentType,
		Type:        "image",
		Width:       w,
		Height:      h,
		Size:        int64(len(clean)),
	}
	// Whole or not at all: if a copy cannot be stored, what was stored
	// before it goes again, so no object outlives the failed upload.
	written := make([]string, 0, 1+len(variants))
	fail := func(err error) (Image, error) {
		for _, k := range written {
			if rerr := s.remove(k); rerr != nil {
				s.log.Warn().Err(rerr).Str("key", k).Msg("could not remove part of a failed upload")
			}
		}
		return Image{}, err
	}
	if err := s.b.put(ctx, key, bytes.NewReader(clean), int64(len(clean))); err != nil {
		return fail(err)
	}
	written = append(written, key)
	for _, v := range variants {
		vk := variantKey(key, v.width, v.ext)
		if err := s.b.put(ctx, vk, bytes.NewReader(v.data), int64(len(v.data))); err != nil {
			return fail(err)
		}
		written = append(written, vk)
		img.Variants = append(img.Variants, Variant{
			Key: vk, URL: "/media/" + vk, ContentType: byExt(v.ext).contentType,
			Width: v.width, Height: v.height, Size: int64(len(v.data)),
		})
	}
	return img, nil
}

// Delete removes the image stored under key. Deleting a missing image is not
// an error, so a retried cleanup succeeds; a key Save could not have produced
// is refused with ErrKey rather than turned into a path.
func (s *Store) Delete(key string) error {
	if !validKey(key) {
		return fmt.Errorf("media: delete %q: %w", key, ErrKey)
	}
	return s.remove(key)
}

// remove deletes key and, when it is an original's, every copy Save may
// have made of it. Which copies exist is not recorded in the store, so
// each possible name is removed; a missing one is not an error.
func (s *Store) remove(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
	defer cancel()
	if err := s.b.remove(ctx, key); err != nil {
		return err
	}
	if isVariant(key) {
		return nil
	}
	for _, w := range variantWidths {
		for _, ext := range variantExts {
			if err := s.b.remove(ctx, variantKey(key, w, ext)); err != nil {
				return err
			}
		}
	}
	return nil
}

// readUpload reads the whole upload, at most MaxBytes of it. One byte more is
// read to tell "exactly 5 MB" from "more".
func readUpload(ctx context.Context, r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	// An upload whose size is known up front (a multipart file, a byte
	// reader) is refused before a byte is read when too large, and read
	// into one buffer of its size otherwise, not a doubling one.
	if n, ok := sizeOf(r); ok {
		if n > MaxBytes {
			return nil, domain.TooLarge(msgTooLarge)
		}
		buf.Grow(int(n) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(ctxReader{ctx, r}, MaxBytes+1)); err != nil {
		return nil, fmt.Errorf("media: read upload: %w", err)
	}
	if buf.Len() > MaxBytes {
		return nil, domain.TooLarge(msgTooLarge)
	}
	return buf.Bytes(), nil
}

// sizeOf is how many bytes are left to read in r, when r can tell.
func sizeOf(r io.Reader) (int64, bool) {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len()), true
	case io.Seeker:
		cur, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false
		}
		end, err := v.Seek(0, io.SeekEnd)
		if err != nil {
			return 0, false
		}
		if _, err := v.Seek(cur, io.SeekStart); err != nil {
			return 0, false
		}
		return end - cur, true
	}
	return 0, false
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

// validKey reports whether k has exactly the shape newKey gives, or
// variantKey makes of it: lower-case hex, for a copy a dash and one of
// variantWidths, and a known extension. Nothing else ever reaches the file
// system, which rules out "..", slashes, absolute paths and temporary files.
func validKey(k string) bool {
	name, ext, ok := strings.Cut(k, ".")
	if !ok || len(name) < keyHex || byExt(ext) == nil {
		return false
	}
	if suffix := name[keyHex:]; suffix != "" && !knownWidth(suffix) {
		return false
	}
	for i := range keyHex {
		if !isHex(name[i]) {
			return false
		}
	}
	return true
}

// knownWidth reports whether suffix is "-" and one of variantWidths.
func knownWidth(suffix string) bool {
	for _, w := range variantWidths {
		if suffix == "-"+strconv.Itoa(w) {
			return true
		}
	}
	return false
}

// isVariant reports whether a valid key names a copy rather than an
// original.
func isVariant(key string) bool { return key[keyHex] == '-' }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
}
