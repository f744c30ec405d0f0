package porter

// rule is one suffix rule: a word ending in suffix, whose stem (the word
// without it) meets cond (nil: always), becomes stem + repl. The suffix "*d"
// stands for a double consonant, which both letters of are removed.
type rule struct {
	suffix, repl string
	cond         func(stem []rune) bool
}

// applyRules is _apply_rule_list: the first rule whose suffix matches
// decides; if its condition fails the word is returned unchanged.
func applyRules(w []rune, rules []rule) []rune {
	for _, r := range rules {
		if r.suffix == "*d" && endsDoubleConsonant(w) {
			stem := w[:len(w)-2]
			if r.cond == nil || r.cond(stem) {
				return with(stem, r.repl)
			}
			return w
		}
		if hasSuffix(w, r.suffix) {
			stem := w[:len(w)-len(r.suffix)]
			if r.cond == nil || r.cond(stem) {
				return with(stem, r.repl)
			}
			return w
		}
	}
	return w
}

var step1aRules = []rule{{"sses", "ss", nil}, {"ies", "i", nil}, {"ss", "ss", nil}, {"s", "", nil}}

// step1a removes plurals; NLTK_EXTENSIONS maps a four-letter "-ies" word to
// "-ie" (ties -> tie, not ti).
func step1a(w []rune) []rune {
	if len(w) == 4 && hasSuffix(w, "ies") {
		return with(w[:1], "ie")
	}
	return applyRules(w, step1aRules)
}

// step1b removes -eed, -ed and -ing and tidies the stem; NLTK_EXTENSIONS
// first maps "-ied" to "-ie" in four-letter words and to "-i" otherwise.
func step1b(w []rune) []rune {
	if hasSuffix(w, "ied") {
		if len(w) == 4 {
			return with(w[:1], "ie")
		}
		return with(w[:len(w)-3], "i")
	}
	if hasSuffix(w, "eed") {
		if stem := w[:len(w)-3]; measure(stem) > 0 {
			return with(stem, "ee")
		}
		return w
	}
	var stem []rune
	switch {
	case hasSuffix(w, "ed") && containsVowel(w[:len(w)-2]):
		stem = w[:len(w)-2]
	case hasSuffix(w, "ing") && containsVowel(w[:len(w)-3]):
		stem = w[:len(w)-3]
	default:
		return w
	}
	last := stem[len(stem)-1]
	return applyRules(stem, []rule{
		{"at", "ate", nil},
		{"bl", "ble", nil},
		{"iz", "ize", nil},
		{"*d", string(last), func([]rune) bool { return last != 'l' && last != 's' && last != 'z' }},
		{"", "e", func(s []rune) bool { return measure(s) == 1 && endsCVC(s) }},
	})
}

// step1c turns a final y into i; NLTK_EXTENSIONS does it only after a
// consonant that is not the whole stem (happy -> happi, enjoy, by).
func step1c(w []rune) []rune {
	return applyRules(w, []rule{{"y", "i", func(s []rune) bool {
		return len(s) > 1 && isConsonant(s, len(s)-1)
	}}})
}

var step2Rules = []rule{
	{"ational", "ate", positiveMeasure},
	{"tional", "tion", positiveMeasure},
	{"enci", "ence", positiveMeasure},
	{"anci", "ance", positiveMeasure},
	{"izer", "ize", positiveMeasure},
	{"bli", "ble", positiveMeasure}, // "abli" -> "able" only in ORIGINAL_ALGORITHM
	{"alli", "al", positiveMeasure},
	{"entli", "ent", positiveMeasure},
	{"eli", "e", positiveMeasure},
	{"ousli", "ous", positiveMeasure},
	{"ization", "ize", positiveMeasure},
	{"ation", "ate", positiveMeasure},
	{"ator", "ate", positiveMeasure},
	{"alism", "al", positiveMeasure},
	{"iveness", "ive", positiveMeasure},
	{"fulness", "ful", positiveMeasure},
	{"ousness", "ous", positiveMeasure},
	{"aliti", "al", positiveMeasure},
	{"iviti", "ive", positiveMeasure},
	{"biliti", "ble", positiveMeasure},
	{"fulli", "ful", positiveMeasure}, // NLTK_EXTENSIONS
}

// step2 maps double suffixes to single ones; NLTK_EXTENSIONS first rewrites
// "-alli" to "-al" and starts over, and its "-logi" rule tests the measure
// of the word without "ogi" rather than without "logi".
func step2(w []rune) []rune {
	if hasSuffix(w, "alli") && positiveMeasure(w[:len(w)-4]) {
		return step2(with(w[:len(w)-4], "al"))
	}
	rules := append(step2Rules[:len(step2Rules):len(step2Rules)],
		rule{"logi", "log", func([]rune) bool { return positiveMeasure(w[:len(w)-3]) }})
	return applyRules(w, rules)
}

var step3Rules = []rule{
	{"icate", "ic", positiveMeasure},
	{"ative", "", positiveMeasure},
	{"alize", "al", positiveMeasure},
	{"iciti", "ic", positiveMeasure},
	{"ical", "ic", positiveMeasure},
	{"ful", "", positiveMeasure},
	{"ness", "", positiveMeasure},
}

func step3(w []rune) []rune { return applyRules(w, step3Rules) }

func measureGT1(s []rune) bool { return measure(s) > 1 }

var step4Rules = []rule{
	{"al", "", measureGT1},
	{"ance", "", measureGT1},
	{"ence", "", measureGT1},
	{"er", "", measureGT1},
	{"ic", "", measureGT1},
	{"able", "", measureGT1},
	{"ible", "", measureGT1},
	{"ant", "", measureGT1},
	{"ement", "", measureGT1},
	{"ment", "", measureGT1},
	{"ent", "", measureGT1},
	{"ion", "", func(s []rune) bool { return measure(s) > 1 && (s[len(s)-1] == 's' || s[len(s)-1] == 't') }},
	{"ou", "", measureGT1},
	{"ism", "", measureGT1},
	{"ate", "", measureGT1},
	{"iti", "", measureGT1},
	{"ous", "", measureGT1},
	{"ive", "", measureGT1},
	{"ize", "", measureGT1},
}

func step4(w []rune) []rune { return applyRules(w, step4Rules) }

// step5a removes a final e when the measure allows.
func step5a(w []rune) []rune {
	if !hasSuffix(w, "e") {
		return w
	}
	stem := w[:len(w)-1]
	if m := measure(stem); m > 1 || (m == 1 && !endsCVC(stem)) {
		return stem
	}
	return w
}

// step5b turns a final "ll" into "l" when the measure of the word without
// its last letter is above 1.
func step5b(w []rune) []rune {
	if hasSuffix(w, "ll") && measure(w[:len(w)-1]) > 1 {
		return w[:len(w)-1]
	}
	return w
}
