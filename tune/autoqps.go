package tune

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
)

// OfflineThroughput returns the samples/s of the newest (by results.json
// time) valid Offline performance run of b among dirs, and the run's folder.
// An Interactive variant has no Offline scenario of its own: its benchmark's
// Offline run measured the same model on the same system. A --quick run is
// skipped: its samples/s come from seconds of load on a ten-sample library
// (ramp-up and tail dominate), not from the system at its pace. Finding no
// such run is an error saying to run the Offline test first; the caller
// adds its own way round (run: a --target-qps number; tune: --start-qps).
func OfflineThroughput(b benchmark.Benchmark, dirs func(benchmark.Benchmark) []string) (float64, string, error) {
	if b.IsInteractive() {
		base, err := benchmark.Lookup(b.Base)
		if err != nil {
			return 0, "", err
		}
		b = base
	}
	var (
		best     *results.Results
		bestDir  string
		bestTime time.Time
	)
	for _, d := range dirs(b) {
		st, err := os.Stat(filepath.Join(d, record.ResultsFile))
		if err != nil {
			continue
		}
		r, err := results.Read(d)
		if err != nil || r.Run.Benchmark != b.Name || r.Run.Scenario != loadgen.Offline.String() ||
			r.Outcome.Status != results.StatusValid || r.Metrics.SamplesPerSecond == nil || r.Metrics.SamplesPerSecond.Value <= 0 ||
			IsQuickRun(r) {
			continue
		}
		if best == nil || st.ModTime().After(bestTime) {
			best, bestDir, bestTime = r, d, st.ModTime()
		}
	}
	if best == nil {
		return 0, "", errors.New("no valid Offline performance run of " + b.Name +
			" found in --runs-dir (or --results-dir for --system; --quick runs do not count): run the Offline performance test first")
	}
	return best.Metrics.SamplesPerSecond.Value, bestDir, nil
}

// IsQuickRun reports whether r is a --quick smoke run: its run record says
// so, or, for records written before they did, its command line carries
// --quick (a flag urfave/cli also accepts with one dash and as =true).
func IsQuickRun(r *results.Results) bool {
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
