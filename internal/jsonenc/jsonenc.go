// Package jsonenc appends Go strings to byte slices as JSON string
// literals, without reflection or intermediate allocations, in the two
// escaping flavours the harness needs:
//
//   - AppendString writes exactly what encoding/json.Marshal writes for a
//     string (HTML escaping on), so hand-assembled request bodies stay
//     byte-identical to openai-go's marshalling;
//   - AppendMinimal escapes only what JSON requires, as an inference server
//     writing UTF-8 JSON does (the fake endpoint's responses);
//   - AppendShort escapes the same but spells \b and \f short, as msgspec
//     (mlcommons/endpoints' request encoder) and Python's
//     json.dumps(ensure_ascii=False) do.
//
// Both replace each invalid UTF-8 byte with U+FFFD (as encoding/json does),
// so the output is always valid JSON. Runs of ASCII bytes that need no
// escaping, such as a base64 image data URL, are skipped eight bytes at a
// time.
package jsonenc

import "unicode/utf8"

const lowerHex = "0123456789abcdef"

// safe[html][c] reports whether ASCII byte c is copied unescaped.
var safe = func() (t [2][utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[0][c] = c != '"' && c != '\\'
		t[1][c] = t[0][c] && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendString appends s as a JSON string literal, quotes included,
// byte-identical to encoding/json.Marshal(s) with its default HTML
// escaping: \" \\ \b \f \n \r \t; other control characters and < > & as
// \u00xx; U+2028 and U+2029 as \u2028 and \u2029; each invalid UTF-8 byte
// as \ufffd; everything else, other UTF-8 included, copied.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, true, true)
	return append(dst, '"')
}

// AppendMinimal appends s as a JSON string literal, quotes included,
// escaping only what JSON requires: \" \\ \n \r \t; other control
// characters, \b and \f included, as \u00xx; each invalid UTF-8 byte as
// \ufffd; everything else, < > & and U+2028/U+2029 included, copied. This is
// what Python's json.dumps(ensure_ascii=False) and pydantic's
// model_dump_json (what vLLM replies with) write, except that they spell
// \b and \f short; both forms decode the same.
func AppendMinimal(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, false, false)
	return append(dst, '"')
}

// AppendMinimalBody is AppendMinimal without the quotes, for pieces of a
// string literal written separately (streamed text deltas).
func AppendMinimalBody(dst []byte, s string) []byte {
	return appendEscaped(dst, s, false, false)
}

// AppendShort appends s as a JSON string literal, quotes included, as
// msgspec.json.encode and Python's json.dumps(ensure_ascii=False) write it:
// \" \\ \b \f \n \r \t; other control characters as \u00xx; each invalid
// UTF-8 byte as \ufffd; everything else, DEL, < > & and U+2028/U+2029
// included, copied.
func AppendShort(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, false, true)
	return append(dst, '"')
}

// AppendShortBody is AppendShort without the quotes, for pieces of a string
// literal written separately.
func AppendShortBody(dst []byte, s string) []byte {
	return appendEscaped(dst, s, false, true)
}

// appendEscaped appends s escaped, without quotes; html selects
// AppendString's rules, otherwise AppendMinimal's, or with shortBF
// AppendShort's (\b and \f written short; html implies it).
func appendEscaped(dst []byte, s string, html, shortBF bool) []byte {
	tab := &safe[0]
	if html {
		tab = &safe[1]
	}
	start, i := 0, 0
	for i < len(s) {
		if i+8 <= len(s) && !special(load8(s, i), html) {
			i += 8
			continue
		}
		// Something in these eight bytes needs a look: go byte by byte to
		// their end before trying a word again; each non-ASCII rune moves
		// the end to eight bytes past it, as more tend to follow.
		for end := min(i+8, len(s)); i < end; {
			c := s[i]
			if c < utf8.RuneSelf {
				if tab[c] {
					i++
					continue
				}
				dst = append(dst, s[start:i]...)
				switch c {
				case '\\', '"':
					dst = append(dst, '\\', c)
				case '\n':
					dst = append(dst, '\\', 'n')
				case '\r':
					dst = append(dst, '\\', 'r')
				case '\t':
					dst = append(dst, '\\', 't')
				case '\b', '\f':
					if !shortBF { // the minimal flavour writes \u0008 and \u000c
						dst = append(dst, '\\', 'u', '0', '0', '0', lowerHex[c])
						break
					}
					e := byte('b')
					if c == '\f' {
						e = 'f'
					}
					dst = append(dst, '\\', e)
				default:
					dst = append(dst, '\\', 'u', '0', '0', lowerHex[c>>4], lowerHex[c&0xf])
				}
				i++
				start = i
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, `\ufffd`...)
				i++
				start = i
				continue
			}
			if html && (r == '\u2028' || r == '\u2029') {
				dst = append(dst, s[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', lowerHex[r&0xf])
				i += size
				start = i
				continue
			}
			i += size
			end = min(i+8, len(s))
		}
	}
	return append(dst, s[start:]...)
}

// load8 returns s[i:i+8] as a little-endian word (the compiler merges the
// byte loads into one).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// special reports whether any byte of x is not ASCII, below 0x20, '"' or
// '\\', or with html also '<', '>' or '&'. It uses the bit tricks from "Bit
// Twiddling Hacks": once no byte has its top bit set (else x itself sets
// one), a byte of v is zero exactly when v-ones borrows into its top bit,
// and below n when v-n*ones does; a borrow can mark a byte above a real hit
// but never makes a hit out of nothing, so the answer is exact.
func special(x uint64, html bool) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	m := x | (x - ones*0x20) | ((x ^ (ones * '"')) - ones) | ((x ^ (ones * '\\')) - ones)
	if html {
		m |= ((x ^ (ones * '<')) - ones) | ((x ^ (ones * '>')) - ones) | ((x ^ (ones * '&')) - ones)
	}
	return m&highs != 0
}
