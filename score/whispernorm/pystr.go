package whispernorm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python's str and re semantics the normalizer leans on. Its patterns are
// str patterns, so \b, \s and \d are Unicode-aware in Python: a word
// character is any str.isalnum() character or "_", whitespace is what
// str.isspace() accepts (which includes \v and \x1c-\x1f, unlike Go's \s),
// a digit any decimal digit (Nd). Go's regexp has ASCII \b, \s and \d, so
// the patterns that use them are scanned by hand below; those made only of
// literals and explicit ASCII classes stay regular expressions.

// isWord is Python's re word character for str patterns: str.isalnum()
// (letters L*, numbers Nd/Nl/No) or the underscore.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// isSpace is str.isspace(): the ASCII whitespace \t\n\v\f\r, the
// information separators \x1c-\x1f, the space, and the Unicode spaces
// (bidirectional class WS, B or S, or category Zs).
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ',
		0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// wordBefore reports whether the character ending at byte i of s is a word
// character (false at the start).
func wordBefore(s string, i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWord(r)
}

// wordAt reports whether the character starting at byte i of s is a word
// character (false at the end).
func wordAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWord(r)
}

// boundary is Python's \b at byte i of s.
func boundary(s string, i int) bool { return wordBefore(s, i) != wordAt(s, i) }

// spaceRun returns the end of the run of whitespace starting at byte i
// (i itself when there is none).
func spaceRun(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isSpace(r) {
			break
		}
		i += n
	}
	return i
}

// collapseSpaces is re.sub(r"\s+", " ", s).
func collapseSpaces(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if e := spaceRun(s, i); e > i {
			b.WriteByte(' ')
			i = e
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// split is str.split() without arguments: the words between runs of
// whitespace, none empty.
func split(s string) []string { return strings.FieldsFunc(s, isSpace) }

// strip is str.strip() without arguments.
func strip(s string) string { return strings.TrimFunc(s, isSpace) }

// lower is str.lower(): Unicode's full lowercase mapping, where "İ"
// becomes "i" and a combining dot above, and a capital sigma at the end of
// a word becomes the final "ς" (CPython's handle_capital_sigma), the rest
// rune by rune.
func lower(s string) string {
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

// digitValue is the value of a decimal digit (Nd): Unicode keeps each
// script's digits as runs of ten from zero, so the offset in its range of
// the Nd table is the value. ok is false for any other rune.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r < utf8.RuneSelf || !unicode.IsDigit(r) {
		return 0, false
	}
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	return 0, false
}
