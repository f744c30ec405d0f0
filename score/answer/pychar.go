package answer

import (
	"unicode"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// pyDigit returns the value of r when re's \d matches it (any Unicode decimal
// digit, category Nd) and -1 otherwise. Nd characters come in runs of ten
// starting at zero, so the value is the offset within the run.
func pyDigit(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	return -1
}

// foldEq reports whether r matches the lower-case ASCII letter c under
// re.IGNORECASE. Python adds three non-ASCII equivalences: U+0130 and U+0131
// for i, U+017F (long s) for s and U+212A (Kelvin sign) for k.
func foldEq(r rune, c byte) bool {
	switch {
	case r < 0x80:
		return r == rune(c) || r == rune(c-'a'+'A')
	case c == 'i':
		return r == 0x130 || r == 0x131
	case c == 's':
		return r == 0x17f
	case c == 'k':
		return r == 0x212a
	}
	return false
}

// isLatinLetterI reports whether [a-zA-Z] (or [A-Za-z]) matches r under
// re.IGNORECASE.
func isLatinLetterI(r rune) bool {
	if r < 0x80 {
		return (r|0x20) >= 'a' && (r|0x20) <= 'z'
	}
	return r == 0x130 || r == 0x131 || r == 0x17f || r == 0x212a
}

// inOptionRange reports whether [A-<maxOption>] matches r under
// re.IGNORECASE.
func inOptionRange(r rune, maxOption byte) bool {
	if r < 0x80 {
		u := r &^ 0x20
		return (r|0x20) >= 'a' && (r|0x20) <= 'z' && u >= 'A' && u <= rune(maxOption)
	}
	return (r == 0x130 || r == 0x131) && maxOption >= 'I'
}

// pyUpperOption is str.upper() of a rune inOptionRange accepted: U+0131
// (dotless i) becomes "I", U+0130 stays itself.
func pyUpperOption(r rune) string {
	if r == 0x131 {
		return "I"
	}
	return string(unicode.ToUpper(r))
}

// matchFoldAt reports whether the runes of s at i spell word (lower-case
// ASCII) under re.IGNORECASE.
func matchFoldAt(s []rune, i int, word string) bool {
	if i+len(word) > len(s) {
		return false
	}
	for k := 0; k < len(word); k++ {
		if !foldEq(s[i+k], word[k]) {
			return false
		}
	}
	return true
}

// skipSpace returns the first index at or after i that is not \s.
func skipSpace(s []rune, i int) int {
	for i < len(s) && pystr.IsSpace(s[i]) {
		i++
	}
	return i
}

// wordBoundary reports whether \b holds at i (between s[i-1] and s[i]).
func wordBoundary(s []rune, i int) bool {
	before := i > 0 && pystr.IsWord(s[i-1])
	after := i < len(s) && pystr.IsWord(s[i])
	return before != after
}
