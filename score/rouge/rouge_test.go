package rouge

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
)

type scoreRow struct {
	Target, Prediction string
	Stem               bool
	Scores             map[string][3]string
}

func (s Scores) byName() map[string]Score {
	return map[string]Score{"rouge1": s.Rouge1, "rouge2": s.Rouge2, "rougeL": s.RougeL, "rougeLsum": s.RougeLsum}
}

// TestScoreGolden compares precision, recall and F-measure of the four
// metrics, bit for bit, with rouge_score 0.1.2 on the golden corpus (the
// post-processed pairs the evaluators score, some raw pairs, some without
// stemming).
func TestScoreGolden(t *testing.T) {
	t.Parallel()
	scorers := map[bool]*Scorer{true: NewScorer(true), false: NewScorer(false)}
	bad, n := 0, 0
	golden.JSONL(t, "testdata/scores.jsonl.gz", func(line int, r scoreRow) {
		n++
		got := scorers[r.Stem].Score(r.Target, r.Prediction).byName()
		for name, want := range r.Scores {
			g := got[name]
			for i, v := range []float64{g.Precision, g.Recall, g.FMeasure} {
				w, err := strconv.ParseFloat(want[i], 64)
				if err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				if math.Float64bits(v) != math.Float64bits(w) {
					bad++
					if bad <= 10 {
						t.Errorf("line %d %s[%d] = %v, rouge_score %s\ntarget %q\npred %q", line, name, i, v, want[i], r.Target, r.Prediction)
					}
				}
			}
		}
	})
	if n < 2000 {
		t.Errorf("only %d golden pairs", n)
	}
	t.Logf("%d pairs, %d values differ", n, bad)
}

// TestTokenizeGolden compares Tokenize with rouge_score's tokenize on corpus
// texts and on every character from U+0080 to U+2FFF between letters.
func TestTokenizeGolden(t *testing.T) {
	t.Parallel()
	type row struct {
		Text   string
		Stem   bool
		Tokens []string
	}
	bad := 0
	golden.JSONL(t, "testdata/tokens.jsonl.gz", func(line int, r row) {
		got := Tokenize(r.Text, r.Stem)
		if len(r.Tokens) == 0 {
			r.Tokens = nil
		}
		if !slices.Equal(got, r.Tokens) {
			bad++
			if bad <= 10 {
				t.Errorf("line %d: Tokenize(%q, %v) = %q, rouge_score %q", line, r.Text, r.Stem, got, r.Tokens)
			}
		}
	})
}

// TestSummaryLCSBacktrack pins rougeLsum's union of LCSs, which depends on
// which of several LCSs _backtrack_norec reads out: on a tie it moves up,
// so for target "a b" and prediction line "b a" the LCS is "a", not "b".
// Had it taken "b", the union with line "a" would hit twice.
func TestSummaryLCSBacktrack(t *testing.T) {
	t.Parallel()
	got := NewScorer(false).Score("a b", "b a\na")
	want := newScore(1.0/3, 0.5) // rouge_score: precision 1/3, recall 0.5, F 0.4
	if got.RougeLsum != want || want.FMeasure != 0.4 {
		t.Errorf("rougeLsum = %+v, want %+v", got.RougeLsum, want)
	}
}

func TestEmpty(t *testing.T) {
	t.Parallel()
	s := NewScorer(true)
	for _, pair := range [][2]string{{"", ""}, {"a b", ""}, {"", "a b"}, {"...", "!!!"}, {"\n\n", "x"}} {
		if got := s.Score(pair[0], pair[1]); got != (Scores{}) {
			t.Errorf("Score(%q, %q) = %+v, want zeros", pair[0], pair[1], got)
		}
	}
}

// FuzzTokenize checks that tokenizing never panics and yields only
// non-empty [a-z0-9] tokens, the same as the per-line tokens rougeLsum uses.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "Hello, World!", "İstanbul \u212a", "a\nb\r\nc", "\xff\xfeab", "ünïcödé 123"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, stem := range []bool{false, true} {
			toks := Tokenize(text, stem)
			for _, tok := range toks {
				if tok == "" || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
					t.Fatalf("Tokenize(%q) gave token %q", text, tok)
				}
			}
			var perLine []string
			for line := range strings.SplitSeq(text, "\n") {
				perLine = append(perLine, Tokenize(line, stem)...)
			}
			if !slices.Equal(toks, perLine) {
				t.Fatalf("tokens of %q %q differ from its lines' %q", text, toks, perLine)
			}
		}
		s := NewScorer(true).Score(text, text)
		for _, sc := range []Score{s.Rouge1, s.Rouge2, s.RougeL, s.RougeLsum} {
			if sc.FMeasure < 0 || sc.FMeasure > 1 || math.IsNaN(sc.FMeasure) {
				t.Fatalf("Score(%q, itself) = %+v", text, s)
			}
		}
	})
}

// lcsTableMark is rouge_score's _lcs_table and _backtrack_norec as
// written (the full integer table), the reference for the bit-parallel
// versions.
func lcsTableMark(ref, can []int32) (length int, marked []bool) {
	t := make([][]int, len(ref)+1)
	for i := range t {
		t[i] = make([]int, len(can)+1)
	}
	for i := 1; i <= len(ref); i++ {
		for j := 1; j <= len(can); j++ {
			if ref[i-1] == can[j-1] {
				t[i][j] = t[i-1][j-1] + 1
			} else {
				t[i][j] = max(t[i-1][j], t[i][j-1])
			}
		}
	}
	marked = make([]bool, len(ref))
	for i, j := len(ref), len(can); i > 0 && j > 0; {
		switch {
		case ref[i-1] == can[j-1]:
			marked[i-1] = true
			i, j = i-1, j-1
		case t[i][j-1] > t[i-1][j]:
			j--
		default:
			i--
		}
	}
	return t[len(ref)][len(can)], marked
}

// TestLCSMatchesTable checks the bit-parallel LCS length and read-back
// against the plain table on random sequences across 64-token words.
func TestLCSMatchesTable(t *testing.T) {
	t.Parallel()
	var w lcsWork
	seed := uint32(1)
	next := func(n int) int32 { seed = seed*1664525 + 1013904223; return int32(seed>>16) % int32(n) }
	for trial := range 800 {
		a := make([]int32, next(200))
		b := make([]int32, next(200)+1)
		alpha := int(next(20)) + 1
		for i := range a {
			a[i] = next(alpha)
		}
		for i := range b {
			b[i] = next(alpha)
		}
		wantLen, wantMarked := lcsTableMark(a, b)
		if got := w.lcsLen(a, b); got != wantLen {
			t.Fatalf("trial %d: lcsLen = %d, table %d (len %d, %d)", trial, got, wantLen, len(a), len(b))
		}
		marked := make([]bool, len(a))
		k := w.localize(a, b)
		w.setLineMasks(w.pl, []int{len(b)}, k)
		w.lcsMark(w.tl, w.pl, w.lineOff, w.linePool, marked)
		if !slices.Equal(marked, wantMarked) {
			t.Fatalf("trial %d: lcsMark %v, table %v", trial, marked, wantMarked)
		}
	}
}
