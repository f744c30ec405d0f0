package mathgrade

import (
	"encoding/json"
	"os"
	"testing"
)

// goldenCase is one pair of testdata/golden.json, graded by PRM800K itself
// (testdata/gen_golden.py). Norm entries are a string or {"raised": name}.
type goldenCase struct {
	Given, GT string
	OK        bool
	Mathd     [2]string
	Norm      [2]json.RawMessage
}

func readGolden(t *testing.T) []goldenCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ Cases []goldenCase }
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 1000 {
		t.Fatalf("only %d golden cases", len(g.Cases))
	}
	return g.Cases
}

// TestGoldenNormalize compares both normalisations with the reference's:
// normalize_answer always, _normalize wherever Go does not hand the string
// to pylatexenc.
func TestGoldenNormalize(t *testing.T) {
	t.Parallel()
	bad, settled := 0, 0
	for _, c := range readGolden(t) {
		for k, s := range [2]string{c.Given, c.GT} {
			if got := NormalizeAnswer(s); got != c.Mathd[k] {
				bad++
				t.Errorf("NormalizeAnswer(%q) = %q, reference %q", s, got, c.Mathd[k])
			}
			var want string
			if json.Unmarshal(c.Norm[k], &want) != nil {
				t.Errorf("_normalize(%q) raised in the reference", s)
				continue
			}
			got, residual := normalize(s)
			if residual {
				continue
			}
			settled++
			if got != want {
				bad++
				t.Errorf("normalize(%q) = %q, reference %q", s, got, want)
			}
		}
		if bad > 20 {
			t.Fatal("too many differences")
		}
	}
	t.Logf("_normalize settled in Go for %d strings", settled)
}

// TestGoldenDecide checks that every verdict Decide settles equals
// grade_answer's, and reports how many pairs are residual.
func TestGoldenDecide(t *testing.T) {
	t.Parallel()
	cases := readGolden(t)
	residual := 0
	for _, c := range cases {
		v := Decide(c.Given, c.GT)
		if v == Residual {
			residual++
			continue
		}
		if (v == Right) != c.OK {
			t.Errorf("Decide(%q, %q) = %v, reference %v", c.Given, c.GT, v == Right, c.OK)
		}
	}
	t.Logf("%d of %d pairs residual (need pylatexenc/sympy)", residual, len(cases))
	if residual == len(cases) {
		t.Fatal("nothing settled in Go")
	}
}

// tableFallback answers residual pairs from the golden file and counts.
type tableFallback struct {
	want  map[[2]string]bool
	calls int
}

func (f *tableFallback) Grade(given, gt string) (bool, error) {
	f.calls++
	return f.want[[2]string{given, gt}], nil
}

// TestGraderUsesFallbackOnlyForResiduals checks Grade's routing, and that
// without a fallback a residual pair is an error.
func TestGraderUsesFallbackOnlyForResiduals(t *testing.T) {
	t.Parallel()
	cases := readGolden(t)
	fb := &tableFallback{want: map[[2]string]bool{}}
	for _, c := range cases {
		fb.want[[2]string{c.Given, c.GT}] = c.OK
	}
	g := Grader{Fallback: fb}
	residual := 0
	for _, c := range cases {
		if Decide(c.Given, c.GT) == Residual {
			residual++
			if _, err := (Grader{}).Grade(c.Given, c.GT); err == nil {
				t.Fatalf("residual pair (%q, %q) graded without a fallback", c.Given, c.GT)
			}
		}
		ok, err := g.Grade(c.Given, c.GT)
		if err != nil || ok != c.OK {
			t.Errorf("Grade(%q, %q) = %v, %v; reference %v", c.Given, c.GT, ok, err, c.OK)
		}
	}
	if fb.calls != residual {
		t.Errorf("fallback called %d times for %d residual pairs", fb.calls, residual)
	}
}
