// Package pyrepr writes Python's repr() of a str, and of a list of str, as
// CPython's unicode_repr (Objects/unicodeobject.c) writes them, for ports
// of reference code whose output holds them: an f-string or str() of a
// list (qwen3vl's prompt), ast.unparse of a str constant (bfcl's pyast).
package pyrepr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Str returns repr(s): single quotes unless s contains a single quote and
// no double quote; the chosen quote and backslash escaped with a
// backslash; \t, \n, \r as such; other ASCII control characters and DEL as
// \xNN; non-ASCII characters kept when printable and otherwise written
// \xNN, \uNNNN or \UNNNNNNNN (lowercase hex).
//
// "Printable" is Python's str.isprintable: every character except those in
// the Unicode categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (ASCII space
// excepted). Go's unicode.IsPrint has exactly that definition; it uses
// Unicode unicode.Version (15.0.0 in Go 1.26) where CPython 3.12 uses 15.0
// and 3.13 uses 15.1, so only characters assigned in 15.1 can differ.
//
// A Go string may hold bytes that are not UTF-8, which a Python str cannot;
// each such byte b is written as the lone surrogate Python's
// "surrogateescape" error handler would decode it to, \udcNN (NN = b). A
// caller whose strings stand for U+FFFD there converts them first.
func Str(s string) string {
	return string(AppendStr(make([]byte, 0, len(s)+2), s))
}

// StrList returns repr() of a list of str, which is also what an f-string
// or str() writes for it: "[" + ", ".join(repr(x) for x in items) + "]".
// A nil or empty slice gives "[]".
func StrList(items []string) string {
	n := 2
	for _, s := range items {
		n += len(s) + 4
	}
	dst := append(make([]byte, 0, n), '[')
	for i, s := range items {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = AppendStr(dst, s)
	}
	return string(append(dst, ']'))
}

const lowerHex = "0123456789abcdef"

// AppendStr appends Str(s) to dst.
func AppendStr(dst []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	dst = append(dst, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == quote || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\t':
				dst = append(dst, `\t`...)
			case c == '\n':
				dst = append(dst, `\n`...)
			case c == '\r':
				dst = append(dst, `\r`...)
			case c < ' ' || c == 0x7f:
				dst = appendHexEscape(dst, 'x', rune(c), 2)
			default:
				dst = append(dst, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// Not UTF-8: surrogateescape's lone surrogate U+DC00+byte.
			dst = appendHexEscape(dst, 'u', 0xdc00+rune(c), 4)
		case unicode.IsPrint(r):
			dst = append(dst, s[i:i+size]...)
		case r <= 0xff:
			dst = appendHexEscape(dst, 'x', r, 2)
		case r <= 0xffff:
			dst = appendHexEscape(dst, 'u', r, 4)
		default:
			dst = appendHexEscape(dst, 'U', r, 8)
		}
		i += size
	}
	return append(dst, quote)
}

func appendHexEscape(dst []byte, kind byte, r rune, digits int) []byte {
	dst = append(dst, '\\', kind)
	for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
		dst = append(dst, lowerHex[(r>>uint(shift))&0xf])
	}
	return dst
}
