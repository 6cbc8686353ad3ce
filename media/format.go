package media

import (
	"bytes"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"

	"campus/domain"
)

// format is one accepted image type. Its decoder is called directly rather
// than through image.DecodeConfig, so a format some other package registers
// (BMP, TIFF…) is never accepted by accident.
type format struct {
	ext         string
	contentType string
	magic       func([]byte) bool
	config      func(io.Reader) (image.Config, error)
	// strip returns the image without its metadata and the EXIF orientation
	// it kept (1 when there is none).
	strip func([]byte) ([]byte, int, error)
}

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

var formats = [...]format{
	{
		ext: "jpg", contentType: "image/jpeg",
		magic:  func(b []byte) bool { return len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF },
		config: jpeg.DecodeConfig,
		strip:  stripJPEG,
	},
	{
		ext: "png", contentType: "image/png",
		magic:  func(b []byte) bool { return bytes.HasPrefix(b, pngMagic) },
		config: png.DecodeConfig,
		strip:  stripPNG,
	},
	{
		ext: "gif", contentType: "image/gif",
		magic: func(b []byte) bool {
			return bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a"))
		},
		config: gif.DecodeConfig,
		strip:  stripGIF,
	},
	{
		ext: "webp", contentType: "image/webp",
		magic: func(b []byte) bool {
			return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
		},
		config: webp.DecodeConfig,
		strip:  stripWebP,
	},
}

// sniff returns the format b's magic bytes announce, or nil.
func sniff(b []byte) *format {
	for i := range formats {
		if formats[i].magic(b) {
			return &formats[i]
		}
	}
	return nil
}

// byExt returns the format stored with extension ext, or nil.
func byExt(ext string) *format {
	for i := range formats {
		if formats[i].ext == ext {
			return &formats[i]
		}
	}
	return nil
}

// configError turns a header that would not parse into the user's error: a
// real but unusual variant (12-bit or arithmetic-coded JPEG, say) is a type we
// do not take, anything else is a damaged file.
func configError(err error) error {
	var ju jpeg.UnsupportedError
	var pu png.UnsupportedError
	if errors.As(err, &ju) || errors.As(err, &pu) {
		return domain.Unsupported(msgVariant)
	}
	return domain.Invalid(msgCorrupt)
}

// checkSize refuses empty images and ones too big to decode safely.
func checkSize(w, h int) error {
	if w <= 0 || h <= 0 {
		return domain.Invalid(msgCorrupt)
	}
	if w > MaxSide || h > MaxSide || int64(w)*int64(h) > MaxPixels {
		return domain.TooLarge(msgDimensions)
	}
	return nil
}

// errCorrupt marks a file whose structure is broken; Save reports it as
// msgCorrupt.
var errCorrupt = errors.New("corrupt image")
