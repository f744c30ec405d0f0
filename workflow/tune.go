package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/tune"
)

// TuneRequest is what the tune command line says, in its own words.
type TuneRequest struct {
	// Test is what the flags run and tune share say of the trials (every
	// trial is a performance run); Launch the engine that serves them all.
	Test   run.Request
	Launch run.LaunchRequest
	// Dir is --tune-dir: the trials go to a new folder
	// Dir/<benchmark>/<Scenario>/<UTC time>/, with tune.json.
	Dir string
	// RunsDir, and ResultsDir's System, are searched for the newest
	// Offline run a Server search starts from.
	RunsDir, ResultsDir, System string
	// Search is the search (tune.Options's QPS, StartFraction, Sweep and
	// UserConf); Tune fills in the rest.
	Search tune.Options
	// Record is how the trials were made (command line), for their run
	// records.
	Record run.Record
	// Progress gets the engine's readiness and the tune's progress; nil
	// discards them.
	Progress io.Writer
	Logger   *zap.Logger
}

// tuneScenarios are the scenarios tune has a search for.
var tuneScenarios = []string{benchmark.ScenarioServer, benchmark.ScenarioInteractive, benchmark.ScenarioOffline}

// Tune runs the tune r asks for through the session a run uses (the
// engine started and the dataset opened once, the engine waited for and
// watched: a trial its death cuts short ends the tune), and returns what
// tune.Run found, which prints itself. Its error is of a Class: Interrupted
// by a signal, Failed otherwise (no VALID trial, the engine died, …).
func Tune(ctx context.Context, r TuneRequest) (tune.Result, error) {
	if !slices.ContainsFunc(tuneScenarios, func(v string) bool { return strings.EqualFold(v, r.Test.Scenario) }) {
		return tune.Result{}, fmt.Errorf("--scenario %q: tune searches the Server or Interactive target QPS, or the Offline concurrency", r.Test.Scenario)
	}
	r.Test.Mode = loadgen.PerformanceOnly
	o, err := testOptions(r.Test, r.Logger)
	if err != nil {
		return tune.Result{}, err
	}
	if r.ResultsDir != "" && r.System == "" {
		return tune.Result{}, errors.New("--results-dir needs --system NAME (whose Offline run to start from)")
	}
	launch, err := r.Launch.Launch()
	if err != nil {
		return tune.Result{}, err
	}
	progress := r.Progress
	if progress == nil {
		progress = io.Discard
	}
	s := r.Search
	s.Base = o
	s.OfflineRuns = OfflineRunDirs(r.RunsDir, r.ResultsDir, r.System)
	if err := s.StartQPS(); err != nil {
		return tune.Result{}, err
	}
	// A launched engine's log goes into the tune folder (the trials set
	// their own folders).
	dir, reservation, err := record.ClaimRunDir(filepath.Join(r.Dir, o.Benchmark.Name, o.SubmissionScenario()), record.Stamp(time.Now()))
	if err != nil {
		return tune.Result{}, fmt.Errorf("--tune-dir: %w", err)
	}
	o.OutputDir = dir
	defer reservation.ReleaseUnused()
	sess, runCtx, err := openSession(ctx, &o, launch, progress, nil)
	if err != nil {
		return tune.Result{Dir: dir}, err
	}
	defer sess.Close()
	s.Base, s.Dir, s.Record, s.Progress = o, dir, sess.Describe(r.Record), progress
	s.RunTrial = runTrial
	res, err := tune.Run(runCtx, s)
	switch {
	case ctx.Err() != nil:
		return res, failure{Interrupted, fmt.Errorf("interrupted: %w (the trials so far are in %s)", err, filepath.Join(dir, tune.SummaryFile))}
	case run.EngineDied(runCtx, dir) != nil:
		return res, failure{Failed, run.EngineDied(runCtx, dir)}
	}
	return res, err
}

// runTrial runs one trial as a run's test runs, interruptible: a trial
// LoadGen had to be left behind in (a Server schedule still playing) is
// reported as far as it went, with an error.
func runTrial(ctx context.Context, o run.Options) (*run.Report, error) {
	rep, left, err := run.Abortable(ctx, ctx, o)
	if left != nil {
		return left, errors.New(left.OutcomeReason)
	}
	return rep, err
}
