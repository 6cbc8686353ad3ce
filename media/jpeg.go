package media

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// JPEG markers this file cares about.
const (
	mSOI   = 0xD8
	mEOI   = 0xD9
	mSOS   = 0xDA
	mRST0  = 0xD0
	mRST7  = 0xD7
	mTEM   = 0x01
	mAPP0  = 0xE0
	mAPP1  = 0xE1
	mAPP2  = 0xE2
	mAPP14 = 0xEE
	mAPP15 = 0xEF
	mCOM   = 0xFE
)

var (
	exifID  = []byte("Exif\x00\x00")
	jfifID  = []byte("JFIF\x00")
	iccID   = []byte("ICC_PROFILE\x00")
	adobeID = []byte("Adobe")
)

// stripJPEG walks the JPEG's markers and copies every segment except
// metadata, without touching the compressed data, so the picture is
// bit-for-bit the same.
//
// Dropped: APP1 (EXIF with GPS, camera serials, thumbnails; XMP), every other
// APPn except the three a decoder needs, COM, and anything after EOI (where
// phones append motion-photo videos and extra images). Kept: APP0 JFIF
// (without its thumbnail), APP2 ICC_PROFILE (wide-gamut photos lose their
// colours without it), APP14 Adobe (says how to read the colour channels).
//
// EXIF also holds the orientation: phones store portrait photos sideways and
// ask for a quarter turn there. Dropping it would show them rotated, so when
// the original asks for a non-identity orientation a new minimal EXIF with
// only that one tag is written back.
func stripJPEG(in []byte) ([]byte, int, error) {
	if len(in) < 4 || in[0] != 0xFF || in[1] != mSOI {
		return nil, 0, fmt.Errorf("jpeg: %w: no SOI", errCorrupt)
	}
	out := make([]byte, 0, len(in))
	out = append(out, 0xFF, mSOI)
	exifAt := len(out) // where a rebuilt EXIF goes: after SOI or after JFIF
	orient := 0
	scanned := false
	p := 2
	for {
		// A marker is 0xFF, any number of 0xFF fill bytes, then its code.
		if p >= len(in) || in[p] != 0xFF {
			return nil, 0, fmt.Errorf("jpeg: %w: expected a marker at %d", errCorrupt, p)
		}
		for p < len(in) && in[p] == 0xFF {
			p++
		}
		if p >= len(in) {
			return nil, 0, fmt.Errorf("jpeg: %w: truncated marker", errCorrupt)
		}
		m := in[p]
		p++
		switch {
		case m == mEOI:
			if !scanned {
				return nil, 0, fmt.Errorf("jpeg: %w: no image data", errCorrupt)
			}
			out = append(out, 0xFF, mEOI)
			if orient > 1 {
				out = insertAt(out, exifAt, orientationEXIF(orient))
			} else {
				orient = 1
			}
			return out, orient, nil
		case m == mSOI || m == 0x00:
			return nil, 0, fmt.Errorf("jpeg: %w: unexpected marker %#x", errCorrupt, m)
		case m == mTEM || mRST0 <= m && m <= mRST7:
			// Stand-alone markers carry no length. Restart markers belong
			// inside scans and are copied there; one here is harmless.
			out = append(out, 0xFF, m)
			continue
		}
		if p+2 > len(in) {
			return nil, 0, fmt.Errorf("jpeg: %w: truncated segment", errCorrupt)
		}
		n := int(binary.BigEndian.Uint16(in[p:])) // counts itself, not the marker
		if n < 2 || p+n > len(in) {
			return nil, 0, fmt.Errorf("jpeg: %w: segment %#x overruns the file", errCorrupt, m)
		}
		seg := in[p : p+n]
		payload := seg[2:]
		p += n

		switch {
		case m == mAPP0:
			if bytes.HasPrefix(payload, jfifID) && len(payload) >= 14 {
				// The 14 fixed bytes with the thumbnail size set to 0×0:
				// a thumbnail may show what the picture was cropped from.
				out = append(out, 0xFF, mAPP0, 0, 16)
				out = append(out, payload[:12]...)
				out = append(out, 0, 0)
				if exifAt == 2 {
					exifAt = len(out)
				}
			}
		case m == mAPP1:
			if orient == 0 && bytes.HasPrefix(payload, exifID) {
				orient = exifOrientation(payload[len(exifID):])
				if orient == 0 {
					orient = 1 // only the first EXIF counts, as in browsers
				}
			}
		case m == mAPP2:
			if bytes.HasPrefix(payload, iccID) {
				out = appendSegment(out, m, seg)
			}
		case m == mAPP14:
			if bytes.HasPrefix(payload, adobeID) {
				out = appendSegment(out, m, seg)
			}
		case mAPP0 < m && m <= mAPP15, m == mCOM:
			// other metadata: dropped
		default:
			out = appendSegment(out, m, seg)
		}
		if m != mSOS {
			continue
		}
		// The entropy-coded data after SOS runs to the next marker that is
		// neither a stuffed 0xFF00 nor a restart marker.
		scanned = true
		start := p
		for {
			i := bytes.IndexByte(in[p:], 0xFF)
			if i < 0 {
				return nil, 0, fmt.Errorf("jpeg: %w: scan runs past the end", errCorrupt)
			}
			q := p + i + 1
			for q < len(in) && in[q] == 0xFF {
				q++
			}
			if q >= len(in) {
				return nil, 0, fmt.Errorf("jpeg: %w: scan runs past the end", errCorrupt)
			}
			if in[q] == 0x00 || mRST0 <= in[q] && in[q] <= mRST7 {
				p = q + 1
				continue
			}
			p += i
			break
		}
		out = append(out, in[start:p]...)
	}
}

func appendSegment(out []byte, m byte, seg []byte) []byte {
	out = append(out, 0xFF, m)
	return append(out, seg...)
}

func insertAt(b []byte, i int, ins []byte) []byte {
	b = append(b, ins...) // grow by len(ins)
	copy(b[i+len(ins):], b[i:len(b)-len(ins)])
	copy(b[i:], ins)
	return b
}

// exifOrientation reads tag 0x0112 from the first IFD of the TIFF structure
// inside an EXIF segment. It returns 0 when there is none or it is malformed.
func exifOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	off := uint64(bo.Uint32(t[4:]))
	if off < 8 || off+2 > uint64(len(t)) {
		return 0
	}
	count := uint64(bo.Uint16(t[off:]))
	for i := range count {
		e := off + 2 + 12*i
		if e+12 > uint64(len(t)) {
			return 0
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		const short = 3
		if bo.Uint16(t[e+2:]) != short || bo.Uint32(t[e+4:]) != 1 {
			return 0
		}
		if v := int(bo.Uint16(t[e+8:])); 1 <= v && v <= 8 {
			return v
		}
		return 0
	}
	return 0
}

// orientationEXIF is a whole APP1 segment holding an EXIF block with one
// tag, Orientation, and nothing else: no GPS, no camera, no time.
func orientationEXIF(orient int) []byte {
	tiff := []byte{
		'M', 'M', 0, 42, 0, 0, 0, 8, // big-endian TIFF, first IFD at 8
		0, 1, // one entry
		0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, byte(orient), 0, 0, // Orientation, SHORT, 1 value
		0, 0, 0, 0, // no next IFD
	}
	n := 2 + len(exifID) + len(tiff)
	seg := []byte{0xFF, mAPP1, byte(n >> 8), byte(n)}
	seg = append(seg, exifID...)
	return append(seg, tiff...)
}
