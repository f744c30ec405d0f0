package qwen3vl

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// PyRepr returns Python's repr() of s, as CPython's unicode_repr writes it
// (Objects/unicodeobject.c): single quotes unless s contains a single quote
// and no double quote; the chosen quote and backslash escaped with a
// backslash; \t, \n, \r as such; other ASCII control characters and DEL as
// \xNN; non-ASCII characters kept when printable and otherwise written \xNN,
// \uNNNN or \UNNNNNNNN (lowercase hex).
//
// "Printable" is Python's str.isprintable: every character except those in
// the Unicode categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (ASCII space
// excepted). Go's unicode.IsPrint has exactly that definition; it uses
// Unicode unicode.Version (15.0.0 in Go 1.26) where CPython 3.12 uses 15.0
// and 3.13 uses 15.1, so only characters assigned in 15.1 can differ.
//
// A Go string may hold bytes that are not UTF-8, which a Python str cannot;
// each such byte b is written as the lone surrogate Python's
// "surrogateescape" error handler would decode it to, \udcNN (NN = b). The
// Q3VL reader rejects non-UTF-8 text at open, so this only matters to other
// callers.
func PyRepr(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	appendPyRepr(&b, s)
	return b.String()
}

// PyReprList returns Python's repr() of a list of str, which is also what an
// f-string writes for it: "[" + ", ".join(repr(x) for x in items) + "]".
// A nil or empty slice gives "[]".
func PyReprList(items []string) string {
	var b strings.Builder
	n := 2
	for _, s := range items {
		n += len(s) + 4
	}
	b.Grow(n)
	appendPyReprList(&b, items)
	return b.String()
}

func appendPyReprList(b *strings.Builder, items []string) {
	b.WriteByte('[')
	for i, s := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		appendPyRepr(b, s)
	}
	b.WriteByte(']')
}

const pyLowerHex = "0123456789abcdef"

func appendPyRepr(b *strings.Builder, s string) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == quote || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < ' ' || c == 0x7f:
				b.WriteString(`\x`)
				b.WriteByte(pyLowerHex[c>>4])
				b.WriteByte(pyLowerHex[c&0xf])
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Not UTF-8: surrogateescape's lone surrogate U+DC00+byte.
			writeHexEscape(b, 'u', 0xdc00+rune(c), 4)
			i++
			continue
		}
		switch {
		case unicode.IsPrint(r):
			b.WriteString(s[i : i+size])
		case r <= 0xff:
			writeHexEscape(b, 'x', r, 2)
		case r <= 0xffff:
			writeHexEscape(b, 'u', r, 4)
		default:
			writeHexEscape(b, 'U', r, 8)
		}
		i += size
	}
	b.WriteByte(quote)
}

func writeHexEscape(b *strings.Builder, kind byte, r rune, digits int) {
	b.WriteByte('\\')
	b.WriteByte(kind)
	for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
		b.WriteByte(pyLowerHex[(r>>uint(shift))&0xf])
	}
}
