package workflow

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
)

// resultsRead is results.Read, which tests whose variables are named
// results reach by this name.
var resultsRead = results.Read

func mustLookup(t *testing.T, name string) benchmark.Benchmark {
	t.Helper()
	b, err := benchmark.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// synth writes n synthetic samples of b and returns its dataset paths.
func synth(t *testing.T, b benchmark.Benchmark, n int) []string {
	t.Helper()
	files, err := b.Data.Synth(t.TempDir(), n, 3)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// startFake serves a fake endpoint on loopback until the test ends and
// returns its URL.
func startFake(t *testing.T, cfg fake.Config) string {
	t.Helper()
	_, url := faketest.Start(t, cfg)
	return url
}

// fakeAnswers are the answers of the dataset at paths, for a fake that
// answers b's questions right.
func fakeAnswers(t *testing.T, b benchmark.Benchmark, paths []string) []fake.Answer {
	t.Helper()
	d, err := b.OpenDataset(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var out []fake.Answer
	for _, a := range d.(benchmark.FakeAnswerer).FakeAnswers() {
		out = append(out, fake.Answer(a))
	}
	return out
}

// round is the round the command defaults to: the linked LoadGen's.
func round() string {
	if r, err := buildinfo.Round(); err == nil {
		return r
	}
	return submission.DefaultRound
}

// testRequest is a request of an Offline test of n samples of b in mode
// against url, every other flag at its default.
func testRequest(t *testing.T, b benchmark.Benchmark, mode loadgen.Mode, data []string, url string, n int) Request {
	t.Helper()
	r := request(t)
	r.ModeName = run.ModeName(mode)
	r.Test.Benchmark, r.Test.Dataset, r.Test.Endpoints, r.Test.Round = b.Name, data, []string{url}, round()
	r.Test.TotalSampleCount = n
	r.Test.Settings = []string{"min_duration=0", "min_query_count=" + strconv.Itoa(n), "performance_sample_count_override=" + strconv.Itoa(n), "accuracy_sample_count_override=" + strconv.Itoa(n)}
	r.RunsDir = filepath.Join(t.TempDir(), "runs")
	r.Record = run.Record{Command: []string{"mlperf-go", "run", "(test)"}}
	return r
}

// runOf resolves r and runs it, as the run command does, printing the
// outcome (and progress) into out; a request Resolve refuses is an
// Outcome of Class Failed.
func runOf(t *testing.T, r Request, out *bytes.Buffer) Outcome {
	t.Helper()
	return runPlanOf(t, r, out, func(*Plan) {})
}

// runPlanOf is runOf with the plan changed by edit before it runs, for a
// test of what Run does with a plan Resolve would not make.
func runPlanOf(t *testing.T, r Request, out *bytes.Buffer, edit func(*Plan)) Outcome {
	t.Helper()
	r.Progress = out
	p, err := Resolve(r)
	if err != nil {
		return Outcome{}.end(err)
	}
	edit(&p)
	o := Run(context.Background(), p)
	o.Print(out, out)
	return o
}

// TestModeBothRefusedBeforeAnything: --mode both whose accuracy test
// could not be filed (20 samples of 48,289 into --results-dir) is refused
// before its first test: nothing is printed but the refusal, which names
// --allow-unofficial-settings for a rehearsal, no folder is made, no
// request is sent.
func TestModeBothRefusedBeforeAnything(t *testing.T) {
	loadgentest.Require(t)
	b := mustLookup(t, "qwen3-vl-235b-a22b")
	data := synth(t, b, 20)
	srv, url := faketest.Start(t, fake.Config{DefaultAnswer: b.Fake.DefaultAnswer})
	dir := t.TempDir()
	var text bytes.Buffer
	r := testRequest(t, b, loadgen.AccuracyOnly, data, url, 20)
	r.Test.TotalSampleCount = 0
	r.ModeName, r.RunsDir, r.OutputDir, r.ResultsDir, r.System = record.ModeBoth, filepath.Join(dir, "runs"), "", filepath.Join(dir, "results"), "s1"
	o := runOf(t, r, &text)
	if o.Class != Failed || o.Err == nil || !strings.Contains(o.Err.Error(), "accuracy test: --results-dir: an accuracy run over 20 samples cannot be submitted") ||
		!strings.Contains(o.Err.Error(), "add --allow-unofficial-settings") {
		t.Fatalf("want a refusal of the accuracy test naming --allow-unofficial-settings, got %+v\n%s", o, text.String())
	}
	if strings.Contains(text.String(), "===") || len(o.Tests) != 0 {
		t.Errorf("a refused --mode both printed or ran a test:\n%s", text.String())
	}
	for _, d := range []string{r.RunsDir, r.ResultsDir} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("a refused --mode both made %s (%v)", d, err)
		}
	}
	var sent uint64
	for _, n := range srv.Stats().Requests {
		sent += n
	}
	if sent != 0 {
		t.Errorf("a refused --mode both sent %d requests", sent)
	}
}

// TestRunHistory runs twice into RunsDir: each run gets its own timestamped
// folder, `latest` follows the newest and the index lists both. A run that
// fails before its test leaves no folder behind; an OutputDir that holds a
// run is refused unless Overwrite.
func TestRunHistory(t *testing.T) {
	loadgentest.Require(t)
	b := mustLookup(t, "llama3_1-8b")
	data := synth(t, b, 20)
	url := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 4, TTFT: time.Millisecond, TPOT: time.Millisecond})
	var out bytes.Buffer
	base := testRequest(t, b, loadgen.PerformanceOnly, data, url, 10)
	runs := base.RunsDir

	// A run that fails before its test (here: no such dataset) leaves no
	// empty run folder behind.
	bad := base
	bad.Test.Dataset = []string{filepath.Join(t.TempDir(), "missing.json")}
	if o := runOf(t, bad, &out); o.Class != Failed {
		t.Fatalf("a run on a missing dataset: %+v, want Failed\n%s", o, out.String())
	}
	if _, err := os.Stat(runs); !os.IsNotExist(err) {
		t.Fatalf("a failed run left %s behind (%v)", runs, err)
	}
	// Nor does one whose preflight fails (nothing listens on port 9), with
	// or without OutputDir, or a compliance run's folder.
	failedOut := filepath.Join(t.TempDir(), "out", "perf")
	for _, p := range []Request{{}, {OutputDir: failedOut}, {OutputDir: failedOut, Compliance: submission.TEST06}} {
		closed := base
		closed.Test.Endpoints = []string{"http://127.0.0.1:9"}
		closed.OutputDir, closed.Compliance = p.OutputDir, p.Compliance
		if o := runOf(t, closed, &out); o.Class != Failed || o.Err == nil || !strings.Contains(o.Err.Error(), "preflight") {
			t.Fatalf("%q %q against a closed port: %+v", p.OutputDir, p.Compliance, o)
		}
		for _, dir := range []string{runs, filepath.Dir(failedOut)} {
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("a run whose preflight failed (%q %q) left %s behind (%v)", p.OutputDir, p.Compliance, dir, err)
			}
		}
	}

	var last Outcome
	for i := range 2 {
		if last = runOf(t, base, &out); last.Class != Passed {
			t.Fatalf("run %d: %+v\n%s", i, last, out.String())
		}
	}
	parent := filepath.Join(runs, b.Name, "Offline-performance")
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 2 {
		t.Fatalf("want two run folders in %s, got %v", parent, dirs)
	}
	for _, d := range dirs {
		if _, err := time.Parse("20060102T150405Z", strings.SplitN(d, "-", 2)[0]); err != nil {
			t.Errorf("run folder %q is not a UTC timestamp: %v", d, err)
		}
		if _, err := os.Stat(filepath.Join(parent, d, mllog.DetailFile)); err != nil {
			t.Errorf("run folder %s has no LoadGen log: %v", d, err)
		}
	}
	// ReadDir sorts by name, and names sort by time (same-second runs
	// get -2): the second is the newest.
	if got, err := os.Readlink(filepath.Join(parent, record.LatestLink)); err != nil || got != dirs[1] {
		t.Errorf("latest -> %q (%v), want %q", got, err, dirs[1])
	}
	index, err := os.ReadFile(filepath.Join(runs, record.IndexHTMLFile))
	if err != nil {
		t.Fatalf("no index of runs: %v", err)
	}
	for _, d := range dirs {
		if !strings.Contains(string(index), d) {
			t.Errorf("the index does not list run %s", d)
		}
	}
	if strings.Contains(string(index), record.LatestLink+"/") {
		t.Errorf("the index lists the latest link as a run of its own")
	}
	if want := filepath.Join(runs, record.IndexHTMLFile); last.Index != want || !strings.Contains(out.String(), want) {
		t.Errorf("the outcome's index %q, want %s, printed:\n%s", last.Index, want, out.String())
	}
	if tr := last.Tests[0]; len(last.Tests) != 1 || tr.Record == nil || tr.Record.Outcome != record.Valid || tr.ReportHTML != filepath.Join(tr.Dir, record.ReportHTMLFile) {
		t.Errorf("the outcome's test: %+v", last.Tests)
	}

	// An existing run folder is never silently replaced.
	first := filepath.Join(parent, dirs[0])
	before, err := os.ReadFile(filepath.Join(first, mllog.DetailFile))
	if err != nil {
		t.Fatal(err)
	}
	reuse := base
	reuse.OutputDir = first
	if o := runOf(t, reuse, &out); o.Class != Failed || !strings.Contains(o.Err.Error(), "--overwrite") {
		t.Fatalf("re-using a run's OutputDir: want a refusal naming --overwrite, got %+v", o)
	}
	if after, _ := os.ReadFile(filepath.Join(first, mllog.DetailFile)); string(after) != string(before) {
		t.Fatal("a refused run changed the earlier run's log")
	}
	reuse.Overwrite = true
	if o := runOf(t, reuse, &out); o.Class != Passed {
		t.Fatalf("Overwrite: %+v\n%s", o, out.String())
	}
	// An empty or new OutputDir needs nothing.
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	reuse.OutputDir, reuse.Overwrite = empty, false
	if o := runOf(t, reuse, &out); o.Class != Passed {
		t.Fatalf("empty OutputDir: %+v\n%s", o, out.String())
	}
}

// TestModeBoth runs Qwen3-VL with Both: the accuracy test, scored, then
// the performance test, each in its own folder from the same settings, and
// both filed into the results tree. Against an engine that answers wrongly
// the accuracy test FAILs, so the performance result, VALID as it is, is
// neither submittable nor filed, and the outcome is Failed.
func TestModeBoth(t *testing.T) {
	loadgentest.Require(t)
	b := mustLookup(t, "qwen3-vl-235b-a22b")
	data := synth(t, b, 20)
	truths := fakeAnswers(t, b, data)
	dir := t.TempDir()
	both := func(url, out, results string) (Outcome, string) {
		var text bytes.Buffer
		r := testRequest(t, b, loadgen.AccuracyOnly, data, url, 20)
		r.Test.Settings = []string{"min_duration=0", "min_query_count=20", "performance_sample_count_override=20"}
		r.Test.TotalSampleCount = 0
		// 20 of qwen3-vl's 48,289 samples: a rehearsal of the filing,
		// which only unofficial settings allow.
		r.ModeName, r.OutputDir, r.ResultsDir, r.System, r.AllowUnofficial = record.ModeBoth, out, results, "s1", true
		return runOf(t, r, &text), text.String()
	}

	out, results := filepath.Join(dir, "out"), filepath.Join(dir, "results")
	o, text := both(startFake(t, fake.Config{Answers: truths, DefaultAnswer: b.Fake.DefaultAnswer, Accuracy: 1}), out, results)
	if o.Class != Passed {
		t.Fatalf("Both: %+v\n%s", o, text)
	}
	if len(o.Tests) != 2 || o.Tests[0].Scored == nil || o.Tests[0].Scored.Accuracy.Partial != "20 of 48289 samples" || o.Tests[1].Report.Outcome != record.Valid ||
		o.Tests[0].Filed == "" || o.Tests[1].Filed == "" {
		t.Errorf("the outcome's tests: %+v", o.Tests)
	}
	if !strings.Contains(text, "not a full accuracy run: judged on 20 of 48289 samples") {
		t.Errorf("the verdict on 20 samples does not say it is partial:\n%s", text)
	}
	if strings.Contains(text, "--evaluate applies to accuracy runs") {
		t.Errorf("Both warns about an --evaluate nobody gave:\n%s", text)
	}
	acc, err := os.ReadFile(filepath.Join(out, "accuracy", "accuracy.txt"))
	if err != nil || !regexp.MustCompile(`(?m)^\{"f1": 1\.0\}$`).Match(acc) {
		t.Errorf("the accuracy test was not evaluated (%v):\n%s", err, acc)
	}
	if !regexp.MustCompile(`LoadGen result +VALID\n`).MatchString(text) || !strings.Contains(text, "=== Outcome: VALID ===") {
		t.Errorf("no VALID performance result in the output:\n%s", text)
	}
	var confs []string
	for _, m := range []string{"accuracy", "performance"} {
		b, err := os.ReadFile(filepath.Join(out, m, "user.conf"))
		if err != nil {
			t.Fatal(err)
		}
		confs = append(confs, string(b))
		if _, err := os.Stat(filepath.Join(out, m, "mlperf_log_detail.txt")); err != nil {
			t.Errorf("%s test: %v", m, err)
		}
	}
	if confs[0] != confs[1] || !strings.Contains(confs[0], "min_query_count = 20") {
		t.Errorf("the tests did not read one user.conf:\n%s\n---\n%s", confs[0], confs[1])
	}
	scen := filepath.Join(results, "s1", b.Name, "Offline")
	for _, f := range []string{"accuracy/accuracy.txt", "accuracy/mlperf_log_accuracy.json", "performance/run_1/mlperf_log_summary.txt"} {
		if _, err := os.Stat(filepath.Join(scen, f)); err != nil {
			t.Errorf("not filed: %v", err)
		}
	}
	if s, err := os.ReadFile(filepath.Join(out, "performance", "mlperf_log_summary.txt")); err != nil || !strings.Contains(string(s), "PerformanceOnly") {
		t.Errorf("the second test was not a performance run (%v)", err)
	}
	if rec, err := record.Read(filepath.Join(out, "performance")); err != nil || rec.PairedAccuracy == nil || rec.PairedAccuracy.Pass || !rec.PairedAccuracy.Partial {
		t.Errorf("the performance record does not name its accuracy run, passed on part of the set (%v): %+v", err, rec.PairedAccuracy)
	}
	if res, err := resultsRead(filepath.Join(out, "performance")); err != nil || !slices.ContainsFunc(res.Outcome.Warnings, func(w string) bool {
		return strings.Contains(w, "not submittable") && strings.Contains(w, "part of the dataset")
	}) {
		t.Errorf("results.json of the performance run does not warn that its accuracy run was partial (%v)", err)
	}

	out2, results2 := filepath.Join(dir, "out2"), filepath.Join(dir, "results2")
	o, text = both(startFake(t, fake.Config{Answers: truths, Accuracy: 0, DefaultAnswer: b.Fake.DefaultAnswer}), out2, results2)
	if o.Class != Failed || !strings.Contains(text, "=== Accuracy: FAIL ===") || !strings.HasPrefix(o.Err.Error(), "accuracy test: ") {
		t.Fatalf("Both with wrong answers: %+v, want Failed by the accuracy test\n%s", o, text)
	}
	if rec, err := record.Read(filepath.Join(out2, "performance")); err != nil || rec.PairedAccuracy == nil || rec.PairedAccuracy.Pass || rec.Submittable() == nil {
		t.Errorf("the performance record does not say its accuracy run failed (%v): %+v", err, rec.PairedAccuracy)
	}
	if _, err := os.Stat(filepath.Join(results2, "s1", b.Name, "Offline", "performance")); !os.IsNotExist(err) {
		t.Errorf("a performance run beside a failed accuracy run was filed (%v)", err)
	}
}

// TestEvaluationNeedsTokenizerFirst: an accuracy run to be evaluated
// (--evaluate, --mode both) of a token-ID benchmark whose tokenizer cannot
// be found is refused before any test runs, pointing at `mlperf-go dataset
// download --only tokenizer` first; with the tokenizer, it runs.
func TestEvaluationNeedsTokenizerFirst(t *testing.T) {
	loadgentest.Require(t)
	b := mustLookup(t, "llama3_1-8b")
	data := synth(t, b, 10)
	url := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 4})
	missing := EvalSettings{TokenizerModel: filepath.Join(t.TempDir(), "no-such-model")}
	for _, tc := range []struct {
		name, why string
		both      bool
	}{
		{"evaluate", "--evaluate scores the accuracy run in Go", false},
		{"both", "--mode both scores its accuracy test in Go", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := testRequest(t, b, loadgen.AccuracyOnly, data, url, 10)
			p.Evaluate, p.Eval = true, missing
			if tc.both {
				p.ModeName = record.ModeBoth
			}
			p.OutputDir = filepath.Join(t.TempDir(), "out")
			o := runOf(t, p, &out)
			if o.Class != Failed || o.Err == nil {
				t.Fatalf("without a tokenizer: %+v, want Failed\n%s", o, out.String())
			}
			msg := o.Err.Error()
			for _, want := range []string{tc.why, "checked before the test", "mlperf-go dataset download -b llama3_1-8b --round " + p.Test.Round + " --only tokenizer --out DIR, then pass --tokenizer DIR/tokenizer"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the refusal does not say %q:\n%s", want, msg)
				}
			}
			if i, j := strings.Index(msg, "mlperf-go dataset download"), strings.Index(msg, "huggingface-cli"); i < 0 || j >= 0 && j < i {
				t.Errorf("the refusal does not point at mlperf-go's download first:\n%s", msg)
			}
			if _, err := os.Stat(p.OutputDir); !os.IsNotExist(err) {
				t.Errorf("a test ran before the refusal (%v):\n%s", err, out.String())
			}
		})
	}
}

// TestReasonLabels: the console names a run's reasons after its verdict
// ("Why INVALID"), and an accuracy run's, which has no verdict of its own,
// after what they decide: that the run does not go into a submission.
func TestReasonLabels(t *testing.T) {
	for status, want := range map[string]string{
		results.StatusInvalid:  "Why INVALID",
		results.StatusFailed:   "Why FAILED",
		results.StatusAccuracy: "Why not submittable",
	} {
		var out bytes.Buffer
		printReasons(&out, status, []string{"first", "second"})
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(strings.TrimSpace(lines[0]), want+" ") || !strings.HasSuffix(lines[0], " first") || strings.TrimSpace(lines[1]) != "second" {
			t.Errorf("status %s printed:\n%s\nwant %q then both reasons", status, out.String(), want)
		}
	}
}

// TestFailedMetricsLeaveOutTheUnjudged: a partial log that fails a mean
// is failed for that metric alone; the total it was not judged on is not
// named as failing.
func TestFailedMetricsLeaveOutTheUnjudged(t *testing.T) {
	txt := []byte("{'rouge1': '12.5', 'rouge2': '30.1', 'rougeL': '40.2', 'rougeLsum': '50.3', 'gen_len': 11424, 'gen_num': 20}\nhash=00\n")
	v, err := submission.JudgePartialAccuracy("llama3_1-8b", "v6.1", "Offline", txt, 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := failedMetrics(v); len(got) != 1 || !strings.HasPrefix(got[0], "ROUGE1 = 12.5") {
		t.Errorf("failedMetrics = %q, want ROUGE1 alone", got)
	}
}
