// Package whispernorm is whisper's EnglishTextNormalizer in Go: the text
// normalization MLPerf's speech-to-text evaluator
// (speech2text/accuracy_eval.py, mlcommons/inference) applies to every
// transcript and reference before counting word errors. It is a port of
// whisper/normalizers/english.py and basic.py of openai-whisper 20250625
// (MIT licence), checked against that code's own output on crafted and
// random inputs (testdata/gen_golden.py): lowercase, drop bracketed and
// parenthesised words and fillers (hmm, um), expand contractions and
// titles, standardise spelled-out numbers and currencies
// (EnglishNumberNormalizer), British to American spelling (english.json,
// whisper's own table), and strip symbols and diacritics.
//
// Python's quirks are kept on purpose, each where it applies: Unicode-aware
// \b, \s and \d, str.lower()'s final sigma, Python's truthiness of 0 and ""
// in the number state, Fraction's string syntax, unbounded integers.
package whispernorm

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns s as EnglishTextNormalizer()(s) returns it. Invalid
// UTF-8 is first replaced by U+FFFD (a Python str cannot hold it). Inputs
// whose spelled-out numbers grow past 4300 digits differ: Python refuses to
// print such an integer and the reference evaluator stops there.
func Normalize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = lower(s)
	s = reBrackets.ReplaceAllString(s, "")
	s = reParens.ReplaceAllString(s, "")
	s = removeFillers(s)
	s = joinApostrophes(s)
	for _, r := range replacers {
		s = r.apply(s)
	}
	s = joinDigitCommas(s)
	s = rePeriod.ReplaceAllString(s, " $1")
	s = removeSymbolsAndDiacritics(s, ".%$¢€£")
	s = standardizeNumbers(s)
	s = standardizeSpellings(s)
	s = reSymbolNoDigit.ReplaceAllString(s, " $1")
	s = rePercentNoDigit.ReplaceAllString(s, "${1} ")
	return collapseSpaces(s)
}

// The patterns with no \b, \s or \d, which Go's regexp runs as Python's re
// does (leftmost match, the alternative a backtracking engine prefers,
// non-overlapping; none can match empty).
var (
	reBrackets       = regexp.MustCompile(`[<\[][^>\]]*[>\]]`) // words between brackets
	reParens         = regexp.MustCompile(`\(([^)]+?)\)`)      // words between parentheses
	rePeriod         = regexp.MustCompile(`\.([^0-9]|$)`)      // periods not followed by numbers
	reSymbolNoDigit  = regexp.MustCompile(`[.$¢€£]([^0-9])`)   // prefix symbols not before a number
	rePercentNoDigit = regexp.MustCompile(`([^0-9])%`)         // suffix symbols not after a number
)

// fillers are ignore_patterns' alternatives, \b(hmm|mm|mhm|mmm|uh|um)\b, in
// the order the regex tries them.
var fillers = []string{"hmm", "mm", "mhm", "mmm", "uh", "um"}

// removeFillers is re.sub(ignore_patterns, "", s).
func removeFillers(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if !wordBefore(s, i) {
			if n := fillerAt(s, i); n > 0 {
				i += n
				continue
			}
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// fillerAt returns the length of the filler word at byte i followed by a
// word boundary, or 0.
func fillerAt(s string, i int) int {
	for _, f := range fillers {
		if strings.HasPrefix(s[i:], f) && !wordAt(s, i+len(f)) {
			return len(f)
		}
	}
	return 0
}

// joinApostrophes is re.sub(r"\s+'", "'", s): no space before an
// apostrophe.
func joinApostrophes(s string) string {
	if !strings.Contains(s, "'") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if e := spaceRun(s, i); e > i {
			if e < len(s) && s[e] == '\'' {
				b.WriteByte('\'')
				i = e + 1
			} else {
				b.WriteString(s[i:e])
				i = e
			}
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// replacer is one of EnglishTextNormalizer's replacers: a literal, with
// \b before it (left) and after it (right) where the pattern has them.
type replacer struct {
	lit, repl   string
	left, right bool
}

// replacers are EnglishTextNormalizer.replacers in the dict's order, each
// applied to the whole text in turn.
var replacers = func() []replacer {
	var rs []replacer
	word := func(lit, repl string) { rs = append(rs, replacer{lit, repl, true, true}) }
	tail := func(lit, repl string) { rs = append(rs, replacer{lit, repl, false, true}) }
	// common contractions
	for _, p := range [][2]string{{"won't", "will not"}, {"can't", "can not"}, {"let's", "let us"},
		{"ain't", "aint"}, {"y'all", "you all"}, {"wanna", "want to"}, {"gotta", "got to"},
		{"gonna", "going to"}, {"i'ma", "i am going to"}, {"imma", "i am going to"},
		{"woulda", "would have"}, {"coulda", "could have"}, {"shoulda", "should have"},
		{"ma'am", "madam"}} {
		word(p[0], p[1])
	}
	// contractions in titles/prefixes
	for _, p := range [][2]string{{"mr", "mister "}, {"mrs", "missus "}, {"st", "saint "},
		{"dr", "doctor "}, {"prof", "professor "}, {"capt", "captain "}, {"gov", "governor "},
		{"ald", "alderman "}, {"gen", "general "}, {"sen", "senator "}, {"rep", "representative "},
		{"pres", "president "}, {"rev", "reverend "}, {"hon", "honorable "}, {"asst", "assistant "},
		{"assoc", "associate "}, {"lt", "lieutenant "}, {"col", "colonel "}, {"jr", "junior "},
		{"sr", "senior "}, {"esq", "esquire "}} {
		word(p[0], p[1])
	}
	// perfect tenses, then general contractions
	for _, p := range [][2]string{{"'d been", " had been"}, {"'s been", " has been"},
		{"'d gone", " had gone"}, {"'s gone", " has gone"}, {"'d done", " had done"},
		{"'s got", " has got"}, {"n't", " not"}, {"'re", " are"}, {"'s", " is"},
		{"'d", " would"}, {"'ll", " will"}, {"'t", " not"}, {"'ve", " have"}, {"'m", " am"}} {
		tail(p[0], p[1])
	}
	return rs
}()

// apply is re.sub(pattern, repl, s) for the replacer's pattern.
func (r replacer) apply(s string) string {
	i := strings.Index(s, r.lit)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	last := 0
	for i >= 0 {
		end := i + len(r.lit)
		if (!r.left || boundary(s, i)) && (!r.right || boundary(s, end)) {
			b.WriteString(s[last:i])
			b.WriteString(r.repl)
			last = end
		} else {
			_, n := utf8.DecodeRuneInString(s[i:])
			end = i + n
		}
		j := strings.Index(s[end:], r.lit)
		if j < 0 {
			break
		}
		i = end + j
	}
	b.WriteString(s[last:])
	return b.String()
}

// joinDigitCommas is re.sub(r"(\d),(\d)", r"\1\2", s): commas between
// (Unicode) digits go; matches do not overlap, so "1,2,3" becomes "12,3".
func joinDigitCommas(s string) string {
	if !strings.Contains(s, ",") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if _, ok := digitValue(r); ok && i+n < len(s) && s[i+n] == ',' {
			r2, n2 := utf8.DecodeRuneInString(s[i+n+1:])
			if _, ok := digitValue(r2); ok {
				b.WriteString(s[i : i+n])
				b.WriteString(s[i+n+1 : i+n+1+n2])
				i += n + 1 + n2
				continue
			}
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// additionalDiacritics are basic.py's ADDITIONAL_DIACRITICS: letters NFKD
// does not take apart.
var additionalDiacritics = map[rune]string{
	'œ': "oe", 'Œ': "OE", 'ø': "o", 'Ø': "O", 'æ': "ae", 'Æ': "AE", 'ß': "ss", 'ẞ': "SS",
	'đ': "d", 'Đ': "D", 'ð': "d", 'Ð': "D", 'þ': "th", 'Þ': "th", 'ł': "l", 'Ł': "L",
}

// removeSymbolsAndDiacritics is basic.py's remove_symbols_and_diacritics:
// after NFKD, each character in keep stays, the additional diacritics are
// spelled out, nonspacing marks (Mn) go, other marks, symbols and
// punctuation (M*, S*, P*) become spaces.
func removeSymbolsAndDiacritics(s, keep string) string {
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case strings.ContainsRune(keep, r):
			b.WriteRune(r)
		case additionalDiacritics[r] != "":
			b.WriteString(additionalDiacritics[r])
		case unicode.Is(unicode.Mn, r):
		case unicode.In(r, unicode.M, unicode.S, unicode.P):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
