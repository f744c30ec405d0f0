package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
