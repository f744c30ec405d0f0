package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestSubmissionCheckSaysWhatItWasGiven: `submission check` of a folder
// that does not exist says so, and of a results tree says to package it
// first; neither names the internal Check.
func TestSubmissionCheckSaysWhatItWasGiven(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nonexist")
	results := filepath.Join(dir, "results")
	if err := os.MkdirAll(filepath.Join(results, "s1", "llama3.1-8b", "Offline"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		missing: missing + ": no such folder (fix: pass the folder `mlperf-go submission package --out` wrote (OUT), or OUT/closed)",
		results: results + ": a results tree (<system>/<benchmark>/<Scenario>/, as run --results-dir files runs), not a packaged submission (fix: package it first: mlperf-go submission package --submitter ORG --results " + results,
	} {
		out, err := runCLI(t, "submission", "check", path)
		if err == nil || !strings.Contains(out, want) || strings.Contains(out, "Check at") {
			t.Errorf("submission check %s: %v\n%s\nwant %q", path, err, out, want)
		}
	}
}

// TestMeasurementsUnderLoadGenName: packaging without measurements.json
// names the command that writes it and where; a measurements.json under
// the LoadGen name of the benchmark (never read) is refused, by
// measurements-template when writing it and by package when reading the
// tree.
func TestMeasurementsUnderLoadGenName(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	bench := filepath.Join(results, "s1", "llama3.1-8b")
	if err := os.MkdirAll(filepath.Join(bench, "Offline"), 0o755); err != nil {
		t.Fatal(err)
	}
	pkg := func() string {
		out, err := runCLI(t, "submission", "package", "--submitter", "Org", "--results", results,
			"--systems", filepath.Join(dir, "systems"), "--out", filepath.Join(dir, "sub"))
		if err == nil {
			t.Fatalf("package of an incomplete tree passed:\n%s", out)
		}
		return out + err.Error()
	}
	if out, want := pkg(), "no measurements.json in the scenario or benchmark directory: write one to fill in with `mlperf-go submission measurements-template -b llama3.1-8b --out "+filepath.Join(bench, "measurements.json")+"`"; !strings.Contains(out, want) {
		t.Errorf("package without measurements.json:\n%s\nwant %q", out, want)
	}
	wrong := filepath.Join(results, "s1", "llama3_1-8b", "measurements.json")
	want := "the results tree spells llama3_1-8b's folder llama3.1-8b, as the checker does: move what it holds into " + bench
	if out, err := runCLI(t, "submission", "measurements-template", "-b", "llama3_1-8b", "--out", wrong); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("measurements-template --out %s: %v\n%s\nwant %q", wrong, err, out, want)
	}
	if _, err := os.Stat(wrong); !os.IsNotExist(err) {
		t.Errorf("the refused template was written: %v", err)
	}
	if out, err := runCLI(t, "submission", "measurements-template", "-b", "llama3_1-8b", "--out", "-"); err != nil {
		t.Errorf("measurements-template to stdout: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Dir(wrong), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wrong, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := pkg(); !strings.Contains(out, want) {
		t.Errorf("package of a tree with %s:\n%s\nwant %q", wrong, out, want)
	}
}

// TestSubmissionFile: `submission file` files a run from its folder with
// the flags after RUN_DIR, as a failed filing prints the command; a run
// LoadGen called INVALID only with --allow-unofficial-settings, and
// without --results-dir it says how it is used.
func TestSubmissionFile(t *testing.T) {
	loadgentest.Require(t)
	const name = "llama3_1-8b"
	data := synthCLI(t, name, 10)
	url := startFake(t, fake.Config{Model: mustLookup(t, name).Serving.Model, OutputTokens: 4})
	runDir := filepath.Join(t.TempDir(), "run")
	// 110 samples answered at once miss min_duration's 100 s: INVALID.
	if out, err := runCLI(t, append([]string{"run", "-b", name, "-e", url, "--quick", "--setting", "min_duration=100000", "--setting", "target_qps=1",
		"--progress-interval", "0", "--engine-metrics-interval", "0", "-o", runDir}, data...)...); exitCode(err) != 3 {
		t.Fatalf("the quick run: %v, want INVALID (exit 3)\n%s", err, out)
	}
	results := filepath.Join(t.TempDir(), "results")
	if out, err := runCLI(t, "submission", "file", runDir, "--results-dir", results, "--system", "s1"); err == nil || !strings.Contains(err.Error(), "add --allow-unofficial-settings") {
		t.Errorf("filing an INVALID run: %v\n%s", err, out)
	}
	out, err := runCLI(t, "submission", "file", runDir, "--results-dir", results, "--system", "s1", "--allow-unofficial-settings")
	filed := filepath.Join(results, "s1", "llama3.1-8b", "Offline", "performance", "run_1")
	if err != nil || !strings.Contains(out, "filed "+runDir+" into "+filed) {
		t.Fatalf("submission file … --allow-unofficial-settings: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(filed, "mlperf_log_detail.txt")); err != nil {
		t.Errorf("not filed: %v", err)
	}
	if _, err := runCLI(t, "submission", "file", runDir); err == nil || !strings.Contains(err.Error(), "usage: mlperf-go submission file RUN_DIR --results-dir DIR --system NAME") {
		t.Errorf("without --results-dir: %v", err)
	}
}
