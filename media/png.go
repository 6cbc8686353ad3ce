package media

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// pngKeep lists the ancillary PNG chunks that affect how the image looks or
// animates. Every other ancillary chunk is dropped: the metadata ones (tEXt,
// zTXt, iTXt with XMP, eXIf, tIME) and any private one we cannot vouch for.
// Critical chunks (upper-case first letter) are always kept: a decoder must
// understand them to draw the image at all.
var pngKeep = map[string]bool{
	"tRNS": true, "gAMA": true, "cHRM": true, "sRGB": true, "iCCP": true,
	"sBIT": true, "bKGD": true, "hIST": true, "pHYs": true, "sPLT": true,
	"cICP": true, "mDCV": true, "cLLI": true, "mDCv": true, "cLLi": true, // HDR; the last two are draft names
	"acTL": true, "fcTL": true, "fdAT": true, // APNG
}

// stripPNG copies the PNG chunk by chunk without its metadata chunks. Each
// chunk carries its own CRC, so dropping whole chunks leaves the others
// valid; the CRCs are checked on the way, and everything after IEND is
// dropped.
func stripPNG(in []byte) ([]byte, int, error) {
	if len(in) < len(pngMagic) {
		return nil, 0, fmt.Errorf("png: %w: no signature", errCorrupt)
	}
	out := make([]byte, 0, len(in))
	out = append(out, pngMagic...)
	p := len(pngMagic)
	sawData := false
	for first := true; ; first = false {
		// length, type, data, CRC over type and data
		if len(in)-p < 12 {
			return nil, 0, fmt.Errorf("png: %w: truncated chunk", errCorrupt)
		}
		n := uint64(binary.BigEndian.Uint32(in[p:]))
		if n > 1<<31-1 || n > uint64(len(in)-p-12) {
			return nil, 0, fmt.Errorf("png: %w: chunk overruns the file", errCorrupt)
		}
		end := p + 12 + int(n)
		typ := string(in[p+4 : p+8])
		if crc32.ChecksumIEEE(in[p+4:end-4]) != binary.BigEndian.Uint32(in[end-4:]) {
			return nil, 0, fmt.Errorf("png: %w: bad CRC in %q", errCorrupt, typ)
		}
		if first != (typ == "IHDR") {
			return nil, 0, fmt.Errorf("png: %w: IHDR is not first", errCorrupt)
		}
		if typ[0]&0x20 == 0 || pngKeep[typ] {
			out = append(out, in[p:end]...)
		}
		p = end
		switch typ {
		case "IDAT":
			sawData = true
		case "IEND":
			if !sawData {
				return nil, 0, fmt.Errorf("png: %w: no image data", errCorrupt)
			}
			return out, 1, nil
		}
	}
}
