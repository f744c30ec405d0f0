package pyast

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
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

// StrRepr returns Python's repr(s) for a str: single quotes unless s
// holds a single quote and no double quote; \\, the quote, \t, \n, \r
// escaped; other non-printable characters as \xhh, \uhhhh or \Uhhhhhhhh.
func StrRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, "\"") {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < ' ' || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x80 || isPrintable(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
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
