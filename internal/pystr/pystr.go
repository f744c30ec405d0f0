// Package pystr holds the Python str semantics that ports of reference
// code depend on: what str.isspace(), str.split(), str.strip() and str.lower()
// do with Unicode text, and what a word character is to Python's re (\b
// and \w in str patterns). Go's strings and unicode packages differ on
// each (Go's space set lacks \v and \x1c-\x1f; strings.ToLower has no
// final sigma and lowers "İ" to one rune).
package pystr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsWord is Python's re word character for str patterns: str.isalnum()
// (letters L*, numbers Nd/Nl/No) or the underscore.
func IsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// IsSpace is str.isspace(): the ASCII whitespace \t\n\v\f\r, the
// information separators \x1c-\x1f, the space, and the Unicode spaces
// (bidirectional class WS, B or S, or category Zs).
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ',
		0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Split is str.split() without arguments: the words between runs of
// whitespace, none empty.
func Split(s string) []string { return strings.FieldsFunc(s, IsSpace) }

// Strip is str.strip() without arguments.
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// Lower is str.lower(): Unicode's full lowercase mapping, where "İ"
// becomes "i" and a combining dot above, and a capital sigma at the end of
// a word becomes the final "ς" (CPython's handle_capital_sigma), the rest
// rune by rune.
func Lower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch r {
		case 'İ':
			b.WriteString("i\u0307")
		case 'Σ':
			if finalSigma(s, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// finalSigma is Unicode's Final_Sigma context for the Σ at byte i: a cased
// letter before it and none after it, case-ignorable characters skipped
// both ways.
func finalSigma(s string, i int) bool {
	found := false
	for j := i; j > 0 && !found; {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if !caseIgnorable(r) {
			if !cased(r) {
				return false
			}
			found = true
		}
	}
	if !found {
		return false
	}
	for _, r := range s[i+len("Σ"):] {
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

// cased is Unicode's Cased property: Lu, Ll, Lt, Other_Lowercase,
// Other_Uppercase.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk,
// and the Word_Break classes MidLetter, MidNumLet and Single_Quote (Go has
// no Word_Break table, so those are listed).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xb7, 0x387, 0x55f, 0x5f4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xfe13, 0xfe52, 0xfe55, 0xff07, 0xff0e, 0xff1a:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
