package workflow

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission/filing"
)

// TestOnlySubmittableIsFiled: a results tree gets only submittable runs.
// A performance run LoadGen calls INVALID stays in its run folder, the
// reason printed, and the next try needs no --replace; with
// AllowUnofficial (--allow-unofficial-settings), whose short settings make
// INVALID runs, it is filed for the rehearsal. An accuracy run whose
// evaluation could not run is not filed either.
func TestOnlySubmittableIsFiled(t *testing.T) {
	loadgentest.Require(t)
	b := mustLookup(t, "llama3_1-8b")
	data := synth(t, b, 10)
	url := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 4})
	invalid := func(allow bool) (Request, Outcome, string) {
		var out bytes.Buffer
		p := testRequest(t, b, loadgen.PerformanceOnly, data, url, 10)
		// 100 queries in well under min_duration's 100 s: INVALID.
		p.Test.Settings = []string{"min_duration=100000", "target_qps=1", "min_query_count=1", "performance_sample_count_override=10"}
		p.OutputDir, p.ResultsDir, p.System, p.AllowUnofficial = filepath.Join(t.TempDir(), "perf"), filepath.Join(t.TempDir(), "results"), "sys", allow
		// Resolve refuses these settings with --results-dir unless
		// AllowUnofficial: the run stands for an official one LoadGen
		// still calls INVALID.
		return p, runPlanOf(t, p, &out, func(p *Plan) { p.Tests[0].Options.SubmissionGrade = false }), out.String()
	}
	p, o, text := invalid(false)
	if o.Class != Invalid {
		t.Fatalf("a run too short for min_duration: %+v, want Invalid\n%s", o, text)
	}
	filed := filepath.Join(p.ResultsDir, "sys", "llama3.1-8b", "Offline", "performance")
	if _, err := os.Stat(filed); !os.IsNotExist(err) {
		t.Errorf("the INVALID run was filed (%v)", err)
	}
	if want := "not filed into --results-dir, which holds only submittable runs: the run is INVALID (LoadGen's result is INVALID"; !strings.Contains(o.Tests[0].NotFiled, want) || !strings.Contains(text, want) || !strings.Contains(text, "the run stays in "+p.OutputDir) {
		t.Errorf("the output does not say %q and where the run stays:\n%s", want, text)
	}
	if _, o, text := invalid(true); o.Class != Invalid || strings.Contains(text, "not filed") {
		t.Fatalf("AllowUnofficial: %+v, want Invalid and filed\n%s", o, text)
	}

	// gpt-oss-120b's evaluation grades code answers with LiveCodeBench's
	// tests, which it is not given: it cannot run.
	gpt := mustLookup(t, "gpt-oss-120b")
	gdata := synth(t, gpt, 24)
	var out bytes.Buffer
	acc := testRequest(t, gpt, loadgen.AccuracyOnly, gdata, startFake(t, fake.Config{Model: gpt.Serving.Model, OutputTokens: 8}), 24)
	acc.Evaluate, acc.Eval = true, EvalSettings{Tokenizer: filepath.Join("..", "tokenizer", "testdata", "bytelevel"), Python: "python3"}
	acc.OutputDir, acc.ResultsDir, acc.System = filepath.Join(t.TempDir(), "acc"), filepath.Join(t.TempDir(), "results"), "sys"
	// Resolve refuses a subset of the set with --results-dir: the run
	// stands for a whole one.
	o = runPlanOf(t, acc, &out, func(p *Plan) { p.Tests[0].Options.SubmissionGrade = false })
	if o.Class != Failed {
		t.Fatalf("an evaluation that cannot run: %+v, want Failed\n%s", o, out.String())
	}
	if _, err := os.Stat(filepath.Join(acc.ResultsDir, "sys")); !os.IsNotExist(err) {
		t.Errorf("the accuracy run whose evaluation could not run was filed (%v)\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "not filed into --results-dir, which holds only submittable runs: its evaluation did not pass") {
		t.Errorf("the output does not say why the run was not filed:\n%s", out.String()+fmt.Sprint(o.Err))
	}
}

// TestFilingFailureKeepsTheRun: a run whose filing fails after its test
// (here the results tree became a file once the plan was checked) is not
// lost: the error says where its logs are and the command that files
// them, and that command, once the cause is gone, files it.
func TestFilingFailureKeepsTheRun(t *testing.T) {
	loadgentest.Require(t)
	b := mustLookup(t, "llama3_1-8b")
	data := synth(t, b, 10)
	url := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 4})
	var out bytes.Buffer
	r := testRequest(t, b, loadgen.PerformanceOnly, data, url, 10)
	r.OutputDir, r.ResultsDir, r.System, r.AllowUnofficial = filepath.Join(t.TempDir(), "perf"), filepath.Join(t.TempDir(), "results"), "sys", true
	o := runPlanOf(t, r, &out, func(*Plan) {
		if err := os.WriteFile(r.ResultsDir, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	want := "the run is kept in " + r.OutputDir + ": once that is fixed, file it with: mlperf-go submission file " + r.OutputDir +
		" --results-dir " + r.ResultsDir + " --system sys --allow-unofficial-settings"
	if o.Class == Passed || o.Err == nil || !strings.Contains(o.Err.Error(), want) {
		t.Fatalf("a failed filing: %+v, want an error with %q\n%s", o, want, out.String())
	}
	if _, err := os.Stat(filepath.Join(r.OutputDir, mllog.DetailFile)); err != nil {
		t.Errorf("the run's logs are gone: %v", err)
	}
	os.Remove(r.ResultsDir)
	if dest, err := filing.FileRecorded(r.OutputDir, r.ResultsDir, "sys", false, true); err != nil || !strings.HasSuffix(dest, filepath.Join("sys", "llama3.1-8b", "Offline", "performance", "run_1")) {
		t.Errorf("filing the kept run: %q, %v", dest, err)
	}
}

// TestEvaluateKeepsFiledCopySubmittable: evaluating a run filed into a
// results tree writes its accuracy.txt and verdict there only when they
// pass. Scored against another dataset, the filed run FAILs: the error
// says so, and the filed accuracy.txt and record stay as filed.
func TestEvaluateKeepsFiledCopySubmittable(t *testing.T) {
	loadgentest.Require(t)
	b := mustLookup(t, "qwen3-vl-235b-a22b")
	data := synth(t, b, 20)
	var out bytes.Buffer
	p := testRequest(t, b, loadgen.AccuracyOnly, data, startFake(t, fake.Config{Answers: fakeAnswers(t, b, data), DefaultAnswer: b.Fake.DefaultAnswer, Accuracy: 1}), 20)
	p.Evaluate, p.OutputDir, p.ResultsDir, p.System = true, filepath.Join(t.TempDir(), "acc"), filepath.Join(t.TempDir(), "results"), "sys"
	p.AllowUnofficial = true // 20 samples: filed only for a rehearsal
	if o := runOf(t, p, &out); o.Class != Passed {
		t.Fatalf("accuracy run: %+v\n%s", o, out.String())
	}
	filed := filepath.Join(p.ResultsDir, "sys", b.SubmissionDir, "Offline", "accuracy")
	if !filing.Filed(filed) || filing.Filed(p.OutputDir) {
		t.Fatalf("Filed(%s) = %v, Filed(%s) = %v", filed, filing.Filed(filed), p.OutputDir, filing.Filed(p.OutputDir))
	}
	accTxt := filepath.Join(filed, record.AccuracyTxtFile)
	before, err := os.ReadFile(accTxt)
	if err != nil {
		t.Fatal(err)
	}
	evaluate := func(paths []string) (error, string) {
		t.Helper()
		d, err := b.OpenAccuracyDataset(paths, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var text bytes.Buffer
		s, err := Evaluate(t.Context(), d, filepath.Join(filed, mllog.AccuracyFile), filepath.Join(filed, record.AccuracyTxtFile), benchmark.EvalOptions{Benchmark: b, Round: round()}, benchmark.ScenarioOffline)
		s.Print(&text, &text)
		return err, text.String()
	}
	other, err := b.Data.Synth(t.TempDir(), 20, 11)
	if err != nil {
		t.Fatal(err)
	}
	err, text := evaluate(other)
	if ClassOf(err) != Failed || !strings.Contains(text, "=== Accuracy: FAIL ===") || !strings.Contains(text, "nothing was written into it") {
		t.Fatalf("the filed run scored against another dataset: %v, want a FAIL that writes nothing\n%s", err, text)
	}
	if after, _ := os.ReadFile(accTxt); !bytes.Equal(after, before) {
		t.Errorf("a FAIL was written into the filed copy: %s, filed as %s", after, before)
	}
	if rec, err := record.Read(filed); err != nil || rec.Accuracy == nil || !rec.Accuracy.Pass {
		t.Errorf("the filed record lost its passing verdict (%v): %+v", err, rec.Accuracy)
	}
	if err, text := evaluate(data); err != nil || !strings.Contains(text, "=== Accuracy: PASS ===") {
		t.Errorf("the filed run scored against its dataset: %v\n%s", err, text)
	}
	if after, _ := os.ReadFile(accTxt); !bytes.Equal(after, before) {
		t.Errorf("a passing evaluation wrote %s, filed as %s", after, before)
	}
}
