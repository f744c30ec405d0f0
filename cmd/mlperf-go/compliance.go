package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/compliance"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// verifyCompliance runs compliance test test's verification on the
// finished run in rep.LogDir, writes the reference's verify_*.txt there
// (filing copies it into the results tree) and makes the verdict the run's
// outcome (run.Report.JudgeCompliance): LoadGen's performance verdict does
// not judge an audit run. TEST07 is scored in Go against the run's dataset
// with the evaluator's flags (--tokenizer, …) unless --accuracy-script
// names the official accuracy command. A verification that cannot run is
// a verdict too (NOT VERIFIED, saying why). It returns nil for a run that
// is not Verifiable.
func verifyCompliance(c *cli.Context, ctx context.Context, o run.Options, rep *run.Report, test string) *record.Compliance {
	if !rep.Verifiable() {
		return nil
	}
	verdict, err := verify(c, ctx, o, rep.LogDir, test)
	if err != nil {
		verdict = &record.Compliance{Test: test, Error: err.Error()}
	}
	rep.JudgeCompliance(verdict)
	return verdict
}

func verify(c *cli.Context, ctx context.Context, o run.Options, dir, test string) (*record.Compliance, error) {
	eo := benchmark.EvalOptions{Benchmark: o.Benchmark, Round: o.Round, Interactive: o.SubmissionScenario() == benchmark.ScenarioInteractive}
	if err := evalOptions(c, &eo); err != nil {
		return nil, err
	}
	eo.Verdicts = "" // --verdicts is the accuracy run's; a compliance test's scoring would overwrite it
	vo := compliance.VerifyOptions{Scenario: o.SubmissionScenario(), AccuracyScript: c.String("accuracy-script"), Dataset: o.Data, Eval: eo}
	if test == submission.TEST01 {
		vo.TEST01 = test01Reference(c, o)
	}
	v, err := compliance.Verify(ctx, filepath.Join(dir, mllog.AccuracyFile), o.Benchmark.Name, test, vo)
	if err != nil {
		return nil, err
	}
	if err := v.Write(dir); err != nil {
		return nil, err
	}
	return &v.Verdict, nil
}

// test01Reference finds the accuracy and performance runs TEST01 compares
// a run with: those filed in --results-dir for --system, where the
// reference's scripts look, else the newest of each in the --runs-dir
// history (a zero reference when there are none).
func test01Reference(c *cli.Context, o run.Options) compliance.TEST01Reference {
	scen := o.SubmissionScenario()
	if rd, sys := c.String("results-dir"), c.String("system"); rd != "" && sys != "" {
		if dir, err := submission.ScenarioDir(rd, sys, o.Benchmark.Name, scen); err == nil {
			if ref := compliance.TEST01ReferenceIn(dir); fileExists(ref.AccuracyLog) && fileExists(ref.PerformanceDetail) {
				return ref
			}
		}
	}
	root := c.String("runs-dir")
	acc := record.NewestRun(root, o.Benchmark.Name, scen, "accuracy")
	perf := record.NewestRun(root, o.Benchmark.Name, scen, "performance")
	if acc == "" || perf == "" {
		return compliance.TEST01Reference{}
	}
	return compliance.TEST01Reference{
		AccuracyLog:       filepath.Join(acc, mllog.AccuracyFile),
		PerformanceDetail: filepath.Join(perf, mllog.DetailFile),
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// precheckCompliance makes, before the test, the checks its verification
// will need, rather than after an hour-long run: TEST01 compares with the
// scenario's accuracy and performance runs, which must exist; TEST07
// scored in Go decodes the log with the model's tokenizer, which must be
// found.
func precheckCompliance(c *cli.Context, o run.Options, test string) error {
	if test == submission.TEST01 {
		if test01Reference(c, o).AccuracyLog == "" {
			return fmt.Errorf("--compliance TEST01 compares the run with this scenario's accuracy and performance runs, and there are none in --runs-dir %s (or --results-dir for --system): run them first, with -m accuracy and -m performance (checked before the test, so no run is wasted)", c.String("runs-dir"))
		}
		return nil
	}
	if test != submission.TEST07 || c.String("accuracy-script") != "" {
		return nil
	}
	model := c.String("tokenizer-model")
	if model == "" {
		model = o.Benchmark.Model
	}
	if _, err := tokenizer.Open(tokenizer.FindOptions{Path: c.String("tokenizer"), Model: model}); err != nil {
		return fmt.Errorf("--compliance TEST07 scores the run's log in Go, decoding it with %s's tokenizer: %w (or pass --accuracy-script with the official accuracy command; checked before the test, so no run is wasted)", model, err)
	}
	return nil
}

// recordCompliance adds the verdict to the run record in dir, so that
// results.json, the report, the runs index and filing see it.
func recordCompliance(dir string, v *record.Compliance) error {
	info, err := record.Read(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	info.Compliance = v
	return record.Write(dir, info)
}

// printCompliance prints the verdict under the outcome line: each check as
// the verification's file states it, with what failed, and where the file
// is; then LoadGen's verdict, as information, since it does not apply.
func printCompliance(c *cli.Context, rep *run.Report, v *record.Compliance) {
	w := c.App.Writer
	where := filepath.Join(rep.LogDir, v.File)
	if v.Error != "" {
		where = v.Error
	}
	fmt.Fprintf(w, "  %-42s %s (%s)\n", v.Test+" verification", v.Verdict(), where)
	for _, k := range v.Checks {
		line := k.Result
		if k.Detail != "" && !k.Pass {
			line += ": " + k.Detail
		}
		fmt.Fprintf(w, "    %-40s %s\n", k.Name, line)
	}
	for _, warn := range v.Warnings {
		fmt.Fprintf(w, "    %-40s %s\n", "warning", warn)
	}
	if rep.Summary.Result != "" {
		fmt.Fprintf(w, "  %-42s %s (information: %s judges this run by its verification, not by LoadGen's performance rules)\n",
			"LoadGen result", rep.Summary.Result, v.Test)
	}
}

// complianceError is the exit error of a compliance run whose verification
// did not pass: what failed, and where the verification's file is.
func complianceError(rep *run.Report, v *record.Compliance) error {
	if v.Error != "" {
		return exitError{1, fmt.Errorf("%s: fix the cause and run the test again (this run's logs are in %s)", v.Summary(), rep.LogDir)}
	}
	return exitError{1, fmt.Errorf("%s: see %s", v.Summary(), filepath.Join(rep.LogDir, v.File))}
}
