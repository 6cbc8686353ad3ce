package media

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// GIF block introducers and extension labels (GIF89a §§ 17–26).
const (
	gifExtension      = 0x21
	gifImage          = 0x2C
	gifTrailer        = 0x3B
	gifPlainText      = 0x01
	gifGraphicControl = 0xF9
	gifComment        = 0xFE
	gifApplication    = 0xFF
)

// gifHeaderLen is the signature and version plus the logical screen
// descriptor.
const gifHeaderLen = 6 + 7

// gifLoopApps are the application extensions that carry an animation's loop
// count: Netscape's, which every decoder reads, and the identical one some
// older tools wrote under their own name.
var gifLoopApps = map[string]bool{"NETSCAPE2.0": true, "ANIMEXTS1.0": true}

// stripGIF walks the GIF's blocks and copies the ones that make up the
// animation, without touching the LZW data, so every frame is bit-for-bit the
// same.
//
// Kept: the header, the logical screen descriptor with its global colour
// table, graphic control extensions (frame delay, disposal, transparency),
// every image with its local colour table and data, and the loop count.
// Dropped: comment extensions, plain text extensions (text drawn over the
// picture, which browsers ignore anyway), every other application extension
// (XMP with GPS, Photoshop and ImageMagick blocks, and ICC profiles too: unlike
// in JPEG, PNG and WebP, next to no GIF has one, and without it the palette
// is read as sRGB, as nearly every GIF means it) and anything after the
// trailer. A loop-count extension is rewritten to hold its loop sub-block
// alone, so nothing else rides along in it.
//
// Structure a decoder would refuse is refused too: a truncated block, an
// unknown introducer, a graphic control extension of the wrong size, an LZW
// code size outside 2–8, a plain text or application extension whose header
// is not where Go's decoder reads it, a frame reaching outside the logical
// screen (which bounds every frame by the screen size Save checks), no frame
// at all, no trailer. The walk is linear in the input: each step moves
// forward by at least one byte and copies whole blocks into an output that
// never outgrows the input.
func stripGIF(in []byte) ([]byte, int, error) {
	if len(in) < gifHeaderLen || !bytes.HasPrefix(in, []byte("GIF87a")) && !bytes.HasPrefix(in, []byte("GIF89a")) {
		return nil, 0, fmt.Errorf("gif: %w: no header", errCorrupt)
	}
	screenW := int(binary.LittleEndian.Uint16(in[6:]))
	screenH := int(binary.LittleEndian.Uint16(in[8:]))
	p := gifHeaderLen
	if flags := in[10]; flags&0x80 != 0 {
		p += gifColorTableLen(flags)
	}
	if p > len(in) {
		return nil, 0, fmt.Errorf("gif: %w: truncated global colour table", errCorrupt)
	}
	out := make([]byte, 0, len(in))
	out = append(out, in[:p]...)
	frames := 0
	for {
		if p >= len(in) {
			return nil, 0, fmt.Errorf("gif: %w: no trailer", errCorrupt)
		}
		switch in[p] {
		case gifTrailer:
			if frames == 0 {
				return nil, 0, fmt.Errorf("gif: %w: no image data", errCorrupt)
			}
			return append(out, gifTrailer), 1, nil
		case gifImage:
			end, err := gifImageEnd(in, p, screenW, screenH)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, in[p:end]...)
			frames++
			p = end
		case gifExtension:
			end, keep, err := gifExtensionBlock(in, p)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, keep...)
			p = end
		default:
			return nil, 0, fmt.Errorf("gif: %w: unknown block %#x at %d", errCorrupt, in[p], p)
		}
	}
}

// gifExtensionBlock reads the extension starting at p (its 0x21) and returns
// where it ends and what of it to keep: nothing, the block as it is, or a
// loop count rebuilt on its own.
func gifExtensionBlock(in []byte, p int) (int, []byte, error) {
	if len(in)-p < 2 {
		return 0, nil, fmt.Errorf("gif: %w: truncated extension", errCorrupt)
	}
	label, body := in[p+1], p+2
	switch label {
	case gifGraphicControl:
		// Exactly one 4-byte sub-block and the terminator; Go's decoder and
		// the spec accept nothing else.
		if len(in)-body < 6 || in[body] != 4 || in[body+5] != 0 {
			return 0, nil, fmt.Errorf("gif: %w: bad graphic control extension at %d", errCorrupt, p)
		}
		return body + 6, in[p : body+6], nil
	case gifPlainText:
		// The 12-byte header is a sub-block by its framing, but Go's decoder
		// reads it as fixed 13 bytes: any other size would make it and the
		// walk below disagree on where the block ends.
		if body >= len(in) || in[body] != 12 {
			return 0, nil, fmt.Errorf("gif: %w: bad plain text extension at %d", errCorrupt, p)
		}
	case gifApplication:
		// Likewise the identifier: Go's decoder reads a zero size as an
		// empty identifier, not as the terminator, and goes on.
		if body >= len(in) || in[body] == 0 {
			return 0, nil, fmt.Errorf("gif: %w: application extension without identifier at %d", errCorrupt, p)
		}
	}
	end, err := gifSubBlocksEnd(in, body)
	if err != nil {
		return 0, nil, err
	}
	if label == gifApplication {
		return end, gifLoopCount(in[p:end]), nil
	}
	return end, nil, nil
}

// gifLoopCount returns ext, a whole application extension already checked by
// gifSubBlocksEnd, reduced to its loop count: the identifier and the loop
// sub-block, which must come first as Go's decoder reads it. It returns nil
// for any other application extension or one without a loop sub-block.
func gifLoopCount(ext []byte) []byte {
	const (
		idLen = 11
		head  = 2 + 1 + idLen // 0x21 0xFF, the identifier's sub-block
		loop  = 4             // length 3, id 1, count (little-endian)
	)
	if len(ext) < head+loop || ext[2] != idLen || !gifLoopApps[string(ext[3:head])] {
		return nil
	}
	if ext[head] != 3 || ext[head+1] != 1 {
		return nil
	}
	keep := make([]byte, 0, head+loop+1)
	keep = append(keep, ext[:head+loop]...)
	return append(keep, 0)
}

// gifImageEnd checks the image descriptor at p (its 0x2C), its local colour
// table and LZW code size, and returns where its data sub-blocks end.
func gifImageEnd(in []byte, p, screenW, screenH int) (int, error) {
	if len(in)-p < 10 {
		return 0, fmt.Errorf("gif: %w: truncated image descriptor", errCorrupt)
	}
	d := in[p+1 : p+10]
	left := int(binary.LittleEndian.Uint16(d[0:]))
	top := int(binary.LittleEndian.Uint16(d[2:]))
	w := int(binary.LittleEndian.Uint16(d[4:]))
	h := int(binary.LittleEndian.Uint16(d[6:]))
	if left+w > screenW || top+h > screenH {
		return 0, fmt.Errorf("gif: %w: frame outside the logical screen", errCorrupt)
	}
	q := p + 10
	if flags := d[8]; flags&0x80 != 0 {
		q += gifColorTableLen(flags)
	}
	if q >= len(in) {
		return 0, fmt.Errorf("gif: %w: truncated image", errCorrupt)
	}
	if lit := in[q]; lit < 2 || lit > 8 {
		return 0, fmt.Errorf("gif: %w: LZW code size %d", errCorrupt, lit)
	}
	return gifSubBlocksEnd(in, q+1)
}

// gifSubBlocksEnd returns the index just past the empty sub-block that ends
// the sequence of sub-blocks starting at p.
func gifSubBlocksEnd(in []byte, p int) (int, error) {
	for {
		if p >= len(in) {
			return 0, fmt.Errorf("gif: %w: truncated sub-blocks", errCorrupt)
		}
		n := int(in[p])
		p += 1 + n
		if n == 0 {
			return p, nil
		}
	}
}

// gifColorTableLen is the size in bytes of the colour table a screen or
// image descriptor's flags announce: 2^(n+1) RGB entries.
func gifColorTableLen(flags byte) int {
	return 3 << (flags&7 + 1)
}
