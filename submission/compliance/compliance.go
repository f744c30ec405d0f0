package compliance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TEST06Options configure VerifyTEST06.
type TEST06Options struct {
	// Scenario is the scenario directory the run is filed under; Offline
	// skips the first-token check, as the reference does.
	Scenario string
	// EOSTokenID is the tokenizer's end-of-sequence id (128009 for
	// llama3.1-8b's <|eot_id|>). Required: the reference defaults to 2 (Llama
	// 2's id) and, when given -e on its command line, compares tokens with a
	// string and so never sees an EOS at all; pass the real id here.
	EOSTokenID int64
	// DType is the token encoding of the responses: "int32" (default, what
	// mlperf-go's llama harness sends), "int64" or "int16", little-endian.
	DType string
}

// VerifyTEST06 is compliance/TEST06/run_verification.py in Go. It reads
// testDir/accuracy/mlperf_log_accuracy.json (as filing.FileRun files a TEST06 run),
// runs the three checks and writes testDir/verify_accuracy.txt with the
// reference's exact text:
//
//	First token check pass: True|False|Skipped
//	EOS check pass: True|False
//	Sample length check pass: True|False
//	TEST06 verification complete|failed
//
// The checks, as the reference does them:
//   - first token (not in Offline): for every sample, the tokens of
//     "token_data" (what the SUT reported as its first token(s)) equal the
//     leading tokens of "data"; a sample without token_data fails.
//   - EOS: no response ends with two EOS tokens (scanning back from the end
//     over EOS tokens, never looking at token 0).
//   - sample length: every response has exactly "token_count" tokens.
//
// A response whose byte length is not a multiple of the token size fails the
// check reading it (the reference raises; its sample-length check would
// crash instead of printing False). It returns whether all checks passed.
func VerifyTEST06(testDir string, opts TEST06Options) (pass bool, err error) {
	size, err := tokenSize(opts.DType)
	if err != nil {
		return false, err
	}
	logPath := filepath.Join(testDir, "accuracy", submission.AccuracyLogFile)
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return false, fmt.Errorf("submission: TEST06: %w", err)
	}
	scen, err := submission.CanonicalScenario(opts.Scenario)
	if err != nil {
		return false, err
	}

	eosPass := true
	for _, e := range entries {
		toks, err := decodeTokens(e.Data, size)
		if err != nil {
			eosPass = false
			break
		}
		n := 0
		for i := len(toks) - 1; i > 0; i-- {
			if toks[i] == opts.EOSTokenID {
				n++
			}
			if n >= 2 {
				eosPass = false
				break
			}
			if toks[i] != opts.EOSTokenID {
				break
			}
		}
		if !eosPass {
			break
		}
	}

	firstToken := "Skipped"
	firstPass := true
	if scen != benchmark.ScenarioOffline {
		firstPass = firstTokenCheck(entries, size)
		firstToken = pyBool(firstPass)
	}

	lenPass := true
	for _, e := range entries {
		toks, err := decodeTokens(e.Data, size)
		if err != nil || !e.HasTokenCount || int64(len(toks)) != e.TokenCount {
			lenPass = false
			break
		}
	}

	var out strings.Builder
	fmt.Fprintf(&out, "First token check pass: %s\n", firstToken)
	fmt.Fprintf(&out, "EOS check pass: %s\n", pyBool(eosPass))
	fmt.Fprintf(&out, "Sample length check pass: %s\n", pyBool(lenPass))
	pass = eosPass && firstPass && lenPass
	if pass {
		out.WriteString("TEST06 verification complete\n")
	} else {
		out.WriteString("TEST06 verification failed\n")
	}
	if err := os.WriteFile(filepath.Join(testDir, "verify_accuracy.txt"), []byte(out.String()), 0o644); err != nil {
		return false, fmt.Errorf("submission: writing TEST06 verification: %w", err)
	}
	return pass, nil
}

// firstTokenCheck compares each entry's token_data with its data.
func firstTokenCheck(entries []mllog.AccuracyEntry, size int) bool {
	for _, e := range entries {
		if e.TokenData == nil {
			return false
		}
		first, err1 := decodeTokens(e.TokenData, size)
		data, err2 := decodeTokens(e.Data, size)
		if err1 != nil || err2 != nil {
			return false
		}
		for j := 0; j < len(first) && j < len(data); j++ {
			if first[j] != data[j] {
				return false
			}
		}
	}
	return true
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func tokenSize(dtype string) (int, error) {
	switch dtype {
	case "", "int32":
		return 4, nil
	case "int64":
		return 8, nil
	case "int16":
		return 2, nil
	}
	return 0, fmt.Errorf("submission: token dtype %q not supported: use int32, int64 or int16", dtype)
}

// decodeTokens decodes little-endian signed integers of size bytes, failing
// like numpy.frombuffer when the length is not a multiple of size.
func decodeTokens(b []byte, size int) ([]int64, error) {
	if len(b)%size != 0 {
		return nil, fmt.Errorf("%d bytes is not a multiple of the %d-byte token size", len(b), size)
	}
	out := make([]int64, len(b)/size)
	for i := range out {
		p := b[i*size:]
		switch size {
		case 2:
			out[i] = int64(int16(binary.LittleEndian.Uint16(p)))
		case 4:
			out[i] = int64(int32(binary.LittleEndian.Uint32(p)))
		case 8:
			out[i] = int64(binary.LittleEndian.Uint64(p))
		}
	}
	return out, nil
}

// auditSetting reads a "*.*.<name> = value" setting from an embedded
// audit.config, as the TEST07/TEST09 scripts' parse_audit_config do
// (ignoring comments, taking the last part of the dotted key).
func auditSetting(test, benchmark, name string) (float64, error) {
	content, err := AuditConfig(test, benchmark)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(content))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		parts := strings.Split(strings.TrimSpace(k), ".")
		if len(parts) < 3 || parts[len(parts)-1] != name {
			continue
		}
		v, _, _ = strings.Cut(v, "#")
		return strconv.ParseFloat(strings.TrimSpace(v), 64)
	}
	return 0, fmt.Errorf("submission: the %s audit.config for %s has no %s", test, benchmark, name)
}

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

// TEST07Threshold returns the accuracy threshold from the benchmark's
// official TEST07 audit.config (gpt-oss-120b: 60.698).
func TEST07Threshold(benchmark string) (float64, error) {
	return auditSetting(submission.TEST07, benchmark, "test07_accuracy_threshold")
}

// VerifyTEST09 is compliance/TEST09/run_verification.py in Go. It reads
// testDir/accuracy/mlperf_log_accuracy.json, counts each response's tokens as
// the reference does (whole 4-byte little-endian tokens of "data"; an empty
// response counts 0), and checks that the mean lies within the benchmark's
// bounds (TEST09Bounds; inclusive). It writes testDir/verify_output_len.txt
// with the reference's exact text, ending in "TEST PASS" or "TEST FAIL",
// and returns whether the test passed.
func VerifyTEST09(testDir, benchmark string) (pass bool, err error) {
	bench, err := submission.CanonicalBenchmark(benchmark)
	if err != nil {
		return false, err
	}
	lo, hi, err := TEST09Bounds(bench)
	if err != nil {
		return false, err
	}
	entries, err := mllog.ReadAccuracy(filepath.Join(testDir, "accuracy", submission.AccuracyLogFile))
	if err != nil {
		return false, fmt.Errorf("submission: TEST09: %w", err)
	}
	if len(entries) == 0 {
		return false, errors.New("submission: TEST09: no entries in the accuracy log: did the run log its samples (is the audit.config in place)?")
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
	std := sqrtPow(variance)
	minPass, maxPass := mean >= lo, mean <= hi
	pass = minPass && maxPass
	verdict := "TEST FAIL"
	if pass {
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
	if err := os.WriteFile(filepath.Join(testDir, "verify_output_len.txt"), []byte(b.String()), 0o644); err != nil {
		return false, fmt.Errorf("submission: writing TEST09 verification: %w", err)
	}
	return pass, nil
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

// WriteTEST07Verification writes testDir/verify_accuracy.txt from the
// accuracy script's combined output, as compliance/TEST07/run_verification.py
// does: the output (newlines normalised as Python's text mode does), then a
// "TEST07 Verification Summary" block with the score (the first
// 'exact_match': <score> in the output), the threshold, "Accuracy check
// pass: True|False" and "TEST PASS" or "TEST FAIL" (score ≥ threshold
// passes; no parseable score fails). It returns whether the test passed.
func WriteTEST07Verification(testDir string, output []byte, threshold float64) (pass bool, err error) {
	text := strings.ReplaceAll(string(output), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var score *float64
	if m := test07Score.FindStringSubmatch(text); m != nil {
		if f, err := strconv.ParseFloat(m[1], 64); err == nil {
			score = &f
		}
	}
	eq := strings.Repeat("=", 80)
	var b strings.Builder
	b.WriteString(text)
	b.WriteString("\n" + eq + "\n")
	b.WriteString("TEST07 Verification Summary\n")
	b.WriteString(eq + "\n")
	if score != nil {
		pass = *score >= threshold
		fmt.Fprintf(&b, "Accuracy score: %s\n", pyfloat.Repr(*score))
		fmt.Fprintf(&b, "Accuracy threshold: %s\n", pyfloat.Repr(threshold))
		fmt.Fprintf(&b, "Accuracy check pass: %s\n", pyBool(pass))
		if pass {
			b.WriteString("TEST PASS\n")
		} else {
			b.WriteString("TEST FAIL\n")
		}
	} else {
		b.WriteString("Error: Could not parse accuracy score\n")
		b.WriteString("TEST FAIL\n")
	}
	if err := os.WriteFile(filepath.Join(testDir, "verify_accuracy.txt"), []byte(b.String()), 0o644); err != nil {
		return false, fmt.Errorf("submission: writing TEST07 verification: %w", err)
	}
	return pass, nil
}

// RunTEST07 runs the user's official accuracy script for a filed TEST07 run
// (testDir as filing.FileRun returns it) and writes verify_accuracy.txt: the
// template (see TEST07Command) gets testDir/accuracy/mlperf_log_accuracy.json,
// runs under "sh -c" with stdout and stderr combined as the reference does,
// and is judged against the benchmark's TEST07Threshold. A script that exits
// non-zero is still judged by its output, as in the reference, and the exit
// error is returned alongside.
func RunTEST07(ctx context.Context, testDir, benchmark, template string) (pass bool, err error) {
	bench, err := submission.CanonicalBenchmark(benchmark)
	if err != nil {
		return false, err
	}
	threshold, err := TEST07Threshold(bench)
	if err != nil {
		return false, err
	}
	cmdline, err := TEST07Command(template, filepath.Join(testDir, "accuracy", submission.AccuracyLogFile))
	if err != nil {
		return false, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", cmdline)
	out, runErr := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	pass, err = WriteTEST07Verification(testDir, out, threshold)
	if err != nil {
		return false, err
	}
	if runErr != nil {
		return pass, fmt.Errorf("submission: TEST07 accuracy script %q: %w", cmdline, runErr)
	}
	return pass, nil
}

// sqrtPow stands in for Python's x ** 0.5 (C pow(x, 0.5)); the two agree to
// within an ulp, and the value is only printed to two decimals.
func sqrtPow(x float64) float64 { return math.Sqrt(x) }
