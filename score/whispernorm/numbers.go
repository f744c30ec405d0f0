package whispernorm

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The vocabulary of EnglishNumberNormalizer, built as its __init__ builds
// it.
var (
	zeros = set("o", "oh", "zero")
	ones  = func() map[string]int {
		m := map[string]int{}
		for i, w := range strings.Fields("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen") {
			m[w] = i + 1
		}
		return m
	}()
	onesSuffixed = func() map[string]suffixed {
		m := map[string]suffixed{}
		for name, v := range ones { // ones_plural
			if name == "six" {
				m["sixes"] = suffixed{v, "s"}
			} else {
				m[name+"s"] = suffixed{v, "s"}
			}
		}
		for k, v := range map[string]suffixed{"zeroth": {0, "th"}, "first": {1, "st"}, "second": {2, "nd"},
			"third": {3, "rd"}, "fifth": {5, "th"}, "twelfth": {12, "th"}} {
			m[k] = v
		}
		for name, v := range ones {
			if v > 3 && v != 5 && v != 12 {
				if strings.HasSuffix(name, "t") {
					m[name+"h"] = suffixed{v, "th"}
				} else {
					m[name+"th"] = suffixed{v, "th"}
				}
			}
		}
		return m
	}()
	tens = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
		"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
	tensSuffixed = func() map[string]suffixed {
		m := map[string]suffixed{}
		for name, v := range tens {
			m[strings.ReplaceAll(name, "y", "ies")] = suffixed{v, "s"}
			m[strings.ReplaceAll(name, "y", "ieth")] = suffixed{v, "th"}
		}
		return m
	}()
	multipliers = func() map[string]*big.Int {
		m := map[string]*big.Int{"hundred": big.NewInt(100)}
		for i, w := range strings.Fields("thousand million billion trillion quadrillion quintillion sextillion septillion octillion nonillion decillion") {
			m[w] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(3*(i+1))), nil)
		}
		return m
	}()
	multipliersSuffixed = func() map[string]bigSuffixed {
		m := map[string]bigSuffixed{}
		for name, v := range multipliers {
			m[name+"s"] = bigSuffixed{v, "s"}
			m[name+"th"] = bigSuffixed{v, "th"}
		}
		return m
	}()
	decimals           = union(zeros, keys(ones), keys(tens))
	precedingPrefixers = map[string]string{"minus": "-", "negative": "-", "plus": "+", "positive": "+"}
	followingPrefixers = map[string]string{"pound": "£", "pounds": "£", "euro": "€", "euros": "€",
		"dollar": "$", "dollars": "$", "cent": "¢", "cents": "¢"}
	// prefixes are the prefixers' symbols, which a number may start with.
	prefixes = "-+£€$¢"
	specials = set("and", "double", "triple", "point")
	// words is every word the number state machine handles; suffixers
	// ("per" {"cent": "%"}, "percent" "%") are handled in process.
	words = union(zeros, keys(ones), keys(onesSuffixed), keys(tens), keys(tensSuffixed),
		keys(multipliers), keys(multipliersSuffixed), keys(precedingPrefixers),
		keys(followingPrefixers), set("per", "percent"), specials)
)

type suffixed struct {
	value  int
	suffix string
}

type bigSuffixed struct {
	value  *big.Int
	suffix string
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func keys[V any](m map[string]V) map[string]bool {
	s := make(map[string]bool, len(m))
	for k := range m {
		s[k] = true
	}
	return s
}

func union(sets ...map[string]bool) map[string]bool {
	u := map[string]bool{}
	for _, s := range sets {
		for k := range s {
			u[k] = true
		}
	}
	return u
}

// standardizeNumbers is EnglishNumberNormalizer.__call__.
func standardizeNumbers(s string) string {
	s = preprocessNumbers(s)
	s = strings.Join(processWords(split(s)), " ")
	return postprocessNumbers(s)
}

// value is the number being built: nothing, a Python int or a Python str
// (the normalizer keeps digit strings such as "007" or "1." as str).
type value struct {
	kind int // vNone, vInt or vStr
	i    *big.Int
	s    string
}

const (
	vNone = iota
	vInt
	vStr
)

func intValue(i *big.Int) value { return value{kind: vInt, i: i} }
func strValue(s string) value   { return value{kind: vStr, s: s} }

// String is Python's str(value).
func (v value) String() string {
	if v.kind == vInt {
		return v.i.String()
	}
	return v.s
}

// truthy is Python's bool(value): None, 0 and "" are false (so
// str(value or "") drops a 0).
func (v value) truthy() bool {
	switch v.kind {
	case vInt:
		return v.i.Sign() != 0
	case vStr:
		return v.s != ""
	}
	return false
}

// orEmpty is str(value or "").
func (v value) orEmpty() string {
	if !v.truthy() {
		return ""
	}
	return v.String()
}

// mod is value % m for an int value.
func (v value) mod(m int64) int64 { return new(big.Int).Mod(v.i, big.NewInt(m)).Int64() }

// addInt is value + n for an int value.
func (v value) addInt(n int) value { return intValue(new(big.Int).Add(v.i, big.NewInt(int64(n)))) }

// scale is the int branch of a multiplier: value // 1000 * 1000 + value %
// 1000 * multiplier (floor division, as Python's).
func (v value) scale(m *big.Int) value {
	thousand := big.NewInt(1000)
	before, residual := new(big.Int), new(big.Int)
	before.DivMod(v.i, thousand, residual) // Euclidean = floor for a positive divisor
	before.Mul(before, thousand)
	return intValue(before.Add(before, residual.Mul(residual, m)))
}

// fraction is Python's Fraction(s) for the strings the normalizer builds:
// optional digits, an optional "." and digits, starting with a digit or
// ".digit" (Fraction's own syntax; the sign, "/", exponents and "_" never
// occur here, and anything else is the ValueError to_fraction turns into
// None). Unicode decimal digits count, as \d does.
func fraction(s string) (*big.Rat, bool) {
	num, den := new(big.Int), big.NewInt(1)
	ten := big.NewInt(10)
	seenDigit, seenDot := false, false
	for _, r := range s {
		if r == '.' && !seenDot {
			seenDot = true
			continue
		}
		d, ok := digitValue(r)
		if !ok {
			return nil, false
		}
		seenDigit = true
		num.Mul(num, ten).Add(num, big.NewInt(int64(d)))
		if seenDot {
			den.Mul(den, ten)
		}
	}
	if !seenDigit {
		return nil, false
	}
	return new(big.Rat).SetFrac(num, den), true
}

// isNumeric is re.match(r"^\d+(\.\d+)?$", s).
func isNumeric(s string) bool {
	intPart, frac, hasDot := strings.Cut(s, ".")
	return allDigits(intPart) && (!hasDot || allDigits(frac))
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if _, ok := digitValue(r); !ok {
			return false
		}
	}
	return true
}

// firstRune returns s's first character and the rest.
func firstRune(s string) (string, string) {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n], s[n:]
}

// lastWord is segment.rsplit(maxsplit=2)[-1]: the last whitespace-separated
// word.
func lastWord(s string) string {
	w := split(s)
	return w[len(w)-1]
}

// preprocessNumbers is EnglishNumberNormalizer.preprocess: "<number> and a
// half" becomes "<number> point five", numbers and letters are split apart
// and number suffixes joined back.
func preprocessNumbers(s string) string {
	segments := splitAndAHalf(s)
	var results []string
	for i, seg := range segments {
		if strip(seg) == "" {
			continue
		}
		results = append(results, seg)
		if i < len(segments)-1 {
			if w := lastWord(seg); decimals[w] || multipliers[w] != nil {
				results = append(results, "point five")
			} else {
				results = append(results, "and a half")
			}
		}
	}
	s = strings.Join(results, " ")
	s = reLetterDigit.ReplaceAllString(s, "$1 $2")
	s = reDigitLetter.ReplaceAllString(s, "$1 $2")
	return joinNumberSuffixes(s)
}

var (
	reLetterDigit = regexpMust(`([a-z])([0-9])`)
	reDigitLetter = regexpMust(`([0-9])([a-z])`)
)

// splitAndAHalf is re.split(r"\band\s+a\s+half\b", s).
func splitAndAHalf(s string) []string {
	var out []string
	last := 0
	for i := 0; i < len(s); {
		if end := andAHalfAt(s, i); end > 0 {
			out = append(out, s[last:i])
			last, i = end, end
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return append(out, s[last:])
}

// andAHalfAt returns the end of an "and a half" match at byte i, or 0.
func andAHalfAt(s string, i int) int {
	if !strings.HasPrefix(s[i:], "and") || wordBefore(s, i) {
		return 0
	}
	j := i + len("and")
	for _, w := range []string{"a", "half"} {
		k := spaceRun(s, j)
		if k == j || !strings.HasPrefix(s[k:], w) {
			return 0
		}
		j = k + len(w)
	}
	if wordAt(s, j) {
		return 0
	}
	return j
}

// numberSuffixes are the alternatives of (st|nd|rd|th|s) in order.
var numberSuffixes = []string{"st", "nd", "rd", "th", "s"}

// joinNumberSuffixes is re.sub(r"([0-9])\s+(st|nd|rd|th|s)\b", r"\1\2", s).
func joinNumberSuffixes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c >= '0' && c <= '9' {
			if k := spaceRun(s, i+1); k > i+1 {
				if suf := suffixAt(s, k); suf != "" {
					b.WriteByte(c)
					b.WriteString(suf)
					i = k + len(suf)
					continue
				}
			}
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

func suffixAt(s string, i int) string {
	for _, suf := range numberSuffixes {
		if strings.HasPrefix(s[i:], suf) && !wordAt(s, i+len(suf)) {
			return suf
		}
	}
	return ""
}

// postprocessNumbers is EnglishNumberNormalizer.postprocess: "$2 and ¢7"
// becomes "$2.07", "$0.07" becomes "¢7", and a lone 1 is written "one".
func postprocessNumbers(s string) string {
	s = scanReplace(s, combineCents)
	s = scanReplace(s, extractCents)
	return scanReplace(s, spellOne)
}

// scanReplace replaces, left to right and without overlap, the matches
// found by at (which returns the replacement and the match's end, or ok
// false) at each character position of s.
func scanReplace(s string, at func(s string, i int) (repl string, end int, ok bool)) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if repl, end, ok := at(s, i); ok {
			b.WriteString(repl)
			i = end
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// currencyAt returns the currency symbol €, £ or $ at byte i.
func currencyAt(s string, i int) string {
	for _, c := range []string{"€", "£", "$"} {
		if strings.HasPrefix(s[i:], c) {
			return c
		}
	}
	return ""
}

// asciiDigits returns the end of the run of ASCII digits at byte i.
func asciiDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// centsAt matches ([0-9]{1,2})\b at byte i: two digits if a boundary
// follows them, else one.
func centsAt(s string, i int) (string, int, bool) {
	e := asciiDigits(s, i)
	for n := min(e-i, 2); n >= 1; n-- {
		if !wordAt(s, i+n) {
			return s[i : i+n], i + n, true
		}
	}
	return "", 0, false
}

// combineCents matches ([€£$])([0-9]+) (?:and )?¢([0-9]{1,2})\b and writes
// f"{currency}{integer}.{cents:02d}".
func combineCents(s string, i int) (string, int, bool) {
	c := currencyAt(s, i)
	if c == "" {
		return "", 0, false
	}
	j := i + len(c)
	k := asciiDigits(s, j)
	if k == j || k >= len(s) || s[k] != ' ' {
		return "", 0, false
	}
	integer := s[j:k]
	k++
	for _, and := range []string{"and ¢", "¢"} {
		if !strings.HasPrefix(s[k:], and) {
			continue
		}
		if cents, end, ok := centsAt(s, k+len(and)); ok {
			n, _ := strconv.Atoi(cents)
			return c + integer + "." + pad2(n), end, true
		}
	}
	return "", 0, false
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// extractCents matches [€£$]0.([0-9]{1,2})\b (the "." any character but a
// newline) and writes f"¢{int(cents)}".
func extractCents(s string, i int) (string, int, bool) {
	c := currencyAt(s, i)
	if c == "" {
		return "", 0, false
	}
	j := i + len(c)
	if j >= len(s) || s[j] != '0' {
		return "", 0, false
	}
	r, n := utf8.DecodeRuneInString(s[j+1:])
	if j+1 >= len(s) || r == '\n' {
		return "", 0, false
	}
	cents, end, ok := centsAt(s, j+1+n)
	if !ok {
		return "", 0, false
	}
	v, _ := strconv.Atoi(cents)
	return "¢" + strconv.Itoa(v), end, true
}

// spellOne matches \b1(s?)\b and writes "one" with the s.
func spellOne(s string, i int) (string, int, bool) {
	if s[i] != '1' || wordBefore(s, i) {
		return "", 0, false
	}
	if i+1 < len(s) && s[i+1] == 's' && !wordAt(s, i+2) {
		return "ones", i + 2, true
	}
	if !wordAt(s, i+1) {
		return "one", i + 1, true
	}
	return "", 0, false
}
