package answer

// lastAnswerPhrase is the last match of
//
//	re.finditer(r"\b(?:ANSWER|FINAL\s*ANSWER)\b\s*[:=]?\s*(?:\(?\s*([A-X])\s*\)?)(?:\s*$|[^A-Za-z])", s, re.I)
//
// Matches do not overlap: the search resumes where the previous match ended,
// and where a match ends follows the regex's backtracking order (phraseTail).
func lastAnswerPhrase(s []rune, maxOption byte) (string, bool) {
	last, found := "", false
	for pos := 0; pos < len(s); {
		matched := false
		for i := pos; i < len(s); i++ {
			letter, end, ok := answerPhraseAt(s, i, maxOption)
			if ok {
				last, found, matched = letter, true, true
				pos = end
				break
			}
		}
		if !matched {
			break
		}
	}
	return last, found
}

// answerPhraseAt tries the pattern of lastAnswerPhrase at i and returns the
// letter and where the match ends.
func answerPhraseAt(s []rune, i int, maxOption byte) (string, int, bool) {
	if !(foldEq(s[i], 'a') || foldEq(s[i], 'f')) || !wordBoundary(s, i) {
		return "", 0, false
	}
	var k int
	switch {
	case matchFoldAt(s, i, "answer"):
		k = i + 6
	case matchFoldAt(s, i, "final"):
		k = skipSpace(s, i+5)
		if !matchFoldAt(s, k, "answer") {
			return "", 0, false
		}
		k += 6
	default:
		return "", 0, false
	}
	if !wordBoundary(s, k) {
		return "", 0, false
	}
	j := skipSpace(s, k)
	if j < len(s) && (s[j] == ':' || s[j] == '=') {
		j++
	}
	j = skipSpace(s, j)
	if j < len(s) && s[j] == '(' {
		j++
	}
	j = skipSpace(s, j)
	if j >= len(s) || !inOptionRange(s[j], maxOption) {
		return "", 0, false
	}
	end, ok := phraseTail(s, j+1)
	if !ok {
		return "", 0, false
	}
	return pyUpperOption(s[j]), end, true
}

// phraseTail matches \s*\)?(?:\s*$|[^A-Za-z]) at j in the regex's order: the
// greedy \s* gives back one character at a time, \)? is tried present before
// absent, and \s*$ before [^A-Za-z]. It returns where the match ends.
func phraseTail(s []rune, j int) (int, bool) {
	for w := skipSpace(s, j); w >= j; w-- {
		cands := [2]int{-1, w}
		if w < len(s) && s[w] == ')' {
			cands[0] = w + 1
		}
		for _, q := range cands {
			if q < 0 {
				continue
			}
			if skipSpace(s, q) == len(s) {
				return len(s), true
			}
			if q < len(s) && !isLatinLetterI(s[q]) {
				return q + 1, true
			}
		}
	}
	return 0, false
}
