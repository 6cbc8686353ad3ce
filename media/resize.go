package media

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"runtime"
	"strconv"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// Widths of the smaller copies Save keeps next to an original: an avatar
// size (a 40 px avatar on a 2× screen), a thumbnail for cards and narrow
// screens, a feed size (the feed's 680 px column on a 1× screen) and a
// display size for the image viewer and dense screens. Clients choose
// between them and the original with srcset, so each screen loads the
// smallest copy that fills its slot. Images stored before a width existed
// have no copy at it: their srcset lists the copies they have, and the
// browser picks the next larger one (no backfill is needed).
const (
	AvatarWidth  = 96
	ThumbWidth   = 320
	FeedWidth    = 720
	DisplayWidth = 1280
)

// variantWidths are the widths made, ascending; validKey accepts only these.
var variantWidths = [...]int{AvatarWidth, ThumbWidth, FeedWidth, DisplayWidth}

// jpegQuality is what variants are encoded at: indistinguishable from the
// original at the sizes they are shown, about a tenth of a phone photo's
// bytes at 1280 px.
const jpegQuality = 82

// Variant is a smaller copy of a stored image.
type Variant struct {
	Key         string `json:"key"`
	URL         string `json:"url"`
	ContentType string `json:"contentType"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Size        int64  `json:"size"`
}

// variantKey names the copy of key's image at width w, stored with extension
// ext (which may differ from the original's: a WebP's copies are JPEG or PNG,
// as Go has no WebP encoder). Keeping the original's random part makes a key's
// variants findable from the key alone, which Delete relies on.
func variantKey(key string, w int, ext string) string {
	return key[:keyHex] + "-" + strconv.Itoa(w) + "." + ext
}

// variantExts are the extensions a variant may be stored with.
var variantExts = [...]string{"jpg", "png"}

// decodeSlots bounds how many uploads are decoded and resized at once. A
// decoded image may take up to MaxPixels×4 bytes, and resizing is all CPU:
// more at once than there are cores only adds memory, not speed.
var decodeSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// encoded is a variant made in memory, not yet stored.
type encoded struct {
	width, height int
	ext           string
	data          []byte
}

// makeVariants decodes the cleaned image and makes its smaller copies, in
// ascending width. It makes none for an image not wider than AvatarWidth
// (nothing is ever scaled up), for an animated GIF (a copy would be a still
// of its first frame; the original is served instead), and skips a copy that
// would not be smaller in bytes than the original. orient is the JPEG's EXIF
// orientation, which the copies carry in their pixels since they have no
// EXIF. A file the decoder refuses gives an error; Save then keeps the
// original alone, as it did before variants existed. cfg is the header's
// size, before orientation.
func makeVariants(ctx context.Context, f *format, clean []byte, orient int, cfg image.Config) ([]encoded, error) {
	shown := cfg.Width
	if orient >= 5 {
		shown = cfg.Height
	}
	if shown <= variantWidths[0] || f.ext == "gif" && gifFrames(clean) > 1 {
		return nil, nil // nothing to make: no need to decode
	}
	select {
	case decodeSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-decodeSlots }()

	src, err := decodeFormat(f, clean)
	if err != nil {
		return nil, fmt.Errorf("media: decode for variants: %w", err)
	}
	b := src.Bounds()
	if b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		// A GIF whose one frame covers part of its screen: scaling the
		// frame would change the picture; the original is served.
		return nil, nil
	}
	w, h := b.Dx(), b.Dy()
	if orient >= 5 {
		w, h = h, w
	}
	ext := "png"
	if f.ext == "jpg" || opaque(src) {
		ext = "jpg"
	}
	// Largest first, each copy scaled from the one before: a thumbnail
	// from the 1280 px copy costs a fraction of one from the original.
	from := prescale(src, w)
	var out []encoded
	for i := len(variantWidths) - 1; i >= 0; i-- {
		vw := variantWidths[i]
		if vw >= w {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		vh := max(1, (h*vw+w/2)/w)
		scaled := scale(from, orient, vw, vh)
		from = scaled
		data, err := encode(orientate(scaled, orient), ext)
		if err != nil {
			return nil, err
		}
		if len(data) >= len(clean) {
			continue // the original is as cheap to send and sharper
		}
		out = append([]encoded{{width: vw, height: vh, ext: ext, data: data}}, out...)
	}
	return out, nil
}

// decodeFormat decodes data of format f with that format's own decoder.
func decodeFormat(f *format, data []byte) (image.Image, error) {
	r := bytes.NewReader(data)
	switch f.ext {
	case "jpg":
		return jpeg.Decode(r)
	case "png":
		return png.Decode(r)
	case "gif":
		return gif.Decode(r)
	case "webp":
		return webp.Decode(r)
	}
	return nil, fmt.Errorf("media: no decoder for %s", f.ext)
}

// prescaleWidth is the width prescale brings a large image down to: twice
// the largest copy, so the Catmull-Rom pass after it still sees every detail
// its copy can show.
const prescaleWidth = 2 * DisplayWidth

// prescale shrinks an image much wider than the largest copy with the cheap
// bilinear approximation. Catmull-Rom's cost grows with the source's pixels
// times a kernel that widens with the reduction: on a 12 MP photo it took
// 1.3 s for both copies against 0.05 s for ApproxBiLinear (2 shared cores,
// BenchmarkMakeVariants). Bilinear alone aliases at large reductions; at
// the at most ~5× of this step, followed by Catmull-Rom's 2×, it does not
// show.
// shown is the image's width as displayed (after the EXIF turn).
func prescale(src image.Image, shown int) image.Image {
	b := src.Bounds()
	if shown <= prescaleWidth {
		return src
	}
	w, h := b.Dx()*prescaleWidth/shown, b.Dy()*prescaleWidth/shown
	dst := image.NewRGBA(image.Rect(0, 0, max(1, w), max(1, h)))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst
}

// scale scales src with Catmull-Rom to what is w×h once turned by the EXIF
// orientation orient, leaving the turn to orientate: the copies are chained
// unturned, and the turn moves the few pixels of a copy rather than the
// original's millions. Catmull-Rom gives a sharp downscale without the moiré
// of bilinear sampling at the 10× reduction of a phone photo to a thumbnail.
func scale(src image.Image, orient, w, h int) *image.RGBA {
	if orient >= 5 {
		w, h = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

// orientate applies EXIF orientation o to m (1 or unknown: none): the pixel at (x, y) of the
// result is taken from where the orientation says the stored image has it.
func orientate(m *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return m
	}
	sw, sh := m.Bounds().Dx(), m.Bounds().Dy()
	w, h := sw, sh
	if o >= 5 {
		w, h = sh, sw
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			var sx, sy int
			switch o {
			case 2: // mirrored horizontally
				sx, sy = sw-1-x, y
			case 3: // turned 180°
				sx, sy = sw-1-x, sh-1-y
			case 4: // mirrored vertically
				sx, sy = x, sh-1-y
			case 5: // mirrored along the main diagonal
				sx, sy = y, x
			case 6: // stored turned 90° anticlockwise: turn it clockwise
				sx, sy = y, sh-1-x
			case 7: // mirrored along the anti-diagonal
				sx, sy = sw-1-y, sh-1-x
			case 8: // stored turned 90° clockwise: turn it back
				sx, sy = sw-1-y, x
			}
			i, j := out.PixOffset(x, y), m.PixOffset(sx, sy)
			copy(out.Pix[i:i+4], m.Pix[j:j+4])
		}
	}
	return out
}

// opaque reports whether every pixel of m is opaque, so a copy may be a JPEG.
func opaque(m image.Image) bool {
	if o, ok := m.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := m.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := m.At(x, y).RGBA(); a != 0xffff {
				return false
			}
		}
	}
	return true
}

// encode writes m as a JPEG or a PNG.
func encode(m image.Image, ext string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if ext == "jpg" {
		err = jpeg.Encode(&buf, m, &jpeg.Options{Quality: jpegQuality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, m)
	}
	if err != nil {
		return nil, fmt.Errorf("media: encode %s variant: %w", ext, err)
	}
	return buf.Bytes(), nil
}

// gifFrames counts the frames of a GIF that stripGIF has already checked.
func gifFrames(in []byte) int {
	p := gifHeaderLen
	if in[10]&0x80 != 0 {
		p += gifColorTableLen(in[10])
	}
	screenW := int(in[6]) | int(in[7])<<8
	screenH := int(in[8]) | int(in[9])<<8
	frames := 0
	for p < len(in) {
		switch in[p] {
		case gifImage:
			end, err := gifImageEnd(in, p, screenW, screenH)
			if err != nil {
				return frames
			}
			frames++
			p = end
		case gifExtension:
			end, _, err := gifExtensionBlock(in, p)
			if err != nil {
				return frames
			}
			p = end
		default:
			return frames
		}
	}
	return frames
}
