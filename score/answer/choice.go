package answer

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// ParseChoice extracts a multiple-choice letter A..maxOption ('D' for GPQA,
// 'J' for MMLU-Pro) from a decoded output the way v's parse_multiple_choice
// does, returning the upper-cased letter and whether one was found.
//
// GPTOSS tries, in order: a letter opening the final section, "Answer: X" in
// the final section, the last "ANSWER/FINAL ANSWER X" in the whole text and,
// for 'J', the last standalone letter of the final section. DeepSeekR1 tries
// only the last two, on the whole text. The result is a string because
// Python's upper() keeps U+0130 (İ) as itself, which then grades wrong.
func ParseChoice(text string, maxOption byte, v Variant) (string, bool) {
	text = pystr.Strip(text)
	if text == "" {
		return "", false
	}
	if v == DeepSeekR1 {
		body := []rune(unescape(cleanBrackets(text)))
		if l, ok := lastAnswerPhrase(body, maxOption); ok {
			return l, true
		}
		if maxOption == 'J' {
			return lastStandaloneLetter(body, 'J')
		}
		return "", false
	}
	final := unescape(cleanBrackets(StripMarkdownBold(ExtractFinalSection(text))))
	if l, ok := leadingLetter([]rune(pystr.Strip(final)), maxOption); ok {
		return l, true
	}
	fr := []rune(final)
	if l, ok := answerColon(fr, maxOption); ok {
		return l, true
	}
	if l, ok := lastAnswerPhrase([]rune(unescape(text)), maxOption); ok {
		return l, true
	}
	if maxOption == 'J' {
		return lastStandaloneLetter(fr, maxOption)
	}
	return "", false
}

// EvaluateChoice is evaluate_multiple_choice: both non-empty, upper-cased,
// the answer one of valid and equal to the ground truth.
func EvaluateChoice(parsed, groundTruth, valid string) bool {
	if parsed == "" || groundTruth == "" {
		return false
	}
	p := strings.ToUpper(parsed)
	return strings.Contains(valid, p) && p == strings.ToUpper(groundTruth)
}

// cleanBrackets drops a "['...']" or '["..."]' wrapper (a stringified Python
// list) and strips what is inside; Python slices [2:-2], so "[']" becomes "".
func cleanBrackets(s string) string {
	if (strings.HasPrefix(s, "['") || strings.HasPrefix(s, `["`)) &&
		(strings.HasSuffix(s, "']") || strings.HasSuffix(s, `"]`)) {
		if len(s) < 4 {
			return ""
		}
		return pystr.Strip(s[2 : len(s)-2])
	}
	return s
}

// unescape turns the two-character sequences \n and \' into a newline and a
// quote, as the reference's two str.replace calls on raw strings do.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, `\n`, "\n"), `\'`, "'")
}

// leadingLetter is re.match(r'^[^a-zA-Z]*([A-X])(?:[^a-zA-Z]|$)', s, re.I):
// the first Latin letter of s, when it is an option and no letter follows it.
func leadingLetter(s []rune, maxOption byte) (string, bool) {
	for i, r := range s {
		if !isLatinLetterI(r) {
			continue
		}
		if inOptionRange(r, maxOption) && (i+1 == len(s) || !isLatinLetterI(s[i+1])) {
			return pyUpperOption(r), true
		}
		return "", false
	}
	return "", false
}

// answerColon is the first match of
// re.search(r'\b(?:Answer|ANSWER)\s*[:.]?\s*([A-X])\b', s, re.I).
func answerColon(s []rune, maxOption byte) (string, bool) {
	for i := range s {
		if !foldEq(s[i], 'a') || !wordBoundary(s, i) || !matchFoldAt(s, i, "answer") {
			continue
		}
		j := skipSpace(s, i+6)
		if j < len(s) && (s[j] == ':' || s[j] == '.') {
			j++
		}
		j = skipSpace(s, j)
		if j < len(s) && inOptionRange(s[j], maxOption) && wordBoundary(s, j+1) {
			return pyUpperOption(s[j]), true
		}
	}
	return "", false
}

// lastStandaloneLetter is the last match of re.finditer(r"\b([A-X])\b", s, re.I).
func lastStandaloneLetter(s []rune, maxOption byte) (string, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if inOptionRange(s[i], maxOption) && wordBoundary(s, i) && wordBoundary(s, i+1) {
			return pyUpperOption(s[i]), true
		}
	}
	return "", false
}
