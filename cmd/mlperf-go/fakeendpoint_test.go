package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/fake"
)

// TestFakeAnswersDefault: without --dataset the fake answers chats with the
// default answer of --benchmark, or of the one benchmark with text answers
// when none is named and there is one (so `mlperf-go fake-endpoint` alone
// answers as that benchmark's server would; with several, the fake's
// own); a --dataset without --benchmark is the benchmark whose reader
// opens it; a token-ID benchmark has no default (the fake's own applies)
// and takes no --dataset.
func TestFakeAnswersDefault(t *testing.T) {
	// Not parallel: synthCLI runs the CLI in this process, and urfave/cli's
	// runs share package-level flags (cli.HelpFlag), which parsing writes.
	text := textBenchmarks()
	if len(text) == 0 || text[0].Fake.DefaultAnswer == "" {
		t.Fatalf("want benchmarks with text answers and a default answer, got %d", len(text))
	}
	want := ""
	if len(text) == 1 {
		want = text[0].Fake.DefaultAnswer
	}
	answers, def, err := fakeAnswers("", nil, nil)
	if err != nil || answers != nil || def != want {
		t.Errorf("no flags: %d answers, default %q, %v; want %q", len(answers), def, err, want)
	}
	var data []string
	for i, a := range synthCLI(t, "qwen3.6-27b", 24) {
		if i%2 == 1 { // -d PATH
			data = append(data, a)
		}
	}
	if answers, def, err := fakeAnswers("", data, nil); err != nil || len(answers) == 0 || def == "" {
		t.Errorf("a qwen3.6-27b --dataset without --benchmark: %d answers, default %q, %v", len(answers), def, err)
	}
	if _, def, err := fakeAnswers("llama3_1-8b", nil, nil); err != nil || def != "" {
		t.Errorf("--benchmark llama3_1-8b: default %q, %v; want none", def, err)
	}
	if _, _, err := fakeAnswers("llama3_1-8b", []string{t.TempDir()}, nil); err == nil {
		t.Error("--benchmark llama3_1-8b --dataset: accepted")
	}
	if _, _, err := fakeAnswers("no-such", nil, nil); err == nil || !strings.Contains(err.Error(), "--benchmark") {
		t.Errorf("unknown --benchmark: error %v", err)
	}
}

// TestFakeServesBenchmarkModel: `fake-endpoint -b NAME` serves NAME's model,
// the one `run -b NAME` asks for; --model still wins, and without -b the
// fake's default stays.
func TestFakeServesBenchmarkModel(t *testing.T) {
	model := func(args ...string) string {
		t.Helper()
		cmd := fakeEndpointCommand()
		var got fake.Config
		cmd.Action = func(c *cli.Context) (err error) {
			got, err = fakeConfig(c, zap.NewNop())
			return err
		}
		app := &cli.App{Commands: []*cli.Command{cmd}}
		if err := app.Run(append([]string{"mlperf-go", "fake-endpoint"}, args...)); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return got.Model
	}
	llama2 := mustLookup(t, "llama2-70b")
	if got := model("-b", "llama2-70b"); got != llama2.Serving.Model {
		t.Errorf("-b llama2-70b serves %q, want %q", got, llama2.Serving.Model)
	}
	if got := model("-b", "llama2-70b", "--model", "mine"); got != "mine" {
		t.Errorf("-b llama2-70b --model mine serves %q", got)
	}
	if got := model(); got != fake.DefaultModel {
		t.Errorf("no flags: serves %q, want %q", got, fake.DefaultModel)
	}
}

// TestFakeTakesTokenDatasetFolder: `fake-endpoint -b deepseek-r1 --dataset
// DIR` takes the folder `dataset synth` wrote, as `run -d DIR` does: with a
// tokenizer it answers every sample with its reference answer encoded, and
// without one it says to give --tokenizer (it is not refused as a folder).
func TestFakeTakesTokenDatasetFolder(t *testing.T) {
	dir := t.TempDir()
	if out, err := runCLI(t, "dataset", "synth", "-b", "deepseek-r1", "-n", "8", "-o", dir); err != nil {
		t.Fatalf("dataset synth: %v\n%s", err, out)
	}
	var cfg fake.Config
	if err := setFakeAnswers(&cfg, "deepseek-r1", filepath.Join(t.TempDir(), "none"), []string{dir}, nil); err == nil || !strings.Contains(err.Error(), "--tokenizer") {
		t.Errorf("-b deepseek-r1 --dataset %s without a tokenizer: %v, want an error naming --tokenizer", dir, err)
	}
	tok := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER")
	if tok == "" {
		t.Skip("MLPERF_GO_LLAMA3_TOKENIZER is not set: the answers were not encoded (scripts/fetch-test-tokenizers.sh)")
	}
	cfg = fake.Config{}
	if err := setFakeAnswers(&cfg, "deepseek-r1", tok, []string{dir}, nil); err != nil || len(cfg.TokenAnswers) != 8 {
		t.Errorf("-b deepseek-r1 --dataset %s --tokenizer: %d answers, %v; want 8", dir, len(cfg.TokenAnswers), err)
	}
}
