// Package pystr gives Python 3 str semantics that the reference scorers depend
// on: which characters str.isspace, str.isupper, str.islower and the re
// classes \w and \d accept, and what str.lower and str.strip return.
//
// Character properties come from Go's unicode tables (Unicode 15.0); CPython
// 3.11 uses Unicode 14.0, so characters assigned in 15.0 may differ. The
// golden test compares every code point assigned in both.
package pystr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsSpace reports whether Python's str.isspace (and re's \s, and the
// whitespace str.strip and str.split remove) accepts r. Unlike Go's
// unicode.IsSpace it includes the ASCII separators U+001C..U+001F.
func IsSpace(r rune) bool {
	switch {
	case r < 0x80:
		return r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f)
	case r == 0x85 || r == 0xa0 || r == 0x1680 || r == 0x2028 || r == 0x2029 ||
		r == 0x202f || r == 0x205f || r == 0x3000:
		return true
	default:
		return r >= 0x2000 && r <= 0x200a
	}
}

// IsASCIISpace reports whether r is in Python's string.whitespace
// (" \t\n\r\v\f"), which some nltk code uses instead of str.isspace.
func IsASCIISpace(r rune) bool {
	return r == ' ' || (r >= '\t' && r <= '\r')
}

// IsUpper reports whether the one-character Python string r is isupper():
// the Unicode Uppercase property (category Lu plus Other_Uppercase).
func IsUpper(r rune) bool {
	if r < 0x80 {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}

// IsLower reports whether the one-character Python string r is islower():
// the Unicode Lowercase property (category Ll plus Other_Lowercase).
func IsLower(r rune) bool {
	if r < 0x80 {
		return r >= 'a' && r <= 'z'
	}
	return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
}

// IsWord reports whether re's \w accepts r in a str pattern: str.isalnum()
// (every letter and number category) or "_".
func IsWord(r rune) bool {
	if r < 0x80 {
		return r == '_' || (r >= '0' && r <= '9') || (r|0x20 >= 'a' && r|0x20 <= 'z')
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// IsDigit reports whether re's \d accepts r in a str pattern: a decimal
// digit (category Nd), not only 0-9.
func IsDigit(r rune) bool {
	if r < 0x80 {
		return r >= '0' && r <= '9'
	}
	return unicode.IsDigit(r)
}

// Lower returns Python's s.lower(): the simple lowercase mapping of each
// character, except U+0130 (İ), which becomes "i" + U+0307 as in Unicode's
// SpecialCasing. Python also maps a word-final capital sigma to final sigma
// (ς); Lower always gives σ. Both are non-ASCII, and no caller in this
// module compares a lowered string with non-ASCII data, so no result differs.
func Lower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return asciiLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 0x130 {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// asciiLower lowers an all-ASCII string, returning s itself when it has no
// capital.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Strip returns Python's s.strip(): s without leading and trailing IsSpace
// characters.
func Strip(s string) string {
	return RStrip(LStrip(s))
}

// LStrip returns Python's s.lstrip().
func LStrip(s string) string {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if !IsSpace(r) {
			break
		}
		s = s[n:]
	}
	return s
}

// RStrip returns Python's s.rstrip().
func RStrip(s string) string {
	for len(s) > 0 {
		r, n := utf8.DecodeLastRuneInString(s)
		if !IsSpace(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// Len returns Python's len(s): the number of code points. Each byte of an
// invalid UTF-8 sequence counts as one, as Go's range over a string does.
func Len(s string) int {
	return utf8.RuneCountInString(s)
}
