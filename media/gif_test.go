package media

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"testing"

	"github.com/valyala/fasthttp"

	"campus/domain"
)

// gpsXMP is the XMP packet a photo editor writes, with the location.
const gpsXMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
	`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
	`<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="51,30.042N" exif:GPSLongitude="0,7.476W">` +
	`<dc:description>` + secret + `</dc:description></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`

// animGIF is a 12×9 animation the way Go's encoder writes it: loop count,
// per-frame delays and disposal, a global colour table, a frame with its own
// local table and a frame smaller than the screen.
func animGIF(t testing.TB) (*gif.GIF, []byte) {
	t.Helper()
	pal1 := color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 255, 0, 255}, color.RGBA{0, 0, 255, 255}}
	pal2 := color.Palette{color.RGBA{255, 255, 255, 255}, color.RGBA{10, 20, 30, 255}}
	frame := func(r image.Rectangle, pal color.Palette, seed int) *image.Paletted {
		m := image.NewPaletted(r, pal)
		for i := range m.Pix {
			m.Pix[i] = uint8((i*7 + seed) % len(pal))
		}
		return m
	}
	g := &gif.GIF{
		Image: []*image.Paletted{
			frame(image.Rect(0, 0, 12, 9), pal1, 0),
			frame(image.Rect(0, 0, 12, 9), pal2, 1),
			frame(image.Rect(2, 1, 8, 6), pal1, 2),
		},
		Delay:     []int{10, 25, 50},
		Disposal:  []byte{gif.DisposalNone, gif.DisposalBackground, gif.DisposalPrevious},
		LoopCount: 3,
		Config:    image.Config{ColorModel: pal1, Width: 12, Height: 9},
	}
	return g, encodeGIF(t, g)
}

// stillGIF is a single frame with no extensions at all.
func stillGIF(t testing.TB) (*gif.GIF, []byte) {
	t.Helper()
	m := image.NewPaletted(image.Rect(0, 0, 5, 4), color.Palette{color.Gray{0}, color.Gray{200}})
	for i := range m.Pix {
		m.Pix[i] = uint8(i % 3 % 2)
	}
	g := &gif.GIF{Image: []*image.Paletted{m}, Delay: []int{0}, LoopCount: -1} // one frame: no loop extension
	return g, encodeGIF(t, g)
}

func encodeGIF(t testing.TB, g *gif.GIF) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gifExt is one extension block: introducer, label, first as its own
// sub-block if given (an application's identifier, a plain text header),
// data in sub-blocks of up to 255 bytes, terminator.
func gifExt(label byte, first, data []byte) []byte {
	b := []byte{gifExtension, label}
	if first != nil {
		b = append(b, byte(len(first)))
		b = append(b, first...)
	}
	for len(data) > 0 {
		n := min(len(data), 255)
		b = append(b, byte(n))
		b = append(b, data[:n]...)
		data = data[n:]
	}
	return append(b, 0)
}

// gifXMP is an XMP application extension as Adobe's XMP spec (part 3) lays
// it out: the packet raw, not in sub-blocks, then a 258-byte "magic
// trailer" (0x01, 0xFF down to 0x00, terminator) built so that a reader
// walking sub-blocks from anywhere in the packet lands on the terminator.
func gifXMP(packet string) []byte {
	b := append([]byte{gifExtension, gifApplication, 11}, "XMP DataXMP"...)
	b = append(b, packet...)
	b = append(b, 1)
	for v := 255; v >= 0; v-- {
		b = append(b, byte(v))
	}
	return append(b, 0)
}

// gifParts splits a GIF into its head (header, screen descriptor, global
// colour table), its blocks (each extension, each image with its data) and
// whatever follows the trailer. It is written apart from stripGIF so that
// tests do not check the code with itself.
func gifParts(t testing.TB, b []byte) (head []byte, blocks [][]byte, tail []byte) {
	t.Helper()
	need := func(p, n int) {
		t.Helper()
		if p+n > len(b) {
			t.Fatalf("GIF cut at %d (need %d more bytes)", p, p+n-len(b))
		}
	}
	subBlocks := func(p int) int {
		t.Helper()
		for {
			need(p, 1)
			n := int(b[p])
			p++
			need(p, n)
			p += n
			if n == 0 {
				return p
			}
		}
	}
	table := func(flags byte) int {
		if flags&0x80 == 0 {
			return 0
		}
		return 3 * (1 << (flags&7 + 1))
	}
	need(0, 13)
	p := 13 + table(b[10])
	need(p, 0)
	head = b[:p]
	for {
		need(p, 1)
		start := p
		switch b[p] {
		case gifTrailer:
			return head, blocks, b[p+1:]
		case gifExtension:
			need(p, 2)
			p = subBlocks(p + 2)
		case gifImage:
			need(p, 10)
			p += 10 + table(b[p+9])
			need(p, 1)
			p = subBlocks(p + 1)
		default:
			t.Fatalf("unknown block %#x at %d", b[p], p)
		}
		blocks = append(blocks, b[start:p])
	}
}

// checkGIFClean fails unless a GIF holds only frames, their graphic
// control, a loop count alone in its extension, and nothing after the
// trailer.
func checkGIFClean(t testing.TB, b []byte) {
	t.Helper()
	_, blocks, tail := gifParts(t, b)
	if len(tail) != 0 {
		t.Fatalf("%d bytes after the trailer", len(tail))
	}
	for _, bl := range blocks {
		switch {
		case bl[0] == gifImage:
		case bl[1] == gifGraphicControl:
		case bl[1] == gifApplication && len(bl) == 19 && bl[2] == 11 &&
			(string(bl[3:14]) == "NETSCAPE2.0" || string(bl[3:14]) == "ANIMEXTS1.0") &&
			bl[14] == 3 && bl[15] == 1:
		default:
			t.Fatalf("extension %#x kept: % x", bl[1], head(bl))
		}
	}
}

// sameAnimation fails unless b decodes to want's frames, palettes, delays,
// disposals and loop count.
func sameAnimation(t testing.TB, want *gif.GIF, b []byte) {
	t.Helper()
	got, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if len(got.Image) != len(want.Image) {
		t.Fatalf("%d frames, want %d", len(got.Image), len(want.Image))
	}
	if got.LoopCount != want.LoopCount {
		t.Errorf("loop count %d, want %d", got.LoopCount, want.LoopCount)
	}
	for i, w := range want.Image {
		g := got.Image[i]
		if got.Delay[i] != want.Delay[i] {
			t.Errorf("frame %d: delay %d, want %d", i, got.Delay[i], want.Delay[i])
		}
		if want.Disposal != nil && got.Disposal[i] != want.Disposal[i] {
			t.Errorf("frame %d: disposal %d, want %d", i, got.Disposal[i], want.Disposal[i])
		}
		if g.Rect != w.Rect || !bytes.Equal(g.Pix, w.Pix) {
			t.Errorf("frame %d: %v with other pixels, want %v", i, g.Rect, w.Rect)
		}
		if len(g.Palette) != len(w.Palette) {
			t.Fatalf("frame %d: %d colours, want %d", i, len(g.Palette), len(w.Palette))
		}
		for j := range w.Palette {
			if color.RGBAModel.Convert(g.Palette[j]) != color.RGBAModel.Convert(w.Palette[j]) {
				t.Errorf("frame %d: colour %d is %v, want %v", i, j, g.Palette[j], w.Palette[j])
			}
		}
	}
}

// gifMetadata is every kind of extension a GIF carries metadata in.
type gifMetadata struct {
	xmp, comment, text, icc, iptc, unknown []byte
}

func newGIFMetadata() gifMetadata {
	return gifMetadata{
		xmp:     gifXMP(gpsXMP),
		comment: gifExt(gifComment, nil, []byte("taken at "+secret)),
		text:    gifExt(gifPlainText, []byte{0, 0, 0, 0, 12, 0, 9, 0, 4, 4, 1, 0}, []byte("GPSLatitude 51.5007N")),
		icc:     gifExt(gifApplication, []byte("ICCRGBG1012"), []byte("fake profile, made on "+secret)),
		iptc:    gifExt(gifApplication, []byte("MGK8BIM0000"), []byte("8BIM\x04\x04"+secret)),
		unknown: gifExt(0x99, nil, []byte(secret)),
	}
}

// gifLeaks are byte strings no stored GIF may contain.
var gifLeaks = []string{secret, "GPSLatitude", "XMP DataXMP", "ICCRGBG1012", "MGK8BIM"}

// The stored GIF must be the original without its metadata extensions and
// otherwise the same bytes: frames, timing and loop count untouched.
func TestStripGIF(t *testing.T) {
	anim, base := animGIF(t)
	ahead, ablocks, _ := gifParts(t, base)
	if len(ablocks) != 7 || string(ablocks[0][3:14]) != "NETSCAPE2.0" || ablocks[1][1] != gifGraphicControl || ablocks[2][0] != gifImage {
		t.Fatalf("unexpected encoder layout: %d blocks", len(ablocks))
	}
	loop, gce1, img1, rest := ablocks[0], ablocks[1], ablocks[2], ablocks[3:]
	frames := ablocks[1:]
	still, stillBase := stillGIF(t)
	shead, sblocks, _ := gifParts(t, stillBase)
	md := newGIFMetadata()
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	end := []byte{gifTrailer}

	// A loop extension with a buffering sub-block and a hidden one after the
	// loop count, and the same under the other name browsers read.
	loopPadded := cat(loop[:len(loop)-1], []byte{5, 2, 0, 0, 1, 0}, []byte{byte(len(secret))}, []byte(secret), []byte{0})
	animexts := gifExt(gifApplication, []byte("ANIMEXTS1.0"), []byte{1, 3, 0})
	animextsPadded := cat(animexts[:len(animexts)-1], []byte{byte(len(secret))}, []byte(secret), []byte{0})
	// 1.5 MB of one-byte sub-blocks in one comment.
	long := []byte{gifExtension, gifComment}
	for range 750_000 {
		long = append(long, 1, 'x')
	}
	long = append(long, 0)

	tests := []struct {
		name     string
		src      *gif.GIF
		in, want []byte
	}{
		{"nothing to strip", anim, base, base},
		{"still, nothing to strip", still, stillBase, stillBase},
		{"xmp with gps", anim, cat(ahead, md.xmp, cat(ablocks...), end), base},
		{"comment between frames", anim, cat(ahead, loop, gce1, img1, md.comment, cat(rest...), end), base},
		{"every kind of metadata", anim, cat(ahead, md.xmp, loop, md.comment, gce1, img1, md.text, md.icc, md.iptc, md.unknown, cat(rest...), md.comment, end, []byte("junk "+secret)), base},
		{"metadata after the graphic control", anim, cat(ahead, loop, gce1, md.comment, md.xmp, img1, cat(rest...), end), base},
		{"loop extension carrying more", anim, cat(ahead, loopPadded, cat(frames...), end), base},
		{"both loop extensions kept", anim, cat(ahead, loop, animextsPadded, cat(frames...), end), cat(ahead, loop, animexts, cat(frames...), end)},
		{"still with a comment and xmp", still, cat(shead, md.comment, md.xmp, cat(sblocks...), end), stillBase},
		{"GIF87a", still, cat([]byte("GIF87a"), shead[6:], md.comment, cat(sblocks...), end), cat([]byte("GIF87a"), stillBase[6:])},
		{"bytes after the trailer", still, cat(stillBase, []byte(secret)), stillBase},
		{"a comment of one-byte sub-blocks", anim, cat(ahead, long, cat(ablocks...), end), base},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			img := save(t, s, tt.in)
			got := stored(t, s, img)
			if !bytes.Equal(got, tt.want) {
				t.Errorf("stored %d bytes, want %d:\n got % x\nwant % x", len(got), len(tt.want), head(got), head(tt.want))
			}
			for _, leak := range gifLeaks {
				if bytes.Contains(got, []byte(leak)) {
					t.Errorf("stored file still contains %q", leak)
				}
			}
			checkGIFClean(t, got)
			sameAnimation(t, tt.src, got)
			if w, h := tt.src.Image[0].Bounds().Dx(), tt.src.Image[0].Bounds().Dy(); img.Width != w || img.Height != h {
				t.Errorf("size %d×%d, want %d×%d", img.Width, img.Height, w, h)
			}
		})
	}
}

func TestStripGIFRefusesBrokenFiles(t *testing.T) {
	_, base := animGIF(t)
	ahead, ablocks, _ := gifParts(t, base)
	loop, gce1, img1 := ablocks[0], ablocks[1], ablocks[2]
	md := newGIFMetadata()
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	end := []byte{gifTrailer}
	// img1 with its descriptor changed by edit.
	image1 := func(edit func(b []byte)) []byte {
		b := bytes.Clone(img1)
		edit(b)
		return b
	}

	tests := map[string][]byte{
		"signature only":                 []byte("GIF89a"),
		"global colour table cut":        ahead[:len(ahead)-1],
		"no frames":                      cat(ahead, end),
		"only metadata":                  cat(ahead, md.comment, md.xmp, end),
		"no trailer":                     cat(ahead, cat(ablocks...)),
		"unknown block":                  cat(ahead, loop, []byte{0x2A}, gce1, img1, end),
		"extension cut after 0x21":       cat(ahead, gce1, img1, []byte{gifExtension}),
		"sub-block past the end":         cat(ahead, gce1, img1, []byte{gifExtension, gifComment, 0x10, 'a'}),
		"graphic control of 5 bytes":     cat(ahead, []byte{gifExtension, gifGraphicControl, 5, 0, 10, 0, 0, 0, 0}, img1, end),
		"graphic control not terminated": cat(ahead, []byte{gifExtension, gifGraphicControl, 4, 0, 10, 0, 0, 1, 0}, img1, end),
		"plain text header of 11 bytes":  cat(ahead, gifExt(gifPlainText, make([]byte, 11), []byte("x")), gce1, img1, end),
		// Found by FuzzStripGIF: Go's decoder reads on past the zero.
		"application without identifier": cat(ahead, []byte{gifExtension, gifApplication, 0}, gce1, img1, end),
		"frame wider than the screen":    cat(ahead, image1(func(b []byte) { b[5] = 13 }), end),
		"frame below the screen":         cat(ahead, image1(func(b []byte) { b[3] = 1 }), end),
		"LZW code size 1":                cat(ahead, image1(func(b []byte) { b[10] = 1 }), end),
		"LZW code size 9":                cat(ahead, image1(func(b []byte) { b[10] = 9 }), end),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, err := stripGIF(in); !errors.Is(err, errCorrupt) {
				t.Fatalf("err %v, want errCorrupt", err)
			}
			// Through Save it is the user's 400, and nothing is stored.
			s, dir := newStore(t)
			_, err := s.Save(context.Background(), bytes.NewReader(in))
			var de *domain.Error
			if !errors.Is(err, domain.ErrInvalid) || !errors.As(err, &de) || de.Message != msgCorrupt {
				t.Errorf("Save: err %v, want %q", err, msgCorrupt)
			}
			if f := files(t, dir); len(f) != 0 {
				t.Errorf("left %v", f)
			}
		})
	}

	t.Run("every truncation", func(t *testing.T) {
		full := cat(ahead, md.xmp, loop, md.comment, gce1, img1, md.text, md.icc, cat(ablocks[3:]...), end)
		for n := range len(full) {
			if _, _, err := stripGIF(full[:n]); !errors.Is(err, errCorrupt) {
				t.Fatalf("cut at %d of %d: err %v, want errCorrupt", n, len(full), err)
			}
		}
	})
}

// What the media handler serves for an uploaded GIF is the stripped file.
func TestGIFServedWithoutMetadata(t *testing.T) {
	anim, base := animGIF(t)
	ahead, ablocks, _ := gifParts(t, base)
	md := newGIFMetadata()
	in := bytes.Join([][]byte{ahead, md.xmp, md.comment, bytes.Join(ablocks, nil), md.text, {gifTrailer}}, nil)
	if !bytes.Contains(in, []byte("GPSLatitude")) {
		t.Fatal("test upload has no GPS")
	}
	sameAnimation(t, anim, in) // the metadata is spliced in where decoders expect it
	s, _ := newStore(t)
	img := save(t, s, in)
	do := serve(t, &fasthttp.Server{Handler: s.Handler()})
	resp := do("GET", img.URL)
	if resp.StatusCode() != 200 || string(resp.Header.ContentType()) != "image/gif" {
		t.Fatalf("status %d, type %q", resp.StatusCode(), resp.Header.ContentType())
	}
	body := resp.Body()
	for _, leak := range gifLeaks {
		if bytes.Contains(body, []byte(leak)) {
			t.Errorf("served file contains %q", leak)
		}
	}
	if !bytes.Equal(body, base) {
		t.Errorf("served %d bytes, want the %d of the upload without its metadata", len(body), len(base))
	}
	sameAnimation(t, anim, body)
}
