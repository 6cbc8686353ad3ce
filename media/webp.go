package media

import (
	"encoding/binary"
	"fmt"
)

// webpKeep lists the RIFF chunks of a WebP that make up the picture. EXIF,
// "XMP " and any unknown chunk are dropped.
var webpKeep = map[string]bool{
	"VP8X": true, "VP8 ": true, "VP8L": true, "ALPH": true,
	"ICCP": true, "ANIM": true, "ANMF": true,
}

// VP8X flag bits announcing metadata chunks; cleared with the chunks.
const (
	vp8xXMP  = 1 << 2
	vp8xEXIF = 1 << 3
)

// stripWebP copies the WebP's RIFF chunks without its metadata ones, clears
// the VP8X flags that announced them and fixes the RIFF size. Bytes after the
// RIFF size are dropped.
func stripWebP(in []byte) ([]byte, int, error) {
	if len(in) < 12 {
		return nil, 0, fmt.Errorf("webp: %w: no header", errCorrupt)
	}
	size := uint64(binary.LittleEndian.Uint32(in[4:]))
	if size < 4 || size > uint64(len(in)-8) {
		return nil, 0, fmt.Errorf("webp: %w: RIFF size overruns the file", errCorrupt)
	}
	in = in[:8+size]
	out := make([]byte, 12, len(in))
	copy(out, in[:12]) // "RIFF", size (fixed below), "WEBP"
	vp8x := -1
	sawImage := false
	for p := 12; p < len(in); {
		if len(in)-p < 8 {
			return nil, 0, fmt.Errorf("webp: %w: truncated chunk", errCorrupt)
		}
		id := string(in[p : p+4])
		n := uint64(binary.LittleEndian.Uint32(in[p+4:]))
		padded := n + n&1 // chunks are padded to an even length
		if padded > uint64(len(in)-p-8) {
			return nil, 0, fmt.Errorf("webp: %w: chunk %q overruns the file", errCorrupt, id)
		}
		end := p + 8 + int(padded)
		switch id {
		case "VP8X":
			if p != 12 || n != 10 {
				return nil, 0, fmt.Errorf("webp: %w: misplaced VP8X", errCorrupt)
			}
			vp8x = len(out)
		case "VP8 ", "VP8L", "ANMF":
			sawImage = true
		}
		if webpKeep[id] {
			out = append(out, in[p:end]...)
		}
		p = end
	}
	if !sawImage {
		return nil, 0, fmt.Errorf("webp: %w: no image data", errCorrupt)
	}
	if vp8x >= 0 {
		out[vp8x+8] &^= vp8xEXIF | vp8xXMP
	}
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out, 1, nil
}
