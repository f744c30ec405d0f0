// Package jscan is a small validating JSON scanner that decodes values in place.
//
// A Scanner walks one JSON document once. The caller decodes the few
// values it needs in place (Str, Int64, Bool, Null, the int32-array
// readers) and lets Skip consume everything else, which is still
// validated: a document encoding/json rejects (json.Valid false, or
// nesting deeper than encoding/json's 10,000 levels) is rejected here too,
// with an *Error giving the byte offset. Strings are returned as
// subslices of the input, so a large string that is skipped is never
// copied. Nothing uses reflection, and nothing allocates except decoding a
// string or an object key that carries escapes. It is plain Go, a byte at
// a time: correctness and clarity come before speed here.
//
// UTF-8 is not validated while scanning, as encoding/json does not reject
// invalid UTF-8 either; AppendStr and DecodeString replace it with U+FFFD
// exactly as encoding/json does when decoding into a string.
package jscan

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Scanner reads one JSON document from a byte slice it does not copy. The
// zero value scans an empty document; use New. Methods that read a value
// first skip whitespace; on error the Scanner's position is unspecified
// and the walk should stop.
type Scanner struct {
	b     []byte
	i     int
	depth int
}

// New returns a Scanner positioned at the start of b. b must not change
// while the Scanner or anything it returned is in use.
func New(b []byte) Scanner { return Scanner{b: b} }

// MaxDepth is the deepest nesting of objects and arrays accepted; it
// matches encoding/json's limit.
const MaxDepth = 10000

// Error says where a document stopped being JSON (or stopped being what
// the caller expected, for errors made with Fail).
type Error struct {
	Offset int    // byte offset into the document
	Msg    string // what was wrong there
}

// Error implements error: "malformed JSON at byte N: msg".
func (e *Error) Error() string { return fmt.Sprintf("malformed JSON at byte %d: %s", e.Offset, e.Msg) }

// Fail returns an *Error at the current position. Callers use it to reject
// a well-formed value they cannot use (an ID out of range, say) with the
// same error type as a syntax error.
func (s *Scanner) Fail(msg string) error { return &Error{s.i, msg} }

// Offset is the current byte position in the document.
func (s *Scanner) Offset() int { return s.i }

func (s *Scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// Peek skips whitespace and returns the next byte without consuming it, or
// 0 at the end of the document. The byte says what kind of value follows:
// '{', '[', '"', 't', 'f', 'n', '-' or a digit.
func (s *Scanner) Peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// End checks that only whitespace follows the top-level value. Call it
// after reading that value: without it, "{} x" reads as a valid object.
func (s *Scanner) End() error {
	s.ws()
	if s.i != len(s.b) {
		return s.Fail("data after the top-level value")
	}
	return nil
}

func (s *Scanner) lit(word string) error {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return s.Fail("invalid literal")
	}
	s.i += len(word)
	return nil
}

// Null consumes a null if one is next and reports whether it did; any other
// value is left unread (and isNull is false).
func (s *Scanner) Null() (isNull bool, err error) {
	if s.Peek() != 'n' {
		return false, nil
	}
	return true, s.lit("null")
}

// Bool reads true or false; anything else is an error.
func (s *Scanner) Bool() (bool, error) {
	switch s.Peek() {
	case 't':
		return true, s.lit("true")
	case 'f':
		return false, s.lit("false")
	}
	return false, s.Fail("expected a boolean")
}

// Str reads a string and returns its raw contents (the bytes between the
// quotes, a subslice of the document) and whether they contain escapes.
// Escapes and control characters are validated here; decode raw with
// AppendStr or DecodeString when the text itself is needed. A string that
// is not needed costs no copy.
func (s *Scanner) Str() (raw []byte, esc bool, err error) {
	if s.Peek() != '"' {
		return nil, false, s.Fail("expected a string")
	}
	s.i++
	start := s.i
	b := s.b
	for s.i < len(b) {
		// Skip eight ordinary bytes at a time: a base64 image is tens of
		// kilobytes of them.
		for s.i+8 <= len(b) && !special8(binary.LittleEndian.Uint64(b[s.i:])) {
			s.i += 8
		}
		if s.i >= len(b) {
			break
		}
		switch c := b[s.i]; {
		case c == '"':
			raw = b[start:s.i]
			s.i++
			return raw, esc, nil
		case c == '\\':
			esc = true
			s.i++
			if s.i >= len(b) {
				return nil, false, s.Fail("unterminated escape")
			}
			switch b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if len(b)-s.i < 5 || hex4(b[s.i+1:]) < 0 {
					return nil, false, s.Fail("invalid \\u escape")
				}
				s.i += 5
			default:
				return nil, false, s.Fail("invalid escape")
			}
		case c < 0x20:
			return nil, false, s.Fail("control character in string")
		default:
			s.i++
		}
	}
	return nil, false, s.Fail("unterminated string")
}

// special8 reports whether any of the eight bytes in w needs a look in a
// string: a quote, a backslash or a control character (the classic
// has-zero and has-less word tricks; either may flag a byte it need not,
// never miss one).
func special8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(x uint64) uint64 { return (x - ones) &^ x & highs }
	less := (w - ones*0x20) &^ w & highs
	return less|zero(w^(ones*'"'))|zero(w^(ones*'\\')) != 0
}

// hex4 decodes four hex digits, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// AppendStr appends to dst the text of a string whose raw contents and
// escape flag Str returned. It decodes as encoding/json does: invalid
// UTF-8 and unpaired surrogate escapes become U+FFFD. raw must come from
// Str (it is not validated again). Runs of ASCII between escapes are
// appended whole.
func AppendStr(dst, raw []byte, esc bool) []byte {
	if !esc && utf8.Valid(raw) {
		return append(dst, raw...)
	}
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j] != '\\' && raw[j] < utf8.RuneSelf {
			j++
		}
		dst = append(dst, raw[i:j]...)
		if i = j; i == len(raw) {
			break
		}
		if c := raw[i]; c != '\\' {
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
			continue
		}
		// A backslash; Str checked the escape is whole.
		i++
		switch raw[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(raw[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2 = hex4(raw[i+3:])
				}
				if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
					i += 6
					dst = utf8.AppendRune(dst, dec)
					break
				}
				r = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, raw[i])
		}
		i++
	}
	return dst
}

// DecodeString is AppendStr into a new string: one allocation (none when
// the string is empty).
func DecodeString(raw []byte, esc bool) string {
	if !esc && utf8.Valid(raw) {
		return string(raw)
	}
	// Decoded text is at most as long as raw unless invalid bytes expand
	// to U+FFFD; the buffer becomes the string (as strings.Builder does),
	// nothing else refers to it.
	b := AppendStr(make([]byte, 0, len(raw)), raw, esc)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// RuneCount counts the code points of a decoded string (what Python's len
// returns) from its raw contents; it allocates only when raw has escapes.
func RuneCount(raw []byte, esc bool) int {
	if !esc {
		// Invalid bytes decode to one U+FFFD each, which RuneCount
		// already counts as one rune each.
		return utf8.RuneCount(raw)
	}
	return utf8.RuneCount(AppendStr(nil, raw, esc))
}

// Number reads a number and returns its bytes (a subslice of the
// document) and whether it is an integer (no fraction or exponent).
func (s *Scanner) Number() (raw []byte, integer bool, err error) {
	s.ws()
	b := s.b
	start := s.i
	i, ok := intEnd(b, s.i)
	if !ok {
		s.i = i
		return nil, false, s.Fail("invalid number")
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.i = i
			return nil, false, s.Fail("invalid number fraction")
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.i = i
			return nil, false, s.Fail("invalid number exponent")
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	s.i = i
	return b[start:i], integer, nil
}

// intEnd scans JSON's integer part at b[i:] (an optional minus, then 0 or
// a digit run not starting with 0) and returns where it ends; false, with
// the offset of the offending byte, if there is none.
func intEnd(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		return i + 1, true
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i++; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		}
		return i, true
	}
	return i, false
}

// Int64 reads an integer that fits in int64. A fraction or an exponent
// ("1.0", "1e2") is an error, as strconv.ParseInt (and encoding/json into
// an integer type) would make it.
func (s *Scanner) Int64() (int64, error) {
	s.ws()
	at := s.i
	raw, integer, err := s.Number()
	if err != nil {
		return 0, err
	}
	if !integer {
		s.i = at
		return 0, s.Fail("expected an integer")
	}
	neg := raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	var v uint64
	for _, c := range raw {
		if v > (math.MaxUint64-9)/10 {
			s.i = at
			return 0, s.Fail("integer out of range")
		}
		v = v*10 + uint64(c-'0')
	}
	if neg {
		if v > 1<<63 {
			s.i = at
			return 0, s.Fail("integer out of range")
		}
		return -int64(v), nil
	}
	if v > math.MaxInt64 {
		s.i = at
		return 0, s.Fail("integer out of range")
	}
	return int64(v), nil
}

// Object reads an object, calling fn with each key in document order; fn
// must consume exactly one value (read it, or Skip it). Duplicate keys are
// all delivered: a caller that wants encoding/json's "the last one wins"
// overwrites. A key without escapes is delivered as it is in the
// document (a subslice); one with escapes is decoded into a fresh copy
// (rare; the only allocation in a walk). The two differ from
// encoding/json's reading of a key only in invalid UTF-8, which it turns
// into U+FFFD (AppendStr(nil, key, false) does the same); no key with
// invalid UTF-8 matches a valid UTF-8 name either way, so callers matching
// names need not care. Matching is up to fn: encoding/json matches struct
// fields exactly or else with bytes.EqualFold.
func (s *Scanner) Object(fn func(key []byte) error) error {
	if s.Peek() != '{' {
		return s.Fail("expected an object")
	}
	if s.depth++; s.depth > MaxDepth {
		return s.Fail("nesting too deep")
	}
	s.i++
	if s.Peek() == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		k, esc, err := s.Str()
		if err != nil {
			return err
		}
		if esc {
			k = AppendStr(nil, k, true)
		}
		if s.Peek() != ':' {
			return s.Fail("expected ':' after object key")
		}
		s.i++
		if err := fn(k); err != nil {
			return err
		}
		switch s.Peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.Fail("expected ',' or '}' in object")
		}
	}
}

// Array reads an array, calling fn with each element's position (0, 1,
// ...); fn must consume exactly one value.
func (s *Scanner) Array(fn func(idx int) error) error {
	if s.Peek() != '[' {
		return s.Fail("expected an array")
	}
	if s.depth++; s.depth > MaxDepth {
		return s.Fail("nesting too deep")
	}
	s.i++
	if s.Peek() == ']' {
		s.i++
		s.depth--
		return nil
	}
	for n := 0; ; n++ {
		if err := fn(n); err != nil {
			return err
		}
		switch s.Peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.Fail("expected ',' or ']' in array")
		}
	}
}

// Skip consumes and validates one value of any kind.
func (s *Scanner) Skip() error {
	switch c := s.Peek(); {
	case c == '{':
		return s.Object(func([]byte) error { return s.Skip() })
	case c == '[':
		if s.skipIntArray() {
			return nil
		}
		return s.Array(func(int) error { return s.Skip() })
	case c == '"':
		_, _, err := s.Str()
		return err
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || ('0' <= c && c <= '9'):
		_, _, err := s.Number()
		return err
	case c == 0 && s.i >= len(s.b):
		return s.Fail("unexpected end of input")
	default:
		return s.Fail("unexpected character")
	}
}

// Raw consumes one value like Skip and returns its bytes, a subslice of
// the document without surrounding whitespace.
func (s *Scanner) Raw() ([]byte, error) {
	s.ws()
	start := s.i
	if err := s.Skip(); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}
