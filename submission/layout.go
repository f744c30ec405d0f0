package submission

import (
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// PreviousPrefix starts the name of a directory (or file) that filing moved
// aside because a new run replaced it (".previous-<name>-<UTC time>").
// Packaging never copies such entries and the check reports them.
const PreviousPrefix = ".previous-"

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
