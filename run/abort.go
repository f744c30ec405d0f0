package run

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// AbortGrace is how long a stopped test waits for LoadGen to finish on its
// own (Offline, SingleStream and MultiStream do at once, with every sample
// completed empty) before leaving without it: Slurm's KillWait is 30 s, a
// user who pressed Ctrl-C expects an exit within seconds, and a test whose
// engine died should not play out the rest of its schedule.
var AbortGrace = 3 * time.Second

// Abortable runs the test with Run in runCtx. Once the test is stopped, by
// ctx's cancellation (a signal), or in the Server scenario by runCtx's (a
// launched engine died) or the pool (Options.Stopped: --max-failures,
// --endpoints-down-timeout), it waits AbortGrace for LoadGen to end; if
// LoadGen is still running (the Server scenario keeps its schedule to
// min_duration and cannot be told to stop), it marks the output folder aborted, removing LoadGen's
// unfinished logs, and returns that report as left, with the pool's
// counts so far (rep is then nil), and why it stopped. LoadGen goes on
// in the background: the caller must leave the process, as no other test
// can start in it until LoadGen's schedule ends.
func Abortable(ctx, runCtx context.Context, o Options) (rep, left *Report, why error) {
	type result struct {
		rep *Report
		err error
	}
	var live atomic.Pointer[func() sut.Stats]
	o.Started = func(stats func() sut.Stats) { live.Store(&stats) }
	poolStop := make(chan error, 1)
	o.Stopped = func(err error) {
		select {
		case poolStop <- err:
		default:
		}
	}
	start := time.Now()
	done := make(chan result, 1)
	go func() {
		r, err := Run(runCtx, o)
		done <- result{r, err}
	}()
	// A signal leaves LoadGen behind in any scenario: the process exits.
	// A stop from within (the pool, the engine's death) does only where
	// LoadGen would play a schedule out (Server): elsewhere LoadGen ends
	// once the samples it issued are completed, which the stop does at
	// once, and waiting for it keeps its logs whole.
	var stopped <-chan error
	runDone := runCtx.Done()
	if o.Scenario == loadgen.Server {
		stopped = poolStop
	} else {
		runDone = ctx.Done()
	}
	select {
	case r := <-done:
		return r.rep, nil, r.err
	case <-runDone: // ctx's cancellation ends runCtx too
		why = context.Cause(runCtx)
		if ctx.Err() != nil {
			why = context.Cause(ctx)
		}
	case why = <-stopped:
	}
	select {
	case r := <-done:
		return r.rep, nil, r.err
	case <-time.After(AbortGrace):
	}
	left = &Report{LogDir: o.OutputDir, UserConf: filepath.Join(o.OutputDir, record.UserConfFile), Start: start, End: time.Now()}
	left.Settings.Mode = o.Mode
	if stats := live.Load(); stats != nil {
		left.Stats = (*stats)()
	}
	left.Elapsed = left.End.Sub(start)
	reason := firstLine(why.Error()) + "; LoadGen was still running its schedule and was left behind"
	if err := left.MarkAborted(reason, false); err != nil {
		left.OutcomeReason += " (removing its logs: " + err.Error() + ")"
	}
	return nil, left, why
}

// firstLine is s up to its first newline: a dead engine's error carries
// the tail of its log, which the outcome reason does not repeat.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
