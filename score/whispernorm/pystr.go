package whispernorm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// Python's re semantics the normalizer leans on. Its patterns are str
// patterns, so \b, \s and \d are Unicode-aware in Python (package pystr
// says how); Go's regexp has ASCII \b, \s and \d, so the patterns that
// use them are scanned by hand (english.go, numbers.go), and those made only
// of literals and explicit ASCII classes stay regular expressions.

var (
	isWord  = pystr.IsWord
	isSpace = pystr.IsSpace
	split   = pystr.Split
	strip   = pystr.Strip
	lower   = pystr.Lower
)

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
