package workflow

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
)

// BothModes are the tests a Both plan runs, in order: accuracy first, so a
// broken deployment shows in seconds of scoring rather than after a ten-
// minute performance run. What a submission needs of every benchmark and
// scenario, with one set of settings.
var BothModes = []loadgen.Mode{loadgen.AccuracyOnly, loadgen.PerformanceOnly}

// runBoth runs each of BothModes into its own folder under o.OutputDir,
// from the same user.conf and --setting lines, each reported, filed with
// --results-dir and the accuracy run evaluated as --evaluate does. The
// performance test runs even when the accuracy one failed or scored low
// (both outcomes are worth having from one long command) but not after an
// interrupt; the error is the tests' errors joined, the first failing
// test's Class first.
func (p *Plan) runBoth(ctx, runCtx context.Context, o run.Options, rec run.Record, runsRoot string) error {
	if rec.Compliance != "" {
		return errors.New("--mode both runs the accuracy and performance tests; run a --compliance test with --mode performance (or as its test requires)")
	}
	each := *p
	each.Evaluate = true
	base := o.OutputDir
	var errs []error
	for _, m := range BothModes {
		one := o
		one.Mode = m
		one.OutputDir = filepath.Join(base, run.ModeName(m))
		// A --generation-config may set sampling per mode.
		if err := one.SetSampling(p.GenerationConfig, p.Sampling); err != nil {
			return err
		}
		if err := dirwalk.MkdirAll(one.OutputDir, 0o755); err != nil {
			return fmt.Errorf("--output-dir: %w", err)
		}
		fmt.Fprintf(p.Stdout, "\n=== %s test → %s ===\n", run.ModeName(m), one.OutputDir)
		oneRec := rec
		if m == loadgen.PerformanceOnly && o.Benchmark.SeparateAccuracySet(o.Dataset) {
			// The session opened the accuracy set; the performance test
			// reads its own.
			d, err := o.Benchmark.OpenDataset(o.Dataset, o.Splits)
			if err != nil {
				return errors.Join(append(errs, err)...)
			}
			defer d.Close()
			one.Data = d
		}
		if m == loadgen.PerformanceOnly {
			// The performance result counts only beside a passing
			// accuracy run: its record says which run and how it did.
			accDir := filepath.Join(base, run.ModeName(loadgen.AccuracyOnly))
			if info, err := record.Read(accDir); err == nil {
				pass := info.Accuracy != nil && info.Accuracy.Pass && info.Submittable() == nil
				partial := pass && info.Accuracy.Partial != ""
				pass = pass && !partial
				oneRec.PairedAccuracy = &record.PairedAccuracy{Dir: accDir, Pass: pass, Partial: partial}
			}
		}
		if err := each.runTest(ctx, runCtx, one, oneRec, ""); err != nil {
			errs = append(errs, fmt.Errorf("%s test: %w", run.ModeName(m), err))
		}
		if ctx.Err() != nil || runCtx.Err() != nil {
			break
		}
	}
	p.writeRunsIndex(runsRoot, base)
	return errors.Join(errs...)
}
