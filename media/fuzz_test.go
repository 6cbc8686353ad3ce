package media

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image/gif"
	"path/filepath"
	"testing"

	"campus/domain"
)

// FuzzSave feeds arbitrary bytes to Save. Whatever comes in, Save must not
// panic, must refuse with a user error (never an internal one), and whatever
// it stores must be an image of the type its key says, of the size it
// reported, with none of the metadata it promises to remove.
func FuzzSave(f *testing.F) {
	seeds := [][]byte{
		pngBytes(f, 8, 8),
		jpegBytes(f, 16, 16),
		gifBytes(f, 8, 8),
		readFixture(f, "lossless-1x1.webp"),
		readFixture(f, "lossy-1x1.webp"),
		readFixture(f, "alpha-1x1.webp"),
		readFixture(f, "video-001.q50.420.progressive.jpeg"),
		readFixture(f, "video-001.restart2.jpeg"),
		withSegments(jpegBytes(f, 16, 16), trailer, jfifThumb, exifSegment(binary.LittleEndian, 6), xmp, comment, icc, adobe),
		insertPNGChunks(pngBytes(f, 8, 8), []byte("after"), pngChunk("tEXt", []byte("k\x00v")), pngChunk("eXIf", exifTIFF(binary.BigEndian, 0))),
		pngHeader(20000, 20000),
		gifWithMetadata(f),
	}
	ext := readFixture(f, "alpha-1x1.webp")
	parts := webpChunks(f, ext)
	vp8x := bytes.Clone(parts[0])
	vp8x[8] |= vp8xEXIF | vp8xXMP
	seeds = append(seeds, riff(vp8x, parts[1], parts[2], riffChunk("EXIF", []byte("II*\x00")), riffChunk("XMP ", []byte("<x/>"))))
	for _, s := range seeds {
		f.Add(s)
	}

	s, _ := newStore(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := s.Save(context.Background(), bytes.NewReader(data))
		if err != nil {
			var de *domain.Error
			if !errors.As(err, &de) {
				t.Fatalf("refused with an internal error: %v", err)
			}
			return
		}
		defer func() {
			if err := s.Delete(img.Key); err != nil {
				t.Error(err)
			}
		}()
		out := stored(t, s, img)
		form := sniff(out)
		if form == nil || "."+form.ext != filepath.Ext(img.Key) || form.contentType != img.ContentType {
			t.Fatalf("stored %q as %s, content starts % x", img.Key, img.ContentType, head(out))
		}
		cfg, err := form.config(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("stored header no longer parses: %v", err)
		}
		// Stripping what was already stripped changes nothing.
		again, orient, err := form.strip(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("stripping the stored file again: err %v, changed %v", err, !bytes.Equal(again, out))
		}
		w, h := cfg.Width, cfg.Height
		if orient >= 5 {
			w, h = h, w
		}
		if w != img.Width || h != img.Height {
			t.Fatalf("stored %d×%d (orientation %d), reported %d×%d", cfg.Width, cfg.Height, orient, img.Width, img.Height)
		}
		if err := checkSize(cfg.Width, cfg.Height); err != nil {
			t.Fatalf("accepted %d×%d", cfg.Width, cfg.Height)
		}
		switch form.ext {
		case "jpg":
			checkJPEGClean(t, out)
		case "png":
			checkPNGClean(t, out)
		case "webp":
			checkWebPClean(t, out)
		case "gif":
			checkGIFClean(t, out)
		}
	})
}

// FuzzStripGIF feeds arbitrary bytes to the GIF block walk. It must not
// panic; it either refuses with errCorrupt or returns a GIF no longer than
// the input that holds no metadata extension, that strips to itself, and
// that Go's decoder reads exactly as it reads the input, when it reads the
// input at all.
func FuzzStripGIF(f *testing.F) {
	_, still := stillGIF(f)
	_, anim := animGIF(f)
	for _, s := range [][]byte{still, anim, gifWithMetadata(f), gifBytes(f, 8, 8), anim[:len(anim)/2]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, orient, err := stripGIF(in)
		if err != nil {
			if !errors.Is(err, errCorrupt) {
				t.Fatalf("refused with %v, want errCorrupt", err)
			}
			return
		}
		if orient != 1 || len(out) > len(in) {
			t.Fatalf("orientation %d, %d bytes out of %d", orient, len(out), len(in))
		}
		checkGIFClean(t, out)
		again, _, err := stripGIF(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("stripping the output again: err %v, changed %v", err, !bytes.Equal(again, out))
		}
		// Decoding allocates the screen for every frame: only small ones.
		cfg, err := gif.DecodeConfig(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("output of a GIF whose header does not parse: %v", err)
		}
		if cfg.Width*cfg.Height > 1<<16 {
			return
		}
		want, err := gif.DecodeAll(bytes.NewReader(in))
		if err != nil {
			return // only the structure is promised for what Go cannot draw
		}
		got, err := gif.DecodeAll(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("input decodes, output does not: %v", err)
		}
		if got.Config.Width != want.Config.Width || got.Config.Height != want.Config.Height ||
			got.BackgroundIndex != want.BackgroundIndex {
			t.Fatalf("screen %+v, want %+v", got.Config, want.Config)
		}
		sameAnimation(t, want, out)
	})
}

// gifWithMetadata is an animation carrying every kind of GIF metadata.
func gifWithMetadata(t testing.TB) []byte {
	t.Helper()
	_, anim := animGIF(t)
	h, blocks, _ := gifParts(t, anim)
	md := newGIFMetadata()
	return bytes.Join([][]byte{h, md.xmp, blocks[0], md.comment, blocks[1], blocks[2], md.text, md.icc, md.iptc,
		bytes.Join(blocks[3:], nil), {gifTrailer}, []byte(secret)}, nil)
}

// checkJPEGClean fails if a JPEG has any APPn but the allowed ones, an EXIF
// block other than a bare orientation, a comment, or bytes after EOI.
func checkJPEGClean(t *testing.T, b []byte) {
	t.Helper()
	p := 2
	for {
		for p < len(b) && b[p] == 0xFF {
			p++
		}
		if p >= len(b) {
			t.Fatal("no EOI")
		}
		m := b[p]
		p++
		if m == mEOI {
			if p != len(b) {
				t.Fatalf("%d bytes after EOI", len(b)-p)
			}
			return
		}
		if m == mTEM || mRST0 <= m && m <= mRST7 {
			continue
		}
		n := int(binary.BigEndian.Uint16(b[p:]))
		payload := b[p+2 : p+n]
		p += n
		switch {
		case m == mAPP0:
			if len(payload) != 14 || !bytes.HasPrefix(payload, jfifID) || payload[12] != 0 || payload[13] != 0 {
				t.Fatalf("APP0 % x", payload)
			}
		case m == mAPP1:
			o := exifOrientation(payload[len(exifID):])
			if o < 2 || !bytes.Equal(payload, orientationEXIF(o)[4:]) {
				t.Fatalf("EXIF beyond the orientation: % x", payload)
			}
		case m == mAPP2 && bytes.HasPrefix(payload, iccID), m == mAPP14 && bytes.HasPrefix(payload, adobeID):
		case mAPP0 <= m && m <= mAPP15, m == mCOM:
			t.Fatalf("metadata segment %#x kept", m)
		}
		if m == mSOS { // skip the entropy-coded data
			for {
				i := bytes.IndexByte(b[p:], 0xFF)
				q := p + i + 1
				for b[q] == 0xFF {
					q++
				}
				if b[q] == 0 || mRST0 <= b[q] && b[q] <= mRST7 {
					p = q + 1
					continue
				}
				p += i
				break
			}
		}
	}
}

func checkPNGClean(t *testing.T, b []byte) {
	t.Helper()
	for p := len(pngMagic); p < len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		typ := string(b[p+4 : p+8])
		if typ[0]&0x20 != 0 && !pngKeep[typ] {
			t.Fatalf("chunk %q kept", typ)
		}
		p += 12 + n
		if typ == "IEND" && p != len(b) {
			t.Fatalf("%d bytes after IEND", len(b)-p)
		}
	}
}

func checkWebPClean(t *testing.T, b []byte) {
	t.Helper()
	if n := binary.LittleEndian.Uint32(b[4:]); int(n) != len(b)-8 {
		t.Fatalf("RIFF size %d for %d bytes", n, len(b))
	}
	for _, c := range webpChunks(t, b) {
		id := string(c[:4])
		if !webpKeep[id] {
			t.Fatalf("chunk %q kept", id)
		}
		if id == "VP8X" && c[8]&(vp8xEXIF|vp8xXMP) != 0 {
			t.Fatalf("VP8X still announces metadata: %#x", c[8])
		}
	}
}
