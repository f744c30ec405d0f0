package main

import (
	"slices"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestEngineFlagKeepsCommas: each --engine-flag is one argument of the
// engine's command line, as given: a value holding commas (vLLM's
// --limit-mm-per-prompt JSON, a shell command) is not cut into several, so
// the run record and the submission README show the flags the engine got.
func TestEngineFlagKeepsCommas(t *testing.T) {
	// Not parallel: it runs the CLI in this process, and urfave/cli's runs
	// share package-level flags (cli.HelpFlag), which parsing writes.
	// engineFlags parses a run command line and returns its --engine-flag
	// values as the run record gets them.
	engineFlags := func(extra ...string) []string {
		cmd := runCommand()
		var got []string
		cmd.Action = func(c *cli.Context) error {
			got = engineFlagValues(c)
			return nil
		}
		app := &cli.App{Name: "mlperf-go", Commands: []*cli.Command{cmd}}
		if err := app.Run(append([]string{"mlperf-go", "run", "-b", "llama3_1-8b", "-d", "data.json"}, extra...)); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := []string{"/bin/sh", "-c", `vllm serve M --limit-mm-per-prompt '{"image":1,"video":0}' --port 8000`, "--max-num-seqs=64,128"}
	var args []string
	for _, f := range want[:3] {
		args = append(args, "--engine-flag", f)
	}
	if got := engineFlags(append(args, "--engine-flag="+want[3])...); !slices.Equal(got, want) {
		t.Errorf("--engine-flag values %q, want %q", got, want)
	}
	if got := engineFlags(); got != nil {
		t.Errorf("without --engine-flag: %q, want none", got)
	}
}
