package workflow

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/tune"
)

// Request is what the run command line says, in its own words: names,
// strings and numbers as typed. Resolve checks it all and decides the
// Plan.
type Request struct {
	// Test is what the flags run and tune share say of the test (its Mode
	// is set from ModeName).
	Test run.Request
	// ModeName is --mode: a LoadGen mode as run.ParseMode reads it, or
	// record.ModeBoth (accuracy, evaluated, then performance).
	ModeName string
	// TargetQPS is --target-qps (nil: not given): a number, or auto for
	// TargetQPSFraction of the newest valid Offline throughput.
	TargetQPS         *string
	TargetQPSFraction float64
	// MinDuration (ms) and MinQueryCount are their settings' shorthands
	// (nil: not given).
	MinDuration, MinQueryCount *uint64
	// Quick shrinks the run to a smoke run (QuickSettings).
	Quick bool
	// Launch is the engine to start, if any.
	Launch run.LaunchRequest
	// Compliance names the compliance test to run ("" for none).
	Compliance string
	// OutputDir is --output-dir: "" puts the run in a new folder under
	// RunsDir. Overwrite lets it name a folder that holds files.
	OutputDir string
	Overwrite bool
	// RunsDir is the runs root (--runs-dir), indexed after the run when
	// the run went into a new folder under it.
	RunsDir string
	// ResultsDir and System: file the run into the submission results
	// tree ResultsDir/System/… ("" files nothing). Replace moves an
	// earlier run of the same kind aside instead of refusing.
	ResultsDir string
	System     string
	Replace    bool
	// AllowUnofficial is --allow-unofficial-settings: the run rehearses
	// the workflow with settings that cannot make a valid submission, so
	// LoadGen's INVALID, which they cause, is filed all the same (the
	// submission check still refuses it). Anything else not submittable
	// is never filed.
	AllowUnofficial bool
	// Evaluate scores an accuracy run after it (--mode both turns it on
	// for its accuracy test); Eval says how, for it and for TEST07.
	Evaluate bool
	Eval     EvalSettings
	// AccuracyScript is TEST07's official accuracy command template, to
	// score with instead of Go ("" scores in Go).
	AccuracyScript string
	// Record is how the run was made (command line, engine as declared),
	// for the run record and filing; Run adds the compliance test and a
	// launched engine.
	Record run.Record
	// Progress gets what the run says as it goes, before its Outcome: a
	// launched engine's readiness, --target-qps auto's choice, each test
	// as it starts; nil discards it.
	Progress io.Writer
	// Logger receives the test's milestones and failures (nil: none).
	Logger *zap.Logger
}

// QuickSamples is how many samples a --quick run holds in its QSL and
// issues: enough to exercise batching, streaming and the logs, few enough
// that any benchmark's run ends in seconds against a live endpoint.
const QuickSamples = 10

// QuickSettings returns the user.conf lines that shrink a run to n
// samples. mlperf.conf sizes the official runs (e.g. llama3_1-8b Offline
// min_query_count = 13368 and performance_sample_count_override = 13368;
// every scenario's min_duration is ten minutes), so capping the QSL alone
// still issues thousands of samples: each of these must follow it.
func QuickSettings(n int) []string {
	return []string{
		"min_duration=0",
		fmt.Sprintf("min_query_count=%d", n),
		fmt.Sprintf("performance_sample_count_override=%d", n),
		fmt.Sprintf("accuracy_sample_count_override=%d", n),
	}
}

// testOptions checks what the command line says of a test (its round
// first: the rounds are submission's, a floor above run) and resolves it
// into runner options: the one place run's and tune's requests are read.
func testOptions(r run.Request, log *zap.Logger) (run.Options, error) {
	if err := submission.CheckRound(r.Round, log); err != nil {
		return run.Options{}, err
	}
	return r.Options(log)
}

// targetQPS returns the QPS --target-qps asks for: its number, or for
// "auto" frac of the newest valid Offline performance result of b (said
// on progress).
func targetQPS(v string, frac float64, b benchmark.Benchmark, dirs func(benchmark.Benchmark) []string, progress io.Writer) (float64, error) {
	if !strings.EqualFold(v, "auto") {
		qps, err := strconv.ParseFloat(v, 64)
		if err != nil || qps <= 0 {
			return 0, fmt.Errorf("--target-qps %q: want a positive number of queries per second, or auto", v)
		}
		return qps, nil
	}
	if frac <= 0 {
		return 0, fmt.Errorf("--target-qps-fraction %g: want a positive fraction, e.g. 0.8", frac)
	}
	offline, dir, err := tune.OfflineThroughput(b, dirs)
	if err != nil {
		return 0, fmt.Errorf("--target-qps auto: %w, or give --target-qps a number", err)
	}
	qps := frac * offline
	fmt.Fprintf(progress, "--target-qps auto: %g x %.4g samples/s of the Offline run in %s = %.4g\n", frac, offline, dir, qps)
	return qps, nil
}

// OfflineRunDirs lists, for a benchmark, where its Offline performance
// runs may be: the run history under runsDir and, with resultsDir and
// system, the results tree's Offline performance run.
func OfflineRunDirs(runsDir, resultsDir, system string) func(benchmark.Benchmark) []string {
	return func(b benchmark.Benchmark) []string {
		dirs := record.OfflinePerformanceRuns(runsDir, b.Name)
		if resultsDir != "" && system != "" {
			dirs = append(dirs, filepath.Join(resultsDir, system, b.SubmissionDir, benchmark.ScenarioOffline, submission.PerformanceRun))
		}
		return dirs
	}
}
