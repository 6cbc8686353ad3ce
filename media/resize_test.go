package media

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/rs/zerolog"
	"golang.org/x/image/draw"
)

// noisy is a w×h image of random pixels, which no encoder compresses much,
// so its copies are always smaller than it (a gradient's PNG may not be).
// With alpha, its left half is see-through.
func noisy(w, h int, alpha bool) *image.NRGBA {
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(r.Uint32()), uint8(r.Uint32()), uint8(r.Uint32()), 255
		if alpha && (i/4)%w < w/2 {
			m.Pix[i+3] = 0
		}
	}
	return m
}

func encodeTest(t testing.TB, m image.Image, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch format {
	case "jpg":
		err = jpeg.Encode(&b, m, &jpeg.Options{Quality: 90})
	case "png":
		err = png.Encode(&b, m)
	case "gif":
		err = gif.Encode(&b, m, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// animatedGIF is a two-frame GIF of w×h.
func animatedGIF(t testing.TB, w, h int) []byte {
	t.Helper()
	pal := color.Palette{color.Black, color.White}
	var frames []*image.Paletted
	for i := range 2 {
		f := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for y := range h {
			for x := range w {
				f.SetColorIndex(x, y, uint8((x+y+i)%2))
			}
		}
		frames = append(frames, f)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, &gif.GIF{Image: frames, Delay: []int{10, 10}}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type wantVariant struct {
	w, h  int
	ctype string
}

func TestVariants(t *testing.T) {
	avatar := func(h int, ctype string) wantVariant { return wantVariant{AvatarWidth, h, ctype} }
	thumb := func(h int, ctype string) wantVariant { return wantVariant{ThumbWidth, h, ctype} }
	feed := func(h int, ctype string) wantVariant { return wantVariant{FeedWidth, h, ctype} }
	display := func(h int, ctype string) wantVariant { return wantVariant{DisplayWidth, h, ctype} }
	jpg, png := "image/jpeg", "image/png"
	tests := []struct {
		name string
		data func(t *testing.T) []byte
		want []wantVariant
	}{
		{"wide JPEG: avatar, thumbnail, feed and display sizes", func(t *testing.T) []byte { return encodeTest(t, noisy(2000, 1000, false), "jpg") },
			[]wantVariant{avatar(48, jpg), thumb(160, jpg), feed(360, jpg), display(640, jpg)}},
		{"12 MP JPEG: prescaled, same sizes", func(t *testing.T) []byte { return jpegBytes(t, 4000, 3000) },
			[]wantVariant{avatar(72, jpg), thumb(240, jpg), feed(540, jpg), display(960, jpg)}},
		{"JPEG narrower than the display size: the smaller three", func(t *testing.T) []byte { return encodeTest(t, noisy(1000, 750, false), "jpg") },
			[]wantVariant{avatar(72, jpg), thumb(240, jpg), feed(540, jpg)}},
		{"JPEG as wide as a thumbnail: an avatar copy, never scaled up", func(t *testing.T) []byte { return encodeTest(t, noisy(ThumbWidth, 200, false), "jpg") },
			[]wantVariant{avatar(60, jpg)}},
		{"JPEG as wide as an avatar: none", func(t *testing.T) []byte { return encodeTest(t, noisy(AvatarWidth, 60, false), "jpg") }, nil},
		{"small JPEG: none", func(t *testing.T) []byte { return encodeTest(t, noisy(80, 50, false), "jpg") }, nil},
		{"odd aspect rounds to the nearest pixel", func(t *testing.T) []byte { return encodeTest(t, noisy(1001, 333, false), "jpg") },
			[]wantVariant{avatar(32, jpg), thumb(106, jpg), feed(240, jpg)}},
		{"tall image keeps its aspect", func(t *testing.T) []byte { return encodeTest(t, noisy(400, 4000, false), "jpg") },
			[]wantVariant{avatar(960, jpg), thumb(3200, jpg)}},
		{"opaque PNG becomes JPEG copies", func(t *testing.T) []byte { return encodeTest(t, noisy(1600, 900, false), "png") },
			[]wantVariant{avatar(54, jpg), thumb(180, jpg), feed(405, jpg), display(720, jpg)}},
		{"PNG with transparency stays PNG", func(t *testing.T) []byte { return encodeTest(t, noisy(800, 600, true), "png") },
			[]wantVariant{avatar(72, png), thumb(240, png), feed(540, png)}},
		{"still GIF", func(t *testing.T) []byte { return encodeTest(t, noisy(800, 400, false), "gif") },
			[]wantVariant{avatar(48, jpg), thumb(160, jpg), feed(360, jpg)}},
		{"animated GIF: none, the original keeps its frames", func(t *testing.T) []byte { return animatedGIF(t, 800, 400) }, nil},
		{"lossy WebP (600×400)", func(t *testing.T) []byte { return readFixture(t, "blue-purple-pink-large.normal-filter.lossy.webp") },
			[]wantVariant{avatar(64, jpg), thumb(213, jpg)}},
		{"lossless WebP with alpha (400×301)", func(t *testing.T) []byte { return readFixture(t, "yellow_rose.lossless.webp") },
			[]wantVariant{avatar(72, png), thumb(241, png)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			data := tt.data(t)
			img := save(t, s, data)
			if len(img.Variants) != len(tt.want) {
				t.Fatalf("%d variants %+v, want %d", len(img.Variants), img.Variants, len(tt.want))
			}
			for i, v := range img.Variants {
				w := tt.want[i]
				if v.Width != w.w || v.Height != w.h || v.ContentType != w.ctype {
					t.Errorf("variant %d: %d×%d %s, want %d×%d %s", i, v.Width, v.Height, v.ContentType, w.w, w.h, w.ctype)
				}
				if v.URL != "/media/"+v.Key || !validKey(v.Key) || !isVariant(v.Key) || v.Key[:keyHex] != img.Key[:keyHex] {
					t.Errorf("variant %d: key %q url %q for original %q", i, v.Key, v.URL, img.Key)
				}
				b := openAll(t, s, v.Key)
				if int64(len(b)) != v.Size || int64(len(b)) >= img.Size {
					t.Errorf("variant %d: %d bytes stored, says %d; original %d", i, len(b), v.Size, img.Size)
				}
				cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
				if err != nil {
					t.Fatalf("variant %d does not decode: %v", i, err)
				}
				if cfg.Width != w.w || cfg.Height != w.h || "image/"+format != w.ctype {
					t.Errorf("variant %d decodes as %d×%d %s", i, cfg.Width, cfg.Height, format)
				}
				// The aspect of the original, to the pixel.
				if exact := float64(img.Height) * float64(v.Width) / float64(img.Width); abs(float64(v.Height)-exact) > 0.5 {
					t.Errorf("variant %d: height %d, exact %.2f", i, v.Height, exact)
				}
			}
			if err := s.Delete(img.Key); err != nil {
				t.Fatal(err)
			}
			if fs := files(t, dir); len(fs) != 0 {
				t.Errorf("Delete of the original left %v", fs)
			}
		})
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// The copies carry the JPEG's EXIF orientation in their pixels: the
// original's top-left corner (red in the picture) must land where the
// orientation says the viewer sees it.
func TestVariantOrientation(t *testing.T) {
	// 3000×1500 as stored (wide enough to be prescaled whichever way it
	// is turned): a red block at its top-left, the rest blue.
	m := image.NewNRGBA(image.Rect(0, 0, 3000, 1500))
	draw.Draw(m, m.Bounds(), image.NewUniform(color.NRGBA{0, 0, 255, 255}), image.Point{}, draw.Src)
	draw.Draw(m, image.Rect(0, 0, 750, 375), image.NewUniform(color.NRGBA{255, 0, 0, 255}), image.Point{}, draw.Src)
	plain := encodeTest(t, m, "jpg")
	// Where the stored top-left corner appears, as a fraction of the shown
	// image (x, y), per orientation.
	tests := []struct {
		orient     int
		w, h       int
		redX, redY float64
	}{
		{1, 320, 160, 0.05, 0.05},
		{2, 320, 160, 0.95, 0.05},
		{3, 320, 160, 0.95, 0.95},
		{4, 320, 160, 0.05, 0.95},
		{5, 320, 640, 0.05, 0.05},
		{6, 320, 640, 0.95, 0.05},
		{7, 320, 640, 0.95, 0.95},
		{8, 320, 640, 0.05, 0.95},
	}
	for _, tt := range tests {
		t.Run("orientation "+string(rune('0'+tt.orient)), func(t *testing.T) {
			s, _ := newStore(t)
			img := save(t, s, withSegments(plain, nil, exifSegment(binary.BigEndian, tt.orient)))
			if len(img.Variants) == 0 {
				t.Fatal("no variants")
			}
			var v Variant // the thumbnail: big enough to find the red corner in
			for _, c := range img.Variants {
				if c.Width == ThumbWidth {
					v = c
				}
			}
			if v.Width != tt.w || v.Height != tt.h {
				t.Fatalf("thumbnail %d×%d, want %d×%d", v.Width, v.Height, tt.w, tt.h)
			}
			got, err := jpeg.Decode(bytes.NewReader(openAll(t, s, v.Key)))
			if err != nil {
				t.Fatal(err)
			}
			if b := got.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h {
				t.Fatalf("decoded %v", b)
			}
			red := func(fx, fy float64) bool {
				r, _, b, _ := got.At(int(fx*float64(tt.w)), int(fy*float64(tt.h))).RGBA()
				return r > 0xc000 && b < 0x4000
			}
			if !red(tt.redX, tt.redY) {
				t.Errorf("the red corner is not at (%.2f, %.2f)", tt.redX, tt.redY)
			}
			for _, c := range [][2]float64{{0.05, 0.05}, {0.95, 0.05}, {0.05, 0.95}, {0.95, 0.95}} {
				if c != [2]float64{tt.redX, tt.redY} && red(c[0], c[1]) {
					t.Errorf("red also at (%.2f, %.2f)", c[0], c[1])
				}
			}
		})
	}
}

// failingPuts is a backend whose nth put (counting from 1) fails, after
// writing part of the object as a broken connection would.
type failingPuts struct {
	backend
	n, puts int
}

var errPut = errors.New("connection reset by peer")

func (f *failingPuts) put(ctx context.Context, key string, r io.Reader, size int64) error {
	f.puts++
	if f.puts == f.n {
		return errPut
	}
	return f.backend.put(ctx, key, r, size)
}

// An upload that fails while its original or one of its copies is being
// stored leaves no object behind.
func TestSaveRollsBackVariants(t *testing.T) {
	data := encodeTest(t, noisy(2000, 1500, false), "jpg") // an original and two copies
	for _, tt := range []struct {
		name string
		n    int
	}{{"original", 1}, {"thumbnail", 2}, {"display size", 3}} {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			broken := &Store{b: &failingPuts{backend: s.b, n: tt.n}, log: zerolog.Nop()}
			if _, err := broken.Save(context.Background(), bytes.NewReader(data)); !errors.Is(err, errPut) {
				t.Fatalf("err %v, want %v", err, errPut)
			}
			if fs := files(t, dir); len(fs) != 0 {
				t.Errorf("left %v", fs)
			}
		})
	}
}

func TestValidVariantKey(t *testing.T) {
	hex := "0123456789abcdef0123456789abcdef"
	for _, tt := range []struct {
		key  string
		want bool
	}{
		{hex + ".jpg", true},
		{hex + "-320.jpg", true},
		{hex + "-1280.png", true},
		{hex + "-640.jpg", false},
		{hex + "-.jpg", false},
		{hex + "-320-320.jpg", false},
		{hex + "320.jpg", false},
		{hex + "-320.exe", false},
		{hex[:31] + "-320.jpg", false},
		{"../" + hex + "-320.jpg", false},
		{hex + "-320.jpg.tmp", false},
	} {
		if got := validKey(tt.key); got != tt.want {
			t.Errorf("validKey(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

// BenchmarkMakeVariants measures what an upload of a 12 MP phone photo
// (4000×3000 JPEG) costs, and what each kernel would cost for the same two
// copies from an already decoded image.
func BenchmarkMakeVariants(b *testing.B) {
	data := encodeTest(b, noisy(4000, 3000, false), "jpg")
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode+both copies+encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := makeVariants(context.Background(), &formats[0], data, 1, cfg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode only", func(b *testing.B) {
		for b.Loop() {
			if _, err := jpeg.Decode(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
	src, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []struct {
		name string
		s    draw.Scaler
	}{{"CatmullRom", draw.CatmullRom}, {"ApproxBiLinear", draw.ApproxBiLinear}} {
		b.Run("scale "+k.name, func(b *testing.B) {
			for b.Loop() {
				for _, w := range variantWidths {
					dst := image.NewRGBA(image.Rect(0, 0, w, w*3/4))
					k.s.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
				}
			}
		})
	}
}
