// Package porter stems English words exactly as nltk's PorterStemmer() does
// in its default mode, NLTK_EXTENSIONS, which is the mode rouge_score uses
// (tokenizers.DefaultTokenizer builds porter.PorterStemmer() with no
// arguments).
//
// NLTK_EXTENSIONS is neither Porter's 1980 algorithm (ORIGINAL_ALGORITHM) nor
// Martin Porter's later reference code (MARTIN_EXTENSIONS): it adds a pool of
// irregular forms (dying -> die, skies -> sky, news -> news, ...), keeps words
// of one or two characters, maps a four-letter "-ies"/"-ied" word to "-ie"
// (ties -> tie), turns "y" into "i" only after a consonant that is not the
// whole stem (enjoy stays, happy -> happi), treats a two-letter
// vowel-consonant stem as ending cvc, rewrites "-alli" to "-al" and repeats
// step 2, and adds "-fulli" -> "-ful" and a "-logi" -> "-log" rule whose
// condition looks at the word without "ogi". Results differ from the other
// modes and from other Porter ports (e.g. Snowball's "porter").
package porter

import (
	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// pool is the irregular forms of NLTK_EXTENSIONS, word -> stem.
var pool = map[string]string{
	"sky": "sky", "skies": "sky",
	"dying": "die", "lying": "lie", "tying": "tie",
	"news":    "news",
	"innings": "inning", "inning": "inning",
	"outings": "outing", "outing": "outing",
	"cannings": "canning", "canning": "canning",
	"howe":    "howe",
	"proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}

// Stem returns PorterStemmer().stem(word) of nltk 3.8-3.9 (to_lowercase on):
// the stem of the lowercased word. As in those versions the irregular-forms
// pool is looked up with word as given, so "Dying" is stemmed by the rules
// ("dy") while "dying" gives "die"; nltk 3.10 looks up the lowercased word.
// rouge_score lowercases before stemming, so it never sees the difference.
func Stem(word string) string {
	stem := pystr.Lower(word)
	if s, ok := pool[word]; ok {
		return s
	}
	if pystr.Len(word) <= 2 {
		return stem
	}
	w := []rune(stem)
	w = step1a(w)
	w = step1b(w)
	w = step1c(w)
	w = step2(w)
	w = step3(w)
	w = step4(w)
	w = step5a(w)
	w = step5b(w)
	return string(w)
}

func isVowel(r rune) bool { return r == 'a' || r == 'e' || r == 'i' || r == 'o' || r == 'u' }

// isConsonant is _is_consonant: not a vowel, and a "y" only when the letter
// before it is not a consonant (a leading "y" is one).
func isConsonant(w []rune, i int) bool {
	negate := false
	for i > 0 && w[i] == 'y' {
		negate = !negate
		i--
	}
	return !isVowel(w[i]) != negate
}

// consonants classifies every letter of w in one pass.
func consonants(w []rune, yield func(i int, c bool) bool) {
	prev := false
	for i, r := range w {
		c := !isVowel(r)
		if r == 'y' && i > 0 {
			c = !prev
		}
		if !yield(i, c) {
			return
		}
		prev = c
	}
}

// measure is _measure: the number of vowel-consonant sequences (m in
// [C](VC){m}[V]).
func measure(w []rune) int {
	m := 0
	prevVowel := false
	consonants(w, func(_ int, c bool) bool {
		if c && prevVowel {
			m++
		}
		prevVowel = !c
		return true
	})
	return m
}

func positiveMeasure(w []rune) bool { return measure(w) > 0 }

// containsVowel is _contains_vowel.
func containsVowel(w []rune) bool {
	found := false
	consonants(w, func(_ int, c bool) bool {
		found = !c
		return !found
	})
	return found
}

// endsDoubleConsonant is condition *d.
func endsDoubleConsonant(w []rune) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isConsonant(w, n-1)
}

// endsCVC is condition *o: consonant-vowel-consonant where the last is not
// w, x or y; NLTK_EXTENSIONS also accepts a two-letter vowel-consonant word.
func endsCVC(w []rune) bool {
	n := len(w)
	if n >= 3 && isConsonant(w, n-3) && !isConsonant(w, n-2) && isConsonant(w, n-1) &&
		w[n-1] != 'w' && w[n-1] != 'x' && w[n-1] != 'y' {
		return true
	}
	return n == 2 && !isConsonant(w, 0) && isConsonant(w, 1)
}

func hasSuffix(w []rune, s string) bool {
	if len(s) > len(w) {
		return false
	}
	tail := w[len(w)-len(s):]
	for i := 0; i < len(s); i++ {
		if tail[i] != rune(s[i]) {
			return false
		}
	}
	return true
}

// with returns stem + suffix as a new slice (stem is never modified in
// place, so callers may keep using the word it was cut from).
func with(stem []rune, suffix string) []rune {
	out := make([]rune, len(stem), len(stem)+len(suffix))
	copy(out, stem)
	for _, r := range suffix {
		out = append(out, r)
	}
	return out
}
