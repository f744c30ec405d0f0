package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/workflow"
)

// runRequestOf parses a run command line into the workflow's request,
// running nothing (cli/cli's NewCmdX(f, runF): the test swaps the action
// and reads what it was given).
func runRequestOf(t *testing.T, args ...string) workflow.Request {
	t.Helper()
	app := newApp()
	var req workflow.Request
	for _, cmd := range app.Commands {
		if cmd.Name == "run" {
			cmd.Action = func(c *cli.Context) error {
				req = runRequest(c, zap.NewNop())
				return nil
			}
		}
	}
	argv := append([]string{"mlperf-go", "run", "-b", "llama3_1-8b", "-d", "data.json"}, args...)
	if err := runApp(context.Background(), app, argv); err != nil {
		t.Fatal(err)
	}
	return req
}

// resolvedOptions is the first test's options of the plan the run
// command line in c resolves to.
func resolvedOptions(c *cli.Context) (run.Options, error) {
	plan, err := workflow.Resolve(runRequest(c, zap.NewNop()))
	if err != nil {
		return run.Options{}, err
	}
	return plan.Tests[0].Options, nil
}

// TestRunRequest: the run command's flags reach the workflow's request,
// each where the workflow reads it, with the defaults run --help states;
// the plan they resolve to runs the tests they ask for.
//
// Not parallel: it runs the CLI in this process, and urfave/cli's runs
// share package-level flags (cli.HelpFlag), which parsing writes.
func TestRunRequest(t *testing.T) {
	r := runRequestOf(t)
	if r.ModeName != "performance" || r.Compliance != "" || r.OutputDir != "" || r.RunsDir != "runs" || r.ResultsDir != "" || r.Evaluate ||
		r.Launch.Kind != nil || r.Eval.Python != "python3" || r.Eval.CleanUpSpaces != "round" || r.Progress == nil || r.Logger == nil {
		t.Errorf("defaults: %+v", r)
	}
	if want := []string{"mlperf-go", "run", "-b", "llama3_1-8b", "-d", "data.json"}; !slices.Equal(r.Record.Command, want) {
		t.Errorf("Record.Command %q, want %q", r.Record.Command, want)
	}
	if p, err := workflow.Resolve(r); err != nil || len(p.Tests) != 1 || p.Both || p.Tests[0].Options.Mode != loadgen.PerformanceOnly || p.Tests[0].Evaluate || p.Launch != nil {
		t.Errorf("the default plan: %+v, %v", p, err)
	}

	out := filepath.Join(t.TempDir(), "out")
	r = runRequestOf(t, "-m", "both", "-o", out, "--overwrite", "--runs-dir", "r", "--results-dir", "res", "--system", "s1", "--replace",
		"--tokenizer", "tok.json", "--clean-up-spaces", "false", "--temperature", "0.5", "--engine", "vLLM 0.12.0", "--engine-flag", "--x=1,2")
	if r.ModeName != "both" || r.Evaluate {
		t.Errorf("-m both: mode %q, Evaluate %v; want both, false (the workflow evaluates its accuracy test)", r.ModeName, r.Evaluate)
	}
	if r.OutputDir != out || !r.Overwrite || r.RunsDir != "r" || r.ResultsDir != "res" || r.System != "s1" || !r.Replace {
		t.Errorf("folders: %+v", r)
	}
	if r.Eval.Tokenizer != "tok.json" || r.Eval.CleanUpSpaces != "false" || r.Test.Sampling["temperature"] != 0.5 {
		t.Errorf("evaluation and sampling: %+v %v", r.Eval, r.Test.Sampling)
	}
	if r.Record.Engine != "vLLM 0.12.0" || !slices.Equal(r.Record.EngineFlags, []string{"--x=1,2"}) {
		t.Errorf("engine: %+v", r.Record)
	}

	r = runRequestOf(t, "--compliance", "TEST06", "--accuracy-script", "python3 eval.py {accuracy_log}", "--evaluate")
	if r.Compliance != "TEST06" || r.AccuracyScript != "python3 eval.py {accuracy_log}" || !r.Evaluate {
		t.Errorf("compliance: %+v", r)
	}
	if _, err := workflow.Resolve(runRequestOf(t, "--engine-port", "9000")); err == nil {
		t.Error("--engine-port without --launch: no error")
	}
}
