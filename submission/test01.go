package submission

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TEST01 is the compliance test that samples a performance run's responses
// into its accuracy log and compares them with the accuracy run's
// (compliance/TEST01; whisper's one test).
const TEST01 = "TEST01"

// TEST01AccuracyDelta is the checker's TEST01 check for a run whose
// verify_accuracy.txt did not pass (a SUT that is not deterministic):
// for each accuracy metric, the value read from baseline_accuracy.txt and
// compliance_accuracy.txt (the evaluator's output on the accuracy run's
// entries for the TEST01 samples, and on the TEST01 log; the last line
// matching the metric's pattern wins, a missing value is 0 and fails) must
// differ by at most 1% (0.1% for a 99.9% benchmark): |1 - baseline /
// compliance| × 100. It returns what failed.
func (b *BenchmarkRules) TEST01AccuracyDelta(baseline, compliance []byte, scenario string) []string {
	var problems []string
	delta := 1.0
	if strings.Contains(b.Name, "99.9") {
		delta = 0.1
	}
	for _, m := range b.accuracyMetrics(scenario) {
		base, comp := lastValue(baseline, m.pattern), lastValue(compliance, m.pattern)
		if base == 0 || comp == 0 {
			problems = append(problems, fmt.Sprintf("TEST01: %s is missing or 0 in baseline_accuracy.txt (%v) or compliance_accuracy.txt (%v)", m.name, base, comp))
			continue
		}
		if d := math.Abs(1-base/comp) * 100; d > delta {
			problems = append(problems, fmt.Sprintf("TEST01: %s differs by %v%% between the baseline (%v) and the compliance run (%v); at most %v%% is allowed", m.name, d, base, comp, delta))
		}
	}
	return problems
}

// lastValue is the checker's read of one metric from an accuracy text: the
// value of the last line matching pattern, 0 when none does.
func lastValue(content []byte, pattern string) float64 {
	v := 0.0
	for _, line := range splitLinesKeepEnds(content) {
		if s, ok := matchStart(pattern, line); ok {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				v = f
			}
		}
	}
	return v
}
