package exactmatch

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/score/answer"
	"github.com/mlperf-go/mlperf-go/score/codetest"
)

// goldenFile is testdata/golden.json (testdata/gen_golden.py): what the
// reference evaluators printed and graded for synthetic logs.
type goldenFile struct {
	Problems map[string][3]string
	GPTOSS   struct {
		Rows    [][3]string
		Printed string
		Correct []bool
	}
	DeepSeek struct {
		Rows    [][3]string
		QSL     []int
		Printed string
		Correct []bool
	}
}

func readGolden(t testing.TB) goldenFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// problems decodes the golden LiveCodeBench problems.
func problems(t testing.TB, g goldenFile) map[string]codetest.Problem {
	t.Helper()
	out := map[string]codetest.Problem{}
	for id, cols := range g.Problems {
		p, err := codetest.DecodeLCB(id, cols[0], cols[1], cols[2])
		if err != nil {
			t.Fatal(err)
		}
		out[id] = p
	}
	return out
}

func newRunner(t testing.TB) *codetest.Runner {
	t.Helper()
	opts := codetest.Options{Workers: 2}
	r, err := codetest.New(t.Context(), opts)
	if err != nil && strings.Contains(err.Error(), "unshare") {
		t.Logf("no network isolation here (%v); running without it", err)
		opts.Isolation = codetest.NoIsolation
		r, err = codetest.New(t.Context(), opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// rowSample is a golden row as a sample; the stub tokenizer's tokens are
// code points.
func rowSample(i int, row [3]string) Sample {
	return Sample{QSLIndex: i, Dataset: row[0], GroundTruth: row[1], Output: row[2],
		Tokens: utf8.RuneCountInString(row[2])}
}

// TestGoldenGPTOSS scores the synthetic gpt-oss-120b log and compares every
// printed byte and each sample's grade with eval_mlperf_accuracy.py's.
func TestGoldenGPTOSS(t *testing.T) {
	t.Parallel()
	g := readGolden(t)
	var samples []Sample
	for i, row := range g.GPTOSS.Rows {
		samples = append(samples, rowSample(i, row))
	}
	s := &Scorer{Variant: answer.GPTOSS, Problems: problems(t, g), Code: newRunner(t)}
	rep, err := s.Score(context.Background(), samples)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep, g.GPTOSS.Printed, g.GPTOSS.Correct)
}

// refMath grades MATH answers with the reference's verdicts for the golden
// rows (score/mathgrade has its own golden tests).
type refMath map[[2]string]bool

func (m refMath) Grade(given, gt string) (bool, error) { return m[[2]string{given, gt}], nil }

// TestGoldenDeepSeek does the same for deepseek-r1's eval_accuracy.py,
// including its first-entry-per-qsl_idx rule.
func TestGoldenDeepSeek(t *testing.T) {
	t.Parallel()
	g := readGolden(t)
	var samples []Sample
	for _, q := range g.DeepSeek.QSL {
		samples = append(samples, rowSample(q, g.DeepSeek.Rows[q]))
	}
	math := refMath{}
	for i, row := range g.DeepSeek.Rows[:len(g.DeepSeek.Correct)] {
		if row[0] == "math500" {
			given, _ := answer.ParseBoxed(row[2])
			math[[2]string{given, row[1]}] = g.DeepSeek.Correct[i]
		}
	}
	s := &Scorer{Variant: answer.DeepSeekR1, Problems: problems(t, g), Code: newRunner(t), Math: math}
	rep, err := s.Score(context.Background(), samples)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep, g.DeepSeek.Printed, g.DeepSeek.Correct)
}

func checkReport(t *testing.T, rep *Report, printed string, correct []bool) {
	t.Helper()
	var b strings.Builder
	if _, err := rep.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != printed {
		t.Errorf("printed:\n%s\nreference printed:\n%s", b.String(), printed)
	}
	if len(rep.Samples) != len(correct) {
		t.Fatalf("%d graded samples, reference %d", len(rep.Samples), len(correct))
	}
	for i, gr := range rep.Samples {
		if gr.Correct != correct[i] {
			t.Errorf("sample %d (%s, %q): correct %v, reference %v (%s)", i, gr.Dataset, gr.Output, gr.Correct, correct[i], gr.Detail)
		}
	}
}
