package check

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
)

// checkTEST01 is compliance_check.py for TEST01 in a compliance folder
// dir (<benchmark>/<Scenario>/TEST01): verify_performance.txt must say TEST
// PASS; verify_accuracy.txt must have a "TEST PASS" line or, failing it,
// accuracy/ must hold exactly the accuracy log, accuracy.txt,
// baseline_accuracy.txt and compliance_accuracy.txt, whose accuracies
// differ by at most 1% (submission.BenchmarkRules.TEST01AccuracyDelta).
func (c *checker) checkTEST01(dir, fix string, rules *submission.BenchmarkRules, scen string) {
	perf := filepath.Join(dir, submission.VerifyPerformanceFile)
	if b, err := os.ReadFile(perf); err != nil {
		c.add(perf, fix, submission.VerifyPerformanceFile+" is missing")
	} else if !strings.Contains(string(b), "TEST PASS") {
		c.add(perf, "see the verification: the TEST01 run's score must be within 10% of the performance run's", "TEST01 performance verification did not pass")
	}
	acc := filepath.Join(dir, submission.VerifyAccuracyFile)
	b, err := os.ReadFile(acc)
	if err != nil {
		c.add(acc, fix, submission.VerifyAccuracyFile+" is missing")
		return
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "TEST PASS" {
			return
		}
	}
	accDir := filepath.Join(dir, "accuracy")
	partIII := "the responses differ from the accuracy run's: add TEST01's Part III accuracy files (compliance/TEST01/README.md)"
	want := []string{mllog.AccuracyFile, record.AccuracyTxtFile, "baseline_accuracy.txt", "compliance_accuracy.txt"}
	for _, f := range want {
		if _, err := os.Stat(filepath.Join(accDir, f)); err != nil {
			c.add(filepath.Join(accDir, f), partIII, "TEST01 accuracy check failed and %s is missing", f)
			return
		}
	}
	base, _ := os.ReadFile(filepath.Join(accDir, "baseline_accuracy.txt"))
	comp, _ := os.ReadFile(filepath.Join(accDir, "compliance_accuracy.txt"))
	for _, p := range rules.TEST01AccuracyDelta(base, comp, scen) {
		c.add(accDir, "make the SUT deterministic or its accuracy steadier", "%s", p)
	}
}

// checkTEST01Dir is checkCompliance for TEST01, whose accuracy check needs
// the benchmark's rules.
func (c *checker) checkTEST01Dir(dir string, rules *submission.BenchmarkRules, scen string) {
	fix := "run the TEST01 compliance run and its verification (mlperf-go run --compliance TEST01)"
	if _, err := os.Stat(dir); err != nil {
		c.add(dir, fix, "compliance test TEST01 is missing")
		return
	}
	c.checkRunRecord(filepath.Join(dir, submission.PerformanceRun))
	c.checkTEST01(dir, fix, rules, scen)
}
