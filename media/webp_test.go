package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

func TestStripWebP(t *testing.T) {
	ext := readFixture(t, "alpha-1x1.webp") // VP8X, ALPH, VP8
	parts := webpChunks(t, ext)
	if len(parts) != 3 || string(parts[0][:4]) != "VP8X" {
		t.Fatalf("unexpected fixture layout: %d chunks", len(parts))
	}
	vp8x, alph, vp8 := parts[0], parts[1], parts[2]
	flagged := func(flags byte) []byte {
		c := bytes.Clone(vp8x)
		c[8] |= flags
		return c
	}
	exif := riffChunk("EXIF", append(exifTIFF(binary.LittleEndian, 0), 'x')) // odd: padded
	xmpc := riffChunk("XMP ", []byte("<x:xmpmeta>"+secret+"</x:xmpmeta>"))
	unknown := riffChunk("ABCD", []byte(secret))
	iccp := riffChunk("ICCP", []byte("fake profile"))
	lossy := readFixture(t, "lossy-1x1.webp")
	lossless := readFixture(t, "lossless-1x1.webp")

	tests := []struct {
		name     string
		in, want []byte
	}{
		{"extended, nothing to strip", ext, ext},
		{"simple lossy", lossy, lossy},
		{"simple lossless", lossless, lossless},
		{"exif and xmp", riff(flagged(vp8xEXIF|vp8xXMP), alph, vp8, exif, xmpc), ext},
		{"metadata first, unknown chunk", riff(flagged(vp8xEXIF|vp8xXMP), exif, unknown, alph, xmpc, vp8), ext},
		{"icc profile kept", riff(flagged(0x20|vp8xEXIF), iccp, alph, vp8, exif), riff(flagged(0x20), iccp, alph, vp8)},
		{"exif in a simple file", riff(webpChunks(t, lossy)[0], exif), lossy},
		{"bytes after the RIFF", append(bytes.Clone(lossless), "junk "+secret...), lossless},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			img := save(t, s, tt.in)
			got := stored(t, s, img)
			if !bytes.Equal(got, tt.want) {
				t.Errorf("stored\n% x\nwant\n% x", got, tt.want)
			}
			if n := binary.LittleEndian.Uint32(got[4:]); int(n) != len(got)-8 {
				t.Errorf("RIFF size %d, file %d bytes", n, len(got))
			}
			for _, leak := range []string{secret, "EXIF", "XMP "} {
				if bytes.Contains(got, []byte(leak)) {
					t.Errorf("stored file still contains %q", leak)
				}
			}
			samePixels(t, tt.in, got)
		})
	}
}

func TestStripWebPRefusesBrokenFiles(t *testing.T) {
	ext := readFixture(t, "alpha-1x1.webp")
	parts := webpChunks(t, ext)
	vp8x, alph, vp8 := parts[0], parts[1], parts[2]
	grown := bytes.Clone(ext)
	binary.LittleEndian.PutUint32(grown[4:], uint32(len(ext))) // 8 more than there is
	overrun := bytes.Clone(vp8)
	binary.LittleEndian.PutUint32(overrun[4:], 1000)
	tests := map[string][]byte{
		"RIFF size past the end": grown,
		"RIFF size too small":    append([]byte("RIFF\x02\x00\x00\x00WEBP"), vp8...),
		"chunk overruns":         riff(vp8x, alph, overrun),
		"truncated chunk header": riff(vp8x, alph, vp8, []byte("VP8")),
		"VP8X not first":         riff(alph, vp8x, vp8),
		"VP8X wrong size":        riff(riffChunk("VP8X", make([]byte, 8)), vp8),
		"no image data":          riff(vp8x, alph),
		"header only":            []byte("RIFF\x04\x00\x00\x00WEB"),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, err := stripWebP(in); !errors.Is(err, errCorrupt) {
				t.Errorf("err %v, want errCorrupt", err)
			}
		})
	}
}
