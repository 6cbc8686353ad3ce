package media

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
)

func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "media")
	s, err := New(dir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// files lists every file under dir, temporary ones included.
func files(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func stored(t testing.TB, s *Store, img Image) []byte {
	t.Helper()
	b, err := os.ReadFile(s.b.(*fileBackend).path(img.Key))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func save(t testing.TB, s *Store, b []byte) Image {
	t.Helper()
	img, err := s.Save(context.Background(), bytes.NewReader(b))
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	return img
}

func gradient(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255})
		}
	}
	return m
}

func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, gradient(w, h)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, gradient(w, h), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gifBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, gradient(w, h), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jpegSegment is one marker segment with its length.
func jpegSegment(marker byte, payload []byte) []byte {
	n := len(payload) + 2
	return append([]byte{0xFF, marker, byte(n >> 8), byte(n)}, payload...)
}

// withSegments puts segments right after the JPEG's SOI, where cameras put
// EXIF, and appends tail after its EOI.
func withSegments(j []byte, tail []byte, segs ...[]byte) []byte {
	out := append([]byte{}, j[:2]...)
	for _, s := range segs {
		out = append(out, s...)
	}
	out = append(out, j[2:]...)
	return append(out, tail...)
}

// secret is text that must never survive into a stored file.
const secret = "Home of Jane Doe, 51.5007N 0.1246W"

// exifTIFF builds the TIFF part of an EXIF block the way a phone writes it:
// IFD0 with a description, maybe an orientation, and a pointer to a GPS IFD
// holding a latitude.
func exifTIFF(bo binary.ByteOrder, orient int) []byte {
	type entry struct {
		tag, typ uint16
		count    uint32
		value    []byte // 4 bytes inline, or out of line when longer
	}
	u16 := func(v uint16) []byte { b := make([]byte, 2); bo.PutUint16(b, v); return b }
	u32 := func(v uint32) []byte { b := make([]byte, 4); bo.PutUint32(b, v); return b }
	desc := append([]byte(secret), 0)

	ifd0 := []entry{{0x010E, 2, uint32(len(desc)), desc}}
	if orient > 0 {
		ifd0 = append(ifd0, entry{0x0112, 3, 1, append(u16(uint16(orient)), 0, 0)})
	}
	ifd0 = append(ifd0, entry{0x8825, 4, 1, nil}) // GPS IFD offset, filled in below
	var lat []byte
	for _, v := range []uint32{51, 1, 30, 1, 2, 1} {
		lat = append(lat, u32(v)...)
	}
	gps := []entry{{0x0001, 2, 2, []byte("N\x00\x00\x00")}, {0x0002, 5, 3, lat}}

	ifdLen := func(es []entry) int { return 2 + 12*len(es) + 4 }
	ifd0At := 8
	gpsAt := ifd0At + ifdLen(ifd0)
	dataAt := gpsAt + ifdLen(gps)
	var data []byte
	write := func(es []entry, next uint32) []byte {
		b := u16(uint16(len(es)))
		for _, e := range es {
			b = append(b, u16(e.tag)...)
			b = append(b, u16(e.typ)...)
			b = append(b, u32(e.count)...)
			switch {
			case e.tag == 0x8825:
				b = append(b, u32(uint32(gpsAt))...)
			case len(e.value) <= 4:
				b = append(b, e.value...)
			default:
				b = append(b, u32(uint32(dataAt+len(data)))...)
				data = append(data, e.value...)
			}
		}
		return append(b, u32(next)...)
	}
	head := []byte("II")
	if bo == binary.BigEndian {
		head = []byte("MM")
	}
	head = append(head, u16(42)...)
	head = append(head, u32(uint32(ifd0At))...)
	out := append(head, write(ifd0, 0)...)
	out = append(out, write(gps, 0)...)
	return append(out, data...)
}

// exifSegment is an APP1 EXIF segment with GPS, as written by phones.
func exifSegment(bo binary.ByteOrder, orient int) []byte {
	return jpegSegment(0xE1, append([]byte("Exif\x00\x00"), exifTIFF(bo, orient)...))
}

// pngChunk is one PNG chunk with a valid CRC.
func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

// insertPNGChunks puts chunks right after IHDR and appends tail after IEND.
func insertPNGChunks(p []byte, tail []byte, chunks ...[]byte) []byte {
	const afterIHDR = 8 + 12 + 13
	out := append([]byte{}, p[:afterIHDR]...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	out = append(out, p[afterIHDR:]...)
	return append(out, tail...)
}

// pngHeader is a PNG signature and IHDR for a w×h RGBA image, then the
// start of an IDAT that never ends: enough to read the size, nothing to draw.
func pngHeader(w, h int) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	b := append([]byte{}, pngMagic...)
	b = append(b, pngChunk("IHDR", ihdr)...)
	return append(b, 0, 0x10, 0, 0, 'I', 'D', 'A', 'T', 0x78, 0x9C)
}

// riffChunk is one WebP RIFF chunk, padded to even length.
func riffChunk(id string, data []byte) []byte {
	b := append([]byte(id), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
	b = append(b, data...)
	if len(data)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

// riff wraps chunks into a WebP file.
func riff(chunks ...[]byte) []byte {
	var body []byte
	for _, c := range chunks {
		body = append(body, c...)
	}
	b := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(4+len(body)))...)
	b = append(b, "WEBP"...)
	return append(b, body...)
}

// webpChunks splits a WebP file into its chunks.
func webpChunks(t testing.TB, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for p := 12; p < len(b); {
		n := int(binary.LittleEndian.Uint32(b[p+4:]))
		end := p + 8 + n + n%2
		if end > len(b) {
			t.Fatalf("chunk at %d overruns the file", p)
		}
		out = append(out, b[p:end])
		p = end
	}
	return out
}

// samePixels fails unless a and b decode to the same pixels.
func samePixels(t testing.TB, a, b []byte) {
	t.Helper()
	ma, _, err := image.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("decode original: %v", err)
	}
	mb, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode stored: %v", err)
	}
	if ma.Bounds() != mb.Bounds() {
		t.Fatalf("bounds %v, want %v", mb.Bounds(), ma.Bounds())
	}
	r := ma.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ma.At(x, y) != mb.At(x, y) {
				t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, mb.At(x, y), ma.At(x, y))
			}
		}
	}
}
