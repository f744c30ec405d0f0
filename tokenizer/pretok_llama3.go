package tokenizer

import (
	"unicode"
	"unicode/utf8"
)

// llama3Pattern is Llama 3's pre-tokenizer regex, as llama-models' tokenizer.py and the Hub's
// tokenizer.json (Split, Isolated) spell it.
const llama3Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// llama3PreTokenizer splits text as llama3Pattern does under a backtracking engine (Oniguruma in
// tokenizers, fancy-regex in tiktoken): at each position the first alternative that matches wins.
// Go's regexp has no lookahead for \s+(?!\S), hence this hand-written form. \s is Unicode
// White_Space (unicode.IsSpace), \p{L} and \p{N} are unicode.IsLetter and unicode.IsNumber.
type llama3PreTokenizer struct{}

func (llama3PreTokenizer) split(s string, _ bool) []string {
	var out []string
	for i := 0; i < len(s); {
		n := llama3Match(s[i:])
		out = append(out, s[i:i+n])
		i += n
	}
	return out
}

// llama3Match returns the length of the match at the start of s (never 0 for a non-empty s: every
// character is a letter, a number, white space or none of them, and some alternative takes it).
func llama3Match(s string) int {
	c0, w0 := utf8.DecodeRuneInString(s)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d); case folding makes s match ſ (U+017F) too.
	if c0 == '\'' {
		if n := contraction(s[1:]); n > 0 {
			return 1 + n
		}
	}
	c1, w1 := utf8.DecodeRuneInString(s[w0:])
	hasC1 := w0 < len(s)
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if isL(c0) {
		return w0 + runOf(s[w0:], isL)
	}
	if c0 != '\r' && c0 != '\n' && !isN(c0) && hasC1 && isL(c1) {
		return w0 + w1 + runOf(s[w0+w1:], isL)
	}
	// \p{N}{1,3}
	if isN(c0) {
		n := w0
		for k := 1; k < 3 && n < len(s); k++ {
			r, w := utf8.DecodeRuneInString(s[n:])
			if !isN(r) {
				break
			}
			n += w
		}
		return n
	}
	// ` ?[^\s\p{L}\p{N}]+[\r\n]*`
	if c0 == ' ' && hasC1 && isP(c1) {
		n := w0 + runOf(s[w0:], isP)
		return n + runOf(s[n:], isNewline)
	}
	if isP(c0) {
		n := runOf(s, isP)
		return n + runOf(s[n:], isNewline)
	}
	// c0 is white space from here on. \s*[\r\n]+ ends after the run's last newline.
	run := runOf(s, unicode.IsSpace)
	lastNL := -1
	for i := 0; i < run; {
		r, w := utf8.DecodeRuneInString(s[i:])
		if isNewline(r) {
			lastNL = i + w
		}
		i += w
	}
	if lastNL > 0 {
		return lastNL
	}
	// \s+(?!\S): the whole run at the end of the text, else all but its last character.
	if run == len(s) {
		return run
	}
	_, wl := utf8.DecodeLastRuneInString(s[:run])
	if run-wl > 0 {
		return run - wl
	}
	return run // \s+
}

// contraction matches s|t|re|ve|m|ll|d case-insensitively at the start of s; Unicode case
// folding also lets "s" match ſ (U+017F).
func contraction(s string) int {
	r, w := utf8.DecodeRuneInString(s)
	switch r {
	case 's', 'S', '\u017f', 't', 'T', 'm', 'M', 'd', 'D':
		return w
	}
	if len(s) < 2 {
		return 0
	}
	switch pair := string([]byte{lowerASCII(s[0]), lowerASCII(s[1])}); pair {
	case "re", "ve", "ll":
		return 2
	}
	return 0
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isL(r rune) bool       { return unicode.IsLetter(r) }
func isN(r rune) bool       { return unicode.IsNumber(r) }
func isP(r rune) bool       { return !unicode.IsSpace(r) && !unicode.IsLetter(r) && !unicode.IsNumber(r) }
func isNewline(r rune) bool { return r == '\r' || r == '\n' }

// runOf returns the byte length of the longest prefix of s whose characters satisfy f.
func runOf(s string, f func(rune) bool) int {
	n := 0
	for n < len(s) {
		r, w := utf8.DecodeRuneInString(s[n:])
		if !f(r) {
			break
		}
		n += w
	}
	return n
}
