package workflow

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/shellquote"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission/compliance"
	"github.com/mlperf-go/mlperf-go/submission/filing"
)

// Run carries out p in one pass: it starts the engine and opens the
// dataset, writes a compliance test's audit.config, runs each test and
// then verifies or evaluates it, writes its run record and its report
// once each and files it, then points `latest` at the run and rebuilds the
// runs index. --mode both's performance test runs even when the accuracy
// one failed or scored low (both outcomes are worth having from one long
// command), but not after an interrupt or the engine's death. ctx is the
// command's: cancelling it (a signal) aborts the test under way. Run
// prints nothing but progress (p.Progress): the Outcome prints itself.
func Run(ctx context.Context, p Plan) (out Outcome) {
	// What this run made of the output path goes again if no test ran.
	defer p.reservation.ReleaseUnused()
	// A launched engine's log goes into the run's folder, --mode both's
	// parent.
	base := p.Tests[0].Options
	base.OutputDir = p.Dir
	var audit string
	if p.Compliance != "" {
		if err := dirwalk.MkdirAll(p.Dir, 0o755); err != nil {
			return out.end(fmt.Errorf("creating --output-dir: %w", err))
		}
		cleanup, err := compliance.WriteAuditConfig(p.Dir, p.Compliance, base.Benchmark.Name)
		if err != nil {
			return out.end(err)
		}
		defer cleanup() //nolint:errcheck // best effort; the next compliance run refuses a leftover
		audit = filepath.Join(p.Dir, loadgen.AuditConfigFile)
	}
	sess, runCtx, err := openSession(ctx, &base, p.Launch, p.Progress, func(data benchmark.Dataset) error {
		return p.checkTests(data, audit)
	})
	if err != nil {
		return out.end(err)
	}
	defer sess.Close()
	rec := sess.Describe(p.Record)
	rec.Compliance = p.Compliance
	var errs []error
	for _, t := range p.Tests {
		o := t.Options
		o.Endpoints, o.Model, o.Data, o.AuditConfig = base.Endpoints, base.Model, base.Data, audit
		one := rec
		if p.Both {
			fmt.Fprintf(p.Progress, "=== %s test → %s ===\n", run.ModeName(o.Mode), o.OutputDir)
			if o.Mode == loadgen.PerformanceOnly {
				one.PairedAccuracy = paired(out.Tests)
				if o.Benchmark.SeparateAccuracySet(o.Dataset) {
					// The session opened the accuracy set; the performance
					// test reads its own.
					d, err := o.Benchmark.OpenDataset(o.Dataset, o.Splits)
					if err != nil {
						errs = append(errs, fmt.Errorf("%s test: %w", run.ModeName(o.Mode), err))
						break
					}
					defer d.Close()
					o.Data = d
				}
			}
		}
		to := p.runTest(ctx, runCtx, o, t, one)
		if to.Err != nil && p.Both {
			to.Err = fmt.Errorf("%s test: %w", to.Name, to.Err)
		}
		if to.Err != nil {
			errs = append(errs, to.Err)
		}
		out.Tests = append(out.Tests, to)
		if ctx.Err() != nil || runCtx.Err() != nil {
			break
		}
	}
	if out.ran() {
		out.Index, out.Warnings = writeRunsIndex(p.RunsRoot, p.Dir)
	}
	return out.end(errors.Join(errs...))
}

// checkTests makes each test's own checks of its settings (run.Check)
// against the dataset the session opened, before the first test runs and
// before a launched engine is waited for: --mode both's performance test
// is refused before its accuracy test is run for nothing, and before
// anything is printed. A performance test that reads a set of its own (the session
// opened the accuracy set) is checked when it starts.
func (p *Plan) checkTests(data benchmark.Dataset, audit string) error {
	var errs []error
	for _, t := range p.Tests {
		o := t.Options
		if p.Both && o.Mode == loadgen.PerformanceOnly && o.Benchmark.SeparateAccuracySet(o.Dataset) {
			continue
		}
		o.AuditConfig = audit
		if err := run.Check(o, data.Len()); err != nil {
			if p.Both {
				err = fmt.Errorf("%s test: %w", run.ModeName(o.Mode), err)
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// paired is what the performance test of --mode both records of the
// accuracy test before it: its folder and whether it passed (a
// performance result counts only beside a passing accuracy run), from the
// record that test wrote; nil when it never ran.
func paired(tests []TestOutcome) *record.PairedAccuracy {
	if len(tests) == 0 || tests[0].Record == nil {
		return nil
	}
	info := tests[0].Record
	pass := info.Accuracy != nil && info.Accuracy.Pass && info.Submittable() == nil
	partial := pass && info.Accuracy.Partial != ""
	return &record.PairedAccuracy{Dir: tests[0].Dir, Pass: pass && !partial, Partial: partial}
}

// runTest runs one LoadGen test with the endpoints ready and the dataset
// open, then, in this order and once each: verifies a compliance run or
// evaluates an accuracy run, writes the run record (with that verdict)
// and the report, and files the run. ctx is the user's (cancelled by a
// signal); runCtx also ends if a launched engine dies.
func (p *Plan) runTest(ctx, runCtx context.Context, o run.Options, t Test, rec run.Record) TestOutcome {
	to := TestOutcome{Dir: o.OutputDir, Scenario: o.SubmissionScenario()}
	if p.Both {
		to.Name = run.ModeName(o.Mode)
		if err := dirwalk.MkdirAll(o.OutputDir, 0o755); err != nil {
			to.Err = fmt.Errorf("--output-dir: %w", err)
			return to
		}
	}
	rep, left, runErr := run.Abortable(ctx, runCtx, o)
	if left != nil {
		// LoadGen still plays its schedule (Server runs to min_duration):
		// the folder is marked and the process leaves without it.
		to.Report, to.Left = left, true
		to.ListFailures = left.Stats.Failed > 0
		p.record(&to, o, rec)
		to.writeReport()
		removed := fmt.Sprintf("LoadGen's unfinished logs were removed (%s); the record is %s", strings.Join(left.RemovedLogs, ", "), filepath.Join(o.OutputDir, record.File))
		switch died := run.EngineDied(runCtx, o.OutputDir); {
		case ctx.Err() != nil:
			to.Err = failure{Interrupted, fmt.Errorf("interrupted: the test was aborted; %s", removed)}
		case died != nil:
			to.Err = failure{Failed, fmt.Errorf("%w; %s", died, removed)}
		default: // the pool stopped it (--max-failures, --endpoints-down-timeout)
			to.Err = failure{Failed, fmt.Errorf("the test was stopped early: %w (see %s); %s", runErr, run.StopFlag(runErr), removed)}
		}
		return to
	}
	if rep == nil {
		// The test never started: nothing to report or record.
		to.Err = runErr
		if ctx.Err() != nil {
			to.Err = failure{Interrupted, errors.New("interrupted before the test started")}
		}
		return to
	}
	to.Report = rep
	died := run.EngineDied(runCtx, o.OutputDir)
	ended := rep.Outcome != record.Aborted && ctx.Err() == nil && died == nil
	// A compliance run is judged by its verification, an accuracy run by
	// its evaluation, before anything records or reports its outcome.
	if rec.Compliance != "" && runErr == nil && ended {
		to.Compliance = p.verifyCompliance(ctx, o, rep, rec.Compliance)
	}
	var evalErr error
	if t.Evaluate && ended {
		evalErr = p.evaluate(ctx, o, &to)
	}
	if err := p.record(&to, o, rec); err != nil {
		to.Err = err
		return to
	}
	// An aborted run is reported too, marked ABORTED: what it did before
	// the stop is worth a look, and nothing in it reads as a result.
	to.writeReport()
	switch {
	case ctx.Err() != nil:
		to.Err = failure{Interrupted, errors.New("interrupted: the test was aborted; the output folder is marked ABORTED in " + filepath.Join(o.OutputDir, record.File))}
		return to
	case died != nil:
		to.Err = failure{Failed, died}
		return to
	case rep.Outcome == record.Aborted:
		to.ListFailures = rep.Stats.Failed > 0
		to.Err = failure{Failed, runErr}
		return to
	}
	if p.Filing != nil {
		if why := p.unsubmittable(rep, rec, to.Compliance, to.accuracy(), runErr, evalErr); why != "" {
			to.NotFiled = fmt.Sprintf("not filed into --results-dir, which holds only submittable runs: %s; the run stays in %s", why, rep.LogDir)
		} else if to.Filed, to.Err = p.file(o, rep); to.Err != nil {
			// The test was measured: its logs stay where they are, and
			// the user is told how to file them.
			to.Err = errors.Join(runErr, fmt.Errorf("%w; the run is kept in %s: once that is fixed, file it with: %s", to.Err, rep.LogDir, p.fileCommand(rep.LogDir)))
			return to
		}
	}
	switch {
	case runErr != nil:
		to.ListFailures = true
		to.Err = failure{Failed, runErr}
	case evalErr != nil:
		to.Err = failure{Failed, evalErr}
	case to.Compliance != nil && !to.Compliance.Pass:
		to.Err = complianceError(rep, to.Compliance)
	case rep.Outcome == record.Invalid:
		to.Err = failure{Invalid, fmt.Errorf("LoadGen result is %s: see the recommendations in %s", rep.Summary.Result, filepath.Join(rep.LogDir, mllog.SummaryFile))}
	}
	return to
}

// evaluate scores the accuracy run's log beside it (--evaluate, --mode
// both), its accuracy.txt written there once.
func (p *Plan) evaluate(ctx context.Context, o run.Options, to *TestOutcome) error {
	if to.Report.Settings.Mode != loadgen.AccuracyOnly {
		// user.conf may set the mode; only a user who asked for it on a
		// performance run needs to be told.
		if !p.Both {
			to.Warnings = append(to.Warnings, "--evaluate applies to accuracy runs; skipped")
		}
		return nil
	}
	eo, err := p.evalOptions(o)
	if err != nil {
		return err
	}
	s, err := score(ctx, o.Data, filepath.Join(to.Dir, mllog.AccuracyFile), filepath.Join(to.Dir, record.AccuracyTxtFile), eo, o.SubmissionScenario())
	to.Scored = &s
	return err
}

// record writes the test's run record, once, with its verdicts: how the
// run was made, its outcome and counts, its compliance verdict and its
// accuracy.
func (p *Plan) record(to *TestOutcome, o run.Options, rec run.Record) error {
	info := run.RunInfo(o, to.Report, rec)
	info.Compliance, info.Accuracy = to.Compliance, to.accuracy()
	to.Record = &info
	if err := record.Write(to.Dir, info); err != nil {
		to.Warnings = append(to.Warnings, err.Error())
		return err
	}
	return nil
}

// writeReport writes results.json, report.html and report.md beside the
// logs, once the record holds every verdict. A report that cannot be
// written is said, but does not change the run's outcome: the logs are
// LoadGen's and stay the authority.
func (to *TestOutcome) writeReport() {
	res, err := report.WriteRun(to.Dir)
	if err != nil {
		to.Warnings = append(to.Warnings, fmt.Sprintf("no report for this run: %v (retry with `mlperf-go report %s`)", err, to.Dir))
		return
	}
	to.ReportHTML = filepath.Join(to.Dir, record.ReportHTMLFile)
	if res != nil {
		to.Status, to.Reasons = res.Outcome.Status, res.Outcome.Reasons
	}
}

// unsubmittable says why a finished run is not filed, "" when it is: a
// results tree gets only what is submittable, so a failed try never takes
// the place the next one needs (which would then need --replace) nor gets
// packaged. Not submittable: any outcome but VALID (failed samples,
// LoadGen's INVALID, a compliance verification that did not pass), LoadGen
// logs missing or damaged (runErr: such a run cannot be rechecked), an
// evaluation that failed or could not run, an accuracy run of part of the
// dataset, and a performance run beside a failed or partial accuracy run
// (--mode both). With AllowUnofficial, LoadGen's own INVALID and the
// partial accuracy runs that passed (and the performance runs beside them)
// are filed all the same: the settings it allows (short runs, fewer
// samples) make them, and the rehearsal of the workflow is what was asked
// for.
func (p *Plan) unsubmittable(rep *run.Report, rec run.Record, verdict *record.Compliance, accuracy *record.Accuracy, runErr, evalErr error) string {
	loadgenInvalid := rep.Outcome == record.Invalid && rep.Verifiable() && verdict == nil
	switch {
	case loadgenInvalid && p.AllowUnofficial && runErr == nil:
	case rep.Outcome != record.Valid:
		return fmt.Sprintf("the run is %s (%s)", rep.Outcome, rep.OutcomeReason)
	case runErr != nil:
		return fmt.Sprintf("LoadGen's logs cannot be read (%v)", runErr)
	}
	switch {
	case evalErr != nil:
		return fmt.Sprintf("its evaluation did not pass (%v)", evalErr)
	case accuracy != nil && accuracy.Partial != "" && !p.AllowUnofficial:
		return "it is an accuracy run of " + accuracy.Partial + ", not the whole dataset"
	case rec.PairedAccuracy != nil && rec.PairedAccuracy.Partial && p.AllowUnofficial:
	case rec.PairedAccuracy != nil && !rec.PairedAccuracy.Pass:
		return fmt.Sprintf("the accuracy run made with it (%s) did not pass", rec.PairedAccuracy.Dir)
	}
	return ""
}

// file files the run into the results tree, a compliance run with its
// verification's file (written beside its logs by verifyCompliance), and
// returns where.
func (p *Plan) file(o run.Options, rep *run.Report) (string, error) {
	return filing.FileRun(filing.RunRecord{
		ResultsDir: p.Filing.ResultsDir,
		System:     p.Filing.System,
		Benchmark:  o.Benchmark.Name,
		Scenario:   o.SubmissionScenario(),
		Kind:       rep.Kind(p.Compliance),
		LogDir:     rep.LogDir,
		UserConf:   rep.UserConf,
		Command:    p.Record.Command,
		Replace:    p.Filing.Replace,
	})
}

// fileCommand is the command that files the run in dir into the plan's
// results tree, as the run would have.
func (p *Plan) fileCommand(dir string) string {
	cmd := []string{"mlperf-go", "submission", "file", dir, "--results-dir", p.Filing.ResultsDir, "--system", p.Filing.System}
	if p.Filing.Replace {
		cmd = append(cmd, "--replace")
	}
	if p.AllowUnofficial {
		cmd = append(cmd, "--allow-unofficial-settings")
	}
	return shellquote.Join(cmd...)
}

// writeRunsIndex points `latest` at the run that just ended in runDir and
// rebuilds the runs root's index.html and index.md, returning the index's
// path ("" for none) and what went wrong. Like the run's own report it
// never changes the run's outcome.
func writeRunsIndex(root, runDir string) (index string, warnings []string) {
	if root == "" {
		return "", nil
	}
	if err := record.LinkLatest(runDir); err != nil {
		warnings = append(warnings, fmt.Sprintf("could not point %s at %s: %v", record.LatestLink, runDir, err))
	}
	entries, err := report.WriteTree(root)
	if len(entries) > 0 {
		index = filepath.Join(root, record.IndexHTMLFile)
	}
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("the index of %s is incomplete: %s", root, strings.ReplaceAll(err.Error(), "\n", "; ")))
	}
	return index, warnings
}
