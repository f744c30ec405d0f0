package run

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/internal/progress"
	"github.com/mlperf-go/mlperf-go/internal/timeline"
	"github.com/mlperf-go/mlperf-go/qsl"
	"github.com/mlperf-go/mlperf-go/sut"
	"go.uber.org/zap"
)

// startProgress shows the run's progress on w until the returned stop
// function is called: a live bar (done/total, %, rate, ETA, failures) when
// w is a terminal, else a plain line every interval, for batch logs. Long
// runs (ten minutes at least for a valid performance run) must show that
// they are alive and how they fare. total is the number of samples
// LoadGen is expected to issue (expectedSamples), 0 if unknown.
func startProgress(w io.Writer, every time.Duration, total int64, pool *sut.Pool, lib *qsl.Library) (stop func()) {
	start := time.Now()
	line := func() string {
		p := pool.Progress()
		return renderBar(progressSnapshot{Elapsed: time.Since(start), Done: p.Completed, Failed: p.Failed, Total: total, InFlight: p.InFlight})
	}
	if !progress.IsTerminal(w) {
		line = logLine(start, pool, lib)
	}
	show := progress.Show(w, every, line)
	return func() { show(true) }
}

// logLine returns the plain progress line of a batch log: the counters,
// what is loaded, and the rate since the previous line.
func logLine(start time.Time, pool *sut.Pool, lib *qsl.Library) func() string {
	var last sut.Progress
	lastAt := start
	return func() string {
		now := time.Now()
		p := pool.Progress()
		loaded, bytes := lib.Loaded()
		rate := float64(p.Completed-last.Completed) / now.Sub(lastAt).Seconds()
		last, lastAt = p, now
		var b strings.Builder
		fmt.Fprintf(&b, "[%s] ", now.Sub(start).Truncate(time.Second))
		// Accuracy runs load and unload one set at a time: between sets
		// nothing is loaded, which is not worth a "loaded 0".
		if loaded > 0 {
			fmt.Fprintf(&b, "loaded %d (%.1f MiB)  ", loaded, float64(bytes)/(1<<20))
		}
		fmt.Fprintf(&b, "issued %d  done %d  failed %d  in flight %d  queued %d  %.1f samples/s  mean latency %s",
			p.Issued, p.Completed, p.Failed, p.InFlight, p.Queued, rate, p.MeanLatency.Round(time.Millisecond))
		if p.MeanTTFT > 0 {
			fmt.Fprintf(&b, "  mean TTFT %s", p.MeanTTFT.Round(time.Millisecond))
		}
		return b.String()
	}
}

// startRecorders records, for the report, the pool's counters every second
// (timeline.jsonl) and, if EngineMetricsEvery is set, the engines'
// Prometheus metrics (engine_metrics.jsonl) in the output directory. The
// returned stop function ends both and returns what went wrong writing.
func startRecorders(o Options, pool *sut.Pool) (stop func() error, err error) {
	tl, err := timeline.Start(filepath.Join(o.OutputDir, timeline.File), timeline.DefaultEvery, func() timeline.Counters {
		p := pool.Progress()
		return timeline.Counters{Issued: p.Issued, Completed: p.Completed, Failed: p.Failed, InFlight: p.InFlight, Queued: p.Queued, OutputTokens: p.OutputTokens}
	})
	if err != nil {
		return nil, err
	}
	if o.EngineMetricsEvery <= 0 {
		return tl.Stop, nil
	}
	em, err := metrics.Start(filepath.Join(o.OutputDir, metrics.File), o.Endpoints, o.EngineMetricsEvery, nil, o.APIKey)
	if err != nil {
		return nil, errors.Join(err, tl.Stop())
	}
	return func() error {
		err := errors.Join(tl.Stop(), em.Stop())
		if n := em.Failed(); n > 0 {
			o.logger().Warn("some scrapes of the engine's /metrics failed; the report's engine charts miss them (each error is in the file)",
				zap.Int64("failed_scrapes", n), zap.String("file", filepath.Join(o.OutputDir, metrics.File)))
		}
		return err
	}, nil
}
