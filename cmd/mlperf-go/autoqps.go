package main

import (
	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/tune"
	"github.com/mlperf-go/mlperf-go/workflow"
)

// defaultAutoQPSFraction is the share of the Offline throughput --target-qps
// auto asks of a Server run: the Server scenario's latency limits hold
// only with headroom under the peak, and 0.8 is where submitters (and
// MLPerf_local_test) start.
const defaultAutoQPSFraction = 0.8

// offlineThroughput returns the samples/s of the newest valid Offline
// performance run of b in the run history (--runs-dir) or, with
// --results-dir and --system, the results tree, and the run's folder.
func offlineThroughput(c *cli.Context, b benchmark.Benchmark) (float64, string, error) {
	return tune.OfflineThroughput(b, workflow.OfflineRunDirs(c.String("runs-dir"), c.String("results-dir"), c.String("system")))
}
