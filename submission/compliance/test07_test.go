package compliance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// TestJudgeTEST07Golden: for every accuracy-script output in
// testdata/test07 (testdata/gen_test07_golden.py), the verify_accuracy.txt
// is the one the official compliance/TEST07/run_verification.py wrote, byte
// for byte, and the verdict is what it says.
func TestJudgeTEST07Golden(t *testing.T) {
	th, err := TEST07Threshold("gpt-oss-120b")
	if err != nil || th != 60.698 {
		t.Fatalf("threshold = %v, %v; want 60.698 from the audit.config", th, err)
	}
	outputs, _ := filepath.Glob(filepath.Join("testdata", "test07", "*.output"))
	if len(outputs) < 19 {
		t.Fatalf("%d golden cases, want 19: run testdata/gen_test07_golden.py", len(outputs))
	}
	for _, path := range outputs {
		name := strings.TrimSuffix(filepath.Base(path), ".output")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			output, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := logtest.MustRead(t, strings.TrimSuffix(path, ".output")+".verify_accuracy.txt")
			v := JudgeTEST07(output, th)
			if string(v.Text) != want {
				t.Errorf("verify_accuracy.txt =\n%q\nreference\n%q", v.Text, want)
			}
			if v.Pass() != strings.HasSuffix(want, "TEST PASS\n") {
				t.Errorf("pass = %v for\n%s", v.Pass(), want)
			}
			if len(v.Verdict.Checks) != 1 || v.Verdict.Checks[0].Name != "Accuracy check" {
				t.Fatalf("checks %+v, want the one accuracy check", v.Verdict.Checks)
			}
			c := v.Verdict.Checks[0]
			if line := "Accuracy check pass: " + c.Result + "\n"; strings.Contains(want, "Accuracy check pass:") && !strings.Contains(want, line) {
				t.Errorf("check result %q; the file says otherwise:\n%s", c.Result, want)
			}
			if !v.Pass() && !strings.Contains(strings.Join(v.Verdict.Problems(), "\n"), "Accuracy check pass: False (") {
				t.Errorf("a failed TEST07 does not say what failed: %q", v.Verdict.Problems())
			}
		})
	}
}

func TestTEST07Command(t *testing.T) {
	cmd, err := TEST07Command("python3 eval.py --mlperf-log {accuracy_log} --fmt '{{x}}'", "/a b/log.json")
	if err != nil || cmd != "python3 eval.py --mlperf-log /a b/log.json --fmt '{x}'" {
		t.Errorf("TEST07Command = %q, %v", cmd, err)
	}
	for _, bad := range []string{"x {other}", "x {accuracy_log", "x }"} {
		if _, err := TEST07Command(bad, "p"); err == nil {
			t.Errorf("TEST07Command(%q) succeeded", bad)
		}
	}
}

// scoredDataset stands in for gpt-oss-120b's dataset: its Evaluate writes
// the evaluator's printed block with a given score to o.Out, and records
// what it was asked.
type scoredDataset struct {
	benchmark.Dataset
	report  string
	failure error
	gotLog  string
	gotOpts benchmark.EvalOptions
}

func (d *scoredDataset) Evaluate(_ context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	d.gotLog, d.gotOpts = logPath, o
	return benchmark.Evaluation{Scorer: "the stand-in scorer", Failure: d.failure, AccuracyTxt: []byte(d.report)}, nil
}

// TestScoreTEST07: the Go score is judged as the reference judges the
// accuracy script's output, with the evaluator's options passed on, the
// evaluator's scratch file gone afterwards, and the log checks' failure a
// warning that leaves the verdict alone.
func TestScoreTEST07(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := logtest.WriteAccLog(t, dir, logtest.LenSamples(3))
	block := logtest.MustRead(t, filepath.Join("testdata", "test07", "scorer_pass.output"))
	d := &scoredDataset{report: block}
	v, err := ScoreTEST07(t.Context(), log, "gpt-oss-120b", d, benchmark.EvalOptions{Tokenizer: "tok.json", Round: "v6.1"})
	if err != nil {
		t.Fatal(err)
	}
	want := logtest.MustRead(t, filepath.Join("testdata", "test07", "scorer_pass.verify_accuracy.txt"))
	if string(v.Text) != want || !v.Pass() {
		t.Errorf("pass %v, verify_accuracy.txt\n%s\nwant the reference's\n%s", v.Pass(), v.Text, want)
	}
	if d.gotLog != log || d.gotOpts.Tokenizer != "tok.json" || d.gotOpts.Round != "v6.1" {
		t.Errorf("evaluator called with %q, %+v", d.gotLog, d.gotOpts)
	}
	if !strings.Contains(v.Verdict.Verifier, "the stand-in scorer") {
		t.Errorf("verifier %q does not name the scorer", v.Verdict.Verifier)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(log), ".test07-*")); len(left) > 0 {
		t.Errorf("scratch files left: %v", left)
	}

	d = &scoredDataset{report: logtest.MustRead(t, filepath.Join("testdata", "test07", "scorer_fail.output")), failure: os.ErrInvalid}
	v, err = ScoreTEST07(t.Context(), log, "gpt-oss-120b", d, benchmark.EvalOptions{})
	if err != nil || v.Pass() || len(v.Verdict.Warnings) != 1 {
		t.Errorf("score 0 with failed log checks: err %v, verdict %+v", err, v.Verdict)
	}
	if p := v.Verdict.Problems(); len(p) != 1 || p[0] != "Accuracy check pass: False (exact_match 0.0 < threshold 60.698)" {
		t.Errorf("problems %q", p)
	}
}
