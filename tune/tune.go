package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/run"
)

// Options is one tune, as the tune command's flags ask for it. Run
// searches the target QPS when Base.Scenario is Server (Interactive runs
// as Server), else it sweeps the Offline concurrency.
type Options struct {
	// Base, Dir, Record and RunTrial make the Trials (Trials.Run is
	// RunTrial).
	Base     run.Options
	Dir      string
	Record   run.Record
	RunTrial func(context.Context, run.Options) (*run.Report, error)
	// QPS configures the Server search. QPS.Start 0 starts at
	// StartFraction, in (0, 1], of the samples/s of the newest valid
	// Offline performance run among OfflineRuns(Base.Benchmark) (see
	// OfflineThroughput), and makes that throughput QPS.Ceiling.
	QPS           QPSSearch
	StartFraction float64
	OfflineRuns   func(benchmark.Benchmark) []string
	// Sweep configures the Offline sweep.
	Sweep SweepSearch
	// UserConf, if set, is the user.conf file the found target_qps line is
	// set in (SetUserConf).
	UserConf string
	// Progress gets, as the tune goes, where the trials go, what the
	// search will do, one line per trial and what follows it; nil
	// discards them.
	Progress io.Writer

	// startNote says where StartQPS found the first trial's QPS.
	startNote string
}

// StartQPS decides, for a Server search whose QPS.Start is 0, the first
// trial's QPS from the Offline run OfflineRuns finds, and refuses a tune
// that has none: a caller makes it before it creates the tune's folder or
// starts an engine, so a refused tune leaves nothing behind. Run makes it
// if the caller did not.
func (o *Options) StartQPS() error {
	if o.Base.Scenario == loadgen.Offline || o.QPS.Start != 0 {
		return nil
	}
	frac := o.StartFraction
	if frac <= 0 || frac > 1 {
		return fmt.Errorf("--target-qps-fraction %g: want a fraction in (0, 1], e.g. 0.8", frac)
	}
	if o.OfflineRuns == nil {
		return errors.New("tune: give the first trial's QPS with --start-qps")
	}
	offline, dir, err := OfflineThroughput(o.Base.Benchmark, o.OfflineRuns)
	if err != nil {
		return fmt.Errorf("tune: %w, or give the first trial's QPS with --start-qps", err)
	}
	o.QPS.Start, o.QPS.Ceiling = frac*offline, offline
	o.startNote = fmt.Sprintf("tune: starting at %g x %.4g samples/s of the Offline run in %s\n", frac, offline, dir)
	return nil
}

// Result is what Run found. Exactly one of QPS and Sweep is set when Run
// returns no error.
type Result struct {
	// Dir is the tune folder (Options.Dir), holding tune.json.
	Dir   string
	QPS   *QPSResult
	Sweep *SweepResult
	// UserConf is the file the target_qps line was set in ("" if none);
	// UserConfReplaced says it replaced a line there rather than adding
	// one.
	UserConf         string
	UserConfReplaced bool
}

// Run runs the tune o asks for. An error wrapping ErrNoValidTrial means no
// trial was VALID; one wrapping ErrStopped, that a trial was cut short
// (the context ended, or the failure limit).
func Run(ctx context.Context, o Options) (Result, error) {
	res := Result{Dir: o.Dir}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	ts := &Trials{Base: o.Base, Dir: o.Dir, Record: o.Record, Run: o.RunTrial, Progress: progress}
	fmt.Fprintf(progress, "tune: trials go to %s\n", ts.Dir)
	if o.Base.Scenario == loadgen.Offline {
		sweep, err := SweepConcurrency(ctx, ts, o.Sweep)
		if err != nil {
			return res, err
		}
		res.Sweep = &sweep
		return res, nil
	}
	if err := o.StartQPS(); err != nil {
		return res, err
	}
	fmt.Fprint(progress, o.startNote)
	qps, err := SearchQPS(ctx, ts, o.QPS)
	if err != nil {
		if errors.Is(err, ErrLatencyFloor) {
			return res, fmt.Errorf("tune: %w", err)
		}
		if errors.Is(err, ErrNoValidTrial) {
			return res, fmt.Errorf("tune: %w: lower --start-qps, lengthen --trial-duration or raise --trial-min-queries if early stopping failed, or check the server", err)
		}
		return res, err
	}
	res.QPS = &qps
	if o.UserConf != "" {
		// The answer stands (Print prints it) even if it cannot be
		// written.
		replaced, err := SetUserConf(o.UserConf, qps.UserConf)
		if err != nil {
			return res, fmt.Errorf("--write-user-conf %s: %w", o.UserConf, err)
		}
		res.UserConf, res.UserConfReplaced = o.UserConf, replaced
	}
	return res, nil
}

// Print writes what the tune found: the answer (the user.conf line, or the
// Offline table and the recommended concurrency) to out, and how it was
// reached, any warning and where the trials are to log.
func (r Result) Print(out, log io.Writer) {
	switch {
	case r.QPS != nil:
		r.printQPS(out, log)
	case r.Sweep != nil:
		r.printSweep(out, log)
	}
}

func (r Result) printQPS(out, w io.Writer) {
	res := r.QPS
	switch {
	case res.Converged && res.InvalidAbove > 0:
		fmt.Fprintf(w, "\ntune: highest VALID target QPS %s; INVALID at %s (within the tolerance %g)\n",
			FormatQPS(res.Best), FormatQPS(res.InvalidAbove), res.Tolerance)
	case res.InvalidAbove > 0:
		fmt.Fprintf(w, "\ntune: highest VALID target QPS %s; INVALID at %s, %.1f%% above: --max-trials ran out before the tolerance %g\n",
			FormatQPS(res.Best), FormatQPS(res.InvalidAbove), 100*(res.InvalidAbove-res.Best)/res.Best, res.Tolerance)
	default:
		fmt.Fprintf(w, "\ntune: every trial was VALID, up to %s QPS: --max-trials ran out before one was INVALID (raise --start-qps or --max-trials)\n", FormatQPS(res.Best))
	}
	if res.BestFellBehind > 0 {
		kept := "no VALID trial kept up with its schedule"
		if res.KeptUp > 0 {
			kept = "the highest VALID QPS that kept up with its schedule was " + FormatQPS(res.KeptUp)
		}
		fmt.Fprintf(w, "tune: warning: at %s QPS the server completed %.1f%% fewer queries per second than were scheduled: "+
			"the trial was VALID only because it ended before its growing queue broke the latency limit, and a full run "+
			"would likely be INVALID (%s); lengthen --trial-duration to resolve it\n", FormatQPS(res.Best), 100*res.BestFellBehind, kept)
	}
	fmt.Fprintf(w, "tune: trials in %s; confirm with a full run before you submit\n", filepath.Join(r.Dir, SummaryFile))
	fmt.Fprintf(w, "tune: recommended %s QPS: %s\n", FormatQPS(res.Recommended), res.RecommendedWhy)
	fmt.Fprintln(out, res.UserConf)
	if r.UserConf != "" {
		verb := "added to"
		if r.UserConfReplaced {
			verb = "replaced in"
		}
		fmt.Fprintf(w, "tune: %s %s\n", verb, r.UserConf)
	}
}

func (r Result) printSweep(out, log io.Writer) {
	res := r.Sweep
	fmt.Fprintf(out, "\n%-12s %12s %9s\n", "concurrency", "samples/s", "of best")
	for _, p := range res.Points {
		note := ""
		if !p.Valid {
			note = "  not VALID"
		}
		fmt.Fprintf(out, "%-12d %12.4g %8.1f%%%s\n", p.Concurrency, p.SamplesPerSecond, 100*p.SamplesPerSecond/res.Best, note)
	}
	fmt.Fprintf(out, "recommended: --concurrency %d (the smallest reaching %g%% of the best, %.4g samples/s)\n",
		res.Recommended, 100*res.Plateau, res.Best)
	fmt.Fprintf(log, "tune: trials in %s\n", filepath.Join(r.Dir, SummaryFile))
}
