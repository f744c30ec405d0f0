// Package tune finds the settings a submission run wants by making short
// LoadGen performance runs: the highest Server (or Interactive) target QPS
// that stays VALID (SearchQPS, a bisection between a VALID and an INVALID
// QPS), and the Offline concurrency at which throughput stops growing
// (SweepConcurrency).
//
// Each trial is a whole run.Run, judged as every run is judged (VALID
// only when LoadGen's summary says VALID and no sample failed), written
// into its own folder under one tune folder, apart from the run history
// and the results tree, beside a tune.json that lists every trial.
package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
)

// Trial is one short run a search made.
type Trial struct {
	// N numbers the trial from 1.
	N int `json:"n"`
	// Dir holds the trial's LoadGen logs and run record.
	Dir string `json:"dir"`
	// TargetQPS is the Server QPS tried (QPS searches); Concurrency the
	// requests in flight allowed (Offline sweeps).
	TargetQPS   float64 `json:"target_qps,omitempty"`
	Concurrency int     `json:"concurrency,omitempty"`
	// Outcome is the run's verdict (record.Valid, …Invalid);
	// Reason says why it is not VALID.
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	// SamplesPerSecond is LoadGen's throughput (Server: completed samples
	// per second; Offline: samples per second).
	SamplesPerSecond float64 `json:"samples_per_second,omitempty"`
	// ScheduledPerSecond is the rate LoadGen scheduled a Server trial's
	// queries at (its "Scheduled samples per second").
	ScheduledPerSecond float64 `json:"scheduled_samples_per_second,omitempty"`
	// Latency is the latency limit the trial came nearest to breaking, or
	// broke (Server trials; nil when LoadGen logged none).
	Latency *Latency `json:"latency,omitempty"`
	// Issued and Failed count the samples.
	Issued int64 `json:"issued"`
	Failed int64 `json:"failed"`
	// Seconds is the trial's wall time, loading included.
	Seconds float64 `json:"seconds"`
}

// Valid reports whether the trial's outcome is VALID.
func (t Trial) Valid() bool { return t.Outcome == record.Valid }

// behindLimit is how far a Server trial's completions may fall behind its
// schedule before FellBehind says so. A trial below capacity finishes its
// last query within a latency of its last arrival, so completed/scheduled
// is 1 - (a latency / the trial's length), well under 1% for trials of
// seconds; a trial at (1+e) times capacity ends with e of its length still
// queued, about 1/(1+e).
const behindLimit = 0.03

// FellBehind returns how far (a fraction) the trial's completions fell
// behind the rate LoadGen scheduled, when more than behindLimit: the
// queue was still growing at the end. LoadGen may still say VALID when
// the trial was too short for that queue to break the latency limit; a
// full-length run at the same QPS would break it. 0 when the trial kept
// up (or is not a Server trial).
func (t Trial) FellBehind() float64 {
	if t.ScheduledPerSecond <= 0 || t.SamplesPerSecond <= 0 {
		return 0
	}
	if b := 1 - t.SamplesPerSecond/t.ScheduledPerSecond; b > behindLimit {
		return b
	}
	return 0
}

// Latency is one latency percentile LoadGen measured against the limit the
// scenario sets on it.
type Latency struct {
	// Name says which, e.g. "p99 TTFT".
	Name string `json:"name"`
	// ValueMs and LimitMs are the measured percentile and its limit, in
	// milliseconds.
	ValueMs float64 `json:"value_ms"`
	LimitMs float64 `json:"limit_ms"`
}

// Over reports whether the percentile broke its limit.
func (l Latency) Over() bool { return l.ValueMs > l.LimitMs }

// String is e.g. "p99 TTFT 212.3 ms > 150 ms".
func (l Latency) String() string {
	cmp := "<="
	if l.Over() {
		cmp = ">"
	}
	return fmt.Sprintf("%s %.4g ms %s %.4g ms", l.Name, l.ValueMs, cmp, l.LimitMs)
}

// Trials runs the trials of one search and keeps their record. Base holds
// everything but what a trial changes; each trial's settings go after
// Base.Settings, so they win over the user's.
type Trials struct {
	// Base are the options every trial starts from (Mode is set to
	// performance). Base.Data should be open, so the dataset is read once.
	Base run.Options
	// Dir is the tune folder: one sub-folder per trial, and tune.json.
	Dir string
	// Record is what each trial's run record says beyond the options (the
	// command line).
	Record run.Record
	// Run runs one trial (default run.Run). A caller passes its own to
	// handle interrupts as its run command does.
	Run func(context.Context, run.Options) (*run.Report, error)
	// Progress, if set, gets a line for each trial as it ends, and what
	// the search does next.
	Progress io.Writer

	summary Summary
	// describe is the search's line for a trial, written to Progress.
	describe func(Trial) string
}

// say writes a line to Progress, if set.
func (ts *Trials) say(line string) {
	if ts.Progress != nil {
		fmt.Fprintln(ts.Progress, line)
	}
}

// ErrStopped is wrapped by a search's error when a trial did not run to
// its end (an interrupt, --max-failures): the search stops there.
var ErrStopped = errors.New("the trial did not run to its end")

// run runs one trial named name with the extra settings and, when
// concurrency > 0, that many requests in flight; qps is the Server QPS the
// settings ask for (0 for Offline), recorded even if the trial is stopped.
// A trial that ran to its end is returned whatever its verdict; an error
// means the search cannot go on (the trial never started, was stopped, or
// its logs are damaged).
func (ts *Trials) run(ctx context.Context, name string, settings []string, concurrency int, qps float64) (Trial, error) {
	o := ts.Base
	o.Mode = loadgen.PerformanceOnly
	o.OutputDir = filepath.Join(ts.Dir, name)
	o.Settings = append(append([]string(nil), ts.Base.Settings...), settings...)
	if concurrency > 0 {
		o.Concurrency = concurrency
	}
	// The endpoints were checked before the first trial; later ones go
	// straight to the test.
	o.SkipPreflight = ts.Base.SkipPreflight || len(ts.summary.Trials) > 0
	runTest := ts.Run
	if runTest == nil {
		runTest = run.Run
	}
	start := time.Now()
	rep, runErr := runTest(ctx, o)
	if rep == nil {
		return Trial{}, fmt.Errorf("trial %s: %w", name, runErr)
	}
	if err := run.WriteRunInfo(o, rep, ts.Record); err != nil {
		return Trial{}, fmt.Errorf("trial %s: %w", name, err)
	}
	t := Trial{
		N:           len(ts.summary.Trials) + 1,
		Dir:         o.OutputDir,
		TargetQPS:   qps,
		Concurrency: concurrency,
		Outcome:     rep.Outcome,
		Reason:      reason(rep),
		Issued:      rep.Stats.Issued,
		Failed:      rep.Stats.Failed,
		Seconds:     math.Round(time.Since(start).Seconds()*10) / 10,
	}
	if v, err := strconv.ParseFloat(rep.Summary.Values["Samples per second"], 64); err == nil {
		t.SamplesPerSecond = v
	} else if v, err := strconv.ParseFloat(rep.Summary.Values["Completed samples per second"], 64); err == nil {
		t.SamplesPerSecond = v
	}
	if o.Scenario == loadgen.Server {
		t.Latency = decidingLatency(rep)
		if v, err := strconv.ParseFloat(rep.Summary.Values["Scheduled samples per second"], 64); err == nil {
			t.ScheduledPerSecond = v
		}
	}
	ts.summary.Trials = append(ts.summary.Trials, t)
	if ts.describe != nil {
		ts.say(ts.describe(t))
	}
	writeErr := ts.write()
	if rep.Outcome == record.Aborted {
		return t, errors.Join(fmt.Errorf("trial %s: %s: %w", name, rep.OutcomeReason, ErrStopped), writeErr)
	}
	// Failed samples make a trial INVALID, which the search weighs; any
	// other error (a damaged log) leaves nothing to weigh.
	if runErr != nil && !errors.Is(runErr, run.ErrFailures) {
		return t, errors.Join(fmt.Errorf("trial %s: %w", name, runErr), writeErr)
	}
	return t, writeErr
}

// reason says why a trial is not VALID: its failed samples, or which of
// LoadGen's constraints its summary says were not met.
func reason(rep *run.Report) string {
	if rep.Outcome == record.Valid {
		return ""
	}
	if rep.Stats.Failed > 0 || rep.Summary.Result == "" {
		return rep.OutcomeReason
	}
	var unmet []string
	for _, c := range []struct{ key, what string }{
		{"Performance constraints satisfied", "latency limits"},
		{"Min duration satisfied", "min duration"},
		{"Min queries satisfied", "min queries"},
		{"Early stopping satisfied", "early stopping"},
	} {
		if v, ok := rep.Summary.Values[c.key]; ok && !strings.EqualFold(v, "Yes") {
			unmet = append(unmet, c.what)
		}
	}
	if len(unmet) == 0 {
		return rep.OutcomeReason
	}
	return "LoadGen " + rep.Summary.Result + ": " + strings.Join(unmet, ", ") + " not met"
}

// decidingLatency returns the latency percentile of a Server trial nearest
// to its limit, relative to the limit: p99 TTFT or TPOT when LoadGen
// measures token latencies, else the p99 sample latency. LoadGen's summary
// labels percentiles with two decimals ("99.00 percentile …").
func decidingLatency(rep *run.Report) *Latency {
	s := rep.Settings
	pct := fmt.Sprintf("%.2f", s.ServerTargetLatencyPercentile*100)
	label := "p" + strings.TrimSuffix(strings.TrimSuffix(pct, "0"), ".0")
	type check struct {
		name, key string
		limitNs   float64
	}
	checks := []check{{label + " latency", pct + " percentile latency (ns)", float64(s.ServerTargetLatencyNs)}}
	if s.UseTokenLatencies {
		checks = []check{
			{label + " TTFT", pct + " percentile first token latency (ns)", float64(s.ServerTTFTLatencyNs)},
			{label + " TPOT", pct + " percentile time to output token (ns)", float64(s.ServerTPOTLatencyNs)},
		}
	}
	var best *Latency
	for _, c := range checks {
		v, err := strconv.ParseFloat(rep.Summary.Values[c.key], 64)
		if err != nil || c.limitNs <= 0 {
			continue
		}
		l := &Latency{Name: c.name, ValueMs: v / 1e6, LimitMs: c.limitNs / 1e6}
		if best == nil || l.ValueMs/l.LimitMs > best.ValueMs/best.LimitMs {
			best = l
		}
	}
	return best
}

// mkdir creates the tune folder; it must not hold an earlier tune.
func (ts *Trials) mkdir() error {
	if _, err := os.Stat(filepath.Join(ts.Dir, SummaryFile)); err == nil {
		return fmt.Errorf("%s already holds a tune (%s): choose another folder", ts.Dir, SummaryFile)
	}
	return dirwalk.MkdirAll(ts.Dir, 0o755)
}
