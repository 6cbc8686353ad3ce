package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

func TestStripPNG(t *testing.T) {
	base := pngBytes(t, 20, 10) // Go's encoder writes only IHDR, IDAT, IEND
	gama := pngChunk("gAMA", []byte{0, 0, 0xB1, 0x8F})
	srgb := pngChunk("sRGB", []byte{0})
	phys := pngChunk("pHYs", []byte{0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1})
	actl := pngChunk("acTL", []byte{0, 0, 0, 1, 0, 0, 0, 0})
	metadata := [][]byte{
		pngChunk("tEXt", []byte("Comment\x00"+secret)),
		pngChunk("zTXt", []byte("Location\x00\x00x\x9c\x0b\xc9\xc8\x2c\x06\x00\x04\x5d\x01\xa5")),
		pngChunk("iTXt", []byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00<x:xmpmeta>"+secret+"</x:xmpmeta>")),
		pngChunk("eXIf", exifTIFF(binary.BigEndian, 6)),
		pngChunk("tIME", []byte{0x07, 0xE9, 1, 2, 3, 4, 5}),
		pngChunk("prVt", []byte(secret)), // private, unknown
	}
	withKept := insertPNGChunks(base, nil, gama, srgb, phys, actl)

	tests := []struct {
		name     string
		in, want []byte
	}{
		{"nothing to strip", base, base},
		{"text chunk", insertPNGChunks(base, nil, metadata[0]), base},
		{"every kind of metadata", insertPNGChunks(base, nil, metadata...), base},
		{"data after IEND", append(bytes.Clone(base), "<script>"+secret...), base},
		{"colour and animation chunks kept", insertPNGChunks(base, nil, append([][]byte{gama, metadata[0], srgb, phys}, append(metadata[1:], actl)...)...), withKept},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			img := save(t, s, tt.in)
			got := stored(t, s, img)
			if !bytes.Equal(got, tt.want) {
				t.Errorf("stored %d bytes, want %d", len(got), len(tt.want))
			}
			for _, leak := range []string{secret, "tEXt", "zTXt", "iTXt", "eXIf", "tIME", "prVt"} {
				if bytes.Contains(got, []byte(leak)) {
					t.Errorf("stored file still contains %q", leak)
				}
			}
			samePixels(t, tt.in, got)
		})
	}
}

func TestStripPNGRefusesBrokenFiles(t *testing.T) {
	base := pngBytes(t, 8, 8)
	iend := base[len(base)-12:]
	idat := base[8+25 : len(base)-12]
	tests := map[string][]byte{
		"no IEND":            base[:len(base)-12],
		"cut in a chunk":     base[:len(base)-14],
		"only the signature": pngMagic,
		"IHDR not first":     bytes.Join([][]byte{pngMagic, pngChunk("gAMA", []byte{0, 0, 0xB1, 0x8F}), base[8:]}, nil),
		"no IDAT":            bytes.Join([][]byte{base[:8+25], iend}, nil),
		"second IHDR":        bytes.Join([][]byte{base[:8+25], base[8 : 8+25], idat, iend}, nil),
		"chunk length huge":  bytes.Join([][]byte{base[:8+25], {0x80, 0, 0, 0}, []byte("IDAT")}, nil),
		"bad CRC in a chunk we drop": bytes.Join([][]byte{base[:8+25], func() []byte {
			c := pngChunk("tEXt", []byte("a\x00b"))
			c[len(c)-1] ^= 1
			return c
		}(), base[8+25:]}, nil),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, err := stripPNG(in); !errors.Is(err, errCorrupt) {
				t.Errorf("err %v, want errCorrupt", err)
			}
		})
	}
}
