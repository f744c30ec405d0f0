package exactmatch

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/score/answer"
	"github.com/mlperf-go/mlperf-go/score/codetest"
)

// TestReprOnGolden compares pyfloat.Repr with Python's repr on the golden
// floats (edge values, random magnitudes from 1e-30 to 1e30).
func TestReprOnGolden(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		FloatRepr [][2]string `json:"float_repr"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.FloatRepr) < 100 {
		t.Fatalf("only %d golden floats", len(g.FloatRepr))
	}
	for _, c := range g.FloatRepr {
		b, err := hex.DecodeString(c[0])
		if err != nil {
			t.Fatal(err)
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(b))
		if got := pyfloat.Repr(f); got != c[1] {
			t.Errorf("pyfloat.Repr(%v) = %q, Python %q", f, got, c[1])
		}
	}
}

// failingRunner stands for a test harness that broke.
type failingRunner struct{}

func (failingRunner) RunAll(context.Context, []codetest.Job) ([]codetest.Result, error) {
	return nil, os.ErrNotExist
}

// TestUnscorableIsError checks that every way a subset can be unscorable is
// an error naming the cause, never a score: the field failure where an
// unloadable LiveCodeBench scored gpt-oss-120b as 0.
func TestUnscorableIsError(t *testing.T) {
	t.Parallel()
	code := Sample{Dataset: "livecodebench_v6", GroundTruth: "q1", Output: "```python\nprint(1)\n```"}
	math := Sample{Dataset: "math500", GroundTruth: "1", Output: `\boxed{2}`}
	p := map[string]codetest.Problem{"q1": {ID: "q1", Tests: []codetest.Test{{Input: "", Output: "1"}}}}
	cases := []struct {
		name    string
		s       Scorer
		samples []Sample
		want    string
	}{
		{"no tests loaded", Scorer{Variant: answer.GPTOSS, Code: failingRunner{}}, []Sample{code}, "no tests loaded"},
		{"no runner", Scorer{Variant: answer.GPTOSS, Problems: p}, []Sample{code}, "code runner"},
		{"harness fails", Scorer{Variant: answer.GPTOSS, Problems: p, Code: failingRunner{}}, []Sample{code}, "LiveCodeBench tests"},
		{"no math grader", Scorer{Variant: answer.DeepSeekR1}, []Sample{math}, "MATH grader"},
		{"unknown dataset", Scorer{Variant: answer.DeepSeekR1}, []Sample{{Dataset: "mmlu", Output: "A"}}, "no deepseek-r1 evaluator"},
		{"empty dataset", Scorer{Variant: answer.GPTOSS}, []Sample{{Output: "A"}}, "empty dataset"},
		{"empty log", Scorer{Variant: answer.DeepSeekR1}, nil, "no valid predictions"},
	}
	for _, c := range cases {
		_, err := c.s.Score(context.Background(), c.samples)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestNoAnswerNeedsNothing checks that samples without code or a boxed
// answer are graded wrong without a runner or grader, as the references
// skip them.
func TestNoAnswerNeedsNothing(t *testing.T) {
	t.Parallel()
	s := Scorer{Variant: answer.DeepSeekR1}
	rep, err := s.Score(context.Background(), []Sample{
		{QSLIndex: 0, Dataset: "livecodebench", GroundTruth: "q1", Output: "no code", Tokens: 3},
		{QSLIndex: 1, Dataset: "math500", GroundTruth: "1", Output: "no box", Tokens: 4},
		{QSLIndex: 2, Dataset: "gpqa", GroundTruth: "A", Output: "Answer: A", Tokens: 5},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.TotalCorrect != 1 || rep.TokensPerSample != 4 || rep.ExactMatch != 100.0/3 {
		t.Errorf("report %+v", rep)
	}
}
