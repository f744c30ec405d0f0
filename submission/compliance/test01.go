package compliance

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TEST01Reference names the scenario's runs a TEST01 run is compared with.
type TEST01Reference struct {
	// AccuracyLog is the accuracy run's mlperf_log_accuracy.json;
	// PerformanceDetail the performance run's mlperf_log_detail.txt.
	AccuracyLog, PerformanceDetail string
}

// TEST01ReferenceIn is the reference filed in scenario directory scenDir
// (<Scenario>/accuracy and <Scenario>/performance/run_1), where
// compliance/TEST01's scripts look for it.
func TEST01ReferenceIn(scenDir string) TEST01Reference {
	return TEST01Reference{
		AccuracyLog:       filepath.Join(scenDir, "accuracy", mllog.AccuracyFile),
		PerformanceDetail: filepath.Join(scenDir, submission.PerformanceRun, mllog.DetailFile),
	}
}

// VerifyTEST01 is compliance/TEST01/run_verification.py for a TEST01 run
// whose logs are testLog (mlperf_log_accuracy.json) and testDetail
// (mlperf_log_detail.txt), against the scenario's accuracy and performance
// runs (ref). Its Verification carries the two files the script leaves,
// with its scripts' exact text:
//
//   - verify_accuracy.txt (verify_accuracy.py, its default mode): each
//     sampled response of the TEST01 run compared with the accuracy run's
//     response to the same sample, by the first element only (dtype, the
//     benchmark's benchmark.Output.LogDType: "int64" for whisper), or by
//     size when either is empty; counts, then TEST PASS when no sample
//     differs and at least one matched.
//   - verify_performance.txt (verify_performance.py): the TEST01 run's
//     score within 10% of the performance run's (20% for short
//     SingleStream/MultiStream latencies), both VALID and of one scenario.
//
// It passes when both say TEST PASS. When the accuracy comparison fails
// (a SUT that is not deterministic), the test may still pass with Part
// III's accuracy comparison: see TEST01Baseline.
func VerifyTEST01(testLog, testDetail string, ref TEST01Reference, dtype string) (*Verification, error) {
	accText, accPass, err := test01Accuracy(ref.AccuracyLog, testLog, dtype)
	if err != nil {
		return nil, fmt.Errorf("submission: TEST01: %w", err)
	}
	perfText, perfPass := test01Performance(ref.PerformanceDetail, testDetail)
	v := newVerification(submission.TEST01, submission.VerifyAccuracyFile, "mlperf-go's port of compliance/TEST01's verify_accuracy.py and verify_performance.py")
	v.Text = []byte(accText)
	v.Also = map[string][]byte{submission.VerifyPerformanceFile: []byte(perfText)}
	v.check("Accuracy check", pyBool(accPass), lastLine(accText, "num_perf_log_data_mismatch"))
	v.check("Performance check", pyBool(perfPass), strings.TrimSpace(lastLineOf(perfText)))
	v.Verdict.Pass = accPass && perfPass
	return v, nil
}

// lastLine returns the last line of text that starts with prefix.
func lastLine(text, prefix string) string {
	found := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			found = l
		}
	}
	return found
}

// lastLineOf returns text's last non-empty line.
func lastLineOf(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return lines[len(lines)-1]
}

// test01Accuracy is verify_accuracy.py's default mode.
func test01Accuracy(accLog, perfLog, dtype string) (string, bool, error) {
	size, err := dtypeSize(dtype)
	if err != nil {
		return "", false, err
	}
	acc, err := mllog.ReadAccuracy(accLog)
	if err != nil {
		return "", false, err
	}
	perf, err := mllog.ReadAccuracy(perfLog)
	if err != nil {
		return "", false, err
	}
	results := map[int][]byte{}
	var dupKeys, accMismatch, idxMatch, perfMismatch, missing int
	for _, e := range acc {
		if prev, ok := results[e.QSLIndex]; ok {
			dupKeys++
			if !bytes.Equal(prev, e.Data) {
				accMismatch++
			}
		} else {
			results[e.QSLIndex] = e.Data
		}
	}
	for i, e := range perf {
		if len(e.Data)%size != 0 {
			return "", false, fmt.Errorf("%s: entry %d: %d bytes is not a whole number of %s (numpy's frombuffer raises here)", perfLog, i, len(e.Data), dtype)
		}
		if ref, ok := results[e.QSLIndex]; ok {
			idxMatch++
			if len(ref)%size != 0 {
				return "", false, fmt.Errorf("%s: qsl_idx %d: %d bytes is not a whole number of %s", accLog, e.QSLIndex, len(ref), dtype)
			}
			switch {
			case len(ref) == 0 || len(e.Data) == 0:
				if len(ref) != len(e.Data) {
					perfMismatch++
				}
			case !bytes.Equal(ref[:size], e.Data[:size]):
				perfMismatch++
			}
		} else {
			missing++
		}
		results[e.QSLIndex] = e.Data
	}
	var b bytes.Buffer
	b.WriteString("Verifying accuracy. This might take a while...\nReading accuracy mode results...\nReading performance mode results...\n")
	fmt.Fprintf(&b, "num_acc_log_entries = %d\nnum_acc_log_duplicate_keys = %d\nnum_acc_log_data_mismatch = %d\n", len(acc), dupKeys, accMismatch)
	fmt.Fprintf(&b, "num_perf_log_entries = %d\nnum_perf_log_qsl_idx_match = %d\nnum_perf_log_data_mismatch = %d\n", len(perf), idxMatch, perfMismatch)
	fmt.Fprintf(&b, "num_missing_qsl_idxs = %d\n", missing)
	pass := perfMismatch == 0 && idxMatch > 0
	if pass {
		b.WriteString("TEST PASS\n\n")
	} else {
		b.WriteString("TEST FAIL\n\n")
	}
	return b.String(), pass, nil
}

// dtypeSize is the element size of verify_accuracy.py's --dtype choices.
func dtypeSize(dtype string) (int, error) {
	switch dtype {
	case "byte", "":
		return 1, nil
	case "int32", "float32":
		return 4, nil
	case "int64":
		return 8, nil
	}
	return 0, fmt.Errorf("dtype %q: use byte, int32, float32 or int64", dtype)
}

// test01Result is verify_performance.py's parse_result_log: the log's
// scenario, score and (Server) target latency, or the line the script
// exits with.
type test01Result struct {
	scenario, target string
	score            float64
}

// readTEST01Result returns what the script prints while it reads the log
// at path (log_parser.py's "Sucessfully loaded" line, sic, stamped now)
// and, when it stops there, the line it stops with (stop).
func readTEST01Result(path string) (r test01Result, printed, stop string) {
	d, err := mllog.ReadDetail(path, mllog.AsChecker)
	if err != nil {
		return r, "", fmt.Sprintf("TEST FAIL: cannot read %s: %v\n", path, err)
	}
	printed = "[" + time.Now().Format("2006-01-02 15:04:05,000") + " log_parser.py:72 INFO] Sucessfully loaded MLPerf log from " + path + ".\n"
	r.scenario, _ = d.Text("effective_scenario")
	// verify_performance.py's RESULT_FIELD: the key LoadGen writes the
	// scenario's result under.
	field := loadgen.ResultKeyOf(r.scenario)
	if field == "" {
		return r, printed, fmt.Sprintf("TEST FAIL: %s: effective_scenario %q has no result field (the reference raises KeyError)\n", path, r.scenario)
	}
	if r.score, err = d.NumberFloat(field); err != nil {
		return r, printed, fmt.Sprintf("TEST FAIL: %s: %v\n", path, err)
	}
	if v, _ := d.Text("result_validity"); v != mllog.ResultValid {
		return r, printed, fmt.Sprintf("TEST FAIL: Invalid results in %s\n", path)
	}
	if len(d.Errors()) > 0 {
		// verify_performance.py's warning for a log with an ERROR names an
		// undefined variable: the script stops with a NameError there.
		return r, printed, fmt.Sprintf("NameError: name 'line' is not defined (verify_performance.py stops on the ERROR logged in %s)\n", path)
	}
	if r.scenario == "Server" {
		r.target, _ = d.Text("effective_target_latency_ns")
	}
	return r, printed, ""
}

// test01Performance is verify_performance.py.
func test01Performance(refPath, testPath string) (string, bool) {
	out := "Verifying performance.\n"
	ref, printed, stop := readTEST01Result(refPath)
	if out += printed + stop; stop != "" {
		return out, false
	}
	test, printed, stop := readTEST01Result(testPath)
	if out += printed + stop; stop != "" {
		return out, false
	}
	if test.scenario != ref.scenario {
		return out + "TEST FAIL: Test and reference scenarios do not match!\n", false
	}
	if ref.scenario == "Server" && test.target != ref.target {
		return out + "TEST FAIL: Server target latency mismatch\n", false
	}
	out += "Reference score = " + pyfloat.Repr(ref.score) + "\nTest score = " + pyfloat.Repr(test.score) + "\n"
	threshold := 0.10
	if (ref.scenario == "SingleStream" && ref.score <= 200000) || (ref.scenario == "MultiStream" && ref.score <= 1600000) {
		threshold = 0.20
	}
	if ref.score*(1-threshold) <= test.score && test.score <= ref.score*(1+threshold) {
		return out + "TEST PASS\n", true
	}
	return out + "TEST FAIL: Test score invalid\n", false
}

// TEST01Baseline is Part III's create_accuracy_baseline.sh: the accuracy
// run's entries for the samples the TEST01 run logged, in the accuracy
// log's order, which the benchmark's evaluator scores into
// TEST01/accuracy/baseline_accuracy.txt (and the TEST01 log itself into
// compliance_accuracy.txt) when verify_accuracy.txt fails.
func TEST01Baseline(acc, perf []mllog.AccuracyEntry) []mllog.AccuracyEntry {
	want := map[int]bool{}
	for _, e := range perf {
		want[e.QSLIndex] = true
	}
	var out []mllog.AccuracyEntry
	for _, e := range acc {
		if want[e.QSLIndex] {
			out = append(out, e)
		}
	}
	return out
}
