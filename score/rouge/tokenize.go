package rouge

import (
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/score/porter"
)

// Tokenize returns rouge_score's tokenize.tokenize(text, stemmer): the text
// lowercased (Python's str.lower), every run of characters other than a-z
// and 0-9 turned into a space, split on white space, and, when stem is true,
// each token longer than three characters replaced by its Porter stem
// (NLTK_EXTENSIONS). Non-ASCII letters vanish.
func Tokenize(text string, stem bool) []string {
	var out []string
	words(text, func(w string) {
		if stem && len(w) > 3 {
			w = porter.Stem(w)
		}
		if w != "" {
			out = append(out, w)
		}
	})
	return out
}

// words calls emit with each run of [a-z0-9] in the lowercased text. Only
// two non-ASCII characters lower to something in a-z: U+0130 (İ) becomes
// "i" + U+0307, so an "i" that ends its run, and U+212A (the Kelvin sign)
// becomes "k".
func words(text string, emit func(string)) {
	b := make([]byte, 0, len(text)+1)
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
				b = append(b, c)
			case c >= 'A' && c <= 'Z':
				b = append(b, c+'a'-'A')
			default:
				b = append(b, ' ')
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		switch r {
		case 0x130:
			b = append(b, 'i', ' ')
		case 0x212a:
			b = append(b, 'k')
		default:
			b = append(b, ' ')
		}
		i += n
	}
	s := string(b)
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ' ' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(s[start:i])
			start = -1
		}
	}
}
