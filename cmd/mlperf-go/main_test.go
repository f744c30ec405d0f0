package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/answers"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
)

// runCLI runs mlperf-go in-process with args and returns its output and
// error. LoadGen runs one test per process at a time, so CLI tests are
// sequential.
func runCLI(t testing.TB, args ...string) (string, error) {
	t.Helper()
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, &out
	err := runApp(context.Background(), app, append([]string{"mlperf-go", "--log-level", "warn"}, args...))
	return out.String(), err
}

// startFake serves a fake endpoint on loopback until the test ends and
// returns its URL.
func startFake(t testing.TB, cfg fake.Config) string {
	t.Helper()
	_, url := startFakeServer(t, cfg)
	return url
}

// startFakeServer is startFake that also returns the server, for tests that
// wait on what it has served.
func startFakeServer(t testing.TB, cfg fake.Config) (*fake.Server, string) {
	t.Helper()
	return faketest.Start(t, cfg)
}

func mustLookup(t testing.TB, name string) benchmark.Benchmark {
	t.Helper()
	b, err := benchmark.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exitCode(err error) int {
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if err != nil {
		return 1
	}
	return 0
}

// fillTODOs replaces every "TODO: …" placeholder of a template with a real
// value, as a submitter would.
func fillTODOs(t *testing.T, tmpl []byte, values map[string]any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(tmpl, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range m {
		if s, ok := v.(string); ok && strings.HasPrefix(s, "TODO") {
			m[k] = "filled"
		}
	}
	for k, v := range values {
		m[k] = v
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSubmissionWorkflow runs what a submitter runs, through the CLI: runs
// filed into a results tree (performance, accuracy, TEST06 compliance), a
// refused re-run, templates, the official evaluator's output ingested,
// packaging, and the preflight check, which must only object to what short
// test runs cannot satisfy.
func TestSubmissionWorkflow(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	files, err := mustLookup(t, "llama3_1-8b").Data.Synth(dir, 40, 5)
	if err != nil {
		t.Fatal(err)
	}
	data := files[0]
	url := startFake(t, fake.Config{Model: "meta-llama/Llama-3.1-8B-Instruct", OutputTokens: 12,
		TTFT: 5 * time.Millisecond, TPOT: time.Millisecond})
	results := filepath.Join(dir, "results")
	common := []string{"run", "-b", "llama3_1-8b", "-s", "Server", "-d", data, "-e", url,
		"--results-dir", results, "--system", "sys1", "--progress-interval", "0", "--allow-unofficial-settings",
		"--setting", "min_duration=300", "--target-qps", "100", "--min-query-count", "40"}

	out, err := runCLI(t, append(common, "-o", filepath.Join(dir, "perf"))...)
	// A 0.3 s Server run cannot meet early stopping: INVALID is exit 3,
	// and the run is filed all the same.
	if c := exitCode(err); c != 0 && c != 3 {
		t.Fatalf("performance run: %v\n%s", err, out)
	}
	scen := filepath.Join(results, "sys1", "llama3.1-8b", "Server")
	for _, f := range []string{"performance/run_1/mlperf_log_detail.txt", "performance/run_1/mlperf_log_summary.txt", "user.conf"} {
		if _, err := os.Stat(filepath.Join(scen, f)); err != nil {
			t.Errorf("performance run not filed: %v", err)
		}
	}
	if !strings.Contains(out, "p99 time to first token") {
		t.Errorf("report lacks TTFT:\n%s", out)
	}
	// The run's results and report beside its logs; the series they draw
	// filed with the run.
	for _, f := range []string{"results.json", "report.html", "report.md", "timeline.jsonl", "engine_metrics.jsonl", "mlperf_go_latency.json"} {
		if _, err := os.Stat(filepath.Join(dir, "perf", f)); err != nil {
			t.Errorf("run wrote no %s: %v", f, err)
		}
	}
	for _, f := range []string{"timeline.jsonl", "mlperf_go_latency.json"} {
		if _, err := os.Stat(filepath.Join(scen, "performance/run_1", f)); err != nil {
			t.Errorf("%s not filed with the run: %v", f, err)
		}
	}
	if !strings.Contains(out, "report.html") {
		t.Errorf("run does not say where its report is:\n%s", out)
	}

	out, err = runCLI(t, append(common, "-o", filepath.Join(dir, "perf2"))...)
	if err == nil || !strings.Contains(err.Error(), "--replace") {
		t.Errorf("re-filing a performance run: error %v, want a refusal naming --replace", err)
	}
	// The refusal comes before the test: no run, nothing left behind.
	if strings.Contains(out, "Outcome") {
		t.Errorf("the refused run ran its test first:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "perf2")); !os.IsNotExist(err) {
		t.Errorf("the refused run left %s behind (%v)", filepath.Join(dir, "perf2"), err)
	}

	out, err = runCLI(t, append(common, "-m", "accuracy", "-o", filepath.Join(dir, "acc"))...)
	if err != nil {
		t.Fatalf("accuracy run: %v\n%s", err, out)
	}
	// Scored in Go: the fake's answers are no summaries, so every ROUGE
	// metric is below its bound, the verdict is FAIL (exit 1) and the run
	// record says so. (A tokenizer of our own stands in for Llama 3's.)
	out, err = runCLI(t, "evaluate", "-b", "llama3_1-8b", "-l", filepath.Join(dir, "acc", "mlperf_log_accuracy.json"), "-d", data,
		"--tokenizer", filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel"))
	if exitCode(err) != 1 || !strings.Contains(out, "=== Accuracy: FAIL ===") || !regexp.MustCompile(`ROUGE1 +[0-9.]+ +>= 38\.391408 +FAIL`).MatchString(out) {
		t.Errorf("evaluate of the fake's answers: %v, want exit 1 and a FAIL table:\n%s", err, out)
	}
	if rec := readRecord(t, filepath.Join(dir, "acc")); rec.Accuracy == nil || rec.Accuracy.Pass || rec.Submittable() == nil {
		t.Errorf("the run record does not hold the failed verdict: %+v", rec.Accuracy)
	}

	out, err = runCLI(t, append(common, "--compliance", "TEST06", "-o", filepath.Join(dir, "t06"))...)
	if c := exitCode(err); c != 0 && c != 3 {
		v, _ := os.ReadFile(filepath.Join(scen, "TEST06", "verify_accuracy.txt"))
		t.Fatalf("TEST06 run: %v\n%s\n%s", err, out, v)
	}
	verify, err := os.ReadFile(filepath.Join(scen, "TEST06", "verify_accuracy.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"First token check pass: True", "EOS check pass: True", "Sample length check pass: True"} {
		if !strings.Contains(string(verify), want) {
			t.Errorf("verify_accuracy.txt lacks %q:\n%s", want, verify)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "t06", "audit.config")); !os.IsNotExist(err) {
		t.Errorf("audit.config left behind after the compliance run (stat: %v)", err)
	}

	evalOut := filepath.Join(dir, "eval.out")
	os.WriteFile(evalOut, []byte("{'rouge1': 38.9, 'rouge2': 16.0, 'rougeL': 24.6, 'rougeLsum': 35.9, 'gen_len': 8167644, 'gen_num': 13368}\n"), 0o644)
	if out, err := runCLI(t, "submission", "ingest-accuracy", "--benchmark", "llama3_1-8b", "--input", evalOut,
		"--out", filepath.Join(scen, "accuracy", "accuracy.txt")); err != nil {
		t.Fatalf("ingest-accuracy: %v\n%s", err, out)
	}

	sysTmpl := filepath.Join(dir, "systems", "sys1.json")
	if out, err := runCLI(t, "submission", "system-template", "--out", sysTmpl); err != nil {
		t.Fatalf("system-template: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(sysTmpl)
	os.WriteFile(sysTmpl, fillTODOs(t, b, map[string]any{"division": "closed", "submitter": "Org", "status": "available",
		"accelerators_per_node": "8"}), 0o644)
	meas := filepath.Join(results, "sys1", "llama3.1-8b", "measurements.json")
	if out, err := runCLI(t, "submission", "measurements-template", "--benchmark", "llama3_1-8b", "--out", meas); err != nil {
		t.Fatalf("measurements-template: %v\n%s", err, out)
	}
	b, _ = os.ReadFile(meas)
	os.WriteFile(meas, fillTODOs(t, b, nil), 0o644)

	// A report over the whole tree, which packaging must leave out.
	if out, err := runCLI(t, "report", results); err != nil {
		t.Fatalf("report over the results tree: %v\n%s", err, out)
	}
	for _, f := range []string{"index.html", "index.md", "sys1/llama3.1-8b/Server/performance/run_1/report.html", "sys1/llama3.1-8b/Server/TEST06/performance/run_1/results.json"} {
		if _, err := os.Stat(filepath.Join(results, f)); err != nil {
			t.Errorf("report over the tree wrote no %s: %v", f, err)
		}
	}

	sub := filepath.Join(dir, "sub")
	pkgOut, err := runCLI(t, "submission", "package", "--submitter", "Org", "--results", results,
		"--systems", filepath.Join(dir, "systems"), "--out", sub)
	if err != nil {
		t.Fatalf("package: %v\n%s", err, pkgOut)
	}
	// The check command package prints works as printed.
	printed := regexp.MustCompile(`now run: mlperf-go (submission check .*)`).FindStringSubmatch(pkgOut)
	if printed == nil {
		t.Fatalf("package does not print the check command:\n%s", pkgOut)
	}
	if out, err := runCLI(t, strings.Fields(printed[1])...); exitCode(err) != 1 || !strings.Contains(out, "min_duration") {
		t.Errorf("the printed %q: exit %d, want 1 with the short runs' problems\n%s", printed[1], exitCode(err), out)
	}
	pkg := filepath.Join(sub, "closed", "Org")
	for _, f := range []string{"systems/sys1.json", "src/README.md", "results/sys1/llama3.1-8b/Server/README.md",
		"results/sys1/llama3.1-8b/Server/accuracy/mlperf_log_accuracy.json", "results/sys1/llama3.1-8b/Server/TEST06/verify_accuracy.txt"} {
		if _, err := os.Stat(filepath.Join(pkg, f)); err != nil {
			t.Errorf("package lacks %s: %v", f, err)
		}
	}
	filepath.WalkDir(sub, func(p string, d fs.DirEntry, err error) error {
		if err == nil && slices.Contains(record.HarnessFiles, d.Name()) {
			t.Errorf("the package holds the harness's own file %s", p)
		}
		return nil
	})
	readme, _ := os.ReadFile(filepath.Join(pkg, "results/sys1/llama3.1-8b/Server/README.md"))
	if !strings.Contains(string(readme), "--target-qps") {
		t.Errorf("the scenario README does not give the command that made the runs:\n%s", readme)
	}

	out, err = runCLI(t, "submission", "check", sub)
	if exitCode(err) != 1 {
		t.Fatalf("check of a tree made of 0.3 s runs: exit %d, want 1\n%s", exitCode(err), out)
	}
	// What short runs on a fake endpoint cannot satisfy is reported...
	for _, want := range []string{"min_duration", "INVALID", "required scenario Offline is missing"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	// ...and nothing about the tree's structure, files or descriptions.
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`(?i)not found|no such|cannot read`), regexp.MustCompile(`systems/|measurements`)} {
		if m := bad.FindString(out); m != "" {
			t.Errorf("check found a structural problem (%q):\n%s", m, out)
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-b", "nope", "-d", "x"}, "unknown benchmark"},
		{[]string{"run", "-b", "llama3_1-8b", "-d", "x", "-s", "Batch"}, "--scenario"},
		{[]string{"run", "-b", "llama3_1-8b", "-d", "x", "-m", "fast"}, "--mode"},
		{[]string{"run", "-b", "llama3_1-8b", "-d", "x", "--api", "grpc"}, "--api"},
		{[]string{"run", "-b", "llama3_1-8b", "-d", "x", "--stream", "maybe"}, "--stream"},
		{[]string{"run", "-b", "llama3_1-8b", "-d", "x", "--results-dir", "r"}, "--system"},
		{[]string{"run", "-b", "llama3_1-8b", "-d", "/nonexistent/cnn_eval.json"}, "nonexistent"},
		{[]string{"run", "-b", "llama3_1-8b", "-d", "x", "--api-key-file", "/nonexistent/key"}, "--api-key-file"},
	} {
		_, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one mentioning %q", tc.args, err, tc.want)
		}
	}
}

// TestSamplingParams: reference defaults, then the generation config (its
// top level, then the section for the run's mode), then flags, each by the
// wire name of the benchmark's API.
func TestSamplingParams(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "gen.json")
	os.WriteFile(cfg, []byte(`{"temperature": 0.5, "top_p": 0.9, "accuracy": {"temperature": 0.0}, "performance": {"top_k": 20}}`), 0o644)
	app := newApp()
	var got run.Options
	app.Commands[0].Action = func(c *cli.Context) error {
		var err error
		got, err = resolvedOptions(c)
		return err
	}
	base := []string{"mlperf-go", "run", "-d", "x", "--generation-config", cfg}
	if err := runApp(context.Background(), app, append(base, "-b", "gpt-oss-120b", "-m", "accuracy", "--max-tokens", "64", "--min-p", "0.05")); err != nil {
		t.Fatal(err)
	}
	p := got.Sampling.(*sglang.Params)
	if *p.Temperature != 0 || *p.TopP != 0.9 || *p.MaxNewTokens != 64 || *p.MinP != 0.05 || *p.TopK != -1 {
		t.Errorf("gpt-oss accuracy params: temperature %v top_p %v max_new_tokens %v min_p %v top_k %v",
			*p.Temperature, *p.TopP, *p.MaxNewTokens, *p.MinP, *p.TopK)
	}
	if err := runApp(context.Background(), app, append(base, "-b", "llama3_1-8b", "--top-p", "0.8")); err != nil {
		t.Fatal(err)
	}
	q := got.Sampling.(*openaicompletions.Params)
	if *q.Temperature != 0.5 || *q.TopP != 0.8 || *q.TopK != 20 || *q.MaxTokens != 128 {
		t.Errorf("llama performance params: temperature %v top_p %v top_k %v max_tokens %v", *q.Temperature, *q.TopP, *q.TopK, *q.MaxTokens)
	}
	if err := runApp(context.Background(), app, append(base, "-b", "qwen3-vl-235b-a22b", "--top-k", "5")); err != nil {
		t.Fatal(err)
	}
	if r := got.Sampling.(*openaichat.Params); *r.TopK != 5 || *r.Temperature != 0.5 || r.MaxTokens != nil {
		t.Errorf("qwen3-vl params: %+v", r)
	}
}

// TestQ3VLAccuracyRunFiled: a Qwen3-VL accuracy run with no user.conf and
// no --setting, evaluated and filed: accuracy.txt in the reference's form
// lands beside the logs in the results tree, with a non-empty user.conf.
func TestQ3VLAccuracyRunFiled(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if _, err := mustLookup(t, "qwen3-vl-235b-a22b").Data.Synth(data, 20, 2); err != nil {
		t.Fatal(err)
	}
	truths, def, err := answers.Chat("qwen3-vl-235b-a22b", []string{data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{Answers: truths, DefaultAnswer: def, Accuracy: 1})
	results := filepath.Join(dir, "results")
	out, err := runCLI(t, "run", "-b", "qwen3-vl-235b-a22b", "-m", "accuracy", "-d", data, "-e", url, "-o", filepath.Join(dir, "acc"),
		"--evaluate", "--results-dir", results, "--system", "s1", "--progress-interval", "0", "--allow-unofficial-settings")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	scen := filepath.Join(results, "s1", "qwen3-vl-235b-a22b", "Offline")
	acc, err := os.ReadFile(filepath.Join(scen, "accuracy", "accuracy.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\{"f1": 1\.0\}$`).Match(acc) || !regexp.MustCompile(`(?m)^hash=[0-9a-f]{64}$`).Match(acc) {
		t.Errorf("accuracy.txt:\n%s", acc)
	}
	if uc, err := os.ReadFile(filepath.Join(scen, "user.conf")); err != nil || len(uc) == 0 {
		t.Errorf("user.conf filed empty or missing: %v", err)
	}
}
