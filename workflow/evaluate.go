package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/filing"
)

// EvalSettings say how to score an accuracy log, as the evaluator's flags
// (--tokenizer, --tokenizer-model, --livecodebench, --python, --prm800k,
// --clean-up-spaces, --verdicts) give them.
type EvalSettings struct {
	Tokenizer, TokenizerModel      string
	LiveCodeBench, Python, PRM800K string
	// Verdicts is the file of per-sample verdicts to write ("": none).
	Verdicts string
	// CleanUpSpaces is "round" (or ""), "true" or "false".
	CleanUpSpaces string
}

// Apply sets the settings into o for a log of the dataset at paths; an
// unknown CleanUpSpaces is an error naming --clean-up-spaces. With neither
// tokenizer setting, a download folder among paths lends its tokenizer
// (benchmark.DownloadedTokenizer).
func (s EvalSettings) Apply(o *benchmark.EvalOptions, paths []string) error {
	o.Tokenizer, o.TokenizerModel = s.Tokenizer, s.TokenizerModel
	if o.Tokenizer == "" && o.TokenizerModel == "" {
		o.Tokenizer = benchmark.DownloadedTokenizer(paths)
	}
	o.LiveCodeBench, o.Python, o.PRM800K = s.LiveCodeBench, s.Python, s.PRM800K
	o.Verdicts = s.Verdicts
	switch v := s.CleanUpSpaces; v {
	case "round", "":
	case "true", "false":
		on := v == "true"
		o.CleanUpSpaces = &on
	default:
		return fmt.Errorf("--clean-up-spaces %q: use round, true or false", v)
	}
	return nil
}

// evalOptions are the options every evaluation of a test of o scores with:
// the plan's Eval settings for o's benchmark, round and scenario.
func (p *Plan) evalOptions(o run.Options) (benchmark.EvalOptions, error) {
	eo := benchmark.EvalOptions{Benchmark: o.Benchmark, Round: o.Round, Interactive: o.SubmissionScenario() == benchmark.ScenarioInteractive}
	return eo, p.Eval.Apply(&eo, o.Dataset)
}

// precheckEvaluation opens, before the first test, the tokenizer the
// plan's scoring will decode a token-ID log with (an accuracy run's
// evaluation, --mode both's, TEST07's verification in Go), so a missing
// tokenizer costs seconds, not the tests: --mode both would otherwise find
// out after its performance test too.
func (p *Plan) precheckEvaluation(o run.Options) error {
	var why string
	switch {
	case p.Compliance == submission.TEST07 && p.AccuracyScript == "":
		why = "--compliance TEST07 scores the run's log in Go"
	case p.Compliance != "":
	case p.Both:
		why = "--mode both scores its accuracy test in Go"
	case p.Evaluate && o.Mode == loadgen.AccuracyOnly:
		why = "--evaluate scores the accuracy run in Go"
	}
	if why == "" || !o.Benchmark.Serving.Output.NeedsTokenizer() {
		return nil
	}
	eo, err := p.evalOptions(o)
	if err != nil {
		return err
	}
	if _, err := eo.OpenTokenizer(); err != nil {
		fix := ""
		if p.Compliance != "" {
			fix = "; or pass --accuracy-script with the official accuracy command"
		}
		return fmt.Errorf("%s: %w%s (checked before the test, so no run is wasted)", why, err, fix)
	}
	return nil
}

// evaluateRun evaluates an accuracy run's log next to it (run --evaluate).
func (p *Plan) evaluateRun(ctx context.Context, o run.Options, rep *run.Report) (*record.Accuracy, error) {
	if rep.Settings.Mode != loadgen.AccuracyOnly {
		// --mode both turns --evaluate on for its accuracy test; only a
		// user who asked for it on a performance run needs to be told.
		if !p.Both {
			fmt.Fprintln(p.Stderr, "--evaluate applies to accuracy runs; skipped")
		}
		return nil, nil
	}
	eo, err := p.evalOptions(o)
	if err != nil {
		return nil, err
	}
	eo.Out = filepath.Join(rep.LogDir, record.AccuracyTxtFile)
	v, err := Evaluate(ctx, p.Stdout, p.Stderr, o.Data, filepath.Join(rep.LogDir, mllog.AccuracyFile), eo, o.SubmissionScenario())
	// The report drawn before the evaluation lacks the verdict.
	p.writeReport(rep.LogDir)
	return v, err
}

// Evaluate scores one accuracy log with the benchmark's evaluator, prints
// what it found and the verdict to stdout, and records the verdict in the
// run record beside the log when there is one (a record it cannot write is
// said on stderr); `mlperf-go evaluate` calls it too. A log that fails its
// checks or a metric below its bound is an error of Class Failed.
//
// A log filed into a results tree (filing.Filed) gets its accuracy.txt and
// verdict only when they pass: a results tree holds only submittable runs,
// so a filed copy never gets a FAIL (or a failed evaluation) written into
// it, whatever accuracy.txt it was filed with staying as it was; stderr says
// so and how to keep the new one.
func Evaluate(ctx context.Context, stdout, stderr io.Writer, d benchmark.Dataset, logPath string, o benchmark.EvalOptions, scenario string) (*record.Accuracy, error) {
	logDir, out := filepath.Dir(logPath), o.Out
	filedLog, filedOut := filing.Filed(logDir), filing.Filed(filepath.Dir(out))
	if filedOut {
		tmp, err := os.MkdirTemp("", "mlperf-go-evaluate-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		o.Out = filepath.Join(tmp, record.AccuracyTxtFile)
	}
	v, err := evaluate(ctx, stdout, d, logPath, o, scenario)
	if err != nil && (filedLog || filedOut) {
		fmt.Fprintf(stderr, "mlperf-go: %s is a run filed into a results tree, which holds only submittable runs: this evaluation did not pass, so nothing was written into it (what it was filed with stays). Pass --output FILE to keep this accuracy.txt; a run that fails belongs out of the tree (file a new one with --replace)\n", logDir)
		return v, err
	}
	if filedOut {
		content, err := os.ReadFile(o.Out)
		if err != nil {
			return v, err
		}
		if err := atomicfile.Write(out, content, 0o644); err != nil {
			return v, err
		}
	}
	if v != nil {
		if err := amendRecord(logDir, func(r *record.Run) { r.Accuracy = v }); err != nil {
			fmt.Fprintln(stderr, "mlperf-go:", err)
		}
	}
	return v, err
}

// evaluate is Evaluate's scoring and verdict, which writes only o.Out.
func evaluate(ctx context.Context, stdout io.Writer, d benchmark.Dataset, logPath string, o benchmark.EvalOptions, scenario string) (*record.Accuracy, error) {
	ev, err := d.Evaluate(ctx, logPath, o)
	fmt.Fprint(stdout, ev.Report)
	if err != nil {
		return nil, err
	}
	content, err := os.ReadFile(o.Out)
	if err != nil {
		if ev.Failure != nil {
			return nil, failure{Failed, ev.Failure}
		}
		return nil, fmt.Errorf("the evaluator wrote no %s: %w", o.Out, err)
	}
	var v *record.Accuracy
	if n := loggedSamples(logPath); n >= 0 {
		v, err = submission.JudgePartialAccuracy(o.Benchmark.Name, o.Round, scenario, content, n)
	} else {
		v, err = submission.JudgeAccuracy(o.Benchmark.Name, o.Round, scenario, content)
	}
	if err != nil {
		return nil, err
	}
	v.Scorer = ev.Scorer
	printVerdict(stdout, v)
	switch {
	case ev.Failure != nil && v.Partial == "":
		// A partial log's failure is that it is partial (the samples
		// missing, a total short of its bound), which the verdict says.
		return v, failure{Failed, ev.Failure}
	case !v.Pass:
		return v, failure{Failed, fmt.Errorf("accuracy FAIL: %s", strings.Join(failedMetrics(v), ", "))}
	}
	return v, nil
}

// loggedSamples is the number of distinct samples in the accuracy log at
// logPath, -1 when it cannot be read (the evaluator has said why).
func loggedSamples(logPath string) int64 {
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return -1
	}
	seen := make(map[int]bool, len(entries))
	for _, e := range entries {
		seen[e.QSLIndex] = true
	}
	return int64(len(seen))
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

func failedMetrics(v *record.Accuracy) []string {
	var out []string
	for _, m := range v.Metrics {
		if !m.Pass && !m.NotJudged {
			out = append(out, fmt.Sprintf("%s = %s (bound %s)", m.Name, orDash(m.Value), m.Bound))
		}
	}
	if len(out) == 0 {
		out = v.Problems
	}
	return out
}

// amendRecord changes the run record in dir, if there is one, so that
// results.json, the report, the runs index and filing see what the run
// was found to be after it ended (its accuracy or compliance verdict).
func amendRecord(dir string, change func(*record.Run)) error {
	info, err := record.Read(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	change(&info)
	return record.Write(dir, info)
}
