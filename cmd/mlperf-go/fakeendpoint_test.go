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

// TestFakeServesBenchmarkModel: `fake-endpoint -b NAME` serves NAME's model,
// the one `run -b NAME` asks for; --model still wins, and without -b the
// fake's default stays.
func TestFakeServesBenchmarkModel(t *testing.T) {
	model := func(args ...string) string {
		t.Helper()
		cfg, err := fakeFlags(args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return cfg.Model
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

// fakeFlags is the fake's configuration as fake-endpoint's flags args give
// it.
func fakeFlags(args ...string) (fake.Config, error) {
	cmd := fakeEndpointCommand()
	var got fake.Config
	cmd.Action = func(c *cli.Context) (err error) {
		got, err = fakeConfig(c, zap.NewNop())
		return err
	}
	app := &cli.App{Commands: []*cli.Command{cmd}}
	err := app.Run(append([]string{"mlperf-go", "fake-endpoint"}, args...))
	return got, err
}

// TestFakeTakesBenchmarkFromManifest: `fake-endpoint --dataset DIR`
// without -b answers as the benchmark DIR's manifest names (as docs/fake.md
// says it is chosen) and serves its model; a dataset that names none and
// no text benchmark's reader opens asks for -b, listing every benchmark.
func TestFakeTakesBenchmarkFromManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "llama")
	if out, err := runCLI(t, "dataset", "synth", "-b", "llama3_1-8b", "-n", "5", "-o", dir); err != nil {
		t.Fatalf("synth: %v\n%s", err, out)
	}
	tok := filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel")
	cfg, err := fakeFlags("--dataset", dir, "--tokenizer", tok)
	if err != nil {
		t.Fatalf("--dataset %s without -b: %v", dir, err)
	}
	if want := mustLookup(t, "llama3_1-8b").Serving.Model; cfg.Model != want || len(cfg.TokenAnswers) != 5 {
		t.Errorf("--dataset %s without -b: serves %q with %d answers, want %q with 5", dir, cfg.Model, len(cfg.TokenAnswers), want)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "x.json"), []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := fakeFlags("--dataset", other); err == nil || !strings.Contains(err.Error(), "pass --benchmark, one of") || !strings.Contains(err.Error(), "llama3_1-8b") {
		t.Errorf("--dataset of no benchmark: %v", err)
	}
}
