package fake

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestTokensDeterministicPrefixAndRange(t *testing.T) {
	prompt := []int32{128000, 791, 4062, 14198}
	a, b := Tokens(prompt, 200), Tokens(append([]int32(nil), prompt...), 200)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("Tokens is not deterministic (-first +second):\n%s", diff)
	}
	if len(a) != 200 {
		t.Fatalf("len = %d, want 200", len(a))
	}
	if diff := cmp.Diff(a[:17], Tokens(prompt, 17)); diff != "" {
		t.Errorf("Tokens(p, 17) is not a prefix of Tokens(p, 200):\n%s", diff)
	}
	for i, id := range a {
		if id < VocabMin || id >= VocabMax {
			t.Fatalf("token %d = %d outside [%d, %d)", i, id, VocabMin, VocabMax)
		}
	}
	other := Tokens([]int32{128000, 791, 4062, 14199}, 200)
	same := 0
	for i := range a {
		if a[i] == other[i] {
			same++
		}
	}
	if same > 5 {
		t.Errorf("prompts differing in one token share %d of 200 output tokens; outputs should depend on the whole prompt", same)
	}
	if got := Tokens(prompt, 0); len(got) != 0 {
		t.Errorf("Tokens(p, 0) = %v, want empty", got)
	}
}

func TestSplitPieces(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`{"brand": "giorgio armani"}`, []string{`{`, `"`, `brand`, `"`, `:`, ` `, `"`, `giorgio`, ` armani`, `"`, `}`}},
		{"héllo wörld 42", []string{"héllo", " wörld", " 42"}},
		{"a  b\n", []string{"a", " ", " b", "\n"}},
		{"🙂x", []string{"🙂", "x"}},
		{"", nil},
	}
	for _, tc := range tests {
		var got []string
		start := 0
		for _, e := range splitPieces(tc.in) {
			got = append(got, tc.in[start:e])
			start = e
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("splitPieces(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func FuzzSplitPieces(f *testing.F) {
	for _, s := range []string{"", `{"category": "A > B"}`, "x\xffy", " é 🙂 ", "a\tb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ends := splitPieces(s)
		start := 0
		var sb strings.Builder
		for _, e := range ends {
			if e <= start || e > len(s) {
				t.Fatalf("bad piece end %d after %d in %q", e, start, s)
			}
			p := s[start:e]
			if utf8.ValidString(s) && !utf8.ValidString(p) {
				t.Fatalf("piece %q of valid %q is not valid UTF-8", p, s)
			}
			sb.WriteString(p)
			start = e
		}
		if sb.String() != s {
			t.Fatalf("pieces concatenate to %q, want %q", sb.String(), s)
		}
	})
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", `a"b\c`, "\x00\x1f\n\t\r", "<&>", "x\xffy", "é🙂", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := appendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("appendJSONString(%q) = %s is not a JSON string: %v", s, b, err)
		}
		// Each invalid byte becomes one U+FFFD, as encoding/json does.
		var sb strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			sb.WriteRune(r)
			i += size
		}
		want := sb.String()
		if got != want {
			t.Fatalf("round trip of %q gave %q, want %q", s, got, want)
		}
	})
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"zero value", Config{}, ""},
		{"unknown mode", Config{FailRate: 0.1, FailMode: "explode"}, `unknown fail mode "explode"`},
		{"fail rate above 1", Config{FailRate: 1.5}, "fail rate 1.5 is outside [0, 1]"},
		{"fail rate NaN", Config{FailRate: math.NaN()}, "fail rate NaN is outside [0, 1]"},
		{"negative accuracy", Config{Accuracy: -0.1}, "accuracy -0.1 is outside [0, 1]"},
		{"negative ttft", Config{TTFT: -1}, "must not be negative"},
		{"negative concurrency", Config{MaxConcurrency: -2}, "max concurrency -2"},
		{"duplicate first key", Config{Answers: []Answer{{Keys: []string{"x"}}, {Keys: []string{"x", "y"}}}}, "answers 0 and 1 have the same first key"},
		{"no key", Config{Answers: []Answer{{Right: "r"}}}, "answer 0 has no key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.cfg)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if s.cfg.Model != DefaultModel || s.cfg.OutputTokens != DefaultOutputTokens || s.cfg.FailMode != FailStatus {
					t.Errorf("defaults not applied: %+v", s.cfg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("New error = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}
