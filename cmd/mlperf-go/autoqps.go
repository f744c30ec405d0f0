package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/results"
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
		return 0, err
	}
	qps := frac * offline
	fmt.Fprintf(c.App.ErrWriter, "--target-qps auto: %g x %.4g samples/s of the Offline run in %s = %.4g\n",
		frac, offline, dir, qps)
	return qps, nil
}

// offlineThroughput returns the samples/s of the newest valid Offline
// performance run (not --quick) of b, and the run's folder. An Interactive
// variant has no Offline scenario of its own: its benchmark's Offline run
// measured the same model on the same system.
func offlineThroughput(c *cli.Context, b benchmark.Benchmark) (float64, string, error) {
	if b.IsInteractive() {
		base, err := benchmark.Lookup(b.Base)
		if err != nil {
			return 0, "", err
		}
		b = base
	}
	r, dir, err := newestOfflineResult(b.Name, offlineRunDirs(c, b))
	if err != nil {
		return 0, "", err
	}
	return r.Metrics.SamplesPerSecond.Value, dir, nil
}

// offlineRunDirs lists where Offline performance runs of b may be: the run
// history (--runs-dir) and, with --results-dir and --system, the results
// tree's Offline performance run.
func offlineRunDirs(c *cli.Context, b benchmark.Benchmark) []string {
	var dirs []string
	for _, sub := range []string{"Offline-performance", "Offline-" + modeBoth + "/*/performance"} {
		pattern := filepath.Join(c.String("runs-dir"), b.Name, sub)
		if !strings.Contains(sub, "*") {
			pattern = filepath.Join(pattern, "*")
		}
		m, _ := filepath.Glob(pattern) // the pattern is well formed
		dirs = append(dirs, m...)
	}
	if rd, sys := c.String("results-dir"), c.String("system"); rd != "" && sys != "" {
		dirs = append(dirs, filepath.Join(rd, sys, b.SubmissionDir, "Offline", "performance", "run_1"))
	}
	return dirs
}

// newestOfflineResult returns the newest (by results.json time) valid
// Offline performance result of the benchmark among dirs. A --quick run is
// skipped: its samples/s come from seconds of load on a ten-sample library
// (ramp-up and tail dominate), not from the system at its pace.
func newestOfflineResult(bench string, dirs []string) (*results.Results, string, error) {
	var (
		best     *results.Results
		bestDir  string
		bestTime time.Time
	)
	for _, d := range dirs {
		st, err := os.Stat(filepath.Join(d, results.File))
		if err != nil {
			continue
		}
		r, err := results.Read(d)
		if err != nil || r.Run.Benchmark != bench || r.Run.Scenario != "Offline" ||
			r.Outcome.Status != results.StatusValid || r.Metrics.SamplesPerSecond == nil || r.Metrics.SamplesPerSecond.Value <= 0 ||
			isQuickRun(r) {
			continue
		}
		if best == nil || st.ModTime().After(bestTime) {
			best, bestDir, bestTime = r, d, st.ModTime()
		}
	}
	if best == nil {
		return nil, "", errors.New("--target-qps auto: no valid Offline performance run of " + bench +
			" found in --runs-dir (or --results-dir for --system; --quick runs do not count): run the Offline performance test first, or give --target-qps a number")
	}
	return best, bestDir, nil
}

// isQuickRun reports whether r is a --quick smoke run: its run record says
// so, or, for records written before they did, its command line carries
// --quick (a flag urfave/cli also accepts with one dash and as =true).
func isQuickRun(r *results.Results) bool {
	if r.Run.Quick {
		return true
	}
	for _, arg := range r.Run.Command {
		switch strings.TrimLeft(arg, "-") {
		case "quick", "quick=true", "quick=1":
			return strings.HasPrefix(arg, "-")
		}
	}
	return false
}
