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

// IssuedAtOnce reports whether LoadGen issued every sample at once
// (Offline). The harness's parts of each sample's time (queue, send, and
// their sums) then hold all its workers waking and opening their
// connections together, once per run: hundreds of milliseconds in the
// tail that are not what the harness adds to a sample, and are not
// reported as such.
func (r *Results) IssuedAtOnce() bool { return r.Run.Scenario == loadgen.Offline.String() }

// addHarnessLatency reads the run's latency breakdown, when there is one,
// and warns when the harness added a long tail to a run judged by its
// latencies: not Offline (judged by throughput; see IssuedAtOnce) nor an
// accuracy run.
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
	if r.IssuedAtOnce() || r.accuracyRun() {
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
