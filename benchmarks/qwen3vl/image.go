package qwen3vl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"
)

// imageFormat is an image format as Pillow names it (Image.format). The
// reference writes that name, unchanged, into the data URL
// ("data:image/JPEG;base64,..."), so the names keep Pillow's capitals.
type imageFormat uint8

const (
	formatUnknown imageFormat = iota
	formatJPEG
	formatMPO // a JPEG holding several pictures; Pillow calls it MPO
	formatPNG
	formatGIF
	formatBMP
	formatWEBP
	formatTIFF
)

var imageFormatNames = [...]string{
	formatUnknown: "",
	formatJPEG:    "JPEG",
	formatMPO:     "MPO",
	formatPNG:     "PNG",
	formatGIF:     "GIF",
	formatBMP:     "BMP",
	formatWEBP:    "WEBP",
	formatTIFF:    "TIFF",
}

func (f imageFormat) String() string { return imageFormatNames[f] }

// sniffImageFormat names b's format from its leading bytes, with the same
// tests as the _accept functions of Pillow's plugins (BmpImagePlugin,
// GifImagePlugin, JpegImagePlugin, PngImagePlugin, WebPImagePlugin,
// TiffImagePlugin). Formats this package does not know give formatUnknown.
func sniffImageFormat(b []byte) imageFormat {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		if isMPO(b) {
			return formatMPO
		}
		return formatJPEG
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return formatPNG
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return formatGIF
	case bytes.HasPrefix(b, []byte("BM")):
		return formatBMP
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return formatWEBP
	case bytes.HasPrefix(b, []byte("MM\x00\x2a")), bytes.HasPrefix(b, []byte("II\x2a\x00")),
		bytes.HasPrefix(b, []byte("MM\x00\x2b")), bytes.HasPrefix(b, []byte("II\x2b\x00")):
		return formatTIFF
	}
	return formatUnknown
}

// checkImage returns b's format after checking that its header decodes
// (image.DecodeConfig-style, no pixels). A valid header using a feature
// Go's decoders do not implement (arithmetic-coded JPEG, 16-bit BMP...) is
// accepted: the image is sent as its original bytes and never decoded here,
// so only a header that is malformed is an error. Truncated pixel data is
// not detected.
func checkImage(b []byte) (imageFormat, error) {
	f := sniffImageFormat(b)
	var (
		cfg image.Config
		err error
	)
	r := bytes.NewReader(b)
	switch f {
	case formatUnknown:
		n := min(len(b), 8)
		return f, fmt.Errorf("unrecognised image format (first bytes % x); want JPEG, PNG, GIF, BMP, WEBP or TIFF", b[:n])
	case formatJPEG, formatMPO:
		cfg, err = jpeg.DecodeConfig(r)
	case formatPNG:
		cfg, err = png.DecodeConfig(r)
	case formatGIF:
		cfg, err = gif.DecodeConfig(r)
	case formatBMP:
		cfg, err = bmp.DecodeConfig(r)
	case formatWEBP:
		cfg, err = webp.DecodeConfig(r)
	case formatTIFF:
		cfg, err = tiff.DecodeConfig(r)
	}
	if err != nil {
		if isUnsupportedImage(err) {
			return f, nil
		}
		return f, fmt.Errorf("bad %s image header: %w", f, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return f, fmt.Errorf("bad %s image header: size %dx%d", f, cfg.Width, cfg.Height)
	}
	return f, nil
}

func isUnsupportedImage(err error) bool {
	var (
		je jpeg.UnsupportedError
		pe png.UnsupportedError
		te tiff.UnsupportedError
	)
	return errors.As(err, &je) || errors.As(err, &pe) || errors.As(err, &te) || errors.Is(err, bmp.ErrUnsupported)
}

// isMPO reports whether the JPEG b is what Pillow opens as an MPO
// (JpegImagePlugin.jpeg_factory): its last APP2 "MPF\0" segment holds a
// readable MP index whose NumberOfImages tag (0xB001) is above 1, and no APP1
// segment marks it as an Ultra HDR image (b` hdrgm:Version="`). A missing or
// unreadable MP index leaves it a JPEG, as in Pillow.
func isMPO(b []byte) bool {
	var mp []byte
	hdr := false
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xFF {
			return false
		}
		marker := b[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) {
			i += 2
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			break
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			break
		}
		seg := b[i+4 : i+2+n]
		switch {
		case marker == 0xE2 && bytes.HasPrefix(seg, []byte("MPF\x00")):
			mp = seg[4:]
		case marker == 0xE1 && bytes.Contains(seg, []byte(` hdrgm:Version="`)):
			hdr = true
		}
		i += 2 + n
	}
	if mp == nil || hdr {
		return false
	}
	n, ok := mpNumberOfImages(mp)
	return ok && n > 1
}

// mpNumberOfImages reads tag 0xB001 from the TIFF-structured MP index.
func mpNumberOfImages(mp []byte) (uint32, bool) {
	if len(mp) < 8 {
		return 0, false
	}
	var order binary.ByteOrder
	switch string(mp[:4]) {
	case "MM\x00\x2a":
		order = binary.BigEndian
	case "II\x2a\x00":
		order = binary.LittleEndian
	default:
		return 0, false
	}
	off := int64(order.Uint32(mp[4:]))
	if off+2 > int64(len(mp)) {
		return 0, false
	}
	count := int64(order.Uint16(mp[off:]))
	for k := int64(0); k < count; k++ {
		e := off + 2 + 12*k
		if e+12 > int64(len(mp)) {
			return 0, false
		}
		if order.Uint16(mp[e:]) != 0xB001 {
			continue
		}
		switch order.Uint16(mp[e+2:]) { // field type
		case 4: // LONG
			return order.Uint32(mp[e+8:]), true
		case 3: // SHORT
			return uint32(order.Uint16(mp[e+8:])), true
		}
		return 0, false
	}
	return 0, false
}
