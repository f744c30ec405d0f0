package tokenizer

import "unicode/utf8"

// AppendLossyUTF8 appends b to dst as valid UTF-8, replacing each maximal ill-formed subpart with
// U+FFFD, and returns the extended slice.
//
// This is the quirk that makes decoded text match byte for byte: the tokenizers library's
// ByteLevel decoder ends with Rust's String::from_utf8_lossy, and tiktoken with Python's
// bytes.decode("utf-8", errors="replace"); both follow the Unicode "substitution of maximal
// subparts" practice. A truncated sequence such as E2 82 followed by "A" is ONE ill-formed subpart
// (one U+FFFD), while Go's utf8.DecodeRune reports each byte on its own and
// strings.ToValidUTF8 merges whole runs (E2 82 FF would be one U+FFFD there, two here).
func AppendLossyUTF8(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			// ASCII runs are the common case: copy them in one go.
			j := i + 1
			for j < len(b) && b[j] < utf8.RuneSelf {
				j++
			}
			dst = append(dst, b[i:j]...)
			i = j
			continue
		}
		if r, n := utf8.DecodeRune(b[i:]); r != utf8.RuneError || n > 1 {
			dst = append(dst, b[i:i+n]...)
			i += n
			continue
		}
		dst = append(dst, "\uFFFD"...)
		i += illFormedSubpart(b[i:])
	}
	return dst
}

// illFormedSubpart returns the length of the maximal ill-formed subpart at the start of b, which
// does not begin with a valid character: the longest prefix that starts a well-formed sequence
// (Unicode Table 3-7), at least one byte.
func illFormedSubpart(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default: // continuation byte, C0, C1, F5..FF: never starts a sequence
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		n++
		lo, hi = 0x80, 0xBF // only the second byte has a narrowed range
	}
	return n
}
