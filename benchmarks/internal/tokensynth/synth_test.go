package tokensynth_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
)

// TestSynth: the Synth of a benchmark writes its one file under the folder
// it is given, as the writer writes it for that size and seed.
func TestSynth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths, err := tokensynth.Synth("cnn_eval.json", tokensynth.Llama)(dir, 12, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "cnn_eval.json")}; !slices.Equal(paths, want) {
		t.Fatalf("paths %q, want %q", paths, want)
	}
	d, err := llama31.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	recs := tokensynth.LlamaRecords(12, 3)
	if d.Len() != len(recs) || d.Reference(5) != recs[5].Output {
		t.Errorf("read back %d samples, sample 5 %q; want %d, %q", d.Len(), d.Reference(5), len(recs), recs[5].Output)
	}
}
