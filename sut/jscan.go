package sut

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// jscan is a small validating JSON scanner for the hot path. Response
// bodies are walked once; the few fields the pool needs are decoded in
// place and everything else is skipped (but still validated), so a body
// that encoding/json would reject is rejected here too. It never uses
// reflection and allocates only when a string carries escapes.
type jscan struct {
	b     []byte
	i     int
	depth int
}

// maxJSONDepth matches encoding/json's nesting limit.
const maxJSONDepth = 10000

// jsonError says where a body stopped being JSON.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("malformed JSON at byte %d: %s", e.off, e.msg) }

func (s *jscan) fail(msg string) error { return &jsonError{s.i, msg} }

func (s *jscan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *jscan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// end checks that only whitespace follows the root value.
func (s *jscan) end() error {
	s.ws()
	if s.i != len(s.b) {
		return s.fail("data after the top-level value")
	}
	return nil
}

func (s *jscan) lit(word string) error {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return s.fail("invalid literal")
	}
	s.i += len(word)
	return nil
}

// null consumes a null and reports whether there was one.
func (s *jscan) null() (bool, error) {
	if s.peek() != 'n' {
		return false, nil
	}
	return true, s.lit("null")
}

// boolean reads true or false.
func (s *jscan) boolean() (bool, error) {
	switch s.peek() {
	case 't':
		return true, s.lit("true")
	case 'f':
		return false, s.lit("false")
	}
	return false, s.fail("expected a boolean")
}

// str scans a string and returns its raw contents (between the quotes) and
// whether they contain escapes. Escapes and control characters are
// validated; UTF-8 is not (decodeStr handles invalid UTF-8 as
// encoding/json does).
func (s *jscan) str() (raw []byte, esc bool, err error) {
	if s.peek() != '"' {
		return nil, false, s.fail("expected a string")
	}
	s.i++
	start := s.i
	b := s.b
	for s.i < len(b) {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character (the common case: IDs, model names, text).
		for s.i+8 <= len(b) && !specialInWord(binary.LittleEndian.Uint64(b[s.i:])) {
			s.i += 8
		}
		if s.i >= len(b) {
			break
		}
		c := b[s.i]
		switch {
		case c == '"':
			raw = b[start:s.i]
			s.i++
			return raw, esc, nil
		case c == '\\':
			esc = true
			s.i++
			if s.i >= len(b) {
				return nil, false, s.fail("unterminated escape")
			}
			switch b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if len(b)-s.i < 5 || hex4(b[s.i+1:]) < 0 {
					return nil, false, s.fail("invalid \\u escape")
				}
				s.i += 5
			default:
				return nil, false, s.fail("invalid escape")
			}
		case c < 0x20:
			return nil, false, s.fail("control character in string")
		default:
			s.i++
		}
	}
	return nil, false, s.fail("unterminated string")
}

// specialInWord reports whether any of the eight bytes in x is '"', '\\'
// or below 0x20 (bit tricks from "Bit Twiddling Hacks": a byte is zero
// exactly when (b-1) & ^b has its top bit set; no false positives).
func specialInWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	lt20 := (x - ones*0x20) & ^x & highs
	return hasZero(x^(ones*'"'))|hasZero(x^(ones*'\\'))|lt20 != 0
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

// appendStr appends the decoded string whose raw contents str returned.
// It matches encoding/json: invalid UTF-8 and unpaired surrogates become
// U+FFFD.
func appendStr(dst, raw []byte, esc bool) []byte {
	if !esc && utf8.Valid(raw) {
		return append(dst, raw...)
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
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
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
		}
	}
	return dst
}

// strRunes counts the characters of a string the way Python's len does
// (code points), for the SGLang text-length fallback.
func strRunes(raw []byte, esc bool) int {
	if !esc {
		return utf8.RuneCount(raw)
	}
	return utf8.RuneCount(appendStr(nil, raw, esc))
}

// number scans a JSON number and reports whether it is an integer
// (no fraction or exponent).
func (s *jscan) number() (raw []byte, integer bool, err error) {
	b := s.b
	start := s.i
	i := s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		s.i = i
		return nil, false, s.fail("invalid number")
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.i = i
			return nil, false, s.fail("invalid number fraction")
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
			return nil, false, s.fail("invalid number exponent")
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	s.i = i
	return b[start:i], integer, nil
}

// int64 reads an integer that fits in int64.
func (s *jscan) int64() (int64, error) {
	s.ws()
	at := s.i
	raw, integer, err := s.number()
	if err != nil {
		return 0, err
	}
	if !integer {
		s.i = at
		return 0, s.fail("expected an integer")
	}
	neg := raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	var v uint64
	for _, c := range raw {
		if v > (math.MaxUint64-9)/10 {
			s.i = at
			return 0, s.fail("integer out of range")
		}
		v = v*10 + uint64(c-'0')
	}
	if neg {
		if v > 1<<63 {
			s.i = at
			return 0, s.fail("integer out of range")
		}
		return -int64(v), nil
	}
	if v > math.MaxInt64 {
		s.i = at
		return 0, s.fail("integer out of range")
	}
	return int64(v), nil
}

// object walks an object; fn is called with each key and must consume
// exactly one value. Keys with escapes are decoded (rare; allocates).
func (s *jscan) object(fn func(key []byte) error) error {
	if s.peek() != '{' {
		return s.fail("expected an object")
	}
	if s.depth++; s.depth > maxJSONDepth {
		return s.fail("nesting too deep")
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		k, esc, err := s.str()
		if err != nil {
			return err
		}
		if esc {
			k = appendStr(nil, k, true)
		}
		if s.peek() != ':' {
			return s.fail("expected ':' after object key")
		}
		s.i++
		if err := fn(k); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("expected ',' or '}' in object")
		}
	}
}

// array walks an array; fn is called with each element's position and must
// consume exactly one value.
func (s *jscan) array(fn func(idx int) error) error {
	if s.peek() != '[' {
		return s.fail("expected an array")
	}
	if s.depth++; s.depth > maxJSONDepth {
		return s.fail("nesting too deep")
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		s.depth--
		return nil
	}
	for n := 0; ; n++ {
		if err := fn(n); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("expected ',' or ']' in array")
		}
	}
}

// skip consumes and validates any value.
func (s *jscan) skip() error {
	switch c := s.peek(); {
	case c == '{':
		return s.object(func([]byte) error { return s.skip() })
	case c == '[':
		if s.skipIntArray() {
			return nil
		}
		return s.array(func(int) error { return s.skip() })
	case c == '"':
		_, _, err := s.str()
		return err
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || ('0' <= c && c <= '9'):
		_, _, err := s.number()
		return err
	case c == 0 && s.i >= len(s.b):
		return s.fail("unexpected end of input")
	default:
		return s.fail("unexpected character")
	}
}

// replaceTokenIDs reads a token-ID member's value into dst[base:],
// replacing what an earlier member of the same name put there (duplicate
// keys: the last one wins, as in encoding/json). A null value reads as no
// IDs at all: have is false.
func (s *jscan) replaceTokenIDs(dst []byte, base int) (out []byte, n int, have bool, err error) {
	dst = dst[:base]
	if isNull, err := s.null(); isNull || err != nil {
		return dst, 0, false, err
	}
	dst, n, err = s.appendTokenIDs(dst)
	return dst, n, true, err
}

// appendTokenIDs reads an array of integers (or null, which reads as
// empty) and appends each as an int32 little-endian word to dst, the
// layout LoadGen's accuracy log and the reference evaluators expect
// (numpy int32 tobytes). It returns the number of IDs read.
func (s *jscan) appendTokenIDs(dst []byte) ([]byte, int, error) {
	if isNull, err := s.null(); isNull || err != nil {
		return dst, 0, err
	}
	if s.peek() == '[' && s.depth+1 <= maxJSONDepth {
		base := len(dst)
		end, n, ok := intArrayEnd(s.b, s.i, func(num []byte) bool {
			v, ok := parseInt32(num)
			dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
			return ok
		})
		if ok {
			s.i = end
			return dst, n, nil
		}
		dst = dst[:base] // the general path below reports the problem
	}
	n := 0
	err := s.array(func(int) error {
		v, err := s.int64()
		if err != nil {
			return err
		}
		if v < math.MinInt32 || v > math.MaxInt32 {
			return s.fail("token ID out of int32 range")
		}
		dst = binary.LittleEndian.AppendUint32(dst, uint32(int32(v)))
		n++
		return nil
	})
	return dst, n, err
}

// Token-ID arrays are most of a token-ID response (vLLM echoes the prompt
// in prompt_token_ids; SGLang's cumulative stream chunks repeat every
// output ID so far), so arrays of plain integers get a tight loop. It
// accepts exactly what the general path accepts for such arrays and
// gives up (returning false, consuming nothing) on anything else: a
// fraction, an exponent, a nested value, malformed input. The caller then
// takes the general path, which decides and reports.

// isDigit reports an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// intArrayEnd scans an array of JSON integers starting at b[i] == '['. It
// returns the index after ']', the number of elements, and false if the
// array is not a plain integer array. When each is non-nil it is called
// with every element's bytes; returning false abandons the scan.
func intArrayEnd(b []byte, i int, each func(num []byte) bool) (end, n int, ok bool) {
	end, _, n, ok = intArrayFrom(b, i+1, false, each)
	return end, n, ok
}

// intArrayFrom continues scanning an integer array at b[i]: just after
// its '[' (afterValue false) or just after one of its elements (true). It
// returns the index after ']', the index just after the last element
// (after '[' when there is none) and the number of elements scanned. each
// may be nil.
func intArrayFrom(b []byte, i int, afterValue bool, each func(num []byte) bool) (end, last, n int, ok bool) {
	ws := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
			i++
		}
	}
	last = i
	if !afterValue {
		ws()
		if i < len(b) && b[i] == ']' {
			return i + 1, last, 0, true
		}
	}
	for {
		if afterValue {
			if i < len(b) && b[i] == ',' { // the common case: no spaces
				i++
			} else {
				ws()
				if i >= len(b) {
					return 0, 0, 0, false
				}
				switch b[i] {
				case ',':
					i++
				case ']':
					return i + 1, last, n, true
				default: // '.', 'e', a second value...: not for the fast path
					return 0, 0, 0, false
				}
			}
			ws()
		}
		afterValue = true
		start := i
		if i < len(b) && b[i] == '-' {
			i++
		}
		switch {
		case i < len(b) && b[i] == '0':
			i++
		case i < len(b) && '1' <= b[i] && b[i] <= '9':
			i++
			for i < len(b) && isDigit(b[i]) {
				i++
			}
		default:
			return 0, 0, 0, false
		}
		if each != nil && !each(b[start:i]) {
			return 0, 0, 0, false
		}
		n++
		last = i
	}
}

// skipIntArray consumes an integer array at the cursor if it is one.
func (s *jscan) skipIntArray() bool {
	if s.depth+1 > maxJSONDepth {
		return false
	}
	end, _, ok := intArrayEnd(s.b, s.i, nil)
	if ok {
		s.i = end
	}
	return ok
}

// parseInt32 decodes an integer token intArrayEnd delivered; false if it
// does not fit in int32.
func parseInt32(num []byte) (int32, bool) {
	neg := num[0] == '-'
	if neg {
		num = num[1:]
	}
	if len(num) > 10 {
		return 0, false
	}
	var v int64
	for _, c := range num {
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}
