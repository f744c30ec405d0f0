package results

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// HarnessLatency is where the successful samples' time went inside the
// harness (from the run's breakdown.File): for each part, its distribution
// and whether the harness or the endpoint owns it. The harness's parts
// next to the endpoint's say at once who owns a slow tail; the harness's
// clock starts when the worker pool receives a sample and stops when its
// response is handed to LoadGen's bridge, so LoadGen's TTFT and latency
// (metrics) also hold the bridge's hops.
type HarnessLatency struct {
	// Stream says whether responses streamed (first-token parts counted).
	Stream bool `json:"stream"`
	// Parts are in a sample's order, then the per-sample sums
	// (harness_first_token, harness_completion: what the harness added).
	Parts []breakdown.Part `json:"parts"`
}

// HarnessWarnP99 is the harness-added p99 (to TTFT or to latency) above
// which results.json warns: a harness should add well under 1% of a 2 s
// TTFT limit (llama3_1-8b Server), and more than 10 ms is a tail worth
// finding before blaming the engine.
const HarnessWarnP99 = 10 * time.Millisecond

// addHarnessLatency reads the run's latency breakdown, when there is one,
// and warns when the harness added a long tail to a run judged by its
// latencies: not Offline (judged by throughput; LoadGen issues every
// sample at once, so waking a thousand workers and opening their
// connections shows in its tail) nor an accuracy run.
func (r *Results) addHarnessLatency(dir string) error {
	b, err := breakdown.Read(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	r.Sources = append(r.Sources, breakdown.File)
	r.HarnessLatency = &HarnessLatency{Stream: b.Stream, Parts: b.Parts}
	if r.Run.Scenario == loadgen.Offline.String() || r.accuracyRun() {
		return nil
	}
	for _, name := range []string{"harness_first_token", "harness_completion"} {
		p, ok := b.Find(name)
		if ok && p.Count > 0 && time.Duration(p.P99) > HarnessWarnP99 {
			r.Outcome.Warnings = append(r.Outcome.Warnings, fmt.Sprintf(
				"the harness added %.1f ms at p99 (%s, %s): more than %v, so part of the tail is the harness's, not the endpoint's (see harness_latency)",
				float64(p.P99)/1e6, name, breakdown.File, HarnessWarnP99))
		}
	}
	return nil
}
