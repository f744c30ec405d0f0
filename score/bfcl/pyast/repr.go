package pyast

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/internal/pyrepr"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// infStr is ast's _INFSTR: a literal that overflows to infinity.
const infStr = "1e309"

// constRepr is _write_constant outside f-strings: repr(value), with
// infinities written as 1e309 and NaN as (1e309-1e309).
func constRepr(v pyval.Value) (string, error) {
	switch v.Kind {
	case pyval.NoneKind:
		return "None", nil
	case pyval.BoolKind:
		if v.Bool {
			return "True", nil
		}
		return "False", nil
	case pyval.IntKind:
		return pyval.IntStr(v.Int)
	case pyval.FloatKind:
		return infNaN(pyfloat.Repr(v.Float)), nil
	case pyval.ComplexKind:
		return infNaN(complexRepr(v.Complex)), nil
	case pyval.StrKind:
		return StrRepr(v.Str), nil
	case pyval.BytesKind:
		return bytesRepr(v.Str), nil
	}
	return "", fmt.Errorf("pyast: no repr for %s", v.TypeName())
}

func infNaN(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "inf", infStr), "nan", "("+infStr+"-"+infStr+")")
}

// complexRepr is complex.__repr__: "imagj" when the real part is +0,
// else "(real±imagj)", both with repr's shortest digits but no ".0".
func complexRepr(c complex128) string {
	re, im := real(c), imag(c)
	if re == 0 && !math.Signbit(re) {
		return shortRepr(im) + "j"
	}
	sign := "+"
	if math.Signbit(im) || math.IsNaN(im) && math.Signbit(im) {
		sign = ""
	}
	ims := shortRepr(im)
	if math.IsNaN(im) {
		ims, sign = "nan", "+"
	}
	return "(" + shortRepr(re) + sign + ims + "j)"
}

// shortRepr is PyOS_double_to_string(x, 'r', 0, 0): repr without the
// ".0" Python adds to integral floats.
func shortRepr(x float64) string {
	return strings.TrimSuffix(pyfloat.Repr(x), ".0")
}

// StrRepr returns Python's repr(s) for a str (pyrepr.Str). A byte of s
// that is not UTF-8 is read as U+FFFD, each on its own, as this package
// reads a lone surrogate (writeCode), so that what Unparse writes parses
// back to the same string; pyrepr would write surrogateescape's \udcNN,
// which would parse back to U+FFFD.
func StrRepr(s string) string {
	if !utf8.ValidString(s) {
		var b strings.Builder
		for _, r := range s { // an invalid byte ranges as U+FFFD
			b.WriteRune(r)
		}
		s = b.String()
	}
	return pyrepr.Str(s)
}

// isPrintable is str.isprintable for one character: not in categories
// Cc, Cf, Cs, Co, Cn, Zl, Zp, and not a space other than U+0020 (which is
// Go's unicode.IsPrint).
func isPrintable(r rune) bool { return unicode.IsPrint(r) }

// bytesRepr is repr(bytes).
func bytesRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, "\"") {
		q = '"'
	}
	var b strings.Builder
	b.WriteString("b")
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < ' ' || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}
