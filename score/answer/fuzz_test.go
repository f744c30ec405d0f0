package answer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

var fuzzSeeds = []string{
	"", "Answer: B", "<|channel|>final<|message|>**C**<|return|>", "FINAL ANSWER (d)",
	`\boxed{\frac{1}{2}}`, `\boxed{ 42 }`, "Answer: 17.", "```python\nprint(1)\n```",
	"```py\nx=1\n```", "['A']", "\u0131", "an\u017fwer: \u0663\u0664",
}

// FuzzParseChoice checks that the letter parser never panics and returns a
// letter that is an option or the dotted capital I, in both variants.
func FuzzParseChoice(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range []Variant{GPTOSS, DeepSeekR1} {
			for _, mx := range []byte{'D', 'J'} {
				l, ok := ParseChoice(s, mx, v)
				if !ok {
					if l != "" {
						t.Fatalf("not found but returned %q", l)
					}
					continue
				}
				if !(len(l) == 1 && l[0] >= 'A' && l[0] <= mx) && l != "\u0130" {
					t.Fatalf("ParseChoice(%q, %c, %v) = %q", s, mx, v, l)
				}
			}
		}
	})
}

// FuzzParseAIME checks the integer parser's range and that a boxed integer
// appended last is always the answer.
func FuzzParseAIME(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if v, ok := ParseAIME(s, DefaultIntMaxStrDigits); ok && (v < 0 || v > 999) {
			t.Fatalf("ParseAIME(%q) = %d", s, v)
		}
		if n < 0 || n > 999 || !utf8.ValidString(s) {
			return
		}
		txt := s + ` \boxed{` + itoa(n) + `}`
		if v, ok := ParseAIME(txt, DefaultIntMaxStrDigits); !ok || v != n {
			t.Fatalf("ParseAIME(%q) = %d, %v; want %d", txt, v, ok, n)
		}
	})
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// FuzzParseBoxed checks that a balanced box appended last is read back.
func FuzzParseBoxed(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "x+1")
	}
	f.Fuzz(func(t *testing.T, s, inner string) {
		ParseBoxed(s)
		if strings.ContainsAny(inner, "{}") || strings.Contains(inner, `\boxed{`) || !utf8.ValidString(inner) {
			return
		}
		got, ok := ParseBoxed(s + `\boxed{` + inner + `}`)
		if !ok || got != pystr.Strip(inner) {
			t.Fatalf("ParseBoxed(...%q) = %q, %v", inner, got, ok)
		}
	})
}

// FuzzParseCode checks that a fenced python block appended last is the
// gpt-oss answer when the text has no harmony final section.
func FuzzParseCode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "print(2)")
	}
	f.Fuzz(func(t *testing.T, s, code string) {
		ParseCode(s, DeepSeekR1)
		if strings.Contains(s+code, "```") || strings.Contains(s, finalOpen) || !utf8.ValidString(s+code) {
			return
		}
		got, ok := ParseCode(s+"```python\n"+code+"\n```", GPTOSS)
		if !ok || got != pystr.Strip(code) {
			t.Fatalf("ParseCode(...%q) = %q, %v", code, got, ok)
		}
	})
}
