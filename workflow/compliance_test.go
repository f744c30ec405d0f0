package workflow

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TestComplianceRunsFolder: without OutputDir a compliance run gets a
// folder of its own kind, <Scenario>-TEST06/, not the performance runs',
// and the runs index lists it with its verdict.
func TestComplianceRunsFolder(t *testing.T) {
	loadgentest.Require(t)
	llama := mustLookup(t, "llama3_1-8b")
	url := startFake(t, fake.Config{Model: llama.Serving.Model, OutputTokens: 8})
	var out bytes.Buffer
	p := testRequest(t, llama, loadgen.PerformanceOnly, synth(t, llama, 24), url, 0)
	p.Test.Settings, p.Compliance = nil, submission.TEST06
	if o := runOf(t, p, &out); o.Class != Passed {
		t.Fatalf("%+v\n%s", o, out.String())
	}
	latest := filepath.Join(p.RunsDir, llama.Name, "Offline-TEST06", record.LatestLink)
	if _, err := os.Stat(filepath.Join(latest, "verify_accuracy.txt")); err != nil {
		t.Errorf("no TEST06 run under %s: %v", latest, err)
	}
	if _, err := os.Stat(filepath.Join(p.RunsDir, llama.Name, "Offline-performance")); err == nil {
		t.Errorf("the compliance run went among the performance runs")
	}
	index, err := os.ReadFile(filepath.Join(p.RunsDir, "index.md"))
	if err != nil || !regexp.MustCompile(`Offline-TEST06/[0-9TZ]+/report\.md\) \| [0-9-]+ [0-9:]+ \| llama3_1-8b \| Offline \| PerformanceOnly \| PASS \|`).Match(index) {
		t.Errorf("the runs index does not list the run as PASS (%v):\n%s", err, index)
	}
}

// TestComplianceTEST07ScoredInGo: without AccuracyScript TEST07 scores the
// log with mlperf-go's gpt-oss-120b scorer, and its verify_accuracy.txt is
// the scorer's printed block followed by the reference's summary: the
// fake's answers score 0, which fails against the audit.config's 60.698,
// so the run is Failed and not filed. Without a tokenizer the run is
// refused before its test.
func TestComplianceTEST07ScoredInGo(t *testing.T) {
	loadgentest.Require(t)
	gpt := mustLookup(t, "gpt-oss-120b")
	data := synth(t, gpt, 24)
	// The synthetic set mixes in LiveCodeBench rows; the fake's answers
	// hold no code, so no test of theirs runs.
	lcb := filepath.Join(t.TempDir(), "test6.jsonl")
	if err := os.WriteFile(lcb, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{Model: gpt.Serving.Model, OutputTokens: 64})
	var out bytes.Buffer
	test07 := func(eval EvalSettings) (Request, Outcome) {
		out.Reset()
		p := testRequest(t, gpt, loadgen.PerformanceOnly, data, url, 0)
		p.Test.Settings = []string{"target_qps=200", "performance_sample_count_override=24"}
		p.Compliance, p.Eval = submission.TEST07, eval
		p.OutputDir, p.ResultsDir, p.System = filepath.Join(t.TempDir(), "out"), filepath.Join(t.TempDir(), "results"), "sys"
		return p, runOf(t, p, &out)
	}

	p, o := test07(EvalSettings{TokenizerModel: filepath.Join(t.TempDir(), "no-such-model"), Python: "python3"})
	if o.Class != Failed || !strings.Contains(o.Err.Error(), "--compliance TEST07 scores the run's log in Go") || !strings.Contains(o.Err.Error(), "checked before the test") {
		t.Errorf("without a tokenizer: %+v, want Failed by a refusal before the test", o)
	}
	if _, err := os.Stat(filepath.Join(p.OutputDir, "mlperf_log_detail.txt")); err == nil {
		t.Errorf("the test ran before the refusal")
	}

	p, o = test07(EvalSettings{Tokenizer: filepath.Join("..", "tokenizer", "testdata", "bytelevel"), LiveCodeBench: lcb, Python: "python3"})
	want := "=== Outcome: TEST07 FAIL: Accuracy check pass: False (exact_match 0.0 < threshold 60.698) ==="
	if v := o.Tests[0].Compliance; v == nil || v.Pass || v.Test != submission.TEST07 || o.Tests[0].NotFiled == "" || o.Tests[0].Filed != "" {
		t.Errorf("the outcome's verdict %+v, not filed %q", v, o.Tests[0].NotFiled)
	}
	if o.Class != Failed || !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "not filed into --results-dir") {
		t.Fatalf("%+v, want Failed, %q and no filing:\n%s", o, want, out.String())
	}
	verify, err := os.ReadFile(filepath.Join(p.OutputDir, "verify_accuracy.txt"))
	if err != nil {
		t.Fatal(err)
	}
	eq := strings.Repeat("=", 80)
	tail := fmt.Sprintf("\n'exact_match': 0.000\n\n%s\nTEST07 Verification Summary\n%s\nAccuracy score: 0.0\nAccuracy threshold: 60.698\nAccuracy check pass: False\nTEST FAIL\n", eq, eq)
	if !strings.HasPrefix(string(verify), "\n"+eq+"\nMLPerf Accuracy Evaluation Results\n") || !strings.HasSuffix(string(verify), tail) {
		t.Errorf("verify_accuracy.txt is not the scorer's block and the reference's summary:\n%s", verify)
	}
	res, err := results.Read(p.OutputDir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome.Status != results.StatusFail || res.Compliance == nil || !strings.Contains(res.Compliance.Verifier, "eval_mlperf_accuracy.py") {
		t.Errorf("results.json: status %q, compliance %+v", res.Outcome.Status, res.Compliance)
	}
	if _, err := os.Stat(filepath.Join(p.ResultsDir, "sys")); err == nil {
		t.Errorf("the failed TEST07 run was filed")
	}
}
