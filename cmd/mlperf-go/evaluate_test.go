package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/answers"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestEvaluateTakesRunFolder: `evaluate -l` takes the run folder run
// printed (its mlperf_log_accuracy.json), a --mode both folder (its
// accuracy/), and says what a folder without the log is.
func TestEvaluateTakesRunFolder(t *testing.T) {
	loadgentest.Require(t)
	const name = "qwen3-vl-235b-a22b"
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if _, err := mustLookup(t, name).WriteSynth(data, 8, 2); err != nil {
		t.Fatal(err)
	}
	truths, def, err := answers.Chat(name, []string{data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{Answers: truths, DefaultAnswer: def, Accuracy: 1})
	both := filepath.Join(dir, "both")
	acc := filepath.Join(both, "accuracy")
	if out, err := runCLI(t, "run", "-b", name, "-m", "accuracy", "-d", data, "-e", url, "-o", acc, "--progress-interval", "0"); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, l := range []string{acc, both} {
		out, err := runCLI(t, "evaluate", "-b", name, "-d", data, "-l", l)
		if err != nil || !strings.Contains(out, "=== Accuracy: PASS ===") {
			t.Errorf("evaluate -l %s: %v\n%s", l, err, out)
		}
	}
	empty := t.TempDir()
	_, err = runCLI(t, "evaluate", "-b", name, "-d", data, "-l", empty)
	if want := "--accuracy-log " + empty + " is a folder without mlperf_log_accuracy.json (nor accuracy/mlperf_log_accuracy.json of a --mode both run)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("evaluate -l of an empty folder: %v, want %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(empty, "accuracy.txt")); !os.IsNotExist(err) {
		t.Errorf("an accuracy.txt was written into the empty folder: %v", err)
	}
}
