package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestModeBoth runs Qwen3-VL with --mode both: the accuracy test, scored,
// then the performance test, each in its own folder from the same
// settings, and both filed into the results tree.
func TestModeBoth(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if _, err := mustLookup(t, "qwen3-vl-235b-a22b").Synth(data, 20, 3); err != nil {
		t.Fatal(err)
	}
	truths, def, err := fakeAnswers("qwen3-vl-235b-a22b", []string{data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{Answers: truths, DefaultAnswer: def, Accuracy: 1})
	out, results := filepath.Join(dir, "out"), filepath.Join(dir, "results")
	text, err := runCLI(t, "run", "-b", "qwen3-vl-235b-a22b", "-m", "both", "-d", data, "-e", url, "-o", out,
		"--results-dir", results, "--allow-unofficial-settings", "--system", "s1", "--progress-interval", "0", "--engine-metrics-interval", "0",
		"--min-duration", "0", "--min-query-count", "20", "--setting", "performance_sample_count_override=20")
	if err != nil {
		t.Fatalf("run --mode both: %v\n%s", err, text)
	}
	if strings.Contains(text, "--evaluate applies to accuracy runs") {
		t.Errorf("--mode both warns about an --evaluate nobody gave:\n%s", text)
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
	scen := filepath.Join(results, "s1", "qwen3-vl-235b-a22b", "Offline")
	for _, f := range []string{"accuracy/accuracy.txt", "accuracy/mlperf_log_accuracy.json", "performance/run_1/mlperf_log_summary.txt"} {
		if _, err := os.Stat(filepath.Join(scen, f)); err != nil {
			t.Errorf("not filed: %v", err)
		}
	}
	if s, err := os.ReadFile(filepath.Join(out, "performance", "mlperf_log_summary.txt")); err != nil || !strings.Contains(string(s), "PerformanceOnly") {
		t.Errorf("the second test was not a performance run (%v)", err)
	}
	if rec := readRecord(t, filepath.Join(out, "performance")); rec.PairedAccuracy == nil || !rec.PairedAccuracy.Pass {
		t.Errorf("the performance record does not name its passing accuracy run: %+v", rec.PairedAccuracy)
	}

	// An engine that answers wrongly: the accuracy test FAILs, so the
	// performance result, VALID as it is, is not submittable and not filed.
	wrong := startFake(t, fake.Config{Answers: truths, Accuracy: 0, DefaultAnswer: mustLookup(t, "qwen3-vl-235b-a22b").FakeDefaultAnswer})
	out2, results2 := filepath.Join(dir, "out2"), filepath.Join(dir, "results2")
	text, err = runCLI(t, "run", "-b", "qwen3-vl-235b-a22b", "-m", "both", "-d", data, "-e", wrong, "-o", out2,
		"--results-dir", results2, "--allow-unofficial-settings", "--system", "s1", "--progress-interval", "0", "--engine-metrics-interval", "0",
		"--min-duration", "0", "--min-query-count", "20", "--setting", "performance_sample_count_override=20")
	if exitCode(err) != 1 || !strings.Contains(text, "=== Accuracy: FAIL ===") {
		t.Fatalf("run --mode both with wrong answers: %v, want exit 1 and an accuracy FAIL\n%s", err, text)
	}
	if rec := readRecord(t, filepath.Join(out2, "performance")); rec.PairedAccuracy == nil || rec.PairedAccuracy.Pass || rec.Submittable() == nil {
		t.Errorf("the performance record does not say its accuracy run failed: %+v", rec.PairedAccuracy)
	}
	if _, err := os.Stat(filepath.Join(results2, "s1", "qwen3-vl-235b-a22b", "Offline", "performance")); !os.IsNotExist(err) {
		t.Errorf("a performance run beside a failed accuracy run was filed (%v)", err)
	}
}
