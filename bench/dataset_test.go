package bench

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// TestBenchmarkDatasetOfAnotherBenchmark: -b llama3_1-8b -d FOLDER, where
// FOLDER is `dataset synth -b qwen3-vl-235b-a22b`'s, is refused with run's
// message (benchmark.OpenDataset's), naming both benchmarks and the
// command that writes the right set, not as a folder without a dataset
// file.
func TestBenchmarkDatasetOfAnotherBenchmark(t *testing.T) {
	t.Parallel()
	q3vl, err := benchmark.Lookup("qwen3-vl-235b-a22b")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := q3vl.WriteSynth(dir, 4, 1); err != nil {
		t.Fatal(err)
	}
	_, err = Prepare(Request{Endpoints: []string{"http://127.0.0.1:1"}, API: "openai-chat", Workload: WorkloadRequest{Benchmark: "llama3_1-8b", Dataset: []string{dir}}}, &Options{})
	want := dir + " holds a synthetic dataset of qwen3-vl-235b-a22b, not of llama3_1-8b: write one with `mlperf-go dataset synth -b llama3_1-8b --out DIR`"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("bench -b llama3_1-8b -d <qwen3-vl's synthetic set>: %v\nwant %s", err, want)
	}
}
