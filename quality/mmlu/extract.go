package mmlu

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// How says which rule of Extract read an answer's letter.
type How string

// The rules of Extract, in the order they are tried.
const (
	// HowLead: the answer starts with the letter.
	HowLead How = "lead"
	// HowAnswerIs: "answer is" followed by the letter.
	HowAnswerIs How = "answer is"
	// HowAnswerColon: "Answer:" followed by the letter.
	HowAnswerColon How = "answer:"
	// HowNone: no rule found a letter; the answer is unparseable and
	// counts as wrong.
	HowNone How = ""
)

// thinkEnd closes a reasoning model's thoughts; only what follows the last
// one is read.
const thinkEnd = "</think>"

// Extract reads the letter (A to D) an answer chooses; it returns 0 and
// HowNone when it finds none (the answer is unparseable: wrong). Exactly:
//
//  1. If the answer holds "</think>", only the text after its last
//     occurrence is read (a reasoning model's thoughts are not its answer).
//  2. Lead: skip leading white space and markup (* _ ` " ' ( [ { # >),
//     then an optional "Answer" (any case) with an optional colon, then
//     white space and markup again. If an upper-case A, B, C or D follows
//     standing alone (after it comes the end, or a rune that is neither a
//     letter nor a digit, and not white space before a lower-case letter),
//     that is the letter: "B", " B. 4", "(C)", "**D**", "Answer: A",
//     "A, because…", "B\nBecause…" read; "All of them", "Based on…" and
//     "A triangle has…" do not.
//  3. "answer is": the first case-insensitive "answer is" followed (after
//     white space, a colon and markup) by such a lone upper-case letter:
//     "…so the answer is (B)." In the spirit of MMLU-Pro's first regex,
//     `answer is \(?([A-J])\)?`, with the bound added.
//  4. "answer:": likewise, the last case-insensitive "answer:" followed by
//     a lone letter, as MMLU-Pro's second regex `.*[aA]nswer:\s*([A-J])`
//     takes the last one.
//
// Lower-case letters never count ("a" is a word); neither does a letter
// inside a word. This is stricter than lm-evaluation-harness's generative
// MMLU (whose exact match ignores case and punctuation but wants the first
// line to be the letter alone) where a model rambles, and more lenient
// where it writes "B. 4" or "The answer is B".
func Extract(answer string) (byte, How) {
	if i := strings.LastIndex(answer, thinkEnd); i >= 0 {
		answer = answer[i+len(thinkEnd):]
	}
	s := skipMarkup(answer)
	if rest, ok := cutFoldPrefix(s, "answer"); ok {
		s = skipMarkup(strings.TrimPrefix(skipMarkup(rest), ":"))
	}
	if l, ok := boundedLetter(s); ok {
		return l, HowLead
	}
	lower := asciiLower(answer)
	for from := 0; ; {
		i := strings.Index(lower[from:], "answer is")
		if i < 0 {
			break
		}
		at := from + i + len("answer is")
		if l, ok := boundedLetter(skipMarkup(strings.TrimPrefix(skipMarkup(answer[at:]), ":"))); ok {
			return l, HowAnswerIs
		}
		from = at
	}
	for to := len(lower); ; {
		i := strings.LastIndex(lower[:to], "answer:")
		if i < 0 {
			break
		}
		if l, ok := boundedLetter(skipMarkup(answer[i+len("answer:"):])); ok {
			return l, HowAnswerColon
		}
		to = i
	}
	return 0, HowNone
}

// isMarkup reports the runes skipped around a letter: white space and the
// Markdown and quoting characters models wrap answers in.
func isMarkup(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("*_`\"'([{#>", r)
}

func skipMarkup(s string) string { return strings.TrimLeftFunc(s, isMarkup) }

// boundedLetter reports whether s starts with A, B, C or D standing
// alone: not followed by a letter or digit ("All", "B12"), nor by white
// space and then a lower-case letter, which makes it a word of prose ("A
// triangle has…").
func boundedLetter(s string) (byte, bool) {
	if s == "" || s[0] < 'A' || s[0] > 'D' {
		return 0, false
	}
	rest := s[1:]
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return 0, false
	}
	if after := strings.TrimLeftFunc(rest, unicode.IsSpace); len(after) < len(rest) {
		if r, _ := utf8.DecodeRuneInString(after); unicode.IsLower(r) {
			return 0, false
		}
	}
	return s[0], true
}

// cutFoldPrefix cuts prefix (lower-case ASCII) from s, ignoring ASCII case.
func cutFoldPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || asciiLower(s[:len(prefix)]) != prefix {
		return s, false
	}
	return s[len(prefix):], true
}

// asciiLower lower-cases ASCII letters only, so byte offsets into the
// result are offsets into s (strings.ToLower may change lengths).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
