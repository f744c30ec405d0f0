package workflow

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/run"
)

// runTest runs one LoadGen test with the endpoints ready and the dataset
// open, then reports, evaluates and files it. ctx is the user's (cancelled
// by Ctrl-C); runCtx also ends if a launched engine dies.
func (p *Plan) runTest(ctx, runCtx context.Context, o run.Options, rec run.Record, runsRoot string) error {
	rep, left, runErr := run.Abortable(ctx, runCtx, o)
	if left != nil {
		// LoadGen still plays its schedule (Server runs to min_duration):
		// the folder is marked and the process leaves without it.
		if err := run.WriteRunInfo(o, left, rec); err != nil {
			fmt.Fprintln(p.Stderr, "mlperf-go:", err)
		}
		p.printOutcome(left, nil)
		if left.Stats.Failed > 0 {
			p.printFailures(left)
		}
		p.writeReport(left.LogDir)
		removed := fmt.Sprintf("LoadGen's unfinished logs were removed (%s); the record is %s", strings.Join(left.RemovedLogs, ", "), filepath.Join(o.OutputDir, record.File))
		switch {
		case ctx.Err() != nil:
			return failure{Interrupted, fmt.Errorf("interrupted: the test was aborted; %s", removed)}
		case run.EngineDied(runCtx, o.OutputDir) != nil:
			return failure{Failed, fmt.Errorf("%w; %s", run.EngineDied(runCtx, o.OutputDir), removed)}
		}
		return failure{Failed, fmt.Errorf("the test was stopped early: %w (see %s); %s", runErr, run.StopFlag(runErr), removed)}
	}
	if rep == nil {
		// The test never started: nothing to report or record.
		if ctx.Err() != nil {
			return failure{Interrupted, errors.New("interrupted before the test started")}
		}
		return runErr
	}
	// A compliance run is judged by its verification, before anything
	// reports its outcome.
	var verdict *record.Compliance
	if rec.Compliance != "" && runErr == nil && ctx.Err() == nil {
		verdict = p.verifyCompliance(ctx, o, rep, rec.Compliance)
	}
	p.printReport(o, rep, verdict)
	if err := run.WriteRunInfo(o, rep, rec); err != nil {
		return err
	}
	if verdict != nil {
		if err := amendRecord(rep.LogDir, func(r *record.Run) { r.Compliance = verdict }); err != nil {
			return err
		}
	}
	// An aborted run is reported too, marked ABORTED: what it did before
	// the stop is worth a look, and nothing in it reads as a result.
	p.writeReport(rep.LogDir)
	p.writeRunsIndex(runsRoot, o.OutputDir)
	if ctx.Err() != nil {
		return failure{Interrupted, errors.New("interrupted: the test was aborted; the output folder is marked ABORTED in " + filepath.Join(o.OutputDir, record.File))}
	}
	if err := run.EngineDied(runCtx, o.OutputDir); err != nil {
		return failure{Failed, err}
	}
	if rep.Outcome == record.Aborted {
		if rep.Stats.Failed > 0 {
			p.printFailures(rep)
		}
		return failure{Failed, runErr}
	}

	var (
		accuracy *record.Accuracy
		evalErr  error
	)
	if p.Evaluate {
		accuracy, evalErr = p.evaluateRun(ctx, o, rep)
	}
	if p.ResultsDir != "" {
		if why := p.unsubmittable(rep, rec, verdict, accuracy, runErr, evalErr); why != "" {
			fmt.Fprintf(p.Stderr, "mlperf-go: not filed into --results-dir, which holds only submittable runs: %s; the run stays in %s\n", why, rep.LogDir)
		} else if err := p.fileRun(o, rep, rec.Compliance); err != nil {
			return errors.Join(runErr, err)
		}
	}
	if runErr != nil {
		p.printFailures(rep)
		return failure{Failed, runErr}
	}
	if evalErr != nil {
		return failure{Failed, evalErr}
	}
	if verdict != nil && !verdict.Pass {
		return complianceError(rep, verdict)
	}
	if rep.Outcome == record.Invalid {
		return failure{Invalid, fmt.Errorf("LoadGen result is %s: see the recommendations in %s", rep.Summary.Result, filepath.Join(rep.LogDir, mllog.SummaryFile))}
	}
	return nil
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

func (p *Plan) printReport(o run.Options, rep *run.Report, verdict *record.Compliance) {
	w := p.Stdout
	result := rep.Summary.Result
	if rep.Settings.Mode == loadgen.AccuracyOnly {
		result = "accuracy run (see " + mllog.AccuracyFile + ")"
	}
	fmt.Fprintln(w)
	p.printOutcome(rep, verdict)
	if verdict != nil {
		p.printCompliance(rep, verdict)
	} else {
		fmt.Fprintf(w, "  %-42s %s\n", "LoadGen result", orDash(result))
	}
	for _, m := range rep.Summary.Metrics {
		// LoadGen has no Interactive scenario: it runs the Interactive
		// variant as Server, which is not what the user asked for by name.
		if m[0] == "Scenario" && o.SubmissionScenario() != m[1] {
			m[1] = o.SubmissionScenario() + " (LoadGen's " + m[1] + " scenario)"
		}
		fmt.Fprintf(w, "  %-42s %s\n", m[0], m[1])
	}
	// The LLM Server limits are on p99 TTFT and TPOT, which LoadGen prints
	// after the result line; show them in milliseconds.
	for _, l := range []struct{ key, label string }{
		{"99.00 percentile first token latency (ns)", "p99 time to first token"},
		{"99.00 percentile time to output token (ns)", "p99 time per output token"},
	} {
		if v, err := strconv.ParseFloat(rep.Summary.Values[l.key], 64); err == nil {
			fmt.Fprintf(w, "  %-42s %.2f ms\n", l.label, v/1e6)
		}
	}
	s := rep.Stats
	fmt.Fprintf(w, "  %-42s %d issued, %d completed, %d failed\n", "Samples", s.Issued, s.Completed, s.Failed)
	if s.OutputTokens > 0 {
		fmt.Fprintf(w, "  %-42s %d\n", "Output tokens", s.OutputTokens)
	}
	if s.Retries > 0 {
		fmt.Fprintf(w, "  %-42s %d (%s)\n", "Requests sent again (retries)", s.Retries, record.Counts(s.RetriesByCause))
	}
	for i, d := range run.EndpointDrops(s.EndpointDrops, rep.Start) {
		label := ""
		if i == 0 {
			label = "Endpoints dropped"
		}
		back := "not back"
		if d.Back != nil {
			back = fmt.Sprintf("back at %.1fs", d.Back.Sub(rep.Start).Seconds())
		}
		fmt.Fprintf(w, "  %-42s %s at %.1fs (%s), %s: %s\n", label, d.Endpoint, float64(d.AfterStart), d.At.Format("15:04:05Z"), back, d.Error)
	}
	fmt.Fprintf(w, "  %-42s %s\n", "Test duration", rep.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  %-42s %s\n", "Logs", rep.LogDir)
}

// printOutcome prints the run's verdict, the line to trust: VALID only
// when LoadGen said VALID and no sample failed; for a compliance run its
// test's verdict ("TEST06 PASS", "TEST06 FAIL: …").
func (p *Plan) printOutcome(rep *run.Report, verdict *record.Compliance) {
	w := p.Stdout
	if verdict != nil && rep.Verifiable() {
		fmt.Fprintf(w, "=== Outcome: %s ===\n", verdict.Summary())
		return
	}
	if rep.Outcome == record.Valid {
		fmt.Fprintf(w, "=== Outcome: VALID ===\n")
		return
	}
	fmt.Fprintf(w, "=== Outcome: %s: %s ===\n", rep.Outcome, rep.OutcomeReason)
	for name, to := range rep.RenamedLogs {
		fmt.Fprintf(w, "  %-42s renamed to %s\n", name, to)
	}
	for _, name := range rep.RemovedLogs {
		fmt.Fprintf(w, "  %-42s removed (unfinished)\n", name)
	}
}

func (p *Plan) printFailures(rep *run.Report) {
	w := p.Stderr
	s := rep.Stats
	fmt.Fprintf(w, "\n%d sample(s) failed:\n", s.Failed)
	for reason, n := range s.FailuresByReason {
		fmt.Fprintf(w, "  %-20s %d\n", reason, n)
	}
	for _, f := range s.FirstFailures {
		fmt.Fprintf(w, "  sample %d: %s: %s\n", f.Index, f.Reason, f.Message)
	}
	if int64(len(s.FirstFailures)) < s.Failed {
		fmt.Fprintf(w, "  … and %d more\n", s.Failed-int64(len(s.FirstFailures)))
	}
	fmt.Fprintf(w, "  every failed sample is listed in %s\n", filepath.Join(rep.LogDir, record.FailuresFile))
	if s.Stopped != "" {
		fmt.Fprintf(w, "  the test was stopped early: %s (see %s)\n", s.Stopped, run.StopFlag(s.StopCause))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeReport writes results.json, report.html and report.md beside the
// logs. A report that cannot be written is said, but does not change the
// run's outcome: the logs are LoadGen's and stay the authority.
func (p *Plan) writeReport(dir string) {
	res, err := report.WriteRun(dir)
	if err != nil {
		fmt.Fprintf(p.Stderr, "mlperf-go: no report for this run: %v (retry with `mlperf-go report %s`)\n", err, dir)
		return
	}
	p.printReasons(res)
	fmt.Fprintf(p.Stdout, "  %-42s %s\n", "Report", filepath.Join(dir, record.ReportHTMLFile))
}

// printReasons says why a run is not valid, one finding a line, as
// results.json holds them (min_duration not met, how many more queries
// early stopping needs, which samples failed), so the console answers the
// first question an INVALID raises without opening a file.
func (p *Plan) printReasons(res *results.Results) {
	if res == nil || len(res.Outcome.Reasons) == 0 {
		return
	}
	label := "Why " + strings.ToUpper(res.Outcome.Status)
	switch res.Outcome.Status {
	case results.StatusAccuracy, results.StatusValid, results.StatusPass:
		// Not a verdict that has a why ("Why ACCURACY"): the
		// reasons are what keeps the run out of a submission (an
		// accuracy FAIL).
		label = "Why not submittable"
	}
	fmt.Fprintf(p.Stdout, "  %-42s %s\n", label, res.Outcome.Reasons[0])
	for _, r := range res.Outcome.Reasons[1:] {
		fmt.Fprintf(p.Stdout, "  %-42s %s\n", "", r)
	}
}
