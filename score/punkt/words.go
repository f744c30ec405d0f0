package punkt

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// token is nltk's PunktToken: a word of the text with the annotations the
// two passes give it.
type token struct {
	tok         string
	typ         string // lowercased; "##number##" for number-like tokens
	periodFinal bool
	sentbreak   bool
	abbr        bool
	ellipsis    bool
}

func newToken(tok string) token {
	return token{tok: tok, typ: tokenType(tok), periodFinal: strings.HasSuffix(tok, ".")}
}

// tokenType is PunktToken._get_type: the lowercased token, or "##number##"
// when the whole of it matches ^-?[\.,]?\d[\d,\.-]*\.?$ (\d is any Unicode
// decimal digit).
func tokenType(tok string) string {
	low := pystr.Lower(tok)
	s := strings.TrimPrefix(low, "-")
	if s != "" && (s[0] == '.' || s[0] == ',') {
		s = s[1:]
	}
	r, n := utf8.DecodeRuneInString(s)
	if s == "" || !pystr.IsDigit(r) {
		return low
	}
	for _, r := range s[n:] {
		if r != ',' && r != '.' && r != '-' && !pystr.IsDigit(r) {
			return low
		}
	}
	return "##number##"
}

// typeNoPeriod is the type without its final period, if it has one and more.
func (t *token) typeNoPeriod() string {
	if len(t.typ) > 1 && t.typ[len(t.typ)-1] == '.' {
		return t.typ[:len(t.typ)-1]
	}
	return t.typ
}

// typeNoSentPeriod is the type without a final period that ends a sentence.
func (t *token) typeNoSentPeriod() string {
	if t.sentbreak {
		return t.typeNoPeriod()
	}
	return t.typ
}

func (t *token) firstUpper() bool {
	r, _ := utf8.DecodeRuneInString(t.tok)
	return pystr.IsUpper(r)
}

func (t *token) firstLower() bool {
	r, _ := utf8.DecodeRuneInString(t.tok)
	return pystr.IsLower(r)
}

// isEllipsis is _RE_ELLIPSIS.match: two or more periods and nothing else.
func (t *token) isEllipsis() bool {
	return len(t.tok) >= 2 && strings.Trim(t.tok, ".") == ""
}

// isInitial is _RE_INITIAL.match ([^\W\d]\.$): one letter-like character
// (a \w that is not a digit, so "_" counts) and a period.
func (v Variant) isInitial(t *token) bool {
	r, n := utf8.DecodeRuneInString(t.tok)
	return t.tok[n:] == "." && v.isWord(r) && !pystr.IsDigit(r)
}

// isSpace is \s of the variant's regular-expression engine: Python's re
// takes str.isspace, the regex module of nltk 3.10.2+ the Unicode
// White_Space property, which lacks U+001C..U+001F.
func (v Variant) isSpace(r rune) bool {
	if v == NLTK3102 {
		return unicode.Is(unicode.White_Space, r)
	}
	return pystr.IsSpace(r)
}

// isWord is \w of the variant's engine: re takes letters, numbers and "_";
// the regex module takes Alphabetic, marks, decimal digits, connector
// punctuation and the joiners (so "½" is not a word character there, and a
// combining accent is).
func (v Variant) isWord(r rune) bool {
	if v == NLTK3102 {
		return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.M, unicode.Nd, unicode.Pc) ||
			r == 0x200c || r == 0x200d
	}
	return pystr.IsWord(r)
}

// isNonWord is the class PunktLanguageVars._re_non_word_chars: characters
// that cannot appear within a word. nltk 3.10.2 added the curly quotes and
// guillemets.
func (v Variant) isNonWord(r rune) bool {
	switch r {
	case ')', '"', ';', '}', ']', '*', ':', '@', '\'', '(', '{', '[', '?', '!':
		return true
	case '\u2018', '\u2019', '\u201c', '\u201d', '\u00ab', '\u00bb':
		return v == NLTK3102
	}
	return false
}

// isWordStart is PunktLanguageVars._re_word_start: characters a word token
// may start with.
func isWordStart(r rune) bool {
	return !strings.ContainsRune("(\"`{[:;&#*@)}]-,", r)
}

// multiCharLen is the length of PunktLanguageVars._re_multi_char_punct
// (\-{2,}|\.{2,}|(?:\.\s){2,}\.) matched at the start of s, or 0.
func (v Variant) multiCharLen(s string) int {
	switch {
	case strings.HasPrefix(s, "--"):
		return len(s) - len(strings.TrimLeft(s, "-"))
	case strings.HasPrefix(s, ".."):
		return len(s) - len(strings.TrimLeft(s, "."))
	}
	// (?:\.\s){2,}\. : the most ". " pairs that still leave a final period.
	var ends []int // end of each ". " pair
	i := 0
	for i < len(s) && s[i] == '.' {
		r, n := utf8.DecodeRuneInString(s[i+1:])
		if i+1 >= len(s) || !v.isSpace(r) {
			break
		}
		i += 1 + n
		ends = append(ends, i)
	}
	if len(ends) >= 2 && i < len(s) && s[i] == '.' {
		return i + 1
	}
	if len(ends) >= 3 {
		return ends[len(ends)-2] + 1 // the last pair's period ends the match
	}
	return 0
}

// wordEnds is the lookahead of _word_tokenize_fmt after a word: white space,
// the end, non-word punctuation, multi-character punctuation, or a comma
// followed by one of those.
func (v Variant) wordEnds(rest string) bool {
	if rest == "" {
		return true
	}
	r, n := utf8.DecodeRuneInString(rest)
	if v.isSpace(r) || v.isNonWord(r) || v.multiCharLen(rest) > 0 {
		return true
	}
	if r != ',' {
		return false
	}
	rest = rest[n:]
	if rest == "" {
		return true
	}
	r, _ = utf8.DecodeRuneInString(rest)
	return v.isSpace(r) || v.isNonWord(r) || v.multiCharLen(rest) > 0
}

// wordTokenize is PunktLanguageVars.word_tokenize (re.findall of
// _word_tokenize_fmt) on one line: multi-character punctuation, else a word
// running to the first place wordEnds, else one non-space character.
func (v Variant) wordTokenize(line string, emit func(string)) {
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRuneInString(line[i:])
		if v.isSpace(r) {
			i += n
			continue
		}
		if m := v.multiCharLen(line[i:]); m > 0 {
			emit(line[i : i+m])
			i += m
			continue
		}
		j := i + n
		if isWordStart(r) {
			for !v.wordEnds(line[j:]) {
				_, n := utf8.DecodeRuneInString(line[j:])
				j += n
			}
		}
		emit(line[i:j])
		i = j
	}
}

// tokenizeWords is PunktBaseClass._tokenize_words: the word tokens of each
// line of text that is not blank.
func (v Variant) tokenizeWords(text string, toks []token) []token {
	for line := range strings.SplitSeq(text, "\n") {
		if pystr.Strip(line) == "" {
			continue
		}
		v.wordTokenize(line, func(w string) { toks = append(toks, newToken(w)) })
	}
	return toks
}
