// Package treetest builds, for the submission packages' tests, a packaged
// submission tree OUT/closed/Org/... that the official checker accepts,
// and edits it. It uses the run files of logtest. Only tests import it.
package treetest

import (
	"path/filepath"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// ValidSystemJSON returns a systems JSON that passes every rule, for
// division and submitter.
func ValidSystemJSON(division, submitter string) map[string]any {
	v := map[string]any{}
	for _, k := range submission.SystemFields() {
		v[k] = ""
		if submission.SystemFieldNeedsValue(k) {
			v[k] = "some value"
		}
	}
	v["division"] = division
	v["submitter"] = submitter
	v["status"] = "available"
	v["system_type"] = "datacenter"
	v["number_of_nodes"] = 1
	v["accelerators_per_node"] = "8"
	return v
}

// treeScenarios are the scenarios the valid tree holds per benchmark.
var treeScenarios = map[string][]string{
	logtest.BenchmarkLlama8B:    {benchmark.ScenarioOffline, benchmark.ScenarioServer},
	logtest.BenchmarkGPTOSS:     {benchmark.ScenarioOffline, benchmark.ScenarioInteractive},
	logtest.BenchmarkQwen3VL:    {benchmark.ScenarioOffline, benchmark.ScenarioServer},
	logtest.BenchmarkDeepSeekR1: {benchmark.ScenarioOffline, benchmark.ScenarioServer},
	logtest.BenchmarkLlama2:     {benchmark.ScenarioOffline, benchmark.ScenarioInteractive},
	logtest.BenchmarkLlama2_99:  {benchmark.ScenarioOffline, benchmark.ScenarioServer},
}

// treeRounds names the one round a benchmark of the tree belongs to, for
// those not in every round.
var treeRounds = map[string]string{logtest.BenchmarkLlama2_99: round.V60}

// BuildTree writes a packaged submission OUT/closed/Org/… for the round that
// the official checker accepts (verified by hand with
// `python3 -m submission_checker.main --input OUT --version v6.1`, see the
// package report) and returns OUT.
func BuildTree(t testing.TB, round string) string {
	t.Helper()
	out := t.TempDir()
	sub := filepath.Join(out, "closed", "Org")
	logtest.MustWrite(t, filepath.Join(sub, "src", "README.md"), "Harness source: https://example.com/mlperf-go @ abc123\n")
	logtest.MustWrite(t, filepath.Join(sub, "documentation", "README.md"), "docs\n")
	logtest.WriteJSON(t, filepath.Join(sub, "systems", "sys1.json"), ValidSystemJSON("closed", "Org"))
	for bench, scens := range treeScenarios {
		if r, ok := treeRounds[bench]; ok && r != round {
			continue
		}
		for _, scen := range scens {
			dir := filepath.Join(sub, "results", "sys1", bench, scen)
			logtest.MustWrite(t, filepath.Join(dir, "README.md"), "# how\n")
			logtest.MustWrite(t, filepath.Join(dir, record.UserConfFile), "*.Server.target_qps = 1\n")
			logtest.WriteJSON(t, filepath.Join(dir, "measurements.json"), map[string]any{
				"input_data_types": "int32", "retraining": "No", "starting_weights_filename": "w",
				"weight_data_types": "bf16", "weight_transformations": "none"})
			logtest.WriteLogDir(t, filepath.Join(dir, submission.PerformanceRun), logtest.PerfDetail(round, bench, scen, "PerformanceOnly"), logtest.ValidSummary, "")
			acc := logtest.PerfDetail(round, bench, scen, "AccuracyOnly")
			if bench == logtest.BenchmarkQwen3VL && scen == benchmark.ScenarioInteractive {
				acc.Set("effective_accuracy_sample_count", 8000)
			}
			logtest.WriteLogDir(t, filepath.Join(dir, "accuracy"), acc, logtest.ValidSummary, logtest.FakeAccLog(8199))
			logtest.MustWrite(t, filepath.Join(dir, "accuracy", record.AccuracyTxtFile), logtest.AccuracyTxt(bench))
			switch bench {
			case logtest.BenchmarkLlama8B, logtest.BenchmarkDeepSeekR1, logtest.BenchmarkLlama2, logtest.BenchmarkLlama2_99:
				logtest.MustWrite(t, filepath.Join(dir, "TEST06", "verify_accuracy.txt"),
					"First token check pass: Skipped\nEOS check pass: True\nSample length check pass: True\nTEST06 verification complete\n")
				logtest.MustWrite(t, filepath.Join(dir, "TEST06", "accuracy", mllog.AccuracyFile), "[\n]\n")
			case logtest.BenchmarkGPTOSS:
				logtest.MustWrite(t, filepath.Join(dir, "TEST07", "verify_accuracy.txt"), "'exact_match': 70.1\n\nAccuracy check pass: True\nTEST PASS\n")
				logtest.MustWrite(t, filepath.Join(dir, "TEST07", "accuracy", mllog.AccuracyFile), "[\n]\n")
				logtest.MustWrite(t, filepath.Join(dir, "TEST07", "accuracy", record.AccuracyTxtFile), logtest.TestHash)
				logtest.MustWrite(t, filepath.Join(dir, "TEST09", "verify_output_len.txt"), "Min check pass: True\n\nTEST PASS\n")
				logtest.MustWrite(t, filepath.Join(dir, "TEST09", "accuracy", mllog.AccuracyFile), "[\n]\n")
				logtest.MustWrite(t, filepath.Join(dir, "TEST09", "accuracy", record.AccuracyTxtFile), logtest.TestHash)
			}
		}
	}
	return out
}

// ScenDir is a scenario directory of the tree BuildTree wrote to out.
func ScenDir(out, bench, scen string) string {
	return filepath.Join(out, "closed", "Org", "results", "sys1", bench, scen)
}

// EditDetail rewrites one detail log of the tree: the valid one for the
// round, bench and scenario, changed by f; kind is "accuracy" for the
// accuracy run's log, anything else for the performance run's.
func EditDetail(t testing.TB, out, round, bench, scen, kind string, f func(d *logtest.DetailFixture)) {
	t.Helper()
	mode := "PerformanceOnly"
	dir := filepath.Join(ScenDir(out, bench, scen), submission.PerformanceRun)
	if kind == "accuracy" {
		mode = "AccuracyOnly"
		dir = filepath.Join(ScenDir(out, bench, scen), "accuracy")
	}
	d := logtest.PerfDetail(round, bench, scen, mode)
	f(d)
	logtest.MustWrite(t, filepath.Join(dir, mllog.DetailFile), d.Render())
}

// EditSystem rewrites the tree's systems JSON: the valid one, changed by f.
func EditSystem(t testing.TB, out string, f func(v map[string]any)) {
	v := ValidSystemJSON("closed", "Org")
	f(v)
	logtest.WriteJSON(t, filepath.Join(out, "closed", "Org", "systems", "sys1.json"), v)
}
