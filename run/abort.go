package run

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// AbortGrace is how long an interrupted test waits for LoadGen to finish on
// its own (Offline, SingleStream and MultiStream do at once, with every
// sample completed empty) before leaving without it: Slurm's KillWait is
// 30 s, and a user who pressed Ctrl-C expects an exit within seconds.
var AbortGrace = 3 * time.Second

// Abortable runs the test with Run in runCtx. Once ctx is cancelled (a
// signal) it waits AbortGrace for LoadGen to end; if LoadGen is still
// running (the Server scenario keeps its schedule to min_duration), it marks
// the output folder aborted, removing LoadGen's unfinished logs, and returns
// that report as left, with the pool's counts so far (rep is then nil). runCtx may end without
// ctx (a launched engine died): LoadGen is then aborted by Run itself.
func Abortable(ctx, runCtx context.Context, o Options) (rep, left *Report, err error) {
	type result struct {
		rep *Report
		err error
	}
	var live atomic.Pointer[func() sut.Stats]
	o.Started = func(stats func() sut.Stats) { live.Store(&stats) }
	start := time.Now()
	done := make(chan result, 1)
	go func() {
		r, err := Run(runCtx, o)
		done <- result{r, err}
	}()
	select {
	case r := <-done:
		return r.rep, nil, r.err
	case <-ctx.Done():
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
	reason := context.Cause(ctx).Error() + "; LoadGen was still running its schedule and was left behind"
	if err := left.MarkAborted(reason, false); err != nil {
		left.OutcomeReason += " (removing its logs: " + err.Error() + ")"
	}
	return nil, left, nil
}
