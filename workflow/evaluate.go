package workflow

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
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

// Apply sets the settings into o; an unknown CleanUpSpaces is an error
// naming --clean-up-spaces.
func (s EvalSettings) Apply(o *benchmark.EvalOptions) error {
	o.Tokenizer, o.TokenizerModel = s.Tokenizer, s.TokenizerModel
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

// evaluateRun evaluates an accuracy run's log next to it (run --evaluate).
func (p *Plan) evaluateRun(o run.Options, rep *run.Report) (*record.Accuracy, error) {
	if rep.Settings.Mode != loadgen.AccuracyOnly {
		// --mode both turns --evaluate on for its accuracy test; only a
		// user who asked for it on a performance run needs to be told.
		if !p.Both {
			fmt.Fprintln(p.Stderr, "--evaluate applies to accuracy runs; skipped")
		}
		return nil, nil
	}
	eo := benchmark.EvalOptions{Benchmark: o.Benchmark, Out: filepath.Join(rep.LogDir, record.AccuracyTxtFile), Round: o.Round,
		Interactive: o.SubmissionScenario() == benchmark.ScenarioInteractive}
	if err := p.Eval.Apply(&eo); err != nil {
		return nil, err
	}
	v, err := Evaluate(p.Stdout, p.Stderr, o.Data, filepath.Join(rep.LogDir, mllog.AccuracyFile), eo, o.SubmissionScenario())
	// The report drawn before the evaluation lacks the verdict.
	p.writeReport(rep.LogDir)
	return v, err
}

// Evaluate scores one accuracy log with the benchmark's evaluator, prints
// what it found and the verdict to stdout, and records the verdict in the
// run record beside the log when there is one (a record it cannot write is
// said on stderr); `mlperf-go evaluate` calls it too. A log that fails its
// checks or a metric below its bound is an error of Class Failed.
func Evaluate(stdout, stderr io.Writer, d benchmark.Dataset, logPath string, o benchmark.EvalOptions, scenario string) (*record.Accuracy, error) {
	ev, err := d.Evaluate(logPath, o)
	if err != nil {
		fmt.Fprint(stdout, ev.Report)
		return nil, err
	}
	fmt.Fprint(stdout, ev.Report)
	content, err := os.ReadFile(o.Out)
	if err != nil {
		if ev.Failure != nil {
			return nil, failure{Failed, ev.Failure}
		}
		return nil, fmt.Errorf("the evaluator wrote no %s: %w", o.Out, err)
	}
	v, err := submission.JudgeAccuracy(o.Benchmark.Name, o.Round, scenario, content)
	if err != nil {
		return nil, err
	}
	v.Scorer = ev.Scorer
	printVerdict(stdout, v)
	if err := amendRecord(filepath.Dir(logPath), func(r *record.Run) { r.Accuracy = v }); err != nil {
		fmt.Fprintln(stderr, "mlperf-go:", err)
	}
	switch {
	case ev.Failure != nil:
		return v, failure{Failed, ev.Failure}
	case !v.Pass:
		return v, failure{Failed, fmt.Errorf("accuracy FAIL: %s", strings.Join(failedMetrics(v), ", "))}
	}
	return v, nil
}

// printVerdict prints the verdict table: each metric's value against its
// bounds, as the round's checker judges accuracy.txt.
func printVerdict(w io.Writer, v *record.Accuracy) {
	fmt.Fprintf(w, "\nAccuracy (%s rules, %s):\n", v.Round, v.Scenario)
	fmt.Fprintf(w, "  %-20s %-14s %-28s %s\n", "metric", "value", "bound", "verdict")
	for _, m := range v.Metrics {
		fmt.Fprintf(w, "  %-20s %-14s %-28s %s\n", m.Name, orDash(m.Value), m.Range(), m.Verdict())
	}
	for _, p := range v.Problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
	fmt.Fprintf(w, "=== Accuracy: %s ===\n", v.Verdict())
}

func failedMetrics(v *record.Accuracy) []string {
	var out []string
	for _, m := range v.Metrics {
		if !m.Pass {
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
