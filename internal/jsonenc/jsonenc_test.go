package jsonenc

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// marshal is encoding/json's encoding of s with HTML escaping on or off.
func marshal(t testing.TB, s string, escapeHTML bool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// minimalFromStd turns encoding/json's output with HTML escaping off into
// AppendMinimal's: it differs only in writing \b, \f, \u2028 and \u2029
// where AppendMinimal writes \u0008, \u000c and the raw characters. It
// walks the escapes, so an escaped backslash followed by "b" is left alone.
func minimalFromStd(std string) string {
	var b strings.Builder
	for i := 0; i < len(std); i++ {
		c := std[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		next := std[i+1]
		switch {
		case next == 'b':
			b.WriteString(`\u0008`)
		case next == 'f':
			b.WriteString(`\u000c`)
		case next == 'u' && (std[i+2:i+6] == "2028" || std[i+2:i+6] == "2029"):
			b.WriteRune(rune(0x2020 + int(std[i+5]-'0')))
			i += 4
		default:
			b.WriteByte(c)
			b.WriteByte(next)
		}
		i++
	}
	return b.String()
}

func TestAppend(t *testing.T) {
	for _, tc := range []struct {
		name, in      string
		html, minimal string // expected encodings, from the rules in the doc comments
	}{
		{"empty", "", `""`, `""`},
		{"plain", "Hello, world", `"Hello, world"`, `"Hello, world"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`, `"a\"b\\c"`},
		{"short escapes", "\n\r\t", `"\n\r\t"`, `"\n\r\t"`},
		{"backspace and form feed", "\b\f", `"\b\f"`, `"\u0008\u000c"`},
		{"other controls", "\x00\x01\x1f", `"\u0000\u0001\u001f"`, `"\u0000\u0001\u001f"`},
		{"DEL is copied", "\x7f", "\"\x7f\"", "\"\x7f\""},
		{"html", "<a href=\"x\">&</a>", `"\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e"`, `"<a href=\"x\">&</a>"`},
		{"utf-8 copied", "é🎒中", `"é🎒中"`, `"é🎒中"`},
		{"line separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`, "\"a\u2028b\u2029c\""},
		{"invalid utf-8", "x\xffy\xc3", `"x\ufffdy\ufffd"`, `"x\ufffdy\ufffd"`},
		{"truncated rune then ascii", "\xe2\x80" + "abcdefgh", `"\ufffd\ufffdabcdefgh"`, `"\ufffd\ufffdabcdefgh"`},
		// Longer than a word, with the special byte at each position of
		// the second word, so the eight-byte skip must stop at it.
		{"special after a word", "abcdefgh<ijklmnop", `"abcdefgh\u003cijklmnop"`, `"abcdefgh<ijklmnop"`},
		{"special at word end", "abcdefghijklmno\"", `"abcdefghijklmno\""`, `"abcdefghijklmno\""`},
		{"tail shorter than a word", "abcdefghij\n", `"abcdefghij\n"`, `"abcdefghij\n"`},
		{"base64", "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ+/=", `"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ+/="`, `"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ+/="`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendString(nil, tc.in)); got != tc.html {
				t.Errorf("AppendString(%q) = %s, want %s", tc.in, got, tc.html)
			}
			if std := marshal(t, tc.in, true); std != tc.html {
				t.Errorf("test case is wrong: encoding/json writes %s, want %s", std, tc.html)
			}
			if got := string(AppendMinimal(nil, tc.in)); got != tc.minimal {
				t.Errorf("AppendMinimal(%q) = %s, want %s", tc.in, got, tc.minimal)
			}
			if got, want := string(AppendMinimalBody(nil, tc.in)), tc.minimal[1:len(tc.minimal)-1]; got != want {
				t.Errorf("AppendMinimalBody(%q) = %s, want %s", tc.in, got, want)
			}
			// Appending keeps what dst held.
			if got := string(AppendString([]byte("x:"), tc.in)); got != "x:"+tc.html {
				t.Errorf("AppendString after a prefix = %s", got)
			}
		})
	}
}

// TestSpecialEveryByte checks the eight-byte test against the byte tables
// for every byte value at every position of a word.
func TestSpecialEveryByte(t *testing.T) {
	for _, html := range []bool{false, true} {
		tab := &safe[0]
		if html {
			tab = &safe[1]
		}
		for c := range 256 {
			wantSpecial := c >= 0x80 || !tab[c]
			for pos := range 8 {
				word := []byte("aaaaaaaa")
				word[pos] = byte(c)
				if got := special(load8(string(word), 0), html); got != wantSpecial {
					t.Errorf("html=%v: special(%q) = %v, want %v", html, word, got, wantSpecial)
				}
			}
		}
	}
}

// TestRandomMatchesEncodingJSON compares long random strings mixing ASCII,
// specials, UTF-8 and invalid bytes with encoding/json.
func TestRandomMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "abcdefghijklmnop", "\"", "\\", "\n", "\b", "\x00", "<", ">", "&", "é", "🎒", "\u2028", "\u2029", "\xff", "\xe2\x80", "\x7f"}
	for range 200 {
		var b strings.Builder
		for range rng.IntN(64) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		checkAgainstEncodingJSON(t, s)
	}
}

func checkAgainstEncodingJSON(t *testing.T, s string) {
	t.Helper()
	if diff := cmp.Diff(marshal(t, s, true), string(AppendString(nil, s))); diff != "" {
		t.Fatalf("AppendString(%q) differs from encoding/json (-want +got):\n%s", s, diff)
	}
	want := minimalFromStd(marshal(t, s, false))
	if diff := cmp.Diff(want, string(AppendMinimal(nil, s))); diff != "" {
		t.Fatalf("AppendMinimal(%q) differs from encoding/json without HTML escaping (-want +got):\n%s", s, diff)
	}
	if got := string(AppendMinimalBody(nil, s)); got != want[1:len(want)-1] {
		t.Fatalf("AppendMinimalBody(%q) = %s, want %s", s, got, want[1:len(want)-1])
	}
}

// FuzzAppend: both flavours equal encoding/json's encoding (with HTML
// escaping on, and off modulo the documented spellings).
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", `a"b\c`, "\x00\x1f\x7f\b\f\n\r\t", "<&>", "x\xffy", "é🎒\u2028\u2029", "\\b\\f\\u2028", "abcdefgh\"ijklmnop"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAgainstEncodingJSON(t, s)
	})
}

// BenchmarkAppend compares the flavours with encoding/json on a 60 KB
// base64 data URL (qwen3-vl's images), English text and mixed-script text.
func BenchmarkAppend(b *testing.B) {
	img := make([]byte, 45<<10)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range img {
		img[i] = byte(rng.Uint32())
	}
	inputs := []struct{ name, s string }{
		{"dataURL", "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(img)},
		{"english", strings.Repeat("The \"Deluxe\" backpack fits a 15\" laptop & more.\nColour: navy. ", 40)},
		{"mixed", strings.Repeat("Sac à dos « Deluxe » 🎒 – 通勤用リュック, 15インチ対応.\n", 40)},
	}
	for _, in := range inputs {
		for _, enc := range []struct {
			name string
			fn   func([]byte, string) []byte
		}{
			{"AppendString", AppendString},
			{"AppendMinimal", AppendMinimal},
			{"encoding-json", func(dst []byte, s string) []byte {
				m, _ := json.Marshal(s)
				return append(dst, m...)
			}},
		} {
			b.Run(in.name+"/"+enc.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.s)))
				b.ReportAllocs()
				var dst []byte
				for b.Loop() {
					dst = enc.fn(dst[:0], in.s)
				}
			})
		}
	}
}
