package pyval

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// toASCIIDigits is _PyUnicode_TransformDecimalAndSpaceToASCII: every
// Unicode whitespace character becomes ' ' and every decimal digit its
// ASCII digit; any other non-ASCII character makes the string invalid
// (ok false).
func toASCIIDigits(s string) (string, bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s, true
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case pystr.IsSpace(r):
			b.WriteByte(' ')
		case unicode.IsDigit(r):
			b.WriteByte(byte('0' + decimalValue(r)))
		default:
			return "", false
		}
	}
	return b.String(), true
}

// decimalValue is a decimal digit's value: Unicode assigns decimal digits
// (category Nd) in runs of ten, 0 to 9, so the value is the distance from
// the start of the run, modulo 10.
func decimalValue(r rune) int {
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10
}

func asciiSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// removeUnderscores is _Py_string_to_number_with_underscores' check: an
// underscore must sit between two digits; ok false otherwise.
func removeUnderscores(s string) (string, bool) {
	if !strings.Contains(s, "_") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			if i == 0 || i+1 >= len(s) || !isASCIIDigit(s[i-1]) || !isASCIIDigit(s[i+1]) {
				return "", false
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

// PyInt returns int(s) for a str s, or ok false where Python raises
// ValueError: surrounding whitespace, a sign, decimal digits (any script)
// with single underscores between them, at most MaxIntDigits of them.
func PyInt(s string) (Value, bool) {
	s, ok := toASCIIDigits(s)
	if !ok {
		return None, false
	}
	s = strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && asciiSpace(byte(r)) })
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] == '_' {
		return None, false
	}
	digits, ok := removeUnderscores(s)
	if !ok {
		return None, false
	}
	for i := 0; i < len(digits); i++ {
		if !isASCIIDigit(digits[i]) {
			return None, false
		}
	}
	if len(strings.TrimLeft(digits, "0")) > MaxIntDigits {
		return None, false
	}
	n, _ := new(big.Int).SetString(digits, 10)
	if neg {
		n.Neg(n)
	}
	return BigInt(n), true
}

// PyFloat returns float(s) for a str s, or ok false where Python raises
// ValueError: surrounding whitespace, then a decimal number (digits with
// an optional point and exponent, underscores between digits) or
// inf/infinity/nan in any case, with an optional sign. Out-of-range values
// are ±inf, as in Python.
func PyFloat(s string) (Value, bool) {
	s, ok := toASCIIDigits(s)
	if !ok {
		return None, false
	}
	s = strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && asciiSpace(byte(r)) })
	if s, ok = removeUnderscores(s); !ok || s == "" {
		return None, false
	}
	body := s
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if s[0] == '-' {
			return Float(math.Inf(-1)), true
		}
		return Float(math.Inf(1)), true
	case "nan":
		return Float(math.NaN()), true
	}
	if !decimalFloat(body) {
		return None, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return None, false
	}
	return Float(f), true
}

// decimalFloat reports whether s is (digits [. [digits]] | . digits)
// [e [sign] digits].
func decimalFloat(s string) bool {
	i, n := 0, len(s)
	d1 := 0
	for i < n && isASCIIDigit(s[i]) {
		i, d1 = i+1, d1+1
	}
	d2 := 0
	if i < n && s[i] == '.' {
		i++
		for i < n && isASCIIDigit(s[i]) {
			i, d2 = i+1, d2+1
		}
	}
	if d1+d2 == 0 {
		return false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d3 := 0
		for i < n && isASCIIDigit(s[i]) {
			i, d3 = i+1, d3+1
		}
		if d3 == 0 {
			return false
		}
	}
	return i == n
}

// IntToFloat returns float(i) for an int, or Python's OverflowError when
// it is too large for a float.
func IntToFloat(i *big.Int) (Value, error) {
	f, _ := new(big.Float).SetInt(i).Float64()
	if math.IsInf(f, 0) {
		return None, Errorf("OverflowError", "int too large to convert to float")
	}
	return Float(f), nil
}

// Strip returns Python's s.strip(): s without leading and trailing
// whitespace as str.isspace defines it (U+001C..U+001F included).
func Strip(s string) string { return pystr.Strip(s) }
