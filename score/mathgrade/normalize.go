package mathgrade

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// units are the words grader._normalize removes, in its order; each goes
// with an optional "es", "s", spaces and "^digits".
var units = []string{"degree", "cm", "centimeter", "meter", "mile", "second",
	"minute", "hour", "day", "week", "month", "year", "foot", "feet", "inch", "yard"}

// normalize is grader._normalize. needsLatex reports that the result would
// come from pylatexenc (the expression still holds a backslash after the
// string steps), or that Python's str.lower() could differ from Go's
// (non-ASCII text); the caller then hands the pair to the fallback.
func normalize(expr string) (out string, needsLatex bool) {
	if inner, ok := textWrapped(expr); ok {
		expr = inner
	}
	for _, rp := range [][2]string{{`\%`, "%"}, {`\$`, "$"}, {"$", ""}, {"%", ""},
		{" or ", " , "}, {" and ", " , "}, {"million", "*10^6"}, {"billion", "*10^9"}, {"trillion", "*10^12"}} {
		expr = strings.ReplaceAll(expr, rp[0], rp[1])
	}
	for _, u := range units {
		expr = removeUnit(expr, u)
	}
	expr = circRE.ReplaceAllString(expr, "")
	if len(expr) > 0 && expr[0] == '{' && expr[len(expr)-1] == '}' {
		expr = expr[1 : len(expr)-1]
	}
	expr = commaBangRE.ReplaceAllString(expr, "")
	if f, ok := pyFloat(expr); ok && isIntFloat(f) {
		expr = roundToIntString(f)
	}
	if strings.Contains(expr, `\`) {
		return "", true
	}
	expr = minusSpaceRE.ReplaceAllString(expr, "-")
	expr = injectMixedNumber(expr)
	expr = strings.ReplaceAll(expr, " ", "")
	expr = strings.ReplaceAll(expr, "{", "")
	expr = strings.ReplaceAll(expr, "}", "")
	for i := 0; i < len(expr); i++ {
		if expr[i] >= utf8.RuneSelf {
			return "", true
		}
	}
	expr = strings.ToLower(expr)
	if strIsInt(expr) {
		expr = strToInt(expr)
	}
	return expr, false
}

var (
	circRE       = regexp.MustCompile(`\^ *\\circ`)
	commaBangRE  = regexp.MustCompile(`,\\! *`)
	minusSpaceRE = regexp.MustCompile(`- *`)
	fracRE       = regexp.MustCompile(`^-?[0-9]+.?/0*[1-9][0-9]*.?\n?$`)
	// commaRE is (\d)(,)(\d\d\d)($|\D); Python's \d is any Unicode digit.
	commaRE = regexp.MustCompile(`(\p{Nd}),(\p{Nd}\p{Nd}\p{Nd})($|\P{Nd})`)
)

// removeUnit is re.sub(f"{unit}(es)?(s)? *(\^[0-9]+)?", "", expr): every
// occurrence of the word with its greedy optional tail goes.
func removeUnit(s, unit string) string {
	if !strings.Contains(s, unit) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, unit)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := i + len(unit)
		if strings.HasPrefix(s[j:], "es") {
			j += 2
		}
		if strings.HasPrefix(s[j:], "s") {
			j++
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j+1 < len(s) && s[j] == '^' && s[j+1] >= '0' && s[j+1] <= '9' {
			j++
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
		}
		s = s[j:]
	}
}

// injectMixedNumber is re.sub("([0-9]) +([0-9])", "\\1+\\2", s): "7 3/4"
// becomes "7+3/4". Matches do not overlap, so "1 2 3" becomes "1+2 3".
func injectMixedNumber(s string) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		if isDigit(s[i]) {
			j := i + 1
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j > i+1 && j < len(s) && isDigit(s[j]) {
				b.WriteByte(s[i])
				b.WriteByte('+')
				b.WriteByte(s[j])
				i = j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// stripProperlyFormattedCommas removes thousands separators ("1,000,000")
// but not tuple commas, repeating re.sub until nothing changes.
func stripProperlyFormattedCommas(s string) string {
	for {
		next := commaRE.ReplaceAllString(s, "$1$2$3")
		if next == s {
			return next
		}
		s = next
	}
}

// pyFloat parses s as Python's float(s): surrounding whitespace, a sign,
// "inf"/"infinity"/"nan" in any case, or decimal digits with single '_'
// between digits, an optional fraction and exponent. ASCII digits only; the
// callers see only ASCII text (normalize delegates the rest).
func pyFloat(s string) (float64, bool) {
	s = pystr.Strip(s)
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return 0, false
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		return math.Inf(map[bool]int{true: -1, false: 1}[strings.HasPrefix(s, "-")]), true
	case "nan":
		return math.NaN(), true
	}
	if !pyFloatRE.MatchString(body) {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return f, true
}

var pyFloatRE = regexp.MustCompile(`^(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$`)

// isIntFloat is grader._is_int: abs(x - int(round(x))) <= 1e-7, false for
// inf and nan (round raises).
func isIntFloat(x float64) bool {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return false
	}
	return math.Abs(x-math.RoundToEven(x)) <= 1e-7
}

// roundToIntString is str(int(round(x))) for a finite x.
func roundToIntString(x float64) string {
	i, _ := new(big.Float).SetFloat64(math.RoundToEven(x)).Int(nil)
	return i.String()
}

// strIsInt is grader._str_is_int.
func strIsInt(s string) bool {
	f, ok := pyFloat(stripProperlyFormattedCommas(s))
	return ok && isIntFloat(f)
}

// strToInt is grader._str_to_int: all commas removed, float(), int()
// truncating toward zero ("0.99999999" gives "0").
func strToInt(s string) string {
	f, _ := pyFloat(strings.ReplaceAll(s, ",", ""))
	i, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
	return i.String()
}

// isFrac is grader._is_frac.
func isFrac(s string) bool { return fracRE.MatchString(s) }
