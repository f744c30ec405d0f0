package mathgrade

import (
	"errors"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// errPython marks a step where the reference raises (IndexError,
// AssertionError) and its caller's try/except takes over.
var errPython = errors.New("python exception")

// NormalizeAnswer is math_normalize.normalize_answer (Hendrycks' MATH
// normalisation): strip, drop an enclosing \text{...}, then _strip_string;
// when a step raises, the stripped (and \text-unwrapped) answer is kept.
func NormalizeAnswer(answer string) string {
	answer = pystr.Strip(answer)
	if inner, ok := textWrapped(answer); ok {
		answer = pystr.Strip(inner)
	}
	s, err := stripString(answer)
	if err != nil {
		return answer
	}
	return s
}

// textWrapped is re.search("^\\\\text\{(?P<text>.+?)\}$", s): s is
// \text{...} with at least one character inside and no newline in it.
// ($ may also match before a final newline, which then stays outside.)
func textWrapped(s string) (string, bool) {
	const open = `\text{`
	if !strings.HasPrefix(s, open) {
		return "", false
	}
	body := s[len(open):]
	body = strings.TrimSuffix(body, "\n")
	if !strings.HasSuffix(body, "}") {
		return "", false
	}
	inner := body[:len(body)-1]
	// .+? stops at the first '}' followed by the end: the inner text may
	// hold '}' but no newline, and cannot be empty.
	if inner == "" || strings.Contains(inner, "\n") {
		return "", false
	}
	return inner, true
}

// stripString is math_normalize._strip_string.
func stripString(s string) (string, error) {
	s = strings.ReplaceAll(s, "\n", "")
	s = strings.ReplaceAll(s, `\!`, "")
	s = strings.ReplaceAll(s, `\\`, `\`)
	s = strings.ReplaceAll(s, "tfrac", "frac")
	s = strings.ReplaceAll(s, "dfrac", "frac")
	s = strings.ReplaceAll(s, `\left`, "")
	s = strings.ReplaceAll(s, `\right`, "")
	s = strings.ReplaceAll(s, `^{\circ}`, "")
	s = strings.ReplaceAll(s, `^\circ`, "")
	s = strings.ReplaceAll(s, `\$`, "")
	var err error
	if s, err = removeRightUnits(s); err != nil {
		return "", err
	}
	s = strings.ReplaceAll(s, `\%`, "")
	s = strings.ReplaceAll(s, " .", " 0.")
	s = strings.ReplaceAll(s, "{.", "{0.")
	if s == "" {
		return s, nil
	}
	if s[0] == '.' {
		s = "0" + s
	}
	if parts := strings.Split(s, "="); len(parts) == 2 && len([]rune(parts[0])) <= 2 {
		s = parts[1]
	}
	if s, err = fixSqrt(s); err != nil {
		return "", err
	}
	s = strings.ReplaceAll(s, " ", "")
	if s, err = fixFracs(s); err != nil {
		return "", err
	}
	if s == "0.5" {
		s = `\frac{1}{2}`
	}
	return fixASlashB(s), nil
}

// removeRightUnits drops everything from "\text{ " on; a second "\text{ "
// fails the reference's assert.
func removeRightUnits(s string) (string, error) {
	parts := strings.Split(s, `\text{ `)
	switch len(parts) {
	case 1:
		return s, nil
	case 2:
		return parts[0], nil
	}
	return "", errPython
}

// fixSqrt turns \sqrtX into \sqrt{X} for a single character X; "\sqrt" at
// the very end raises IndexError in the reference.
func fixSqrt(s string) (string, error) {
	if !strings.Contains(s, `\sqrt`) {
		return s, nil
	}
	splits := strings.Split(s, `\sqrt`)
	var b strings.Builder
	b.WriteString(splits[0])
	for _, sp := range splits[1:] {
		if sp == "" {
			return "", errPython
		}
		r := []rune(sp)
		if r[0] != '{' {
			b.WriteString(`\sqrt{` + string(r[0]) + "}" + string(r[1:]))
		} else {
			b.WriteString(`\sqrt` + sp)
		}
	}
	return b.String(), nil
}

// fixFracs turns \fracAB into \frac{A}{B} (single characters); a "\frac"
// followed by nothing raises IndexError, one followed by a single character
// makes the reference return its input unchanged.
func fixFracs(s string) (string, error) {
	substrs := strings.Split(s, `\frac`)
	var b strings.Builder
	b.WriteString(substrs[0])
	for _, sub := range substrs[1:] {
		b.WriteString(`\frac`)
		if sub == "" {
			return "", errPython
		}
		r := []rune(sub)
		if r[0] == '{' {
			b.WriteString(sub)
			continue
		}
		if len(r) < 2 {
			return s, nil
		}
		a, c := string(r[0]), string(r[1])
		post := string(r[2:])
		if c != "{" {
			b.WriteString("{" + a + "}{" + c + "}" + post)
		} else {
			b.WriteString("{" + a + "}" + c + post)
		}
	}
	return b.String(), nil
}

// fixASlashB turns "a/b" with a and b written as Python's str(int) writes
// them into \frac{a}{b}.
func fixASlashB(s string) string {
	parts := strings.Split(s, "/")
	if len(parts) != 2 || !canonicalInt(parts[0]) || !canonicalInt(parts[1]) {
		return s
	}
	return `\frac{` + parts[0] + "}{" + parts[1] + "}"
}

// canonicalInt reports whether s == str(int(s)) in Python: an optional '-'
// and ASCII digits without leading zeros, "0" alone, not "-0", within
// CPython's 4300-digit conversion limit.
func canonicalInt(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(d) > 4300 || (d[0] == '0' && (len(d) > 1 || d != s)) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}
