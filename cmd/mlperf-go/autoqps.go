package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/tune"
)

// defaultAutoQPSFraction is the share of the Offline throughput --target-qps
// auto asks of a Server run: the Server scenario's latency limits hold
// only with headroom under the peak, and 0.8 is where submitters (and
// MLPerf_local_test) start.
const defaultAutoQPSFraction = 0.8

// targetQPS returns the QPS --target-qps asks for: its number, or for
// "auto" the fraction of the newest valid Offline performance result.
func targetQPS(c *cli.Context, b benchmark.Benchmark) (float64, error) {
	v := c.String("target-qps")
	if !strings.EqualFold(v, "auto") {
		qps, err := strconv.ParseFloat(v, 64)
		if err != nil || qps <= 0 {
			return 0, fmt.Errorf("--target-qps %q: want a positive number of queries per second, or auto", v)
		}
		return qps, nil
	}
	frac := c.Float64("target-qps-fraction")
	if frac <= 0 {
		return 0, fmt.Errorf("--target-qps-fraction %g: want a positive fraction, e.g. 0.8", frac)
	}
	offline, dir, err := offlineThroughput(c, b)
	if err != nil {
		return 0, fmt.Errorf("--target-qps auto: %w, or give --target-qps a number", err)
	}
	qps := frac * offline
	fmt.Fprintf(c.App.ErrWriter, "--target-qps auto: %g x %.4g samples/s of the Offline run in %s = %.4g\n",
		frac, offline, dir, qps)
	return qps, nil
}

// offlineThroughput returns the samples/s of the newest valid Offline
// performance run of b where offlineRunDirs looks, and the run's folder.
func offlineThroughput(c *cli.Context, b benchmark.Benchmark) (float64, string, error) {
	return tune.OfflineThroughput(b, func(b benchmark.Benchmark) []string { return offlineRunDirs(c, b) })
}

// offlineRunDirs lists where Offline performance runs of b may be: the run
// history (--runs-dir) and, with --results-dir and --system, the results
// tree's Offline performance run.
func offlineRunDirs(c *cli.Context, b benchmark.Benchmark) []string {
	dirs := record.OfflinePerformanceRuns(c.String("runs-dir"), b.Name)
	if rd, sys := c.String("results-dir"), c.String("system"); rd != "" && sys != "" {
		dirs = append(dirs, filepath.Join(rd, sys, b.SubmissionDir, "Offline", "performance", "run_1"))
	}
	return dirs
}
