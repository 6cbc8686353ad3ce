package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

var (
	jfifPlain = jpegSegment(0xE0, []byte("JFIF\x00\x01\x02\x01\x00\x48\x00\x48\x00\x00"))
	// A JFIF header carrying a 2×1 RGB thumbnail.
	jfifThumb = jpegSegment(0xE0, []byte("JFIF\x00\x01\x02\x01\x00\x48\x00\x48\x02\x01\xff\x00\x00\x00\xff\x00"))
	adobe     = jpegSegment(0xEE, []byte("Adobe\x00\x64\x00\x00\x00\x00\x01"))
	icc       = jpegSegment(0xE2, []byte("ICC_PROFILE\x00\x01\x01fake profile bytes"))
	xmp       = jpegSegment(0xE1, []byte("http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta>"+secret+"</x:xmpmeta>"))
	comment   = jpegSegment(0xFE, []byte("taken at "+secret))
	iptc      = jpegSegment(0xED, []byte("Photoshop 3.0\x008BIM"+secret))
	mpf       = jpegSegment(0xE2, []byte("MPF\x00II*\x00"))
	jfxx      = jpegSegment(0xE0, []byte("JFXX\x00\x10thumbnail"))
	// What phones append after EOI: a motion-photo video, a second image.
	trailer = []byte("\x00\x00\x00\x18ftypmp42" + secret)
)

// The stored JPEG must be the original without its metadata segments and
// without anything after EOI, and otherwise the same bytes: no re-encoding.
func TestStripJPEG(t *testing.T) {
	base := jpegBytes(t, 40, 30) // Go's encoder writes no APPn at all
	body := base[2:]             // everything after SOI
	soi := base[:2]
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	jfifNoThumb := jpegSegment(0xE0, []byte("JFIF\x00\x01\x02\x01\x00\x48\x00\x48\x00\x00"))

	tests := []struct {
		name       string
		in, want   []byte
		wantOrient int
	}{
		{"nothing to strip", base, base, 1},
		{"exif with gps", withSegments(base, nil, exifSegment(binary.LittleEndian, 0)), base, 1},
		{"exif with gps, big-endian", withSegments(base, nil, exifSegment(binary.BigEndian, 0)), base, 1},
		{"every kind of metadata", withSegments(base, trailer, exifSegment(binary.BigEndian, 1), xmp, comment, iptc, mpf, jfxx), base, 1},
		{"comment after the scan", cat(base[:len(base)-2], comment, base[len(base)-2:]), base, 1},
		{"fill bytes before markers", cat(soi, []byte{0xFF, 0xFF}, body[:len(body)-2], []byte{0xFF, 0xFF, 0xFF}, base[len(base)-2:]), base, 1},
		{"colour segments kept", withSegments(base, nil, jfifPlain, icc, adobe), cat(soi, jfifPlain, icc, adobe, body), 1},
		{"jfif thumbnail dropped", withSegments(base, nil, jfifThumb, exifSegment(binary.LittleEndian, 0)), cat(soi, jfifNoThumb, body), 1},
		{"orientation kept, gps dropped", withSegments(base, nil, exifSegment(binary.LittleEndian, 6)), cat(soi, orientationEXIF(6), body), 6},
		{"orientation after jfif", withSegments(base, trailer, jfifPlain, exifSegment(binary.BigEndian, 8), comment), cat(soi, jfifPlain, orientationEXIF(8), body), 8},
		{"upside down", withSegments(base, nil, exifSegment(binary.BigEndian, 3)), cat(soi, orientationEXIF(3), body), 3},
		{"only the first exif counts", withSegments(base, nil, exifSegment(binary.BigEndian, 0), exifSegment(binary.BigEndian, 6)), base, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			img := save(t, s, tt.in)
			got := stored(t, s, img)
			if !bytes.Equal(got, tt.want) {
				t.Errorf("stored %d bytes, want %d:\n got % x\nwant % x", len(got), len(tt.want), head(got), head(tt.want))
			}
			for _, leak := range []string{secret, "http://ns.adobe.com/xap", "ftypmp42", "MPF\x00", "JFXX", "\xFF\xFE"} {
				if bytes.Contains(got, []byte(leak)) {
					t.Errorf("stored file still contains %q", leak)
				}
			}
			if tt.wantOrient == 1 && bytes.Contains(got, exifID) {
				t.Error("stored file still has EXIF")
			}
			w, h := 40, 30
			if tt.wantOrient >= 5 {
				w, h = h, w
			}
			if img.Width != w || img.Height != h {
				t.Errorf("size %d×%d, want %d×%d", img.Width, img.Height, w, h)
			}
			samePixels(t, tt.in, got)
		})
	}
}

func head(b []byte) []byte { return b[:min(len(b), 48)] }

// Real encoder output with progressive scans, restart markers and Adobe
// segments holds no metadata, so it must come back byte for byte.
func TestStripJPEGFixtures(t *testing.T) {
	for _, name := range []string{
		"video-001.q50.420.progressive.jpeg",
		"video-001.restart2.jpeg",
		"video-001.cmyk.jpeg",
		"video-001.rgb.jpeg",
	} {
		t.Run(name, func(t *testing.T) {
			in := readFixture(t, name)
			got, orient, err := stripJPEG(in)
			if err != nil {
				t.Fatal(err)
			}
			if orient != 1 || !bytes.Equal(got, in) {
				t.Errorf("changed a file without metadata (orientation %d)", orient)
			}
			// With metadata added, stripping gives the original back.
			got, _, err = stripJPEG(withSegments(in, trailer, exifSegment(binary.LittleEndian, 0), comment))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, in) {
				t.Error("metadata not stripped back to the original")
			}
		})
	}
}

func TestStripJPEGRefusesBrokenFiles(t *testing.T) {
	base := jpegBytes(t, 8, 8)
	tests := map[string][]byte{
		"no EOI":               base[:len(base)-2],
		"cut inside the scan":  base[:len(base)-40],
		"cut inside a segment": base[:20],
		"segment overruns":     append(bytes.Clone(base[:2]), 0xFF, 0xE1, 0xFF, 0xFF, 0, 0),
		"segment length 1":     append(bytes.Clone(base[:2]), 0xFF, 0xDB, 0x00, 0x01, 0xFF, 0xD9),
		"EOI before any scan":  {0xFF, 0xD8, 0xFF, 0xD9},
		"garbage between":      append(append(bytes.Clone(base[:2]), 0x12, 0x34), base[2:]...),
		"second SOI":           append(append(bytes.Clone(base[:2]), 0xFF, 0xD8), base[2:]...),
		"no SOI":               base[2:],
		"ends on fill bytes":   append(bytes.Clone(base[:2]), 0xFF, 0xFF),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, err := stripJPEG(in); !errors.Is(err, errCorrupt) {
				t.Errorf("err %v, want errCorrupt", err)
			}
		})
	}
}

func TestExifOrientation(t *testing.T) {
	tests := []struct {
		name string
		tiff []byte
		want int
	}{
		{"little-endian", exifTIFF(binary.LittleEndian, 6), 6},
		{"big-endian", exifTIFF(binary.BigEndian, 8), 8},
		{"absent", exifTIFF(binary.BigEndian, 0), 0},
		{"out of range", exifTIFF(binary.BigEndian, 9), 0},
		{"our own", orientationEXIF(5)[4+len(exifID):], 5},
		{"empty", nil, 0},
		{"bad byte order", []byte("XX\x00\x2a\x00\x00\x00\x08"), 0},
		{"bad magic", []byte("MM\x00\x2b\x00\x00\x00\x08"), 0},
		{"IFD past the end", []byte("MM\x00\x2a\x7f\xff\xff\xff"), 0},
		{"IFD offset wraps", []byte("II\x2a\x00\xfe\xff\xff\xff"), 0},
		{"entries past the end", []byte("MM\x00\x2a\x00\x00\x00\x08\xff\xff\x01\x12"), 0},
		{"wrong type", []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x04\x00\x00\x00\x01\x00\x00\x00\x06\x00\x00\x00\x00"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exifOrientation(tt.tiff); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}
