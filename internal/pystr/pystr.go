// Package pystr gives the Python 3 str semantics that ports of reference
// code depend on: which characters str.isspace, str.isupper, str.islower
// and the re classes \w and \d accept, and what str.lower, str.strip and
// str.split return. Go's strings and unicode packages differ on each (Go's
// space set lacks \x1c-\x1f; strings.ToLower has no final sigma and lowers
// "İ" to one rune).
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
// character, except the two special cases CPython applies: U+0130 (İ)
// becomes "i" + U+0307, and a capital sigma that ends a word becomes final
// sigma (ς).
func Lower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return asciiLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch {
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3a3 && finalSigma(s, i):
			b.WriteRune(0x3c2)
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is CPython's handle_capital_sigma: the sigma at byte i follows
// a cased letter and is not followed by one, ignoring case-ignorable
// characters in between.
func finalSigma(s string, i int) bool {
	before := s[:i]
	for before != "" {
		r, n := utf8.DecodeLastRuneInString(before)
		if !caseIgnorable(r) {
			if !cased(r) {
				return false
			}
			break
		}
		before = before[:len(before)-n]
	}
	if before == "" {
		return false
	}
	for _, r := range s[i+utf8.RuneLen(0x3a3):] {
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

// cased is the Unicode Cased property.
func cased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Uppercase, unicode.Other_Lowercase)
}

// caseIgnorable is the Unicode Case_Ignorable property: categories Mn, Me,
// Cf, Lm and Sk, and the Word_Break classes MidLetter, MidNumLet and
// Single_Quote (listed, as Go has no Word_Break table).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xb7, 0x387, 0x55f, 0x5f4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xfe13, 0xfe52, 0xfe55, 0xff07, 0xff0e, 0xff1a:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
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

// Split returns Python's s.split() without arguments: the words between
// runs of IsSpace characters, none empty.
func Split(s string) []string { return strings.FieldsFunc(s, IsSpace) }

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
