package jscan

import (
	"bytes"
	"strings"
	"testing"
)

// plainDecode is what DecodeStrMemo must match: Str then DecodeString,
// and where the scanner stops.
func plainDecode(doc []byte) (val string, end int, ok bool) {
	s := New(doc)
	raw, esc, err := s.Str()
	if err != nil {
		return "", 0, false
	}
	return DecodeString(raw, esc), s.Offset(), true
}

// checkMemo decodes doc through m and compares with plainDecode; it
// reports whether the value was the remembered one (the call allocated
// nothing).
func checkMemo(t *testing.T, m *StrMemo, doc []byte) (hit bool) {
	t.Helper()
	want, wantEnd, wantOK := plainDecode(doc)
	if wantOK {
		// Measured first, on memos holding what m holds, so the check
		// below still sees m as doc finds it.
		last, probe := m.last.Load(), new(StrMemo)
		hit = testing.AllocsPerRun(1, func() {
			probe.last.Store(last) // the same remembered string every run
			s := New(doc)
			_, _ = s.DecodeStrMemo(probe)
		}) == 0 && len(want) > 0
	}
	s := New(doc)
	got, err := s.DecodeStrMemo(m)
	if (err == nil) != wantOK {
		t.Fatalf("%.40q…: DecodeStrMemo error %v, Str ok %v", doc, err, wantOK)
	}
	if !wantOK {
		return false
	}
	if got != want || s.Offset() != wantEnd {
		t.Fatalf("%.40q…: DecodeStrMemo %.40q… ending at %d, want %.40q… ending at %d", doc, got, s.Offset(), want, wantEnd)
	}
	return hit
}

// TestDecodeStrMemo runs one memo through a sequence of documents and
// checks every answer against Str and DecodeString, and which calls found
// the remembered string.
func TestDecodeStrMemo(t *testing.T) {
	// Escape-dense like the Qwen3-VL system prompt.
	a := `"` + strings.Repeat(`Say \"yes\"\n or \\ \u00e9 `, 20) + `"`
	b := `"` + strings.Repeat(`other text, `, 30) + `"`
	short := `"` + strings.Repeat("x", MemoMinLen-3) + `"`
	steps := []struct {
		doc string
		hit bool
	}{
		{a, false},                         // first sight: scanned, remembered
		{a, true},                          // the same token
		{" \n\t" + a + `,"next":1}`, true}, // after whitespace, before more JSON
		{a[:len(a)-1] + `\" tail"`, false}, // a's bytes, then an escaped quote where a ends: remembered instead
		{a[:len(a)-1], false},              // a cut short: unterminated
		{a, false},                         // remembered again
		{a, true},
		{b, false}, // another long string takes a's place
		{short, false},
		{b, true}, // a short string is not kept
		{`"` + a[1:len(a)-1] + "\x01" + `"`, false}, // a control character inside
		{`null`, false},
		{b, true}, // errors leave the memo as it was
	}
	var m StrMemo
	for i, st := range steps {
		if hit := checkMemo(t, &m, []byte(st.doc)); hit != st.hit {
			t.Errorf("step %d (%.30q…): remembered value used %v, want %v", i, st.doc, hit, st.hit)
		}
	}
}

// FuzzDecodeStrMemo: after a memo has seen one string, decoding any other
// document through it gives what Str and DecodeString give.
func FuzzDecodeStrMemo(f *testing.F) {
	for _, s := range [][2]string{
		{`abc\"def`, `x`},
		{`\u00e9\n`, `"`},
		{"\xff\x01", `\`},
		{`q`, ` "tail`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, contents, other []byte) {
		if len(contents) == 0 {
			return
		}
		// Long enough to be remembered.
		lit := append([]byte{'"'}, bytes.Repeat(contents, MemoMinLen/len(contents)+1)...)
		lit = append(lit, '"')
		var m StrMemo
		checkMemo(t, &m, lit)
		checkMemo(t, &m, append(lit[:len(lit):len(lit)], other...))
		cut := len(other) % len(lit)
		checkMemo(t, &m, append(lit[:cut:cut], other...))
		checkMemo(t, &m, other)
		checkMemo(t, &m, lit)
	})
}
