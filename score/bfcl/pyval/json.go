package pyval

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
)

// MaxIntDigits is CPython's default int_max_str_digits (4300): json.loads
// of a longer integer, and str() of a larger int, raise ValueError.
const MaxIntDigits = 4300

// MaxDepth is how deeply nested arrays and objects Loads reads before
// raising RecursionError, as CPython 3.12's json C scanner does when it
// reaches the C recursion limit (1500, less the C frames already in use):
// json.loads called directly nests 1,497 levels, and each C call between
// it and its caller costs two (testdata/json_depth.json, from
// gen_json_depth.py). How many the reference scorer has is not known, so
// from UncertainDepth on its outcome may be a RecursionError where Loads
// reads the value: BracketDepth finds such text.
const MaxDepth = 1497

// UncertainDepth is the shallowest nesting json.loads refuses when reached
// through four C calls.
const UncertainDepth = 1490

// BracketDepth is how deeply s nests brackets ([, {, ( counted alike, in
// strings too): a bound on the nesting of any JSON or Python value read
// from s, cheap to compute on a model's whole answer.
func BracketDepth(s string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
			deepest = max(deepest, depth)
		case ']', '}', ')':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// Loads parses s as Python's json.loads (the C scanner, strict=True) does:
// JSON whitespace around one value; integers of any size (up to
// MaxIntDigits digits) as int and numbers with a fraction or exponent as
// float; NaN, Infinity and -Infinity; objects as dicts whose duplicate
// keys keep the first key's place and the last value. Errors are
// *Error values of Python's types: JSONDecodeError for malformed JSON,
// ValueError for an integer past MaxIntDigits, RecursionError past
// MaxDepth.
//
// One difference: a lone UTF-16 surrogate escape (\ud800 unpaired), which
// Python keeps in its str, becomes U+FFFD, as Go strings hold UTF-8.
func Loads(s string) (Value, error) {
	if strings.HasPrefix(s, "\ufeff") {
		return None, decodeErr("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
	}
	p := jsonParser{s: s}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return None, err
	}
	p.ws()
	if p.i != len(p.s) {
		return None, decodeErr("Extra data", p.i)
	}
	return v, nil
}

func decodeErr(msg string, pos int) *Error {
	return Errorf("JSONDecodeError", "%s: char %d", msg, pos)
}

type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (Value, error) {
	if p.i >= len(p.s) {
		return None, decodeErr("Expecting value", p.i)
	}
	switch c := p.s[p.i]; {
	case c == '"':
		p.i++
		s, err := p.str()
		return Str(s), err
	case c == '{':
		if depth >= MaxDepth {
			return None, Errorf("RecursionError", "maximum recursion depth exceeded while decoding a JSON object from a unicode string")
		}
		return p.object(depth + 1)
	case c == '[':
		if depth >= MaxDepth {
			return None, Errorf("RecursionError", "maximum recursion depth exceeded while decoding a JSON array from a unicode string")
		}
		return p.array(depth + 1)
	case c == 'n' && strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return None, nil
	case c == 't' && strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return Bool(true), nil
	case c == 'f' && strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return Bool(false), nil
	case c == 'N' && strings.HasPrefix(p.s[p.i:], "NaN"):
		p.i += 3
		return Value{Kind: FloatKind, Float: math.NaN(), jsonNaN: true}, nil
	case c == 'I' && strings.HasPrefix(p.s[p.i:], "Infinity"):
		p.i += 8
		return Float(math.Inf(1)), nil
	case c == '-' && strings.HasPrefix(p.s[p.i:], "-Infinity"):
		p.i += 9
		return Float(math.Inf(-1)), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return None, decodeErr("Expecting value", p.i)
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, as the C
// scanner's _match_number_unicode does.
func (p *jsonParser) number() (Value, error) {
	start := p.i
	s := p.s
	i := p.i
	if s[i] == '-' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return None, decodeErr("Expecting value", start)
		}
	}
	if s[i] == '0' {
		i++
	} else {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	isFloat := false
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		isFloat = true
		i += 2
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			isFloat, i = true, j
		}
	}
	p.i = i
	lit := s[start:i]
	if isFloat {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil && !math.IsInf(f, 0) {
			return None, decodeErr("Expecting value", start)
		}
		return Float(f), nil
	}
	return parseIntLiteral(lit)
}

// parseIntLiteral converts a decimal literal (optional '-', digits) to an
// int, with CPython's digit limit.
func parseIntLiteral(lit string) (Value, error) {
	if d := len(strings.TrimPrefix(lit, "-")); d > MaxIntDigits {
		return None, Errorf("ValueError", "Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", MaxIntDigits, d)
	}
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return Int(n), nil
	}
	b, ok := new(big.Int).SetString(lit, 10)
	if !ok {
		return None, Errorf("ValueError", "invalid literal for int() with base 10: %q", lit)
	}
	return BigInt(b), nil
}

// str reads a string body after its opening quote, as json.loads's C
// scanner (scanstring_unicode) does: its errors, and a lone surrogate
// escape kept (as U+FFFD). benchmarks/qwen3vl/eval reads JSON strings
// with the same escapes but as pydantic's jiter does (a lone surrogate is
// an error there, errors are jiter's), so the two are kept apart.
func (p *jsonParser) str() (string, error) {
	start := p.i - 1
	var b strings.Builder
	for {
		j := p.i
		for j < len(p.s) && p.s[j] != '"' && p.s[j] != '\\' && p.s[j] >= 0x20 {
			j++
		}
		b.WriteString(p.s[p.i:j])
		p.i = j
		if j >= len(p.s) {
			return "", decodeErr("Unterminated string starting at", start)
		}
		switch c := p.s[j]; {
		case c == '"':
			p.i++
			return sanitize(b.String()), nil
		case c < 0x20:
			return "", decodeErr("Invalid control character at", j)
		}
		// a backslash
		if j+1 >= len(p.s) {
			return "", decodeErr("Unterminated string starting at", start)
		}
		esc := p.s[j+1]
		p.i = j + 2
		switch esc {
		case '"', '\\', '/':
			b.WriteByte(esc)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.uEscape(j)
			if err != nil {
				return "", err
			}
			b.WriteRune(r)
		default:
			return "", decodeErr("Invalid \\escape", j)
		}
	}
}

// uEscape reads the hex digits of a \u escape at j (p.i just past "\u"),
// joining a surrogate pair as Python does.
func (p *jsonParser) uEscape(j int) (rune, error) {
	r, ok := hex4(p.s, p.i)
	if !ok {
		return 0, decodeErr("Invalid \\uXXXX escape", j+1)
	}
	p.i += 4
	if utf16.IsSurrogate(r) && r < 0xdc00 && strings.HasPrefix(p.s[p.i:], "\\u") {
		if r2, ok := hex4(p.s, p.i+2); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
			p.i += 6
			return utf16.DecodeRune(r, r2), nil
		}
	}
	if utf16.IsSurrogate(r) {
		return utf8.RuneError, nil
	}
	return r, nil
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s[i:i+4], 16, 32)
	if err != nil || strings.ContainsAny(s[i:i+4], "+-_") {
		return 0, false
	}
	return rune(n), true
}

// sanitize replaces invalid UTF-8 (which a Python str cannot hold) by
// U+FFFD.
func sanitize(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func (p *jsonParser) array(depth int) (Value, error) {
	p.i++ // '['
	var items []Value
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return List(), nil
	}
	for {
		p.ws()
		v, err := p.value(depth)
		if err != nil {
			return None, err
		}
		items = append(items, v)
		p.ws()
		if p.i >= len(p.s) {
			return None, decodeErr("Expecting ',' delimiter", p.i)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return List(items...), nil
		default:
			return None, decodeErr("Expecting ',' delimiter", p.i)
		}
	}
}

func (p *jsonParser) object(depth int) (Value, error) {
	p.i++ // '{'
	var d DictBuilder
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return d.Dict(), nil
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return None, decodeErr("Expecting property name enclosed in double quotes", p.i)
		}
		p.i++
		k, err := p.str()
		if err != nil {
			return None, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return None, decodeErr("Expecting ':' delimiter", p.i)
		}
		p.i++
		p.ws()
		v, err := p.value(depth)
		if err != nil {
			return None, err
		}
		_ = d.Set(Str(k), v) // a str key is always hashable
		p.ws()
		if p.i >= len(p.s) {
			return None, decodeErr("Expecting ',' delimiter", p.i)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return d.Dict(), nil
		default:
			return None, decodeErr("Expecting ',' delimiter", p.i)
		}
	}
}

// Dumps returns Python's json.dumps(v) with its defaults: ensure_ascii
// (every non-ASCII character as \uXXXX, surrogate pairs above U+FFFF),
// ", " and ": " separators, NaN and Infinity allowed, tuples written as
// lists, dict keys of type float, bool, None and int turned into strings.
// A set, complex, bytes or Ellipsis (anywhere), a dict key of another
// type, or an int past MaxIntDigits is the error Python raises.
func Dumps(v Value) (string, error) {
	var b strings.Builder
	if err := dump(&b, v, true); err != nil {
		return "", err
	}
	return b.String(), nil
}

// DumpsUnicode is json.dumps(v, ensure_ascii=False): Dumps, but characters
// past ASCII (and DEL) written as they are.
func DumpsUnicode(v Value) (string, error) {
	var b strings.Builder
	if err := dump(&b, v, false); err != nil {
		return "", err
	}
	return b.String(), nil
}

func dump(b *strings.Builder, v Value, ascii bool) error {
	switch v.Kind {
	case NoneKind:
		b.WriteString("null")
	case BoolKind:
		if v.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case IntKind:
		s, err := IntStr(v.Int)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case FloatKind:
		b.WriteString(pyfloat.JSON(v.Float))
	case StrKind:
		writeString(b, v.Str, ascii)
	case ListKind, TupleKind:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := dump(b, it, ascii); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case DictKind:
		b.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			ks, err := jsonKey(k)
			if err != nil {
				return err
			}
			writeString(b, ks, ascii)
			b.WriteString(": ")
			if err := dump(b, v.Vals[i], ascii); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return Errorf("TypeError", "Object of type %s is not JSON serializable", v.TypeName())
	}
	return nil
}

// jsonKey is the C encoder's key conversion: str as is, then float,
// True/False/None, int; anything else a TypeError.
func jsonKey(k Value) (string, error) {
	switch k.Kind {
	case StrKind:
		return k.Str, nil
	case FloatKind:
		return pyfloat.JSON(k.Float), nil
	case BoolKind:
		if k.Bool {
			return "true", nil
		}
		return "false", nil
	case NoneKind:
		return "null", nil
	case IntKind:
		return IntStr(k.Int)
	}
	return "", Errorf("TypeError", "keys must be str, int, float, bool or None, not %s", k.TypeName())
}

// IntStr returns str(i), or CPython's ValueError past MaxIntDigits.
func IntStr(i *big.Int) (string, error) {
	s := i.String()
	if d := len(strings.TrimPrefix(s, "-")); d > MaxIntDigits {
		return "", Errorf("ValueError", "Exceeds the limit (%d digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit", MaxIntDigits)
	}
	return s, nil
}

const lowerHex = "0123456789abcdef"

// writeString writes s as json.dumps does: with ensure_ascii, every
// character past ASCII (and DEL) as \uXXXX; without, only control
// characters escaped.
func writeString(b *strings.Builder, s string, ascii bool) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || (ascii && r >= 0x7f && r < 0x10000):
			writeU(b, r)
		case ascii && r >= 0x10000:
			r1, r2 := utf16.EncodeRune(r)
			writeU(b, r1)
			writeU(b, r2)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

func writeU(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	b.WriteByte(lowerHex[r>>12&0xf])
	b.WriteByte(lowerHex[r>>8&0xf])
	b.WriteByte(lowerHex[r>>4&0xf])
	b.WriteByte(lowerHex[r&0xf])
}

// RoundTrip returns json.loads(json.dumps(v)): tuples become lists, dict
// keys strings, and what json.dumps refuses is its error.
func RoundTrip(v Value) (Value, error) {
	s, err := Dumps(v)
	if err != nil {
		return None, err
	}
	return Loads(s)
}
