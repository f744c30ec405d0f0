package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
)

// TestSynthRefusesAnotherSet: `dataset synth` writes over nothing unasked.
// A folder holding another benchmark's set, another size or seed of the
// same one, or other files is refused with what it holds and --force; the
// same set again is written again; --force replaces the set, its old files
// gone.
func TestSynthRefusesAnotherSet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "q3vl")
	synth := func(args ...string) (string, error) {
		return runCLI(t, append([]string{"dataset", "synth", "-o", dir}, args...)...)
	}
	if out, err := synth("-b", "qwen3-vl-235b-a22b", "-n", "6"); err != nil {
		t.Fatalf("first synth: %v\n%s", err, out)
	}
	qwenFiles, _ := filepath.Glob(filepath.Join(dir, "data", "*.parquet"))
	if len(qwenFiles) == 0 {
		t.Fatalf("no parquet shards in %s", dir)
	}
	manifest := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, benchmark.SynthManifestFile))
		return string(b)
	}
	before := manifest()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-b", "llama3_1-8b", "-n", "6"}, "holds qwen3-vl-235b-a22b's synthetic set of 6 samples (seed 0): writing llama3_1-8b's synthetic set of 6 samples (seed 0) there would replace it; use another --out, or pass --force"},
		{[]string{"-b", "qwen3-vl-235b-a22b", "-n", "3"}, "holds qwen3-vl-235b-a22b's synthetic set of 6 samples (seed 0): writing qwen3-vl-235b-a22b's synthetic set of 3 samples"},
		{[]string{"-b", "qwen3-vl-235b-a22b", "-n", "6", "--seed", "2"}, "(seed 0): writing qwen3-vl-235b-a22b's synthetic set of 6 samples (seed 2)"},
	} {
		out, err := synth(tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("synth %v into qwen3-vl's folder: %v\n%s\nwant %q", tc.args, err, out, tc.want)
		}
		if manifest() != before {
			t.Fatalf("synth %v changed the manifest though refused:\n%s", tc.args, manifest())
		}
	}
	if out, err := synth("-b", "qwen3-vl-235b-a22b", "-n", "6"); err != nil {
		t.Errorf("the same set again: %v\n%s", err, out)
	}
	if out, err := synth("-b", "llama3_1-8b", "-n", "6", "--force"); err != nil {
		t.Fatalf("--force: %v\n%s", err, out)
	}
	if m := manifest(); !strings.Contains(m, `"benchmark": "llama3_1-8b"`) {
		t.Errorf("after --force the manifest is:\n%s", m)
	}
	for _, f := range append(qwenFiles, filepath.Join(dir, "data")) {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("--force left qwen3-vl's %s: %v", f, err)
		}
	}

	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, "dataset", "synth", "-b", "llama3_1-8b", "-n", "4", "-o", other)
	if err == nil || !strings.Contains(err.Error(), "holds other files (notes.txt)") {
		t.Errorf("synth into a folder of other files: %v\n%s", err, out)
	}
}

// TestManifestAsDataset: the synthetic set's manifest given as the
// dataset is named as the manifest, with its folder to pass instead, by
// every command that takes --dataset.
func TestManifestAsDataset(t *testing.T) {
	for _, name := range []string{"llama3_1-8b", "qwen3-vl-235b-a22b"} {
		dir := filepath.Join(t.TempDir(), "data")
		if out, err := runCLI(t, "dataset", "synth", "-b", name, "-n", "4", "-o", dir); err != nil {
			t.Fatalf("synth: %v\n%s", err, out)
		}
		m := filepath.Join(dir, benchmark.SynthManifestFile)
		url := startFake(t, fake.Config{})
		want := m + " is the manifest `mlperf-go dataset synth` wrote beside a synthetic set, not a dataset file: pass its folder, --dataset " + dir
		for _, args := range [][]string{
			{"run", "-b", name, "-d", m, "-e", url, "-o", filepath.Join(t.TempDir(), "run")},
			{"evaluate", "-b", name, "-d", m, "-l", filepath.Join(dir, "mlperf_log_accuracy.json")},
			{"bench", "-b", name, "-d", m, "-e", url, "--out", filepath.Join(t.TempDir(), "bench")},
			{"fake-endpoint", "-b", name, "--dataset", m, "--listen", "127.0.0.1:0"},
		} {
			out, err := runCLI(t, args...)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s -d %s: %v\n%s\nwant %q", args[0], m, err, out, want)
			}
		}
	}
}
