package eval

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ProductMetadata is a response that validated against the reference's schema
// (multimodal/qwen3-vl/src/mlperf_inf_mm_q3vl/schema.py, class ProductMetadata:
// category str, brand str, is_secondhand bool, extra="forbid").
type ProductMetadata struct {
	Category     string
	Brand        string
	IsSecondhand bool
}

// ValidateResponse decides, as the reference's
// ProductMetadata.model_validate_json(response) does (pydantic v2, lax mode,
// JSON parsed by jiter), whether response is a valid answer, and returns the
// parsed fields or an error saying why not. Rules reproduced (checked against
// pydantic 2.13/2.14):
//   - the text is one JSON value, optionally surrounded by ' ', \t, \n, \r;
//     anything else around it — a Markdown ```json fence, a BOM, a second
//     value — makes it invalid. NaN, Infinity and -Infinity are accepted
//     number literals; lone UTF-16 surrogate escapes are rejected; values may
//     nest at most 200 deep (jiter's recursion limit).
//   - the value is an object whose keys, after unescaping, are exactly
//     "category", "brand" and "is_secondhand" (case-sensitive; any other key
//     is forbidden). A repeated key keeps its last value, even if an earlier
//     one would not validate.
//   - category and brand are JSON strings (numbers and null are rejected);
//   - is_secondhand is true/false, a number equal to 0 or 1 (0, 1, 1.0, -0,
//     1e0, 0.99999999999999999 — whatever parses to float64 0 or 1), or one
//     of the strings "0", "1" or, in any ASCII case, "f", "n", "no", "off",
//     "false", "t", "y", "on", "yes", "true" (no surrounding space).
func ValidateResponse(response string) (ProductMetadata, error) {
	p := jsonParser{s: response}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] != '{' {
		// Still parse, so malformed JSON is reported as such first, as pydantic
		// parses the whole document before validating it.
		if _, err := p.skipValue(0); err != nil {
			return ProductMetadata{}, err
		}
		if err := p.end(); err != nil {
			return ProductMetadata{}, err
		}
		return ProductMetadata{}, errors.New("not a JSON object (model_type)")
	}
	fields, err := p.object()
	if err != nil {
		return ProductMetadata{}, err
	}
	if err := p.end(); err != nil {
		return ProductMetadata{}, err
	}
	var pm ProductMetadata
	var problems []string
	var seen [3]bool
	for name, v := range fields {
		switch name {
		case "category", "brand":
			if v.kind != kindString {
				problems = append(problems, fmt.Sprintf("%s: input should be a string (string_type), got %s", name, v.kind))
				continue
			}
			if name == "category" {
				pm.Category, seen[0] = v.str, true
			} else {
				pm.Brand, seen[1] = v.str, true
			}
		case "is_secondhand":
			b, err := laxBool(v)
			if err != nil {
				problems = append(problems, "is_secondhand: "+err.Error())
				continue
			}
			pm.IsSecondhand, seen[2] = b, true
		default:
			problems = append(problems, fmt.Sprintf("%q: extra inputs are not permitted (extra_forbidden)", name))
		}
	}
	for i, name := range []string{"category", "brand", "is_secondhand"} {
		if _, ok := fields[name]; !ok && !seen[i] { // present but invalid is reported above
			problems = append(problems, name+": field required (missing)")
		}
	}
	if len(problems) > 0 {
		// Map order is random; sort for stable messages.
		slices.Sort(problems)
		return ProductMetadata{}, errors.New(strings.Join(problems, "; "))
	}
	return pm, nil
}

// laxBool is pydantic-core's lax bool validation of a JSON value.
func laxBool(v jsonValue) (bool, error) {
	switch v.kind {
	case kindTrue:
		return true, nil
	case kindFalse:
		return false, nil
	case kindNumber:
		f, err := strconv.ParseFloat(v.str, 64)
		if err == nil || errors.Is(err, strconv.ErrRange) {
			switch f {
			case 0:
				return false, nil
			case 1:
				return true, nil
			}
		}
		return false, fmt.Errorf("input should be a valid boolean, got number %s", v.str)
	case kindString:
		switch s := v.str; {
		case s == "0" || eqFold(s, "f") || eqFold(s, "n") || eqFold(s, "no") || eqFold(s, "off") || eqFold(s, "false"):
			return false, nil
		case s == "1" || eqFold(s, "t") || eqFold(s, "y") || eqFold(s, "on") || eqFold(s, "yes") || eqFold(s, "true"):
			return true, nil
		}
		return false, fmt.Errorf("input should be a valid boolean, unable to interpret string %q (bool_parsing)", v.str)
	}
	return false, fmt.Errorf("input should be a valid boolean (bool_type), got %s", v.kind)
}

// eqFold is ASCII-only case-insensitive equality (Rust's eq_ignore_ascii_case).
func eqFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// maxJSONDepth is jiter's recursion limit as pydantic uses it: a value may
// sit inside at most 200 containers.
const maxJSONDepth = 200

type valueKind int

const (
	kindString valueKind = iota
	kindNumber
	kindTrue
	kindFalse
	kindNull
	kindArray
	kindObject
)

func (k valueKind) String() string {
	return [...]string{"string", "number", "true", "false", "null", "array", "object"}[k]
}

// jsonValue is a top-level field's value; str holds a string's unescaped text
// or a number's literal.
type jsonValue struct {
	kind valueKind
	str  string
}

// jsonParser is a strict RFC 8259 parser with jiter's extensions (NaN,
// ±Infinity) and limits. It only keeps the top-level object's fields.
type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) errf(format string, args ...any) error {
	return fmt.Errorf("invalid JSON at byte %d: %s (json_invalid)", p.i, fmt.Sprintf(format, args...))
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

func (p *jsonParser) end() error {
	p.ws()
	if p.i != len(p.s) {
		return p.errf("trailing characters")
	}
	return nil
}

// object parses the top-level object, keeping the last value of each key.
func (p *jsonParser) object() (map[string]jsonValue, error) {
	if p.i >= len(p.s) {
		return nil, p.errf("EOF while parsing a value")
	}
	p.i++ // '{'
	fields := make(map[string]jsonValue, 3)
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return fields, nil
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errf("key must be a string")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("expected ':'")
		}
		p.i++
		p.ws()
		start := p.i
		kind, err := p.skipValue(1)
		if err != nil {
			return nil, err
		}
		v := jsonValue{kind: kind}
		switch kind {
		case kindString:
			// Re-parse to unescape; only three fields ever need it.
			q := jsonParser{s: p.s, i: start}
			v.str, _ = q.str()
		case kindNumber:
			v.str = p.s[start:p.i]
		}
		fields[key] = v
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("EOF while parsing an object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return fields, nil
		default:
			return nil, p.errf("expected ',' or '}'")
		}
	}
}

// skipValue validates one value at nesting depth d and reports its kind.
func (p *jsonParser) skipValue(d int) (valueKind, error) {
	if d > maxJSONDepth {
		return 0, p.errf("recursion limit exceeded")
	}
	if p.i >= len(p.s) {
		return 0, p.errf("EOF while parsing a value")
	}
	switch c := p.s[p.i]; {
	case c == '"':
		_, err := p.str()
		return kindString, err
	case c == '{' || c == '[':
		closer := byte('}')
		kind := kindObject
		if c == '[' {
			closer, kind = ']', kindArray
		}
		p.i++
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == closer {
			p.i++
			return kind, nil
		}
		for {
			p.ws()
			if kind == kindObject {
				if p.i >= len(p.s) || p.s[p.i] != '"' {
					return 0, p.errf("key must be a string")
				}
				if _, err := p.str(); err != nil {
					return 0, err
				}
				p.ws()
				if p.i >= len(p.s) || p.s[p.i] != ':' {
					return 0, p.errf("expected ':'")
				}
				p.i++
				p.ws()
			}
			if _, err := p.skipValue(d + 1); err != nil {
				return 0, err
			}
			p.ws()
			if p.i >= len(p.s) {
				return 0, p.errf("EOF while parsing a %s", kind)
			}
			if p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.s[p.i] == closer {
				p.i++
				return kind, nil
			}
			return 0, p.errf("expected ',' or %q", closer)
		}
	case c == 't':
		return kindTrue, p.literal("true")
	case c == 'f':
		return kindFalse, p.literal("false")
	case c == 'n':
		return kindNull, p.literal("null")
	case c == 'N':
		return kindNumber, p.literal("NaN")
	case c == 'I':
		return kindNumber, p.literal("Infinity")
	case c == '-' || ('0' <= c && c <= '9'):
		return kindNumber, p.number()
	}
	return 0, p.errf("expected value")
}

func (p *jsonParser) literal(lit string) error {
	if !strings.HasPrefix(p.s[p.i:], lit) {
		return p.errf("expected %s", lit)
	}
	p.i += len(lit)
	return nil
}

func (p *jsonParser) digits() int {
	n := 0
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

// maxIntChars is the longest integer part, sign included, pydantic's JSON
// parser (jiter) reads: it refuses a number whose integer part is longer
// ("number out of range"), like Python's int() past sys.int_info's default
// max_str_digits of 4,300, even where a float would follow ("1…1.5").
// Checked with pydantic 2.13: 4,300 digits parse, 4,301 do not, nor do
// "-" and 4,300 digits; digits after the point do not count.
const maxIntChars = 4300

func (p *jsonParser) number() error {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
		if strings.HasPrefix(p.s[p.i:], "Infinity") {
			p.i += len("Infinity")
			return nil
		}
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
		if p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			return p.errf("leading zero in number")
		}
	} else if p.digits() == 0 {
		return p.errf("invalid number")
	}
	if p.i-start > maxIntChars {
		return p.errf("number out of range (an integer part of %d characters; pydantic reads at most %d)", p.i-start, maxIntChars)
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return p.errf("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return p.errf("invalid number")
		}
	}
	return nil
}

// str parses a string starting at its opening quote and returns its text,
// as jiter does: a lone surrogate escape is an error. score/bfcl/pyval
// reads JSON strings with the same escapes but as Python's json.loads does
// (it keeps a lone surrogate, its errors are JSONDecodeError's), so the
// two are kept apart.
func (p *jsonParser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes.
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			s := p.s[start:p.i]
			p.i++
			return s, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errf("control character in string")
		}
		p.i++
	}
	var b strings.Builder
	b.WriteString(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.errf("control character in string")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			break
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
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
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || !strings.HasPrefix(p.s[p.i:], `\u`) {
					return "", p.errf("lone surrogate in string")
				}
				p.i += 2
				r2, err := p.hex4()
				if err != nil {
					return "", err
				}
				if r2 < 0xDC00 || r2 > 0xDFFF {
					return "", p.errf("lone surrogate in string")
				}
				r = utf16.DecodeRune(r, r2)
			}
			b.WriteRune(r)
		default:
			return "", p.errf("invalid escape")
		}
	}
	return "", p.errf("EOF while parsing a string")
}

func (p *jsonParser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.errf("EOF in \\u escape")
	}
	var r rune
	for _, c := range []byte(p.s[p.i : p.i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, p.errf("invalid \\u escape")
		}
		r = r<<4 | rune(c)
	}
	p.i += 4
	return r, nil
}

// decodeUTF8 is the reference's bytes.decode("utf-8") (strict).
func decodeUTF8(b []byte) (string, bool) {
	return string(b), utf8.Valid(b)
}
