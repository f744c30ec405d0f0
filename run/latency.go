package run

import (
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/sut"
)

// latencyBreakdown turns the pool's histograms into the run's breakdown
// file's content (every part, in order).
func latencyBreakdown(stream bool, b sut.Breakdown) breakdown.Breakdown {
	out := breakdown.Breakdown{Stream: stream}
	for _, p := range sut.Parts() {
		info := p.Info()
		out.Parts = append(out.Parts, breakdown.Part{Name: info.Name, Harness: info.Harness, Owner: info.Owner, Sum: info.Sum, What: info.What, Summary: b.Parts[p]})
	}
	return out
}

// recordLatency writes the breakdown beside LoadGen's logs and logs what
// the harness added, except in Offline: LoadGen issues every sample at
// once there, so the harness's parts hold all the workers waking and
// opening their connections together (hundreds of milliseconds at p99),
// which is not what it adds to a sample (results.Results.IssuedAtOnce).
// A failure to write loses the breakdown, not the run.
func recordLatency(dir string, scenario loadgen.Scenario, stream bool, b sut.Breakdown, log *zap.Logger) {
	if err := breakdown.Write(dir, latencyBreakdown(stream, b)); err != nil {
		log.Warn("recording where the samples' time went", zap.Error(err))
	}
	if scenario == loadgen.Offline {
		return
	}
	ms := func(ns int64) float64 { return float64(time.Duration(ns)) / float64(time.Millisecond) }
	part := func(p sut.Part) zap.Field {
		s := b.Parts[p]
		return zap.Dict(p.Info().Name, zap.Float64("p50_ms", ms(s.P50)), zap.Float64("p99_ms", ms(s.P99)), zap.Float64("p99_9_ms", ms(s.P999)))
	}
	fields := []zap.Field{part(sut.PartHarnessLast)}
	if stream {
		fields = append(fields, part(sut.PartHarnessFirst))
	}
	log.Info("latency the harness added (details in "+breakdown.File+")", fields...)
}
