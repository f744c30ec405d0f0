package eval

import (
	"strings"
	"unicode"
)

// The reference compares strings with Python's str methods; these helpers
// reproduce them over Unicode code points.

// pyIsSpace is Python's str.isspace for one code point: Go's unicode.IsSpace
// plus U+001C..U+001F (bidirectional class B/S), which Python also strips.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (0x1C <= r && r <= 0x1F)
}

// pyStrip is Python's str.strip() with no argument.
func pyStrip(s string) string {
	return strings.TrimFunc(s, pyIsSpace)
}

// pyLower is Python's str.lower(): the simple lowercase mapping, except for
// U+0130 (İ), whose full mapping is "i̇" (U+0069 U+0307), and for U+03A3 (Σ),
// which becomes final sigma ς in the Final_Sigma context
// (unicodeobject.c handle_capital_sigma).
func pyLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		switch r {
		case 0x130:
			b.WriteString("i\u0307")
		case 0x3A3:
			if finalSigma(rs, i) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma reports whether rs[i] is in the Final_Sigma context:
// \p{cased} \p{case-ignorable}* Σ !( \p{case-ignorable}* \p{cased} ).
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && caseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	j = i + 1
	for j < len(rs) && caseIgnorable(rs[j]) {
		j++
	}
	return j == len(rs) || !cased(rs[j])
}

// cased is the Unicode Cased property: Lowercase, Uppercase or Lt.
func cased(r rune) bool {
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is the Unicode Case_Ignorable property: Mn, Me, Cf, Lm, Sk,
// and Word_Break MidLetter, MidNumLet or Single_Quote.
func caseIgnorable(r rune) bool {
	switch r {
	case 0x27, 0x2E, 0x3A, 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
