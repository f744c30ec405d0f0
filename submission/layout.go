package submission

import (
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// PreviousPrefix starts the name of a directory (or file) that filing moved
// aside because a new run replaced it (".previous-<name>-<UTC time>").
// Packaging never copies such entries and the check reports them.
const PreviousPrefix = ".previous-"

// The files of a results tree the submission checker reads by name,
// besides LoadGen's logs: a benchmark's measurements, and what the
// reference's compliance verification scripts write in a compliance test's
// directory (package compliance writes them, check and filing read them).
const (
	// MeasurementsFile is a scenario's (or a benchmark's) measurements.json.
	MeasurementsFile = "measurements.json"
	// VerifyAccuracyFile is TEST01's, TEST06's and TEST07's
	// verify_accuracy.txt.
	VerifyAccuracyFile = "verify_accuracy.txt"
	// VerifyPerformanceFile is TEST01's verify_performance.txt.
	VerifyPerformanceFile = "verify_performance.txt"
	// VerifyOutputLenFile is TEST09's verify_output_len.txt.
	VerifyOutputLenFile = "verify_output_len.txt"
)

// PerformanceRun is where a scenario directory keeps its performance run's
// logs: the checker reads performance/run_1 and no other.
var PerformanceRun = filepath.Join("performance", "run_1")

// LoggedScenario is the effective_scenario LoadGen writes for a scenario
// directory: Interactive is LoadGen's Server scenario with tighter limits;
// every other scenario is logged under its own name.
func LoggedScenario(dirScenario string) string {
	if dirScenario == benchmark.ScenarioInteractive {
		return benchmark.ScenarioServer
	}
	return dirScenario
}

// ScenarioDir returns DIR/<system>/<benchmark>/<Scenario> with the names
// spelled as runs are filed (the checker's benchmark and scenario names),
// e.g. for writing accuracy.txt into its accuracy/ subdirectory.
func ScenarioDir(resultsDir, system, benchmark, scenario string) (string, error) {
	bench, err := CanonicalBenchmark(benchmark)
	if err != nil {
		return "", err
	}
	scen, err := CanonicalScenario(scenario)
	if err != nil {
		return "", err
	}
	return filepath.Join(resultsDir, system, bench, scen), nil
}
