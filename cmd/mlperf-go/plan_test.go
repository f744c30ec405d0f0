package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/workflow"
)

// runPlanOf parses a run command line into the workflow's plan, running
// nothing.
func runPlanOf(t *testing.T, args ...string) (workflow.Plan, error) {
	t.Helper()
	app := newApp()
	var plan workflow.Plan
	var planErr error
	for _, cmd := range app.Commands {
		if cmd.Name == "run" {
			cmd.Action = func(c *cli.Context) error {
				plan, planErr = runPlan(c, zap.NewNop())
				return nil
			}
		}
	}
	argv := append([]string{"mlperf-go", "run", "-b", "llama3_1-8b", "-d", "data.json"}, args...)
	if err := runApp(context.Background(), app, argv); err != nil {
		t.Fatal(err)
	}
	return plan, planErr
}

// TestRunPlan: the run command's flags reach the workflow's plan, each
// where the workflow reads it, with the defaults run --help states.
//
// Not parallel: it runs the CLI in this process, and urfave/cli's runs
// share package-level flags (cli.HelpFlag), which parsing writes.
func TestRunPlan(t *testing.T) {
	p, err := runPlanOf(t)
	if err != nil {
		t.Fatal(err)
	}
	if p.Both || p.Compliance != "" || p.OutputDir != "" || p.RunsDir != "runs" || p.ResultsDir != "" || p.Evaluate || p.Launch != nil ||
		p.Options.Mode != loadgen.PerformanceOnly || p.Eval.Python != "python3" || p.Eval.CleanUpSpaces != "round" {
		t.Errorf("defaults: %+v", p)
	}
	if want := []string{"mlperf-go", "run", "-b", "llama3_1-8b", "-d", "data.json"}; !slices.Equal(p.Record.Command, want) {
		t.Errorf("Record.Command %q, want %q", p.Record.Command, want)
	}

	out := filepath.Join(t.TempDir(), "out")
	p, err = runPlanOf(t, "-m", "both", "-o", out, "--overwrite", "--runs-dir", "r", "--results-dir", "res", "--system", "s1", "--replace",
		"--tokenizer", "tok.json", "--clean-up-spaces", "false", "--temperature", "0.5", "--engine", "vLLM 0.12.0", "--engine-flag", "--x=1,2")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Both || p.Options.Mode != workflow.BothModes[0] || p.Evaluate {
		t.Errorf("-m both: Both %v, first mode %v, Evaluate %v; want true, %v, false (the workflow evaluates its accuracy test)", p.Both, p.Options.Mode, p.Evaluate, workflow.BothModes[0])
	}
	if p.OutputDir != out || !p.Overwrite || p.RunsDir != "r" || p.ResultsDir != "res" || p.System != "s1" || !p.Replace {
		t.Errorf("folders: %+v", p)
	}
	if p.Eval.Tokenizer != "tok.json" || p.Eval.CleanUpSpaces != "false" || p.Sampling["temperature"] != 0.5 {
		t.Errorf("evaluation and sampling: %+v %v", p.Eval, p.Sampling)
	}
	if p.Record.Engine != "vLLM 0.12.0" || !slices.Equal(p.Record.EngineFlags, []string{"--x=1,2"}) {
		t.Errorf("engine: %+v", p.Record)
	}

	p, err = runPlanOf(t, "--compliance", "TEST06", "--accuracy-script", "python3 eval.py {accuracy_log}", "--evaluate")
	if err != nil {
		t.Fatal(err)
	}
	if p.Compliance != "TEST06" || p.AccuracyScript != "python3 eval.py {accuracy_log}" || !p.Evaluate {
		t.Errorf("compliance: %+v", p)
	}
	if _, err := runPlanOf(t, "--engine-port", "9000"); err == nil {
		t.Error("--engine-port without --launch: no error")
	}
}
