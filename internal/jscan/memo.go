package jscan

import (
	"sync/atomic"
	"unsafe"
)

// StrMemo remembers the last long string decoded through
// (*Scanner).DecodeStrMemo, so that a string which every document repeats
// is recognised by one comparison instead of being scanned and decoded
// again. The case it is for: the Qwen3-VL system prompt, 1.8 KB with 136
// escapes, the same in every request of a run. Scanning and decoding it
// cost the fake endpoint as much as the 64 KB image beside it (the
// escapes break up the word loop). The zero value is ready; it is safe for
// concurrent use.
type StrMemo struct{ last atomic.Pointer[memoStr] }

// memoStr is one remembered string: the token as it appears in the
// document, quotes included, and its decoded value. Both share one
// allocation and are never written after they are stored.
type memoStr struct {
	tok []byte
	val string
}

// MemoMinLen is the shortest token (quotes included) a StrMemo keeps:
// shorter strings cost less to scan than to compare and keep.
const MemoMinLen = 256

// DecodeStrMemo reads a string and returns it decoded, as Str followed by
// DecodeString would. When the document holds, at this point, the very
// bytes of the token m remembers, it returns the remembered value. This
// is exact: a string token's extent and value depend only on its own
// bytes, from the opening quote to the closing one, and those are the
// bytes compared. Otherwise the string is scanned, and, if its token is
// MemoMinLen bytes or longer, remembered in place of the last one.
func (s *Scanner) DecodeStrMemo(m *StrMemo) (string, error) {
	if s.Peek() != '"' {
		return "", s.Fail("expected a string")
	}
	start := s.i
	if e := m.last.Load(); e != nil && len(s.b)-start >= len(e.tok) &&
		string(s.b[start:start+len(e.tok)]) == string(e.tok) {
		s.i += len(e.tok)
		return e.val, nil
	}
	raw, esc, err := s.Str()
	if err != nil {
		return "", err
	}
	tok := s.b[start:s.i]
	if len(tok) < MemoMinLen {
		return DecodeString(raw, esc), nil
	}
	// One allocation holds the token and then its decoded value, as
	// DecodeString alone would allocate once for the value.
	buf := append(make([]byte, 0, 2*len(tok)), tok...)
	buf = AppendStr(buf, raw, esc)
	e := &memoStr{tok: buf[:len(tok):len(tok)]}
	if n := len(buf) - len(tok); n > 0 {
		e.val = unsafe.String(&buf[len(tok)], n)
	}
	m.last.Store(e)
	return e.val, nil
}
