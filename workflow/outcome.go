package workflow

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/run"
)

// Outcome is how Run ended: each test's outcome, the runs index, and the
// Class and error (nil when Passed) the command turns into an exit status.
// Print prints it: Run itself prints nothing but progress.
type Outcome struct {
	Class Class
	Err   error
	// Tests are the tests that were started, in order.
	Tests []TestOutcome
	// Index is the runs index rebuilt after the run ("" for none).
	Index string
	// Warnings are what went wrong beside the tests (the latest link,
	// the index).
	Warnings []string
}

// TestOutcome is what became of one LoadGen test.
type TestOutcome struct {
	// Name is --mode both's name for the test ("accuracy",
	// "performance"), "" for a run of one test.
	Name string
	// Dir is the test's folder; Scenario its scenario as filed
	// (Interactive for LoadGen's Server run of an Interactive variant).
	Dir, Scenario string
	// Report is what the test produced, nil when it never started
	// (Err says why). Left: the test was interrupted and left behind
	// while LoadGen still played its schedule.
	Report *run.Report
	Left   bool
	// Compliance is a compliance run's verdict; Scored an accuracy run's
	// evaluation (nil when there was none).
	Compliance *record.Compliance
	Scored     *Scored
	// Record is the run record written beside the logs (nil: none).
	Record *record.Run
	// ReportHTML is the report written ("" for none); Status and Reasons
	// are its verdict and why the run is not valid or not submittable.
	ReportHTML string
	Status     string
	Reasons    []string
	// Filed is where the run was filed; NotFiled why it was not, with
	// --results-dir.
	Filed, NotFiled string
	// ListFailures: the failed samples are worth listing.
	ListFailures bool
	// Warnings are what went wrong beside the test (a report not
	// written), for stderr.
	Warnings []string
	// Err is the test's error, of its Class.
	Err error
}

// end sets o's error and Class and returns o.
func (o Outcome) end(err error) Outcome {
	o.Err, o.Class = err, ClassOf(err)
	return o
}

// ran reports whether a test of the run started, leaving a run to index.
func (o Outcome) ran() bool {
	return slices.ContainsFunc(o.Tests, func(t TestOutcome) bool { return t.Report != nil })
}

// accuracy is the test's accuracy verdict, nil when it was not judged.
func (t TestOutcome) accuracy() *record.Accuracy {
	if t.Scored == nil {
		return nil
	}
	return t.Scored.Accuracy
}

// Print writes the outcome: each test's verdict, LoadGen's figures,
// evaluation, reasons, report and filing to out; the failed samples, what
// was not filed and every warning to errw. The error itself is the
// command's to print.
func (o Outcome) Print(out, errw io.Writer) {
	for _, t := range o.Tests {
		t.Print(out, errw)
	}
	if o.Index != "" {
		fmt.Fprintf(out, "  %-42s %s\n", "Index of runs", o.Index)
	}
	for _, n := range o.Warnings {
		fmt.Fprintln(errw, "mlperf-go:", n)
	}
}

// Print writes one test's outcome (see Outcome.Print).
func (t TestOutcome) Print(out, errw io.Writer) {
	if t.Name != "" {
		fmt.Fprintf(out, "\n=== %s test → %s ===\n", t.Name, t.Dir)
	}
	if rep := t.Report; rep != nil {
		if t.Left {
			// What the pool did before LoadGen was left behind.
			printOutcome(out, rep, nil)
			printSamples(out, rep)
		} else {
			t.printReport(out)
		}
	}
	if s := t.Scored; s != nil {
		s.Print(out, errw)
	}
	printReasons(out, t.Status, t.Reasons)
	if t.ReportHTML != "" {
		fmt.Fprintf(out, "  %-42s %s\n", "Report", t.ReportHTML)
	}
	if t.Filed != "" {
		fmt.Fprintf(out, "  %-42s %s\n", "Filed as", t.Filed)
	}
	if t.NotFiled != "" {
		fmt.Fprintln(errw, "mlperf-go:", t.NotFiled)
	}
	if t.ListFailures {
		printFailures(errw, t.Report)
	}
	for _, w := range t.Warnings {
		fmt.Fprintln(errw, "mlperf-go:", w)
	}
}

// printReport prints a finished test: its verdict, LoadGen's result (or
// the compliance verification's), LoadGen's figures, the samples and
// where the logs are.
func (t TestOutcome) printReport(w io.Writer) {
	rep := t.Report
	result := rep.Summary.Result
	if rep.Settings.Mode == loadgen.AccuracyOnly {
		result = "accuracy run (see " + mllog.AccuracyFile + ")"
	}
	fmt.Fprintln(w)
	printOutcome(w, rep, t.Compliance)
	if t.Compliance != nil {
		printCompliance(w, rep, t.Compliance)
	} else {
		fmt.Fprintf(w, "  %-42s %s\n", "LoadGen result", orDash(result))
	}
	for _, m := range rep.Summary.Metrics {
		// LoadGen has no Interactive scenario: it runs the Interactive
		// variant as Server, which is not what the user asked for by name.
		if m[0] == "Scenario" && t.Scenario != m[1] {
			m[1] = t.Scenario + " (LoadGen's " + m[1] + " scenario)"
		}
		name, value := inMilliseconds(m)
		fmt.Fprintf(w, "  %-42s %s\n", name, value)
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
	printSamples(w, rep)
}

// inMilliseconds is a LoadGen result line as the console shows it: a
// latency LoadGen gives in nanoseconds (SingleStream's and MultiStream's
// result, "90.0th percentile latency (ns) : 1939383") in milliseconds,
// LoadGen's own figure beside it, other lines as they are.
func inMilliseconds(m [2]string) (string, string) {
	name, ok := strings.CutSuffix(m[0], " (ns)")
	ns, err := strconv.ParseFloat(m[1], 64)
	if !ok || err != nil {
		return m[0], m[1]
	}
	return name, fmt.Sprintf("%.3f ms (%s ns)", ns/1e6, m[1])
}

// printSamples prints what became of the samples, how long the test took
// and where its logs are.
func printSamples(w io.Writer, rep *run.Report) {
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
func printOutcome(w io.Writer, rep *run.Report, verdict *record.Compliance) {
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

// printCompliance prints the verdict under the outcome line: each check as
// the verification's file states it, with what failed, and where the file
// is; then LoadGen's verdict, as information, since it does not apply.
func printCompliance(w io.Writer, rep *run.Report, v *record.Compliance) {
	where := filepath.Join(rep.LogDir, v.File)
	if v.Error != "" {
		where = v.Error
	}
	fmt.Fprintf(w, "  %-42s %s (%s)\n", v.Test+" verification", v.Verdict(), where)
	for _, k := range v.Checks {
		line := k.Result
		if k.Detail != "" && !k.Pass {
			line += ": " + k.Detail
		}
		fmt.Fprintf(w, "    %-40s %s\n", k.Name, line)
	}
	for _, warn := range v.Warnings {
		fmt.Fprintf(w, "    %-40s %s\n", "warning", warn)
	}
	if rep.Summary.Result != "" {
		fmt.Fprintf(w, "  %-42s %s (information: %s judges this run by its verification, not by LoadGen's performance rules)\n",
			"LoadGen result", rep.Summary.Result, v.Test)
	}
}

// printFailures lists the failed samples: how many, by reason, the first
// ones, and where all of them are.
func printFailures(w io.Writer, rep *run.Report) {
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

// printReasons says why a run is not valid, one finding a line, as
// results.json holds them (min_duration not met, how many more queries
// early stopping needs, which samples failed), so the console answers the
// first question an INVALID raises without opening a file.
func printReasons(w io.Writer, status string, reasons []string) {
	if len(reasons) == 0 {
		return
	}
	label := "Why " + strings.ToUpper(status)
	switch status {
	case results.StatusAccuracy, results.StatusValid, results.StatusPass:
		// Not a verdict that has a why ("Why ACCURACY"): the
		// reasons are what keeps the run out of a submission (an
		// accuracy FAIL).
		label = "Why not submittable"
	}
	fmt.Fprintf(w, "  %-42s %s\n", label, reasons[0])
	for _, r := range reasons[1:] {
		fmt.Fprintf(w, "  %-42s %s\n", "", r)
	}
}

// Print writes the evaluation: the evaluator's report, the verdict table
// and where accuracy.txt went, to out; why a filed run was left as filed,
// and warnings, to errw.
func (s Scored) Print(out, errw io.Writer) {
	fmt.Fprint(out, s.Report)
	if s.Accuracy != nil {
		printVerdict(out, s.Accuracy)
	}
	if s.Written != "" {
		fmt.Fprintf(out, "  %-42s %s\n", "accuracy.txt", s.Written)
	}
	if s.Kept != "" {
		fmt.Fprintln(errw, "mlperf-go:", s.Kept)
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(errw, "mlperf-go:", w)
	}
}

// printVerdict prints the verdict table: each metric's value against its
// bounds, as the round's checker judges accuracy.txt.
func printVerdict(w io.Writer, v *record.Accuracy) {
	fmt.Fprintf(w, "\nAccuracy (%s rules, %s):\n", v.Round, v.Scenario)
	// Values are printed whole, as accuracy.txt holds them
	// (0.9094890510948905): the columns widen to fit them.
	name, value, bound := 20, 14, 28
	for _, m := range v.Metrics {
		name, value, bound = max(name, len(m.Name)), max(value, len(orDash(m.Value))), max(bound, len(m.Range()))
	}
	fmt.Fprintf(w, "  %-*s %-*s %-*s %s\n", name, "metric", value, "value", bound, "bound", "verdict")
	for _, m := range v.Metrics {
		fmt.Fprintf(w, "  %-*s %-*s %-*s %s\n", name, m.Name, value, orDash(m.Value), bound, m.Range(), m.Verdict())
	}
	for _, p := range v.Problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if v.Partial != "" {
		totals := ""
		if slices.ContainsFunc(v.Metrics, func(m record.AccuracyMetric) bool { return m.NotJudged }) {
			totals = ", where a total over the whole set is not judged"
		}
		fmt.Fprintf(w, "  not a full accuracy run: judged on %s%s; not submittable\n", v.Partial, totals)
	}
	fmt.Fprintf(w, "=== Accuracy: %s ===\n", v.Verdict())
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
