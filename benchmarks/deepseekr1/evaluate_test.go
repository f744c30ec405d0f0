package deepseekr1

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/golden"
)

// refVerdicts stands in for PRM800K's grade_answer under Python with the
// verdicts it gave in the golden's reference run; a pair it did not grade
// is an error.
type refVerdicts map[[2]string]bool

func (v refVerdicts) Grade(given, gt string) (bool, error) {
	ok, found := v[[2]string{given, gt}]
	if !found {
		return false, fmt.Errorf("the reference run graded no MATH pair %q / %q", given, gt)
	}
	return ok, nil
}

func loadVerdicts(t *testing.T) refVerdicts {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "eval_math_verdicts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Verdicts [][3]any }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	v := refVerdicts{}
	for _, x := range f.Verdicts {
		v[[2]string{x[0].(string), x[1].(string)}] = x[2].(bool)
	}
	return v
}

// bytelevel is tokenizer/testdata's byte-level BPE tokenizer with
// DeepSeek-R1's special-token shapes, which the golden's reference run
// decoded with.
var bytelevel = filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel")

// TestEvaluateEqualsReference: the whole evaluation, from LoadGen's accuracy
// log and the converted pickle to accuracy.txt, against what
// language/deepseek-r1/eval_accuracy.py printed for the same log and
// dataset (testdata/gen_eval_golden.py): every answer-extraction case of the
// five sub-datasets behind <think> reasoning, MATH answers graded by
// PRM800K (those needing sympy by its recorded verdicts), LiveCodeBench
// code run against its tests, duplicated qsl_idx, an entry beyond the
// dataset, a missing ground truth; and the same rows under the columns the
// script falls back on (gt_output over ground_truth, metric for dataset).
// Byte for byte.
func TestEvaluateEqualsReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := golden.Unzip(t, filepath.Join("testdata", "eval_accuracy.json.gz"), filepath.Join(dir, "eval_accuracy.json"))
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := loadVerdicts(t)
	for _, tc := range []struct{ data, golden string }{
		{"eval_r1.json.gz", "eval_expected.txt"},
		{"eval_r1_alt.json.gz", "eval_expected_alt.txt"},
	} {
		ds, err := Open(golden.Unzip(t, filepath.Join("testdata", tc.data), filepath.Join(dir, strings.TrimSuffix(tc.data, ".gz"))))
		if err != nil {
			t.Fatal(err)
		}
		o := benchmark.EvalOptions{Benchmark: b, Tokenizer: bytelevel, LiveCodeBench: filepath.Join("testdata", "eval_lcb.jsonl"),
			Verdicts: filepath.Join(dir, tc.golden+".verdicts.jsonl")}
		ev, err := dataset{ds}.evaluate(t.Context(), logPath, o, verdicts)
		if err != nil && strings.Contains(err.Error(), "unshare") {
			t.Skipf("the LiveCodeBench sandbox cannot run here: %v", err)
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.data, err, ev.Report)
		}
		got, err := ev.AccuracyTxt, error(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", tc.golden))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: accuracy.txt\n%q\nwant (eval_accuracy.py)\n%q\n%s", tc.data, got, want, ev.Report)
		}
		if tc.data == "eval_r1.json.gz" {
			checkVerdicts(t, o.Verdicts)
		}
		// Duplicates and a stray index: scored like the reference, but
		// the run fails its checks.
		if ev.Failure == nil || !strings.Contains(ev.Report, "duplicate") || !strings.Contains(ev.Report, "out of range") {
			t.Errorf("%s: duplicates and the stray index not reported (failure %v):\n%s", tc.data, ev.Failure, ev.Report)
		}
		for _, want := range []string{"livecodebench", "answers by the reference grader's verdicts", "release_v1"} {
			if !strings.Contains(ev.Report, want) {
				t.Errorf("%s: report lacks %q:\n%s", tc.data, want, ev.Report)
			}
		}
	}
}

// TestEvaluateWithPythonGrader runs the same golden with the MATH answers
// that need sympy graded by PRM800K's own grade_answer under Python, as
// --prm800k does. It needs a PRM800K checkout (MLPERF_GO_PRM800K: its
// prm800k folder) and a Python with sympy and pylatexenc
// (MLPERF_GO_PRM800K_PYTHON, default python3).
func TestEvaluateWithPythonGrader(t *testing.T) {
	prm := os.Getenv("MLPERF_GO_PRM800K")
	if prm == "" {
		t.Skip("needs PRM800K: MLPERF_GO_PRM800K=<openai/prm800k checkout>/prm800k and a python with sympy and pylatexenc in MLPERF_GO_PRM800K_PYTHON")
	}
	t.Parallel()
	dir := t.TempDir()
	logPath := golden.Unzip(t, filepath.Join("testdata", "eval_accuracy.json.gz"), filepath.Join(dir, "eval_accuracy.json"))
	ds, err := Open(golden.Unzip(t, filepath.Join("testdata", "eval_r1.json.gz"), filepath.Join(dir, "eval_r1.json")))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := benchmark.Lookup(Name)
	o := benchmark.EvalOptions{Benchmark: b, Tokenizer: bytelevel, LiveCodeBench: filepath.Join("testdata", "eval_lcb.jsonl"),
		PRM800K: prm, Python: os.Getenv("MLPERF_GO_PRM800K_PYTHON")}
	ev, err := dataset{ds}.Evaluate(t.Context(), logPath, o)
	if err != nil {
		t.Fatalf("%v\n%s", err, ev.Report)
	}
	got := ev.AccuracyTxt
	want, _ := os.ReadFile(filepath.Join("testdata", "eval_expected.txt"))
	if string(got) != string(want) || !strings.Contains(ev.Scorer, "by the reference grader in "+prm) {
		t.Errorf("accuracy.txt\n%q\nwant\n%q\nscorer: %s", got, want, ev.Scorer)
	}
}

// TestEvaluateNeedsPRM800K: a MATH answer only sympy can grade, with no
// PRM800K given, is an error naming the flag, never a wrong answer.
func TestEvaluateNeedsPRM800K(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := golden.Unzip(t, filepath.Join("testdata", "eval_accuracy.json.gz"), filepath.Join(dir, "eval_accuracy.json"))
	ds, err := Open(golden.Unzip(t, filepath.Join("testdata", "eval_r1.json.gz"), filepath.Join(dir, "eval_r1.json")))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := benchmark.Lookup(Name)
	o := benchmark.EvalOptions{Benchmark: b, Tokenizer: bytelevel, LiveCodeBench: filepath.Join("testdata", "eval_lcb.jsonl")}
	if _, err := (dataset{ds}).Evaluate(t.Context(), logPath, o); err == nil || !strings.Contains(err.Error(), "--prm800k") {
		t.Errorf("error %v, want one naming --prm800k", err)
	}
	o.LiveCodeBench = ""
	if _, err := (dataset{ds}).Evaluate(t.Context(), logPath, o); err == nil || !strings.Contains(err.Error(), "--livecodebench") {
		t.Errorf("without LiveCodeBench problems: %v, want an error naming --livecodebench", err)
	}
}

// checkVerdicts compares the per-sample verdicts (--verdicts) with the
// script's own extracted_answer and prompt_accuracy of each row, in its
// row order (testdata/eval_verdicts.json).
func checkVerdicts(t *testing.T, path string) {
	t.Helper()
	got, err := benchmark.ReadVerdicts(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "eval_verdicts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want [][2]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d verdicts, the script scored %d rows", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		wantEx, _ := w[0].(string)
		if (g.Extracted == nil) != (w[0] == nil) || (g.Extracted != nil && *g.Extracted != wantEx) || g.Correct == nil || *g.Correct != w[1].(bool) {
			t.Errorf("row %d (qsl_idx %d, %s): extracted %v correct %v (%s); the script: %q %v", i, g.Index, g.Subset, deref(g.Extracted), deref(g.Correct), g.Why, w[0], w[1])
		}
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
