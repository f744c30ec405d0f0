package jscan

import (
	"encoding/binary"
	"math"
)

// Token-ID arrays are most of a token-ID response (vLLM echoes the prompt
// in prompt_token_ids; SGLang's cumulative stream chunks repeat every
// output ID so far), so arrays of plain integers get a tight loop. It
// accepts exactly what the general path (Array of Int64) accepts for such
// arrays and gives up (consuming nothing) on anything else: a fraction,
// an exponent, a nested value, malformed input. The general path then
// decides and reports.

// AppendInt32sLE reads an array of integers that fit in int32 (or null,
// which reads as empty) and appends each to dst as a little-endian int32
// word: the layout LoadGen's accuracy log and the reference evaluators
// expect (numpy int32 tobytes). It returns the extended dst and the number
// of integers read. An element that is not an int32 integer is an error.
func (s *Scanner) AppendInt32sLE(dst []byte) ([]byte, int, error) {
	if isNull, err := s.Null(); isNull || err != nil {
		return dst, 0, err
	}
	if s.Peek() == '[' && s.depth+1 <= MaxDepth {
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
	err := s.Array(func(int) error {
		v, err := s.int32()
		if err != nil {
			return err
		}
		dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
		n++
		return nil
	})
	return dst, n, err
}

// TryInt32s reads the next value if it is an array of plain integers
// that all fit in int32 (no fraction, exponent, null or nested value),
// appends them to dst and returns true. Otherwise it consumes nothing but
// whitespace and returns dst unchanged and false, and the caller reads the
// value another way (Array, Skip, Raw). It is the tight loop of the other
// int32 readers.
func (s *Scanner) TryInt32s(dst []int32) ([]int32, bool) {
	if s.Peek() != '[' || s.depth+1 > MaxDepth {
		return dst, false
	}
	base := len(dst)
	end, _, ok := intArrayEnd(s.b, s.i, func(num []byte) bool {
		v, ok := parseInt32(num)
		dst = append(dst, v)
		return ok
	})
	if !ok {
		return dst[:base], false
	}
	s.i = end
	return dst, true
}

func (s *Scanner) int32() (int32, error) {
	v, err := s.Int64()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, s.Fail("token ID out of int32 range")
	}
	return int32(v), nil
}

// Int32sReusing reads an array of integers that fit in int32, reusing the
// work of the previous call when the array starts like the previous one.
//
// prevRaw and prevIDs describe the previous array read this way: prevRaw
// its bytes from '[' through its last element, prevIDs its elements (both
// empty the first time). When the array at the cursor begins with exactly
// prevRaw followed by a separator, its leading elements are exactly
// prevIDs: those bytes were validated and decoded before and are compared
// (one memcmp), not parsed again. That keeps cumulative streams (SGLang
// repeats every output ID so far in each chunk) linear in practice.
//
// It returns the new raw and ids, built in the storage of prevRaw and
// prevIDs (so those must be owned by the caller and not used afterwards),
// ready to pass to the next call. On error ids holds what was read, raw is
// empty, and the next call parses from scratch.
func (s *Scanner) Int32sReusing(prevRaw []byte, prevIDs []int32) (raw []byte, ids []int32, err error) {
	s.ws()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '[' && s.depth+1 <= MaxDepth {
		ids, from, after := prevIDs[:0], start+1, false
		if k := len(prevRaw); len(prevIDs) > 0 && len(s.b)-start > k && string(s.b[start:start+k]) == string(prevRaw) {
			switch s.b[start+k] {
			case ',', ']', ' ', '\t', '\n', '\r':
				ids, from, after = prevIDs, start+k, true
			}
		}
		end, last, _, ok := intArrayFrom(s.b, from, after, func(num []byte) bool {
			v, ok := parseInt32(num)
			ids = append(ids, v)
			return ok
		})
		if ok {
			if after {
				raw = append(prevRaw, s.b[from:last]...)
			} else {
				raw = append(prevRaw[:0], s.b[start:last]...)
			}
			s.i = end
			return raw, ids, nil
		}
	}
	// Not a plain integer array: the general path decides and reports.
	s.i = start
	ids = prevIDs[:0]
	err = s.Array(func(int) error {
		v, err := s.int32()
		if err != nil {
			return err
		}
		ids = append(ids, v)
		return nil
	})
	return prevRaw[:0], ids, err
}

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
		var ok bool
		if i, ok = intEnd(b, i); !ok {
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
func (s *Scanner) skipIntArray() bool {
	if s.depth+1 > MaxDepth {
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
