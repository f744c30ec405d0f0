package compliance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TEST07Threshold returns the accuracy threshold from the benchmark's
// official TEST07 audit.config (gpt-oss-120b: 60.698).
func TEST07Threshold(benchmark string) (float64, error) {
	return auditSetting(submission.TEST07, benchmark, "test07_accuracy_threshold")
}

// TEST07Command substitutes the accuracy log path into the user's accuracy
// script command template as the reference does with Python's str.format:
// "{accuracy_log}" is replaced, "{{" and "}}" become "{" and "}", and any
// other "{…}" field is an error.
func TEST07Command(template, accuracyLog string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(template); i++ {
		c := template[i]
		switch {
		case c == '{' && i+1 < len(template) && template[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(template) && template[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(template[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("submission: TEST07 command template %q has an unclosed '{'", template)
			}
			if field := template[i+1 : i+end]; field != "accuracy_log" {
				return "", fmt.Errorf("submission: TEST07 command template has unknown field {%s}; the only field is {accuracy_log} (write {{ and }} for literal braces)", field)
			}
			b.WriteString(accuracyLog)
			i += end
		case c == '}':
			return "", fmt.Errorf("submission: TEST07 command template %q has a single '}' (write }} for a literal one)", template)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// test07Score is run_verification.py's default --score-pattern.
var test07Score = regexp.MustCompile(`'exact_match':\s*([\d.]+)`)

// JudgeTEST07 is the verdict of compliance/TEST07/run_verification.py on
// an accuracy script's combined output: the verify_accuracy.txt it writes
// is the output (newlines normalised as Python's text mode does), then a
// "TEST07 Verification Summary" block with the score (the first
// 'exact_match': <score> in the output), the threshold, "Accuracy check
// pass: True|False" and "TEST PASS" or "TEST FAIL" (score ≥ threshold
// passes; no parseable score fails). testdata/test07 holds the reference's
// own files for the cases that matter.
func JudgeTEST07(output []byte, threshold float64) *Verification {
	v := newVerification(submission.TEST07, submission.VerifyAccuracyFile, "")
	text := strings.ReplaceAll(string(output), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	score, ok := parseTEST07Score(text)
	eq := strings.Repeat("=", 80)
	var b strings.Builder
	b.WriteString(text)
	b.WriteString("\n" + eq + "\n")
	b.WriteString("TEST07 Verification Summary\n")
	b.WriteString(eq + "\n")
	if ok {
		v.Verdict.Pass = score >= threshold
		fmt.Fprintf(&b, "Accuracy score: %s\n", pyfloat.Repr(score))
		fmt.Fprintf(&b, "Accuracy threshold: %s\n", pyfloat.Repr(threshold))
		fmt.Fprintf(&b, "Accuracy check pass: %s\n", pyBool(v.Verdict.Pass))
		rel := ">="
		if !v.Verdict.Pass {
			rel = "<"
		}
		v.check("Accuracy check", pyBool(v.Verdict.Pass), fmt.Sprintf("exact_match %s %s threshold %s", pyfloat.Repr(score), rel, pyfloat.Repr(threshold)))
	} else {
		b.WriteString("Error: Could not parse accuracy score\n")
		v.check("Accuracy check", "False", "Could not parse accuracy score: the accuracy script printed no 'exact_match': <score>")
	}
	if v.Verdict.Pass {
		b.WriteString("TEST PASS\n")
	} else {
		b.WriteString("TEST FAIL\n")
	}
	v.Text = []byte(b.String())
	return v
}

// parseTEST07Score reads the first score as Python's float() does: a
// number too large for a float64 is infinity, not an error.
func parseTEST07Score(text string) (float64, bool) {
	m := test07Score.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil && !(errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0)) {
		return 0, false
	}
	return f, true
}

// RunTEST07 runs the user's official accuracy script on the accuracy log
// at logPath and judges its output as the reference does (JudgeTEST07): the
// template (see TEST07Command) gets logPath, runs under "sh -c" with stdout
// and stderr combined, and is judged against the benchmark's
// TEST07Threshold. A script that exits non-zero is still judged by its
// output, as in the reference; the verdict's warnings say it failed.
func RunTEST07(ctx context.Context, logPath, benchmark, template string) (*Verification, error) {
	threshold, err := test07Threshold(benchmark)
	if err != nil {
		return nil, err
	}
	cmdline, err := TEST07Command(template, logPath)
	if err != nil {
		return nil, err
	}
	out, runErr := exec.CommandContext(ctx, "sh", "-c", cmdline).CombinedOutput()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	v := JudgeTEST07(out, threshold)
	v.Verdict.Verifier = "mlperf-go's port of compliance/TEST07/run_verification.py, running the accuracy script: " + cmdline
	if runErr != nil {
		v.Verdict.Warnings = append(v.Verdict.Warnings, fmt.Sprintf("the accuracy script %q: %v (judged by its output, as the reference does)", cmdline, runErr))
	}
	return v, nil
}

// ScoreTEST07 verifies TEST07 with mlperf-go's own scorer in place of the
// accuracy script: the benchmark's evaluator (d.Evaluate, which prints
// what language/gpt-oss-120b/eval_mlperf_accuracy.py prints on standard
// output, "'exact_match': <score>" last) scores the log at logPath against
// d, the compliance dataset the run used, and its output is judged as the
// reference judges the script's (JudgeTEST07). The script's log lines on
// standard error (timestamps, progress bars) have no counterpart. The
// evaluator's own checks of the log, which the reference does not make,
// are warnings.
func ScoreTEST07(ctx context.Context, logPath, benchmark string, d benchmark.Dataset, eo benchmark.EvalOptions) (*Verification, error) {
	threshold, err := test07Threshold(benchmark)
	if err != nil {
		return nil, err
	}
	ev, err := d.Evaluate(ctx, logPath, eo)
	if err != nil {
		return nil, fmt.Errorf("submission: TEST07: scoring %s: %w", logPath, err)
	}
	if ev.AccuracyTxt == nil {
		return nil, fmt.Errorf("submission: TEST07: the %s evaluator scores nothing", benchmark)
	}
	v := JudgeTEST07(ev.AccuracyTxt, threshold)
	v.Verdict.Verifier = "mlperf-go's port of compliance/TEST07/run_verification.py, the score by " + ev.Scorer
	if ev.Failure != nil {
		v.Verdict.Warnings = append(v.Verdict.Warnings, "the log fails mlperf-go's accuracy-log checks, which the reference's TEST07 does not make: `mlperf-go evaluate` of it lists them")
	}
	return v, nil
}

func test07Threshold(benchmark string) (float64, error) {
	bench, err := submission.CanonicalBenchmark(benchmark)
	if err != nil {
		return 0, err
	}
	return TEST07Threshold(bench)
}
