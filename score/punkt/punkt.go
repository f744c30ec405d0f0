// Package punkt splits English text into sentences exactly as
// nltk.sent_tokenize(text) does: NLTK's PunktSentenceTokenizer with the
// English punkt_tab model (compiled in; see data/README.md) and
// realign_boundaries on.
//
// The parameters are NLTK's `punkt_tab` tables. nltk 3.8.2/3.9 renamed the
// data package from `punkt` (a pickle, no longer loaded because of
// CVE-2024-39705) to `punkt_tab`, so evaluation scripts that only downloaded
// "punkt" failed with "Resource punkt_tab not found"; the mlcommons
// evaluators download both. The tables are the same English model either way.
package punkt

import (
	"strings"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// Variant selects which nltk release's Punkt character classes to follow.
type Variant int

const (
	// NLTK39 is nltk 3.8.1 through 3.10.1 (3.9.x is what the llama3.1-8b and
	// llama2-70b targets were computed with): only ASCII quotes and brackets
	// are closing punctuation. It is the default.
	NLTK39 Variant = iota
	// NLTK3102 is nltk 3.10.2 and later, which also treat the curly quotes
	// ‘ ’ “ ” and the guillemets « » as non-word and closing punctuation, so
	// a period followed by ” can end a sentence and the ” stays with it.
	// nltk 3.10.4 also runs its patterns on the third-party regex module,
	// whose \s and \w differ from re's: U+001C..U+001F are not white space,
	// "½" is not a word character (so "½." is no initial).
	NLTK3102
)

// Tokenizer splits text into sentences with one Punkt model. It is safe for
// concurrent use.
type Tokenizer struct {
	p *Params
	v Variant
}

// New returns a Tokenizer that uses p (not copied; do not modify it after)
// and the character classes of v.
func New(p *Params, v Variant) *Tokenizer { return &Tokenizer{p: p, v: v} }

var english39 = New(nil, NLTK39)

// SentTokenize returns nltk.sent_tokenize(text): the sentences of text by the
// English model and the NLTK39 variant.
func SentTokenize(text string) []string { return english39.Tokenize(text) }

// Tokenize returns the sentences of text (PunktSentenceTokenizer.tokenize
// with realign_boundaries=True): substrings of text, without the white space
// between them.
func (t *Tokenizer) Tokenize(text string) []string {
	spans := t.Spans(text)
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s[0]:s[1]]
	}
	return out
}

// Spans returns the byte offsets [start, end) of the sentences Tokenize
// returns (span_tokenize counts code points instead).
func (t *Tokenizer) Spans(text string) [][2]int {
	return t.realign(text, t.slices(text))
}

func (t *Tokenizer) params() *Params {
	if t.p == nil {
		return EnglishParams()
	}
	return t.p
}

// endContext is one match of period_context_re: the end character at pos,
// what follows it (afterEnd), where the next token starts (-1 when the end
// character is followed by punctuation instead of white space), and the
// start of the word before it.
type endContext struct {
	pos, afterEnd, nextTok int
	wordStart              int
}

// periodContext reports whether period_context_re matches at i (text[i] is
// one of .?!): the end character followed by non-word punctuation, or by
// white space and a token.
func (t *Tokenizer) periodContext(text string, i int) (c endContext, ok bool) {
	c = endContext{pos: i, nextTok: -1}
	j := i + 1
	r, n := utf8.DecodeRuneInString(text[j:])
	if j < len(text) && t.v.isNonWord(r) {
		c.afterEnd = j + n
		return c, true
	}
	for j < len(text) {
		r, n = utf8.DecodeRuneInString(text[j:])
		if !t.v.isSpace(r) {
			break
		}
		j += n
	}
	if j == i+1 || j == len(text) {
		return c, false
	}
	c.nextTok = j
	for j < len(text) {
		r, n = utf8.DecodeRuneInString(text[j:])
		if t.v.isSpace(r) {
			break
		}
		j += n
	}
	c.afterEnd = j
	return c, true
}

// lastASCIISpace is _get_last_whitespace_index: the index of the last
// string.whitespace character of s, or 0 if there is none (so one at index 0
// counts as none: the quirk is kept).
func lastASCIISpace(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if pystr.IsASCIISpace(rune(s[i])) {
			return i
		}
	}
	return 0
}

// endContexts is _match_potential_end_contexts: the period contexts of text,
// each with the word before it; a context whose word overlaps the next one's
// (as in "!!!") is dropped in favour of the later one.
func (t *Tokenizer) endContexts(text string, yield func(endContext) bool) {
	var prev endContext
	havePrev := false
	prevStart, prevStop := 0, 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != '.' && c != '?' && c != '!' {
			continue
		}
		m, ok := t.periodContext(text, i)
		if !ok {
			continue
		}
		before := text[prevStop:m.pos]
		start := lastASCIISpace(before)
		if start != 0 {
			start += prevStop + 1
		} else {
			start = prevStart
		}
		if havePrev && prevStop <= start {
			if !yield(prev) {
				return
			}
		}
		m.wordStart = start
		prev, havePrev = m, true
		prevStart, prevStop = start, m.pos
	}
	if havePrev {
		yield(prev)
	}
}

// slices is _slices_from_text: sentence spans ending at each period context
// that text_contains_sentbreak accepts; the last runs to the end of the
// text without trailing white space.
func (t *Tokenizer) slices(text string) [][2]int {
	var out [][2]int
	lastBreak := 0
	var toks []token
	t.endContexts(text, func(m endContext) bool {
		context := text[m.wordStart:m.afterEnd]
		if m.wordStart > m.pos { // the word slice is empty: Python's text[a:b] with a > b
			context = text[m.pos:m.afterEnd]
		}
		toks = t.v.tokenizeWords(context, toks[:0])
		if !t.containsSentbreak(toks) {
			return true
		}
		out = append(out, [2]int{lastBreak, m.pos + 1})
		if m.nextTok >= 0 {
			lastBreak = m.nextTok
		} else {
			lastBreak = m.pos + 1
		}
		return true
	})
	return append(out, [2]int{lastBreak, len(pystr.RStrip(text))})
}

// containsSentbreak is text_contains_sentbreak on the tokens of a context:
// whether a token follows one that ends a sentence after both passes.
func (t *Tokenizer) containsSentbreak(toks []token) bool {
	for i := range toks {
		t.firstPass(&toks[i])
	}
	found := false
	for i := range toks {
		if found {
			return true
		}
		if i+1 < len(toks) {
			t.secondPass(&toks[i], &toks[i+1])
		}
		if toks[i].sentbreak {
			found = true
		}
	}
	return false
}

// isClosing is the character class of PunktLanguageVars.re_boundary_realignment.
func (v Variant) isClosing(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}':
		return true
	case '\u2018', '\u2019', '\u201c', '\u201d', '\u00ab', '\u00bb':
		return v == NLTK3102
	}
	return false
}

// realignLen matches re_boundary_realignment (["')\]}]+?(?:\s+|(?=--)|$),
// multi-line) at the start of s: the fewest closing characters followed by
// white space, "--", a line end or the end. It returns the length of the
// closing characters and of the whole match.
func (v Variant) realignLen(s string) (closing, whole int, ok bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !v.isClosing(r) {
			return 0, 0, false
		}
		i += n
		rest := s[i:]
		if ws := v.spaceLen(rest); ws > 0 {
			return i, i + ws, true
		}
		if rest == "" || strings.HasPrefix(rest, "--") {
			return i, i, true
		}
	}
	return 0, 0, false
}

// spaceLen is the length of the white space (\s*) that s starts with.
func (v Variant) spaceLen(s string) int {
	n := 0
	for _, r := range s {
		if !v.isSpace(r) {
			break
		}
		n += utf8.RuneLen(r)
	}
	return n
}

// realign is _realign_boundaries: closing quotes and brackets that follow a
// sentence's end character move from the next sentence onto it. Empty
// sentences are dropped.
func (t *Tokenizer) realign(text string, slices [][2]int) [][2]int {
	out := slices[:0:0]
	realign := 0
	for i, s := range slices {
		s1 := [2]int{s[0] + realign, s[1]}
		nonEmpty := s1[0] < s1[1]
		if i+1 == len(slices) {
			if nonEmpty {
				out = append(out, s1)
			}
			continue
		}
		s2 := slices[i+1]
		next := ""
		if s2[0] < s2[1] {
			next = text[s2[0]:s2[1]]
		}
		if closing, whole, ok := t.v.realignLen(next); ok {
			out = append(out, [2]int{s1[0], s2[0] + closing})
			realign = whole
			continue
		}
		realign = 0
		if nonEmpty {
			out = append(out, s1)
		}
	}
	return out
}
