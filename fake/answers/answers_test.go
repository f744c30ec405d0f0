package answers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all" // the registry the answers come from
	"github.com/mlperf-go/mlperf-go/fake"
)

// synth writes n synthetic samples of benchmark name into a new folder, as
// `dataset synth` does, and returns the files.
func synth(t *testing.T, name string, n int) []string {
	t.Helper()
	b, err := benchmark.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	files, err := b.WriteSynth(t.TempDir(), n, 0)
	if err != nil {
		t.Fatalf("synth %s: %v", name, err)
	}
	return files
}

// TestFakeAnswersDefault: without --dataset the fake answers chats with the
// default answer of --benchmark, or of the one benchmark with text answers
// when none is named and there is one (so `mlperf-go fake-endpoint` alone
// answers as that benchmark's server would; with several, the fake's
// own); a --dataset without --benchmark is the benchmark whose reader
// opens it; a token-ID benchmark has no default (the fake's own applies)
// and takes no --dataset.
func TestFakeAnswersDefault(t *testing.T) {
	t.Parallel()
	text := textBenchmarks()
	if len(text) == 0 || text[0].Fake.DefaultAnswer == "" {
		t.Fatalf("want benchmarks with text answers and a default answer, got %d", len(text))
	}
	want := ""
	if len(text) == 1 {
		want = text[0].Fake.DefaultAnswer
	}
	answers, def, err := Chat("", nil, nil)
	if err != nil || answers != nil || def != want {
		t.Errorf("no flags: %d answers, default %q, %v; want %q", len(answers), def, err, want)
	}
	data := synth(t, "qwen3.6-27b", 24)
	if answers, def, err := Chat("", data, nil); err != nil || len(answers) == 0 || def == "" {
		t.Errorf("a qwen3.6-27b --dataset without --benchmark: %d answers, default %q, %v", len(answers), def, err)
	}
	if _, def, err := Chat("llama3_1-8b", nil, nil); err != nil || def != "" {
		t.Errorf("--benchmark llama3_1-8b: default %q, %v; want none", def, err)
	}
	if _, _, err := Chat("llama3_1-8b", []string{t.TempDir()}, nil); err == nil {
		t.Error("--benchmark llama3_1-8b --dataset: accepted")
	}
	if _, _, err := Chat("no-such", nil, nil); err == nil || !strings.Contains(err.Error(), "--benchmark") {
		t.Errorf("unknown --benchmark: error %v", err)
	}
}

// TestFakeTakesTokenDatasetFolder: `fake-endpoint -b deepseek-r1 --dataset
// DIR` takes the folder `dataset synth` wrote (benchmark.WriteSynth), as `run -d DIR` does: with a
// tokenizer it answers every sample with its reference answer encoded, and
// without one it says to give --tokenizer (it is not refused as a folder).
func TestFakeTakesTokenDatasetFolder(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(synth(t, "deepseek-r1", 8)[0])
	var cfg fake.Config
	if _, err := Set(&cfg, "deepseek-r1", filepath.Join(t.TempDir(), "none"), []string{dir}, nil); err == nil || !strings.Contains(err.Error(), "--tokenizer") {
		t.Errorf("-b deepseek-r1 --dataset %s without a tokenizer: %v, want an error naming --tokenizer", dir, err)
	}
	tok := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER")
	if tok == "" {
		t.Skip("MLPERF_GO_LLAMA3_TOKENIZER is not set: the answers were not encoded (scripts/fetch-test-tokenizers.sh)")
	}
	cfg = fake.Config{}
	if _, err := Set(&cfg, "deepseek-r1", tok, []string{dir}, nil); err != nil || len(cfg.TokenAnswers) != 8 {
		t.Errorf("-b deepseek-r1 --dataset %s --tokenizer: %d answers, %v; want 8", dir, len(cfg.TokenAnswers), err)
	}
}
