package jscan

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The reference for every test here is encoding/json: a document is
// accepted exactly when json.Valid accepts it, and what the Scanner
// decodes equals what encoding/json decodes.

// refDecode decodes b with encoding/json, keeping numbers as their
// literal text; ok is false when encoding/json rejects b.
func refDecode(b []byte) (v any, ok bool) {
	if !json.Valid(b) {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// scanAny decodes one value into the shapes encoding/json uses for any
// (map[string]any with the last duplicate winning, []any, string,
// json.Number, bool, nil) using only the exported API.
func scanAny(s *Scanner) (any, error) {
	switch c := s.Peek(); {
	case c == '{':
		m := map[string]any{}
		err := s.Object(func(k []byte) error {
			if !utf8.Valid(k) {
				k = AppendStr(nil, k, false) // as Object documents
			}
			v, err := scanAny(s)
			m[string(k)] = v
			return err
		})
		return m, err
	case c == '[':
		a := []any{}
		err := s.Array(func(i int) error {
			if i != len(a) {
				return errors.New("array index out of step")
			}
			v, err := scanAny(s)
			a = append(a, v)
			return err
		})
		return a, err
	case c == '"':
		raw, esc, err := s.Str()
		if err != nil {
			return nil, err
		}
		return DecodeString(raw, esc), nil
	case c == 't' || c == 'f':
		return s.Bool()
	case c == 'n':
		_, err := s.Null()
		return nil, err
	default:
		raw, _, err := s.Number()
		return json.Number(raw), err
	}
}

func scanDoc(b []byte) (any, error) {
	s := New(b)
	v, err := scanAny(&s)
	if err == nil {
		err = s.End()
	}
	return v, err
}

var docSeeds = []string{
	`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a\"b\\c\u00e9\ud83d\ude00\n"},{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/4AAQ"}}]}],"max_tokens":10,"stream":false,"stream_options":null}`,
	`[1,-0,2.5e+10,-3E-2,0.0,1e2,true,false,null,"",{},[]]`,
	`{"a":1,"a":2,"A":3}`,
	" \t\n\r{ \"x\" : [ 1 , 2 ] } \n",
	`"\ud800"`, `"\udc00\ud800x"`, `"\ud83d\ude00\ud83d"`, "\"\xff\xfe\"", `"\u0000"`,
	`01`, `1.`, `-`, `1e`, `.5`, `+1`, `[1,]`, `{"a"}`, `{"a":}`, `{,}`, `[`, `{"a":1`, `"abc`, `"\x"`, `"\u12"`,
	"\"a\tb\"", `tru`, `nul`, `{} {}`, `{"\u0041":1}`, `9223372036854775808`,
}

func FuzzScanner(f *testing.F) {
	for _, s := range docSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, ok := refDecode(b)
		got, err := scanDoc(b)
		if (err == nil) != ok {
			t.Fatalf("%q: Scanner error %v, encoding/json accepts: %v", b, err, ok)
		}
		if ok {
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%q (-encoding/json +Scanner):\n%s", b, d)
			}
		}
		// Skip must agree with the full walk.
		s := New(b)
		err = s.Skip()
		if err == nil {
			err = s.End()
		}
		if (err == nil) != ok {
			t.Fatalf("%q: Skip error %v, encoding/json accepts: %v", b, err, ok)
		}
		if err != nil {
			var je *Error
			if !errors.As(err, &je) || je.Offset < 0 || je.Offset > len(b) {
				t.Fatalf("%q: error %v is not an *Error with an offset in the document", b, err)
			}
		}
	})
}

// FuzzStr decodes arbitrary bytes as the contents of a string literal.
func FuzzStr(f *testing.F) {
	for _, s := range []string{`a`, `\"`, `\\\/\b\f\n\r\t`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\ud83dx`, `\udc00`, `\ud83d\u0041`, "\xff", "\xed\xa0\x80", "é😀", `\u`, `\`, "\x1f", "abcdefgh\"", "abcdefghijklmnopq\\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, contents []byte) {
		lit := append(append([]byte{'"'}, contents...), '"')
		raw, esc, ok := checkStrLiteral(t, lit)
		if ok && !esc && !bytes.Equal(raw, contents) {
			t.Fatalf("%q: raw %q is not the contents", lit, raw)
		}
	})
}

// refInt32s is encoding/json's reading of an int32 array (null: none).
func refInt32s(b []byte) ([]byte, int, bool) {
	var ids []int32
	if err := json.Unmarshal(b, &ids); err != nil {
		return nil, 0, false
	}
	var out []byte
	for _, v := range ids {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	return out, len(ids), true
}

func FuzzInt32s(f *testing.F) {
	for _, s := range []string{`[1,2,3]`, `[ -1 , 2147483647 ,-2147483648 ]`, `[2147483648]`, `[-2147483649]`, `[1.0]`, `[1e2]`, `[1,"2"]`, `[[1]]`, `[]`, `null`, `[01]`, `[1,]`, `[-0]`, `[99999999999]`, `[1 2]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, wn, ok := refInt32s(b)
		s := New(b)
		got, n, err := s.AppendInt32sLE([]byte("p"))
		if err == nil {
			err = s.End()
		}
		if (err == nil) != ok {
			t.Fatalf("%q: AppendInt32sLE error %v, encoding/json accepts: %v", b, err, ok)
		}
		if ok && (!bytes.Equal(got, append([]byte("p"), want...)) || n != wn) {
			t.Fatalf("%q: got (%x, %d), want (%x, %d)", b, got[1:], n, want, wn)
		}
		// TryInt32s takes exactly the arrays encoding/json reads as
		// []int32, except those with null elements (which it leaves to
		// the caller), and consumes nothing when it declines.
		s = New(b)
		ids, tok := s.TryInt32s([]int32{7})
		isArray := bytes.HasPrefix(bytes.TrimSpace(b), []byte("["))
		if tok {
			if s.End() != nil {
				tok = false // a valid array followed by junk: not a document
			} else {
				var le []byte
				for _, v := range ids[1:] {
					le = binary.LittleEndian.AppendUint32(le, uint32(v))
				}
				if !ok || ids[0] != 7 || !bytes.Equal(le, want) {
					t.Fatalf("%q: TryInt32s read %v, encoding/json %x (accepts: %v)", b, ids, want, ok)
				}
			}
		} else if s.Offset() != len(b)-len(bytes.TrimLeft(b, " \t\r\n")) || len(ids) != 1 {
			t.Fatalf("%q: TryInt32s declined but consumed %d bytes or changed dst to %v", b, s.Offset(), ids)
		}
		if ok && isArray && !bytes.Contains(b, []byte("null")) && !tok {
			t.Fatalf("%q: TryInt32s declined an int32 array", b)
		}
		if !isArray {
			return // Int32sReusing reads arrays only
		}
		s = New(b)
		_, ids, err = s.Int32sReusing(nil, nil)
		if err == nil {
			err = s.End()
		}
		if (err == nil) != ok {
			t.Fatalf("%q: Int32sReusing error %v, encoding/json accepts: %v", b, err, ok)
		}
		if ok && len(ids) != wn {
			t.Fatalf("%q: Int32sReusing read %d IDs, want %d", b, len(ids), wn)
		}
	})
}

// readAfter reads next with Int32sReusing after prev has been read the same
// way (in the same storage), as a cumulative stream would.
func readAfter(prev, next []byte) ([]int32, error) {
	s := New(prev)
	raw, ids, _ := s.Int32sReusing(nil, nil)
	s = New(next)
	_, ids, err := s.Int32sReusing(raw, ids)
	if err == nil {
		err = s.End()
	}
	return append([]int32{}, ids...), err
}

func TestInt32sReusing(t *testing.T) {
	for _, tc := range []struct{ name, prev, next string }{
		{"cumulative", `[1,2,3]`, `[1,2,3,4]`},
		{"same", `[1,2,3]`, `[1,2,3]`},
		{"longer last element", `[1,2,3]`, `[1,2,35]`},
		{"negative", `[1,-2]`, `[1,-2,-3]`},
		{"spaces", `[1, 2]`, `[1, 2 , 3 ]`},
		{"fraction after prefix", `[1,2]`, `[1,2.5]`},
		{"bad after prefix", `[1,2]`, `[1,2,,3]`},
		{"garbage after prefix", `[1,2]`, `[1,2 3]`},
		{"exponent after prefix", `[1,2]`, `[1,2e3]`},
		{"out of range after prefix", `[1,2]`, `[1,2,2147483648]`},
		{"unrelated", `[1,2]`, `[3]`},
		{"prefix cut", `[1,2]`, `[1,2`},
		{"after empty", `[]`, `[]`},
		{"after general path", `[1,2.0]`, `[1,2.0,3]`},
		{"previous failed", `[1,"x"]`, `[1,2]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, gerr := readAfter([]byte(tc.prev), []byte(tc.next))
			s := New([]byte(tc.next))
			_, want, werr := s.Int32sReusing(nil, nil)
			if werr == nil {
				werr = s.End()
			}
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("after %s: error %v, alone %v", tc.prev, gerr, werr)
			}
			if d := cmp.Diff(append([]int32{}, want...), got); werr == nil && d != "" {
				t.Errorf("after %s (-alone +after):\n%s", tc.prev, d)
			}
		})
	}
}

// FuzzInt32sReusing: an array that starts like the previous one (the case
// the reuse is for, and any corruption after it) reads as when read alone.
func FuzzInt32sReusing(f *testing.F) {
	f.Add("1,2,3", ",4]")
	f.Add("1,2,3", ".5]")
	f.Add("10, 20", " ,30 ]")
	f.Add("1", "]")
	f.Add("-0", ",-1]")
	f.Fuzz(func(t *testing.T, ids, tail string) {
		prev := []byte(`[` + ids + `]`)
		next := []byte(`[` + ids + tail)
		got, gerr := readAfter(prev, next)
		s := New(next)
		_, want, werr := s.Int32sReusing(nil, nil)
		if werr == nil {
			werr = s.End()
		}
		if (gerr == nil) != (werr == nil) || (werr == nil && !cmp.Equal(append([]int32{}, want...), got)) {
			t.Fatalf("%q after %q: got %v (%v), alone %v (%v)", next, prev, got, gerr, want, werr)
		}
	})
}

func TestInt64(t *testing.T) {
	for _, in := range []string{"0", "-0", "7", "-7", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999", "1.0", "1e2", "-", "01", " 42 "} {
		want, werr := strconv.ParseInt(strings.TrimSpace(in), 10, 64)
		if werr == nil && !json.Valid([]byte(in)) {
			werr = errors.New("not JSON")
		}
		s := New([]byte(in))
		got, err := s.Int64()
		if err == nil {
			err = s.End()
		}
		if (err == nil) != (werr == nil) || got != want && err == nil {
			t.Errorf("Int64(%q) = %d, %v; strconv %d, %v", in, got, err, want, werr)
		}
	}
}

// TestDepth: the nesting limit is encoding/json's, for objects, arrays,
// integer arrays (which take their own fast path) and skipped values.
func TestDepth(t *testing.T) {
	for _, d := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1} {
		for name, doc := range map[string]string{
			"arrays":      strings.Repeat("[", d) + strings.Repeat("]", d),
			"int arrays":  strings.Repeat("[", d-1) + "[1,2]" + strings.Repeat("]", d-1),
			"objects":     strings.Repeat(`{"a":`, d) + "1" + strings.Repeat("}", d),
			"empty inner": strings.Repeat(`{"a":`, d-1) + "{}" + strings.Repeat("}", d-1),
		} {
			want := json.Valid([]byte(doc))
			s := New([]byte(doc))
			err := s.Skip()
			if err == nil {
				err = s.End()
			}
			if (err == nil) != want {
				t.Errorf("%s nested %d deep: error %v, encoding/json accepts: %v", name, d, err, want)
			}
		}
	}
}

// TestErrors pins the error type, offsets and messages callers log.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want *Error
	}{
		{`{"a":1,}`, &Error{7, "expected a string"}},
		{`[1 2]`, &Error{3, "expected ',' or ']' in array"}},
		{`{"a" 1}`, &Error{5, "expected ':' after object key"}},
		{`"ab`, &Error{3, "unterminated string"}},
		{"\"a\x01\"", &Error{2, "control character in string"}},
		{`"\q"`, &Error{2, "invalid escape"}},
		{`"\u12x4"`, &Error{2, "invalid \\u escape"}},
		{`nul`, &Error{0, "invalid literal"}},
		{`1.`, &Error{2, "invalid number fraction"}},
		{`{} 1`, &Error{3, "data after the top-level value"}},
		{``, &Error{0, "unexpected end of input"}},
		{`}`, &Error{0, "unexpected character"}},
	} {
		s := New([]byte(tc.doc))
		err := s.Skip()
		if err == nil {
			err = s.End()
		}
		var got *Error
		if !errors.As(err, &got) {
			t.Errorf("%q: error %v is not an *Error", tc.doc, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.doc, d)
		}
	}
	if got, want := (&Error{5, "x"}).Error(), "malformed JSON at byte 5: x"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestRaw: Raw returns a value's bytes without the whitespace around it.
func TestRaw(t *testing.T) {
	s := New([]byte(` { "e" :  {"message": "x", "code": [1, 2]} , "f": 1}`))
	var got string
	err := s.Object(func(k []byte) error {
		if string(k) != "e" {
			return s.Skip()
		}
		raw, err := s.Raw()
		got = string(raw)
		return err
	})
	if err != nil || got != `{"message": "x", "code": [1, 2]}` {
		t.Fatalf("Raw = %q, %v", got, err)
	}
}

// TestNoAllocs: a walk that skips everything and decodes unescaped
// strings in place allocates nothing.
func TestNoAllocs(t *testing.T) {
	body := benchBody()
	allocs := testing.AllocsPerRun(20, func() {
		s := New(body)
		if err := s.Skip(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Skip allocates %.1f times per document", allocs)
	}
}

// benchBody is a chat request shaped like a qwen3-vl one: a ~64 KB base64
// image data URL beside a few text parts.
func benchBody() []byte {
	img := make([]byte, 48<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img {
		img[i] = byte(r.Uint32())
	}
	req := map[string]any{
		"model": "Qwen/Qwen3-VL-235B-A22B-Instruct",
		"messages": []any{
			map[string]any{"role": "system", "content": "Please analyze the product from the user prompt and output JSON."},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "The title of the product is the following:\n```text\nPolo \"Navy\" – Größe M\n```\n"},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(img)}},
				map[string]any{"type": "text", "text": strings.Repeat("Categories: A > B > C\n", 20)},
			}},
		},
		"max_completion_tokens": 1024, "temperature": 0,
	}
	b, err := json.Marshal(req)
	if err != nil {
		panic(err)
	}
	return b
}

// benchSkip times Scanner.Skip over body.
func benchSkip(b *testing.B, body []byte) {
	b.Helper()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		s := New(body)
		if err := s.Skip(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSkip(b *testing.B) {
	body := benchBody()
	b.Run("parser=jscan", func(b *testing.B) { benchSkip(b, body) })
	b.Run("parser=encoding-json-Valid", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if !json.Valid(body) {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkInt32s: a 1,500-ID token array (a llama3.1-8b prompt) read
// by each int32 reader, beside encoding/json into []int32.
func BenchmarkInt32s(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	ids := make([]int32, 1500)
	for i := range ids {
		ids[i] = int32(r.IntN(128256))
	}
	body, _ := json.Marshal(ids)
	b.Run("reader=TryInt32s", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		dst := make([]int32, 0, 2048)
		for b.Loop() {
			s := New(body)
			if _, ok := s.TryInt32s(dst[:0]); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("reader=AppendInt32sLE", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		dst := make([]byte, 0, 8192)
		for b.Loop() {
			s := New(body)
			if _, _, err := s.AppendInt32sLE(dst[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reader=Skip", func(b *testing.B) { benchSkip(b, body) })
	b.Run("reader=encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v []int32
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestStrSpecialAtEveryPosition puts two special bytes (or escapes) at
// many pairs of offsets in strings up to about 300 bytes long, so every
// kind of special meets every other at near and far distances.
func TestStrSpecialAtEveryPosition(t *testing.T) {
	specials := []string{`"`, `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, `\x`, "\x01", "\x1f", "\x7f", "\xff", " "}
	for _, sp1 := range specials {
		for _, sp2 := range specials {
			for pos1 := 0; pos1 < 150; pos1 += 7 {
				for _, pos2 := range []int{0, 1, 7, 8, 31, 32, 63, 64, 65, 100, 140} {
					contents := strings.Repeat("a", pos1) + sp1 + strings.Repeat("b", pos2) + sp2 + "cc"
					checkStrLiteral(t, []byte(`"`+contents+`"`))
				}
			}
		}
	}
}

// checkStrLiteral compares Str, DecodeString, AppendStr and RuneCount on
// the string literal lit with encoding/json, and returns what Str
// returned and whether lit is valid.
func checkStrLiteral(t *testing.T, lit []byte) (raw []byte, esc, ok bool) {
	t.Helper()
	var want string
	werr := json.Unmarshal(lit, &want)
	s := New(lit)
	raw, esc, err := s.Str()
	if err == nil {
		err = s.End()
	}
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: Scanner error %v, encoding/json error %v", lit, err, werr)
	}
	if err != nil {
		return nil, false, false
	}
	if got := DecodeString(raw, esc); got != want {
		t.Fatalf("%q: DecodeString %q, encoding/json %q", lit, got, want)
	}
	if got := string(AppendStr([]byte("x"), raw, esc)); got != "x"+want {
		t.Fatalf("%q: AppendStr %q, encoding/json %q", lit, got, want)
	}
	if got, w := RuneCount(raw, esc), utf8.RuneCountInString(want); got != w {
		t.Fatalf("%q: RuneCount %d, want %d", lit, got, w)
	}
	return raw, esc, true
}

// TestStrLongWithEscapes: long strings with escapes far apart, including
// escaped quotes, which must not be taken for the end.
func TestStrLongWithEscapes(t *testing.T) {
	for _, gap := range []int{60, 64, 70, 200, 5000} {
		for _, e := range []string{`\"`, `\n`, `\\`, `\u0041`} {
			var sb strings.Builder
			sb.WriteByte('"')
			for i := range 20 {
				sb.WriteString(strings.Repeat(string(rune('a'+i)), gap))
				sb.WriteString(e)
			}
			sb.WriteByte('"')
			checkStrLiteral(t, []byte(sb.String()))
			// Unterminated, and with a control character near the end.
			lit := sb.String()
			checkStrLiteral(t, []byte(lit[:len(lit)-1]))
			checkStrLiteral(t, []byte(lit[:len(lit)-5]+"\x02"+lit[len(lit)-4:]))
		}
	}
}

// TestSpecial8: every byte value at every position of an otherwise plain
// word is flagged exactly when it is a quote, a backslash or a control
// character (a flag on a plain word would only cost speed, a missed one
// would pass a control character).
func TestSpecial8(t *testing.T) {
	t.Parallel()
	if special8(0x6161616161616161) {
		t.Fatal("a word of 'a' is flagged")
	}
	for pos := range 8 {
		for c := range 256 {
			w := uint64(0x6161616161616161)&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
			want := c < 0x20 || c == '"' || c == '\\'
			if got := special8(w); got != want {
				t.Errorf("byte %#x at %d: special8 %v, want %v", c, pos, got, want)
			}
		}
	}
}
