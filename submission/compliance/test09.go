package compliance

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TEST09Bounds returns the mean-output-length bounds from the benchmark's
// official TEST09 audit.config (gpt-oss-120b: 1150.38 and 1406.02).
func TEST09Bounds(benchmark string) (min, max float64, err error) {
	if min, err = auditSetting(submission.TEST09, benchmark, "test09_min_output_tokens"); err != nil {
		return 0, 0, err
	}
	if max, err = auditSetting(submission.TEST09, benchmark, "test09_max_output_tokens"); err != nil {
		return 0, 0, err
	}
	return min, max, nil
}

// VerifyTEST09 is compliance/TEST09/run_verification.py in Go. It reads the
// accuracy log at logPath, counts each response's tokens as the reference
// does (whole 4-byte little-endian tokens of "data"; an empty response
// counts 0), and checks that the mean lies within the benchmark's bounds
// (TEST09Bounds; inclusive). It returns the verify_output_len.txt the
// reference writes, with its exact text, ending in "TEST PASS" or "TEST
// FAIL".
func VerifyTEST09(logPath, benchmark string) (*Verification, error) {
	bench, err := submission.CanonicalBenchmark(benchmark)
	if err != nil {
		return nil, err
	}
	lo, hi, err := TEST09Bounds(bench)
	if err != nil {
		return nil, err
	}
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return nil, fmt.Errorf("submission: TEST09: %w", err)
	}
	if len(entries) == 0 {
		return nil, errors.New("submission: TEST09: no entries in the accuracy log: did the run log its samples (is the audit.config in place)?")
	}
	lengths := make([]int, len(entries))
	sum, minL, maxL := 0, -1, 0
	for i, e := range entries {
		n := len(e.Data) / 4
		lengths[i] = n
		sum += n
		if minL < 0 || n < minL {
			minL = n
		}
		if n > maxL {
			maxL = n
		}
	}
	mean := float64(sum) / float64(len(lengths))
	variance := 0.0
	for _, x := range lengths {
		d := float64(x) - mean
		variance += d * d
	}
	variance /= float64(len(lengths))
	// Python's variance ** 0.5 is C pow(x, 0.5); the two agree to within
	// an ulp, and the value is only printed to two decimals.
	std := math.Sqrt(variance)

	v := newVerification(submission.TEST09, submission.VerifyOutputLenFile, "mlperf-go's port of compliance/TEST09/run_verification.py")
	minPass, maxPass := mean >= lo, mean <= hi
	v.check("Min check", pyBool(minPass), fmt.Sprintf("mean output tokens %.2f over %d samples, minimum %s", mean, len(lengths), pyfloat.Repr(lo)))
	v.check("Max check", pyBool(maxPass), fmt.Sprintf("mean output tokens %.2f over %d samples, maximum %s", mean, len(lengths), pyfloat.Repr(hi)))
	v.Verdict.Pass = minPass && maxPass
	verdict := "TEST FAIL"
	if v.Verdict.Pass {
		verdict = "TEST PASS"
	}
	eq := strings.Repeat("=", 80)
	var b strings.Builder
	b.WriteString(eq + "\n")
	b.WriteString("TEST09: Verify Output Token Length in Performance Mode\n")
	b.WriteString(eq + "\n\n")
	b.WriteString("Output Token Length Statistics\n")
	b.WriteString(strings.Repeat("-", 40) + "\n")
	fmt.Fprintf(&b, "Total samples: %d\n", len(lengths))
	fmt.Fprintf(&b, "Mean output tokens: %.2f\n", mean)
	fmt.Fprintf(&b, "Min output tokens: %d\n", minL)
	fmt.Fprintf(&b, "Max output tokens: %d\n", maxL)
	fmt.Fprintf(&b, "Std deviation: %.2f\n", std)
	b.WriteString("\n" + eq + "\n")
	b.WriteString("Verification Results\n")
	b.WriteString(eq + "\n")
	fmt.Fprintf(&b, "Mean output tokens: %.2f\n", mean)
	fmt.Fprintf(&b, "Min threshold: %s\n", pyfloat.Repr(lo))
	fmt.Fprintf(&b, "Max threshold: %s\n", pyfloat.Repr(hi))
	fmt.Fprintf(&b, "Min check pass: %s\n", pyBool(minPass))
	fmt.Fprintf(&b, "Max check pass: %s\n", pyBool(maxPass))
	fmt.Fprintf(&b, "\n%s\n", verdict)
	v.Text = []byte(b.String())
	return v, nil
}
