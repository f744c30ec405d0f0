// Package workflow carries out one `mlperf-go run` from a Plan to an
// Outcome: everything around the LoadGen test that package run makes. It
// picks the output folder, checks before the test what filing and a
// compliance verification will need, starts the engine and opens the
// dataset, writes a compliance test's audit.config, runs one test or
// --mode both's two, verifies a compliance run, evaluates an accuracy run,
// files the run into a results tree, writes the report and the runs index,
// and sorts the ending into a Class the command turns into an exit status.
//
// It is named for that job, the sequence of steps, rather than for any one
// of them (the steps themselves live in run, report, submission and
// record). It sits above those packages and below the command: the command
// reads its flags into a Plan and a Request, which Plan.Resolve checks and
// resolves, and prints what Run returns; this package reads no flags and
// never exits. Its messages still name the flags a Plan's
// fields come from, since that is what the user can change.
package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission/compliance"
)

// Plan is one `mlperf-go run` as the command's flags describe it.
type Plan struct {
	// Options are the first test's runner options (with Both, those of
	// BothModes[0]); OutputDir is chosen by Run from the fields below.
	Options run.Options
	// Both runs BothModes in turn, each into its own folder (--mode both).
	Both bool
	// Compliance names the compliance test to run ("" for none).
	Compliance string
	// OutputDir is --output-dir: "" puts the run in a new folder under
	// RunsDir. Overwrite lets it name a folder that holds files.
	OutputDir string
	Overwrite bool
	// RunsDir is the runs root (--runs-dir), indexed after the run when
	// the run went into a new folder under it.
	RunsDir string
	// ResultsDir and System: file the run into the submission results
	// tree ResultsDir/System/… ("" files nothing). Replace moves an
	// earlier run of the same kind aside instead of refusing.
	ResultsDir string
	System     string
	Replace    bool
	// AllowUnofficial is --allow-unofficial-settings: the run rehearses
	// the workflow with settings that cannot make a valid submission, so
	// LoadGen's INVALID, which they cause, is filed all the same (the
	// submission check still refuses it). Anything else not submittable
	// is never filed.
	AllowUnofficial bool
	// Evaluate scores an accuracy run after it (Both turns it on for its
	// accuracy test); Eval says how, for it and for TEST07.
	Evaluate bool
	Eval     EvalSettings
	// AccuracyScript is TEST07's official accuracy command template, to
	// score with instead of Go ("" scores in Go).
	AccuracyScript string
	// GenerationConfig and Sampling are the sampling layers Both applies
	// again for each of its modes (run.Options.SetSampling).
	GenerationConfig string
	Sampling         map[string]any
	// Launch is the engine to start, nil for none.
	Launch *run.Launch
	// Record is how the run was made (command line, engine), for the run
	// record; Run adds the compliance test and, for a launched engine
	// when Engine or EngineFlags are empty, its kind and command line.
	// Command is also what filing records.
	Record run.Record
	// Interruptible, called once the engine and dataset are open, returns
	// the context the test runs under (the command's signal handling) and
	// what stops it; nil runs under Run's own context.
	Interruptible func(context.Context) (context.Context, func())
	// Stdout gets the report of the run; Stderr its warnings.
	Stdout, Stderr io.Writer
}

// Class sorts how a run ended, for the command's exit status.
type Class int

const (
	// Passed: VALID (an accuracy run: finished; a compliance run: its
	// verification passed), evaluated and filed as asked.
	Passed Class = iota
	// Failed: samples failed, the test was aborted (a failure limit, a
	// dead engine), a compliance verification failed or could not run,
	// an evaluation failed, or another error.
	Failed
	// Invalid: LoadGen reported INVALID (performance runs).
	Invalid
	// Interrupted by the user (Interruptible's context was cancelled).
	Interrupted
)

// Outcome is how Run ended: its Class and, unless Passed, the error that
// says why (already reported on Stdout/Stderr as far as it could be).
type Outcome struct {
	Class Class
	Err   error
}

// failure is an error of a known Class; an error without one is Failed.
type failure struct {
	class Class
	err   error
}

func (f failure) Error() string { return f.err.Error() }

// ClassOf is the Class of err: that of the first classed error in its tree
// (a --mode both run joins its tests' errors), else Failed; Passed for nil.
func ClassOf(err error) Class {
	if err == nil {
		return Passed
	}
	var f failure
	if errors.As(err, &f) {
		return f.class
	}
	return Failed
}

// Run carries out plan: see the package documentation. ctx is the
// command's; plan.Interruptible derives the test's from it.
func Run(ctx context.Context, plan Plan) Outcome {
	err := plan.run(ctx)
	return Outcome{Class: ClassOf(err), Err: err}
}

func (p *Plan) run(ctx context.Context) error {
	o := p.Options
	runsRoot, err := p.chooseOutputDir(&o)
	if err != nil {
		return err
	}
	// What this run makes of the output path goes again if no test ran
	// (a compliance folder, a runs folder): a retry then starts clean.
	defer record.Reserve(o.OutputDir).ReleaseUnused()
	if err := p.precheckFiling(o); err != nil {
		return err
	}
	if err := p.precheckEvaluation(o); err != nil {
		return err
	}
	// A launched engine loads its model while the dataset is opened (here,
	// not in run.Run, so evaluation scores against the same open dataset).
	sess, err := run.Open(&o, p.Launch)
	if err != nil {
		return err
	}
	defer sess.Close()
	if p.Compliance != "" {
		if err := dirwalk.MkdirAll(o.OutputDir, 0o755); err != nil {
			return fmt.Errorf("creating --output-dir: %w", err)
		}
		if err := p.precheckCompliance(o); err != nil {
			return err
		}
		cleanup, err := compliance.WriteAuditConfig(o.OutputDir, p.Compliance, o.Benchmark.Name)
		if err != nil {
			return err
		}
		defer cleanup() //nolint:errcheck // best effort; reported below if it stays
		o.AuditConfig = filepath.Join(o.OutputDir, loadgen.AuditConfigFile)
	}

	if p.Interruptible != nil {
		var stop func()
		ctx, stop = p.Interruptible(ctx)
		defer stop()
	}
	runCtx, err := sess.Ready(ctx, p.Stderr)
	if errors.Is(err, run.ErrInterrupted) {
		return failure{Interrupted, err}
	}
	if err != nil {
		return err
	}
	// A launched engine is described by its kind and the whole command
	// line it was started with, unless the plan's record says otherwise.
	rec := p.Record
	rec.Compliance = p.Compliance
	rec = sess.Describe(rec)
	if p.Both {
		return p.runBoth(ctx, runCtx, o, rec, runsRoot)
	}
	return p.runTest(ctx, runCtx, o, rec, runsRoot)
}
