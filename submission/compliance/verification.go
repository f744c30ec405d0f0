package compliance

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
)

// Verification is a compliance test's verdict on one run: the file the
// reference's compliance/TEST0x/run_verification.py writes, byte for byte,
// and what it says check by check.
type Verification struct {
	// File is the file's name (submission.VerifyAccuracyFile or
	// submission.VerifyOutputLenFile).
	File string
	// Text is its content, as the reference writes it.
	Text []byte
	// Also are further files the verification writes, by name (TEST01's
	// verify_performance.txt).
	Also map[string][]byte
	// Verdict is the verdict as the run record keeps it; its File is
	// File.
	Verdict record.Compliance
}

// Pass reports whether the verification passed.
func (v *Verification) Pass() bool { return v.Verdict.Pass }

// Write writes the verification's file into dir (the run's output folder,
// from which filing.FileRun files it beside the test's logs).
func (v *Verification) Write(dir string) error {
	files := map[string][]byte{v.File: v.Text}
	maps.Copy(files, v.Also)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			return fmt.Errorf("submission: writing the %s verification: %w", v.Verdict.Test, err)
		}
	}
	return nil
}

// newVerification starts a verification of test written to file.
func newVerification(test, file, verifier string) *Verification {
	return &Verification{File: file, Verdict: record.Compliance{Test: test, File: file, Verifier: verifier}}
}

// check adds a check to the verdict: result as the file states it
// ("True", "False", "Skipped"), detail what was measured.
func (v *Verification) check(name, result, detail string) {
	v.Verdict.Checks = append(v.Verdict.Checks, record.ComplianceCheck{Name: name, Result: result, Pass: result != "False", Detail: detail})
}

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// Scenario is the scenario directory the run is filed under (TEST06
	// skips its first-token check in Offline).
	Scenario string
	// AccuracyScript, when set, makes TEST07 run this official accuracy
	// command template (see TEST07Command) instead of scoring in Go.
	AccuracyScript string
	// TEST01 is the scenario's accuracy and performance runs a TEST01 run
	// is compared with; Output the benchmark's (the log's element type).
	TEST01 TEST01Reference
	// Dataset and Eval are what TEST07 scores the log with in Go
	// (ScoreTEST07): the run's dataset, opened, and the evaluator's
	// options (tokenizer, round).
	Dataset benchmark.Dataset
	Eval    benchmark.EvalOptions
}

// Verify runs compliance test test's verification on the accuracy log
// logPath (the mlperf_log_accuracy.json of the test's run) of benchmark
// name, with the benchmark's constants from the registry: TEST01
// (VerifyTEST01, against o.TEST01), TEST06 (VerifyTEST06) and TEST09
// (VerifyTEST09) in Go; TEST07 scored in Go
// (ScoreTEST07), or by o.AccuracyScript (RunTEST07) when given. An error
// means the verification could not run, not that it failed.
func Verify(ctx context.Context, logPath, name, test string, o VerifyOptions) (*Verification, error) {
	c, err := submission.LookupCompliance(test, name)
	if err != nil {
		return nil, err
	}
	switch test {
	case submission.TEST01:
		if o.TEST01.AccuracyLog == "" || o.TEST01.PerformanceDetail == "" {
			return nil, errors.New("submission: TEST01 compares the run with the scenario's accuracy and performance runs, and none was found: run them first (mlperf-go run -m accuracy and -m performance, same benchmark and scenario, with the same --runs-dir, or filed with --results-dir and --system)")
		}
		b, err := submission.LookupBenchmark(name)
		if err != nil {
			return nil, err
		}
		return VerifyTEST01(logPath, filepath.Join(filepath.Dir(logPath), mllog.DetailFile), o.TEST01, b.Serving.Output.LogDType())
	case submission.TEST06:
		return VerifyTEST06(logPath, TEST06Options{Scenario: o.Scenario, EOSTokenID: c.EOSTokenID})
	case submission.TEST09:
		return VerifyTEST09(logPath, name)
	case submission.TEST07:
		if o.AccuracyScript != "" {
			return RunTEST07(ctx, logPath, name, o.AccuracyScript)
		}
		if o.Dataset == nil {
			return nil, errors.New("submission: TEST07 scores the log against the run's dataset, and none was given: pass the dataset, or --accuracy-script with the official accuracy command")
		}
		return ScoreTEST07(ctx, logPath, name, o.Dataset, o.Eval)
	}
	return nil, fmt.Errorf("submission: mlperf-go has no verification for compliance test %q", test)
}
