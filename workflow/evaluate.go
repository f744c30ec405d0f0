package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// Scored is one evaluation of an accuracy log: what the evaluator found,
// the verdict, and where accuracy.txt was written. Print prints it.
type Scored struct {
	// Report is the evaluator's text (its tables, checks, next step).
	Report string
	// Accuracy is the verdict (nil when the log could not be judged).
	Accuracy *record.Accuracy
	// Written is the accuracy.txt written ("" for none).
	Written string
	// Kept says why nothing was written into a filed run ("": it was not
	// a filed run, or it passed).
	Kept string
	// Warnings are what went wrong beside the scoring (a run record that
	// could not be amended), for stderr.
	Warnings []string
}

// score scores the accuracy log at logPath with the benchmark's evaluator
// and writes its accuracy.txt to out, once and atomically (a reader never
// sees half of it): the evaluators return it rather than write it. A log
// that fails its checks or a metric below its bound is an error of Class
// Failed.
//
// A log filed into a results tree (filing.Filed), or an out inside one,
// gets its accuracy.txt only when it passes: a results tree holds only
// submittable runs, so a filed copy never gets a FAIL (or a failed
// evaluation) written into it, whatever accuracy.txt it was filed with
// staying as it was; Kept says so and how to keep the new one.
func score(ctx context.Context, d benchmark.Dataset, logPath, out string, o benchmark.EvalOptions, scenario string) (Scored, error) {
	logDir := filepath.Dir(logPath)
	s, txt, err := judge(ctx, d, logPath, o, scenario)
	if err != nil && (filing.Filed(logDir) || filing.Filed(filepath.Dir(out))) {
		s.Kept = fmt.Sprintf("%s is a run filed into a results tree, which holds only submittable runs: this evaluation did not pass, so nothing was written into it (what it was filed with stays). Pass --output FILE to keep this accuracy.txt; a run that fails belongs out of the tree (file a new one with --replace)", logDir)
		return s, err
	}
	if txt != nil {
		if werr := atomicfile.Write(out, txt, 0o644); werr != nil {
			return s, errors.Join(err, fmt.Errorf("writing %s: %w", out, werr))
		}
		s.Written = out
	}
	return s, err
}

// Evaluate scores an accuracy log that a run left (`mlperf-go evaluate`),
// writes its accuracy.txt to out as score does, and records the verdict
// in the run record beside the log, when there is one, for results.json,
// the report, the runs index and filing (a record it cannot amend is a
// warning: the evaluation stands).
func Evaluate(ctx context.Context, d benchmark.Dataset, logPath, out string, o benchmark.EvalOptions, scenario string) (Scored, error) {
	s, err := score(ctx, d, logPath, out, o, scenario)
	if s.Accuracy != nil && s.Kept == "" {
		if aerr := amendRecord(filepath.Dir(logPath), func(r *record.Run) { r.Accuracy = s.Accuracy }); aerr != nil {
			s.Warnings = append(s.Warnings, aerr.Error())
		}
	}
	return s, err
}

// EvalRequest is what the evaluate command line says, in its own words.
type EvalRequest struct {
	// Benchmark is the log's benchmark; AccuracyLog LoadGen's
	// mlperf_log_accuracy.json or the run folder holding it (a --mode
	// both run's: its accuracy/); Output the accuracy.txt to write ("":
	// beside the log).
	Benchmark, AccuracyLog, Output string
	// Dataset and Splits are the dataset the run used.
	Dataset, Splits []string
	// Round is --round, checked here.
	Round string
	// Seed (nil: the reference's) and Workers (0: the reference's) are
	// the evaluator's; Interactive judges against the Interactive target
	// (an Interactive variant always is).
	Seed        *uint64
	Workers     int
	Interactive bool
	Eval        EvalSettings
}

// EvaluateLog evaluates the accuracy log r names (`mlperf-go evaluate`):
// it checks r, opens the dataset's accuracy set and calls Evaluate.
func EvaluateLog(ctx context.Context, r EvalRequest) (Scored, error) {
	b, err := benchmark.Lookup(r.Benchmark)
	if err != nil {
		return Scored{}, err
	}
	if err := submission.CheckRound(r.Round, nil); err != nil {
		return Scored{}, err
	}
	o := benchmark.EvalOptions{Benchmark: b, Seed: r.Seed, Workers: r.Workers, Interactive: r.Interactive || b.IsInteractive(), Round: r.Round}
	if err := r.Eval.Apply(&o, r.Dataset); err != nil {
		return Scored{}, err
	}
	logPath, err := accuracyLogPath(r.AccuracyLog)
	if err != nil {
		return Scored{}, err
	}
	d, err := b.OpenAccuracyDataset(r.Dataset, r.Splits)
	if err != nil {
		return Scored{}, err
	}
	defer d.Close()
	out := r.Output
	if out == "" {
		out = filepath.Join(filepath.Dir(logPath), record.AccuracyTxtFile)
	}
	scenario := benchmark.ScenarioOffline
	if o.Interactive {
		scenario = benchmark.ScenarioInteractive
	}
	return Evaluate(ctx, d, logPath, out, o, scenario)
}

// accuracyLogPath is the accuracy log --accuracy-log names: the file, or
// the one in the run folder it names (in accuracy/ of a --mode both run),
// so `evaluate -l runs/…/latest` takes the folder run printed.
func accuracyLogPath(p string) (string, error) {
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return p, nil // a file, or a path the evaluator reports missing
	}
	accDir := run.ModeName(loadgen.AccuracyOnly)
	for _, sub := range []string{"", accDir} {
		log := filepath.Join(p, sub, mllog.AccuracyFile)
		if _, err := os.Stat(log); err == nil {
			return log, nil
		}
	}
	return "", fmt.Errorf("--accuracy-log %s is a folder without %s (nor %s of a --mode both run): pass an accuracy run's folder or its log",
		p, mllog.AccuracyFile, filepath.Join(accDir, mllog.AccuracyFile))
}

// judge is score's scoring and verdict: the verdict and the evaluator's
// accuracy.txt, which it does not write.
func judge(ctx context.Context, d benchmark.Dataset, logPath string, o benchmark.EvalOptions, scenario string) (Scored, []byte, error) {
	ev, err := d.Evaluate(ctx, logPath, o)
	s := Scored{Report: ev.Report}
	if err != nil {
		return s, nil, err
	}
	content := ev.AccuracyTxt
	if content == nil {
		if ev.Failure != nil {
			return s, nil, failure{Failed, ev.Failure}
		}
		return s, nil, fmt.Errorf("the %s evaluator scored nothing (no accuracy.txt)", o.Benchmark.Name)
	}
	var v *record.Accuracy
	if n := loggedSamples(logPath); n >= 0 {
		v, err = submission.JudgePartialAccuracy(o.Benchmark.Name, o.Round, scenario, content, n)
	} else {
		v, err = submission.JudgeAccuracy(o.Benchmark.Name, o.Round, scenario, content)
	}
	if err != nil {
		return s, content, err
	}
	v.Scorer = ev.Scorer
	s.Accuracy = v
	switch {
	case ev.Failure != nil && v.Partial == "":
		// A partial log's failure is that it is partial (the samples
		// missing, a total short of its bound), which the verdict says.
		return s, content, failure{Failed, ev.Failure}
	case !v.Pass:
		return s, content, failure{Failed, fmt.Errorf("accuracy FAIL: %s", strings.Join(failedMetrics(v), ", "))}
	}
	return s, content, nil
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
