package media

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"campus/domain"
)

func TestSaveAccepts(t *testing.T) {
	tests := []struct {
		name         string
		data         []byte
		ext, ctype   string
		wantW, wantH int
	}{
		{"png", pngBytes(t, 30, 20), "png", "image/png", 30, 20},
		{"jpeg", jpegBytes(t, 31, 17), "jpg", "image/jpeg", 31, 17},
		{"gif", gifBytes(t, 12, 9), "gif", "image/gif", 12, 9},
		{"webp lossless", readFixture(t, "lossless-1x1.webp"), "webp", "image/webp", 1, 1},
		{"webp lossy", readFixture(t, "lossy-1x1.webp"), "webp", "image/webp", 1, 1},
		{"webp extended with alpha", readFixture(t, "alpha-1x1.webp"), "webp", "image/webp", 1, 1},
		{"png at the side limit", pngBytes(t, MaxSide, 1), "png", "image/png", MaxSide, 1},
	}
	keyRE := regexp.MustCompile(`^[0-9a-f]{32}\.(jpg|png|gif|webp)$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			img := save(t, s, tt.data)
			if !keyRE.MatchString(img.Key) || !strings.HasSuffix(img.Key, "."+tt.ext) {
				t.Errorf("key %q, want 32 hex digits and .%s", img.Key, tt.ext)
			}
			if img.URL != "/media/"+img.Key {
				t.Errorf("URL %q", img.URL)
			}
			if img.ContentType != tt.ctype || img.Type != "image" {
				t.Errorf("content type %q type %q, want %q image", img.ContentType, img.Type, tt.ctype)
			}
			if img.Width != tt.wantW || img.Height != tt.wantH {
				t.Errorf("size %d×%d, want %d×%d", img.Width, img.Height, tt.wantW, tt.wantH)
			}
			got := stored(t, s, img)
			if int64(len(got)) != img.Size {
				t.Errorf("Size %d, stored %d bytes", img.Size, len(got))
			}
			samePixels(t, tt.data, got)
			if _, err := os.Stat(filepath.Join(s.b.(*fileBackend).dir, img.Key[:2], img.Key)); err != nil {
				t.Errorf("not sharded by the first two hex digits: %v", err)
			}
		})
	}
}

// The file name never matters: Save does not even see it. A PNG read from a
// file called photo.jpg is stored and served as a PNG.
func TestSaveTypeFromContent(t *testing.T) {
	tests := []struct {
		name, file string
		data       []byte
		wantExt    string
		wantErr    error
	}{
		{"png named .jpg", "photo.jpg", pngBytes(t, 8, 8), "png", nil},
		{"jpeg named .gif", "photo.gif", jpegBytes(t, 8, 8), "jpg", nil},
		{"text named .png", "notes.png", []byte("just some text, not an image\n"), "", domain.ErrUnsupported},
		{"svg named .png", "logo.png", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), "", domain.ErrUnsupported},
		{"html named .gif", "x.gif", []byte("<html><script>alert(1)</script>"), "", domain.ErrUnsupported},
		{"mp4 named .webp", "clip.webp", []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"), "", domain.ErrUnsupported},
		{"avi (RIFF but not WEBP)", "clip.webp", []byte("RIFF\x10\x00\x00\x00AVI LIST\x04\x00\x00\x00hdrl"), "", domain.ErrUnsupported},
		{"bmp", "x.bmp", []byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00"), "", domain.ErrUnsupported},
		{"empty", "empty.png", nil, "", domain.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := s.Save(context.Background(), f)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err %v, want %v", err, tt.wantErr)
				}
				var de *domain.Error
				if !errors.As(err, &de) || de.Message != msgNotImage {
					t.Errorf("message %q, want %q", err, msgNotImage)
				}
				if fs := files(t, dir); len(fs) != 0 {
					t.Errorf("left files %v", fs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ext := filepath.Ext(img.Key); ext != "."+tt.wantExt {
				t.Errorf("stored as %s, want .%s", ext, tt.wantExt)
			}
		})
	}
}

// exactPNG is a valid PNG of exactly n bytes, padded with a private chunk
// that Save drops.
func exactPNG(t *testing.T, n int) []byte {
	p := pngBytes(t, 4, 4)
	pad := n - len(p) - 12
	if pad < 0 {
		t.Fatalf("cannot make a %d-byte PNG", n)
	}
	return insertPNGChunks(p, nil, pngChunk("prVt", make([]byte, pad)))
}

// refuseAllocBudget bounds what refusing an upload may allocate: an
// upload of known size over the limit is not read at all, and headers are
// parsed without decoding. Decoding the smallest bitmap among the cases,
// 1400×1200 RGBA, would allocate 6.7 MB.
const refuseAllocBudget = 1 << 20

func TestSaveRefuses(t *testing.T) {
	// Noise does not compress: a real 6 MB picture.
	noise := gradient(1400, 1200)
	for i := range noise.Pix {
		noise.Pix[i] = byte(rand.Uint32())
	}
	var big bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&big, noise); err != nil {
		t.Fatal(err)
	}
	if big.Len() < 6<<20 {
		t.Fatalf("test image is only %d bytes", big.Len())
	}
	good := pngBytes(t, 16, 16)
	badCRC := bytes.Clone(good)
	badCRC[len(badCRC)-20] ^= 0xFF // inside the IDAT data
	vp8x := func(w, h int) []byte {
		d := []byte{0, 0, 0, 0}
		d = append(d, byte(w-1), byte((w-1)>>8), byte((w-1)>>16), byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
		return riff(riffChunk("VP8X", d))
	}
	sof := func(w, h int) []byte { // a JPEG up to its frame header
		b := append([]byte{0xFF, 0xD8}, jpegSegment(0xE0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))...)
		return append(b, jpegSegment(0xC0, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0})...)
	}
	gifScreen := func(w, h int) []byte {
		return []byte{'G', 'I', 'F', '8', '9', 'a', byte(w), byte(w >> 8), byte(h), byte(h >> 8), 0, 0, 0}
	}

	tests := []struct {
		name    string
		data    []byte
		want    error
		wantMsg string
	}{
		{"6 MB image", big.Bytes(), domain.ErrTooLarge, msgTooLarge},
		{"one byte over", exactPNG(t, MaxBytes+1), domain.ErrTooLarge, msgTooLarge},
		{"20000×20000 png header", pngHeader(20000, 20000), domain.ErrTooLarge, msgDimensions},
		{"side over the limit", pngHeader(MaxSide+1, 10), domain.ErrTooLarge, msgDimensions},
		{"pixels over the limit", pngHeader(7000, 7000), domain.ErrTooLarge, msgDimensions},
		{"huge jpeg header", sof(20000, 20000), domain.ErrTooLarge, msgDimensions},
		{"huge gif screen", gifScreen(20000, 20000), domain.ErrTooLarge, msgDimensions},
		{"huge webp canvas", vp8x(16000, 16000), domain.ErrTooLarge, msgDimensions},
		// Under the limits, the same truncated header is merely damaged: the
		// size check, not a failed decode, is what refuses the bombs above.
		{"truncated png within limits", pngHeader(MaxSide, 3000), domain.ErrInvalid, msgCorrupt},
		{"truncated jpeg within limits", sof(100, 100), domain.ErrInvalid, msgCorrupt},
		{"png cut in half", good[:len(good)/2], domain.ErrInvalid, msgCorrupt},
		{"png with a bad CRC", badCRC, domain.ErrInvalid, msgCorrupt},
		{"png signature then garbage", append(bytes.Clone(pngMagic), "garbage garbage garbage"...), domain.ErrInvalid, msgCorrupt},
		{"jpeg magic then garbage", []byte("\xFF\xD8\xFF\xE0garbage garbage"), domain.ErrInvalid, msgCorrupt},
		{"zero width png", pngHeader(0, 10), domain.ErrInvalid, msgCorrupt},
		{"webp without image data", vp8x(10, 10), domain.ErrInvalid, msgCorrupt},
		{"arithmetic-coded jpeg", append([]byte{0xFF, 0xD8}, jpegSegment(0xC9, []byte{8, 0, 1, 0, 1, 1, 1, 0x11, 0})...), domain.ErrUnsupported, msgVariant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := s.Save(context.Background(), bytes.NewReader(tt.data))
			runtime.ReadMemStats(&after)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
			var de *domain.Error
			if !errors.As(err, &de) || de.Message != tt.wantMsg {
				t.Errorf("message %q, want %q", err, tt.wantMsg)
			}
			// Refusing must not decode the pixels: a decode allocates the
			// whole bitmap (4 bytes a pixel), far beyond reading the upload.
			// Counted in bytes, not seconds, so a busy machine cannot fail it.
			if n := after.TotalAlloc - before.TotalAlloc; n > refuseAllocBudget {
				t.Errorf("allocated %d bytes: was the image decoded?", n)
			}
			if fs := files(t, dir); len(fs) != 0 {
				t.Errorf("left files %v", fs)
			}
		})
	}
}

func TestSaveExactlyMaxBytes(t *testing.T) {
	s, _ := newStore(t)
	img := save(t, s, exactPNG(t, MaxBytes))
	if img.Size >= 1000 {
		t.Errorf("stored %d bytes: the padding chunk was kept", img.Size)
	}
}

// failAfter returns r's data, then err instead of io.EOF.
type failAfter struct {
	r   io.Reader
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// cancelling cancels its context on the first read, as a client hanging up
// mid-upload does.
type cancelling struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (c cancelling) Read(p []byte) (int, error) {
	c.cancel()
	return c.r.Read(p[:min(len(p), 10)]) // leave more to read

}

func TestSaveLeavesNothingOnFailure(t *testing.T) {
	data := pngBytes(t, 64, 64)
	errDisk := errors.New("connection reset")
	tests := []struct {
		name    string
		prepare func(ctx context.Context, cancel context.CancelFunc) (context.Context, io.Reader)
		want    error
	}{
		{"cancelled before", func(ctx context.Context, cancel context.CancelFunc) (context.Context, io.Reader) {
			cancel()
			return ctx, bytes.NewReader(data)
		}, context.Canceled},
		{"cancelled while reading", func(ctx context.Context, cancel context.CancelFunc) (context.Context, io.Reader) {
			return ctx, cancelling{r: bytes.NewReader(data), cancel: cancel}
		}, context.Canceled},
		{"reader fails", func(ctx context.Context, _ context.CancelFunc) (context.Context, io.Reader) {
			return ctx, &failAfter{r: bytes.NewReader(data[:200]), err: errDisk}
		}, errDisk},
		{"deadline passed", func(ctx context.Context, _ context.CancelFunc) (context.Context, io.Reader) {
			ctx, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
			t.Cleanup(cancel)
			return ctx, bytes.NewReader(data)
		}, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctx, r := tt.prepare(ctx, cancel)
			if _, err := s.Save(ctx, r); !errors.Is(err, tt.want) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
			if fs := files(t, dir); len(fs) != 0 {
				t.Errorf("left files %v", fs)
			}
		})
	}
}

// endsAfter is a context that ends once Err has been asked n times: a
// request cancelled at an exact step of a save.
type endsAfter struct {
	context.Context
	n int
}

func (c *endsAfter) Err() error {
	if c.n == 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// A context that ends after the temporary file is written but before the
// rename must leave nothing either.
func TestWriteCancelledMidway(t *testing.T) {
	for n := range 2 {
		s, dir := newStore(t)
		data := pngBytes(t, 4, 4)
		if err := s.b.put(&endsAfter{context.Background(), n}, strings.Repeat("ab", 16)+".png", bytes.NewReader(data), int64(len(data))); !errors.Is(err, context.Canceled) {
			t.Fatalf("ending after %d checks: err %v, want context.Canceled", n, err)
		}
		if fs := files(t, dir); len(fs) != 0 {
			t.Errorf("ending after %d checks: left files %v", n, fs)
		}
	}
}

func TestSaveUniqueKeys(t *testing.T) {
	s, dir := newStore(t)
	data := pngBytes(t, 4, 4)
	seen := map[string]bool{}
	for range 20 {
		img := save(t, s, data)
		if seen[img.Key] {
			t.Fatalf("key %s given twice", img.Key)
		}
		seen[img.Key] = true
	}
	if n := len(files(t, dir)); n != 20 {
		t.Errorf("%d files, want 20", n)
	}
}

func TestDelete(t *testing.T) {
	s, dir := newStore(t)
	img := save(t, s, pngBytes(t, 4, 4))
	if err := s.Delete(img.Key); err != nil {
		t.Fatal(err)
	}
	if fs := files(t, dir); len(fs) != 0 {
		t.Errorf("left files %v", fs)
	}
	if err := s.Delete(img.Key); err != nil {
		t.Errorf("second delete: %v", err)
	}

	// A file outside the store that a bad key might reach.
	outside := filepath.Join(filepath.Dir(dir), "keep.png")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{
		"", "../keep.png", "..", "/etc/passwd", outside,
		img.Key[:2] + "/" + img.Key, // the on-disk path is not a key
		strings.ToUpper(img.Key[:32]) + ".png",
		img.Key[:32] + ".exe", img.Key[:32] + ".png/..", img.Key[:31] + ".png",
		tempPrefix + "123",
	} {
		t.Run(key, func(t *testing.T) {
			if err := s.Delete(key); !errors.Is(err, ErrKey) {
				t.Errorf("Delete(%q) = %v, want ErrKey", key, err)
			}
		})
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("file outside the store: %v", err)
	}
}

func TestNewRemovesStaleUploads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "media")
	shard := filepath.Join(dir, "ab")
	if err := os.MkdirAll(shard, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(shard, tempPrefix+"1")
	fresh := filepath.Join(shard, tempPrefix+"2")
	image := filepath.Join(shard, "ab"+strings.Repeat("0", 30)+".png")
	for _, p := range []string{stale, fresh, image} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleAfter)
	for _, p := range []string{stale, image} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := New(dir, zerolog.Nop()); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{stale: false, fresh: true, image: true} {
		_, err := os.Stat(p)
		if exists := err == nil; exists != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(p), exists, want)
		}
	}
}

func TestNewCreatesDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if _, err := New(dir, zerolog.Nop()); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		t.Fatalf("store dir: %v", err)
	}
	if _, err := New("", zerolog.Nop()); err == nil {
		t.Error("New with no directory succeeded")
	}
}

func TestStoredFileMode(t *testing.T) {
	s, _ := newStore(t)
	img := save(t, s, pngBytes(t, 4, 4))
	info, err := os.Stat(s.b.(*fileBackend).path(img.Key))
	if err != nil {
		t.Fatal(err)
	}
	if m := info.Mode().Perm(); m != 0o644 {
		t.Errorf("mode %v, want 0644", m)
	}
}

// TestFileCheck: the readiness answer's media state for a directory store.
func TestFileCheck(t *testing.T) {
	s, dir := newStore(t)
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("Check: %v", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); err == nil {
		t.Error("Check answered nil with the directory gone")
	}
}
