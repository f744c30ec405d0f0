package whispernorm

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzNormalize: any input normalizes without panicking into valid UTF-8
// whose only whitespace is single spaces (the last step collapses every
// run of str.isspace() characters).
func FuzzNormalize(f *testing.F) {
	for _, c := range readGolden(f)[:400] {
		f.Add(c.In)
	}
	f.Add("one point five million dollars and fifty cents")
	f.Add("$0.07 $2 and ¢7 1s 1st 1 one")
	f.Fuzz(func(t *testing.T, s string) {
		out := Normalize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Normalize(%q) = %q: invalid UTF-8", s, out)
		}
		if strings.Contains(out, "  ") || strings.IndexFunc(out, func(r rune) bool { return r != ' ' && isSpace(r) }) >= 0 {
			t.Fatalf("Normalize(%q) = %q: whitespace not collapsed", s, out)
		}
	})
}

// BenchmarkNormalize measures a LibriSpeech-like transcript (about 30 s of
// speech, as the repacked samples are).
func BenchmarkNormalize(b *testing.B) {
	s := strings.Repeat("he hoped there would be stew for dinner turnips and carrots and twenty one potatoes ", 5)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Normalize(s)
	}
}
