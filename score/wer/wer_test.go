package wer

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/score/whispernorm"
)

// golden is testdata/golden.json, made by the reference's own code
// (gen_golden.py).
type golden struct {
	Pairs []struct {
		Hyp, Ref    string
		Distance    int
		Words       int
		Levenshtein int
	}
	Sets []struct {
		Pairs []int
		Line  string
		Error string
	}
}

func readGolden(t testing.TB) golden {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Pairs) < 500 || len(g.Sets) < 100 {
		t.Fatalf("golden file too small: %d pairs, %d sets", len(g.Pairs), len(g.Sets))
	}
	return g
}

// TestSampleGolden: per pair, the aligned distance and word count equal
// compute_wer_with_concatenation's, and Levenshtein equals __levenshtein
// on the unaligned words.
func TestSampleGolden(t *testing.T) {
	t.Parallel()
	for i, p := range readGolden(t).Pairs {
		h := strings.Fields(whispernorm.Normalize(p.Hyp))
		r := strings.Fields(whispernorm.Normalize(p.Ref))
		if d, w := Sample(h, r); d != p.Distance || w != p.Words {
			t.Errorf("pair %d (%q vs %q): Sample = %d, %d; want %d, %d", i, p.Hyp, p.Ref, d, w, p.Distance, p.Words)
		}
		if l := Levenshtein(r, h); l != p.Levenshtein {
			t.Errorf("pair %d: Levenshtein = %d, want %d", i, l, p.Levenshtein)
		}
	}
}

// TestLineGolden: over sets of pairs, Line prints exactly what
// accuracy_eval.py prints.
func TestLineGolden(t *testing.T) {
	t.Parallel()
	g := readGolden(t)
	for i, s := range g.Sets {
		var r Result
		for _, k := range s.Pairs {
			r.Add(g.Pairs[k].Hyp, g.Pairs[k].Ref)
		}
		line, err := r.Line()
		if s.Error != "" {
			if err == nil {
				t.Errorf("set %d: Line = %q, want an error (%s)", i, line, s.Error)
			}
			continue
		}
		if err != nil || line != s.Line {
			t.Errorf("set %d: Line = %q, %v; want %q", i, line, err, s.Line)
		}
	}
}

// TestNoWords: references without words are an error, not a division by
// zero, and an empty reference still counts the hypothesis' words as
// errors.
func TestNoWords(t *testing.T) {
	t.Parallel()
	var r Result
	r.Add("hello there", "")
	if r.Errors != 2 || r.Words != 0 || r.Samples != 1 {
		t.Fatalf("Add on an empty reference: %+v, want 2 errors, 0 words", r)
	}
	if _, err := r.Line(); err != ErrNoWords {
		t.Fatalf("Line = %v, want ErrNoWords", err)
	}
}

// TestConcatenation pins the alignment rule on hand-made cases: joined
// words match up to three at a time on either side, four do not.
func TestConcatenation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		hyp, ref string
		want     int
	}{
		{"baseball", "base ball", 0},
		{"base ball", "baseball", 0},
		{"a b c", "abc", 0},
		{"abc", "a b c", 0},
		{"a b c d", "abcd", 4}, // one substitution, three insertions
		{"abcd", "a b c d", 4},
		{"the end", "the end", 0},
		{"the", "the end", 1},
	} {
		if d, _ := Sample(strings.Fields(c.hyp), strings.Fields(c.ref)); d != c.want {
			t.Errorf("Sample(%q, %q) distance = %d, want %d", c.hyp, c.ref, d, c.want)
		}
	}
}

// BenchmarkAdd scores one LibriSpeech-sized transcript with two errors.
func BenchmarkAdd(b *testing.B) {
	ref := strings.Repeat("he hoped there would be stew for dinner turnips and carrots ", 6)
	hyp := strings.Replace(strings.Replace(ref, "stew", "stu", 1), "turnips and", "turnipsand", 1)
	var r Result
	for b.Loop() {
		r.Add(hyp, ref)
	}
}
