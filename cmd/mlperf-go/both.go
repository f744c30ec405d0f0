package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
)

// modeBoth is the --mode that runs the accuracy test, evaluated, then the
// performance test: what a submission needs of every benchmark and
// scenario, with one set of settings.
const modeBoth = record.ModeBoth

// bothModes are the tests --mode both runs, in order: accuracy first, so a
// broken deployment shows in seconds of scoring rather than after a ten-
// minute performance run.
var bothModes = []loadgen.Mode{loadgen.AccuracyOnly, loadgen.PerformanceOnly}

// isModeBoth reports whether --mode is both.
func isModeBoth(c *cli.Context) bool { return strings.EqualFold(c.String("mode"), modeBoth) }

// firstMode is the --mode the options are built for: both starts with its
// first test.
func firstMode(c *cli.Context) string {
	if isModeBoth(c) {
		return modeDirNames[bothModes[0]]
	}
	return c.String("mode")
}

// runBoth runs each of bothModes into its own folder under o.OutputDir,
// from the same user.conf and --setting lines, each reported, filed with
// --results-dir and the accuracy run evaluated as --evaluate does. The
// performance test runs even when the accuracy one failed or scored low
// (both outcomes are worth having from one long command) but not after an
// interrupt; the exit status is the first failing test's.
func runBoth(c *cli.Context, ctx, runCtx context.Context, o run.Options, rec run.Record, runsRoot string) error {
	if rec.Compliance != "" {
		return errors.New("--mode both runs the accuracy and performance tests; run a --compliance test with --mode performance (or as its test requires)")
	}
	if err := c.Set("evaluate", "true"); err != nil {
		return err
	}
	base := o.OutputDir
	var errs []error
	for _, m := range bothModes {
		one := o
		one.Mode = m
		one.OutputDir = filepath.Join(base, modeDirNames[m])
		// A --generation-config may set sampling per mode.
		if err := one.SetSampling(c.String("generation-config"), samplingFlags(c)); err != nil {
			return err
		}
		if err := dirwalk.MkdirAll(one.OutputDir, 0o755); err != nil {
			return fmt.Errorf("--output-dir: %w", err)
		}
		fmt.Fprintf(c.App.Writer, "\n=== %s test → %s ===\n", modeDirNames[m], one.OutputDir)
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
			accDir := filepath.Join(base, modeDirNames[loadgen.AccuracyOnly])
			if info, err := record.Read(accDir); err == nil {
				pass := info.Accuracy != nil && info.Accuracy.Pass && info.Submittable() == nil
				oneRec.PairedAccuracy = &record.PairedAccuracy{Dir: accDir, Pass: pass}
			}
		}
		if err := runTest(c, ctx, runCtx, one, oneRec, ""); err != nil {
			errs = append(errs, fmt.Errorf("%s test: %w", modeDirNames[m], err))
		}
		if ctx.Err() != nil || runCtx.Err() != nil {
			break
		}
	}
	writeRunsIndex(c, runsRoot, base)
	return errors.Join(errs...)
}
