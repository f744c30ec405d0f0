package run

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/progress"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// progressSnapshot is what one progress update shows.
type progressSnapshot struct {
	Elapsed time.Duration
	// Done counts completed samples, failures included; Failed those
	// that failed.
	Done, Failed int64
	// Total is the number of samples LoadGen is expected to issue (0 if
	// it cannot be known beforehand).
	Total int64
	// InFlight requests are on the wire.
	InFlight int64
}

// rate is the mean completion rate over the run so far, in samples/s:
// steadier than the last interval's for an ETA.
func (s progressSnapshot) rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Done) / s.Elapsed.Seconds()
}

// renderBar returns the live progress line for a terminal, e.g.
//
//	[=========>              ]  412/1000  41.2%  20.6 samples/s  ETA 28s  0 failed  64 in flight
//
// Without a known total, or once LoadGen issues more than expected (a
// SingleStream run lasts as long as its latency makes it), it shows the
// count without a bar, percentage or ETA rather than a false one.
func renderBar(s progressSnapshot) string {
	var b strings.Builder
	rate := s.rate()
	if bar := progress.Bar(s.Done, s.Total); bar != "" {
		fmt.Fprintf(&b, "%s %d/%d %5.1f%%  %.1f samples/s  ETA %s", bar, s.Done, s.Total, 100*float64(s.Done)/float64(s.Total), rate, progress.ETA(s.Total-s.Done, rate))
	} else {
		fmt.Fprintf(&b, "%d done  %.1f samples/s  elapsed %s", s.Done, rate, s.Elapsed.Truncate(time.Second))
	}
	fmt.Fprintf(&b, "  %d failed  %d in flight", s.Failed, s.InFlight)
	return b.String()
}

// expectedSamples estimates how many samples LoadGen will issue, for the
// bar's total and ETA, from the settings it runs with; 0 when the number
// depends on the run itself. An accuracy run issues every QSL sample
// once; an Offline query holds max(min_query_count, expected QPS x
// min_duration) samples; a Server run issues target_qps x min_duration
// queries, at least min_query_count. With sample_concatenate_permutation
// on (mlperf.conf's for the LLMs) LoadGen rounds either up to whole
// passes over the loaded set (the query's samples in Offline, the query
// count in the other scenarios: loadgen.cc pads min_queries and bumps it
// a pass at a time until the duration is met), so a Server bar that
// stopped at 320 saw 400 issued over 100 loaded samples. The single- and
// multi-stream scenarios issue queries one after the other until both
// limits pass, so their count is a lower bound, which the bar outgrows.
func expectedSamples(s loadgen.TestSettings, total, performance int) int64 {
	if s.Mode == loadgen.AccuracyOnly {
		return int64(total)
	}
	passes := func(n int64) int64 {
		if !s.SampleConcatenatePermutation || performance <= 0 {
			return n
		}
		p := int64(performance)
		return (n + p - 1) / p * p
	}
	minDur := float64(s.MinDurationMs) / 1000
	switch s.Scenario {
	case loadgen.Offline:
		return passes(max(int64(s.MinQueryCount), int64(math.Ceil(s.OfflineExpectedQPS*minDur))))
	case loadgen.Server:
		return passes(max(int64(s.MinQueryCount), int64(math.Ceil(s.ServerTargetQPS*minDur))))
	case loadgen.MultiStream:
		return passes(int64(s.MinQueryCount)) * int64(max(s.MultiStreamSamplesPerQuery, 1))
	default:
		return passes(int64(s.MinQueryCount))
	}
}
