package llmeval

import (
	"context"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/score/codetest"
	"github.com/mlperf-go/mlperf-go/score/exactmatch"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// ExactMatchSamples decodes every accuracy-log entry (in log order; the
// scorer drops duplicates where its reference does) and joins it with its
// dataset row: the row's sub-dataset and ground truth. Entries outside the
// dataset are left out, as the references skip them; the returned count
// says how many.
func ExactMatchSamples(entries []mllog.AccuracyEntry, d *tokenset.Dataset, tok *tokenizer.Tokenizer, opt tokenizer.DecodeOptions) ([]exactmatch.Sample, int, error) {
	samples := make([]exactmatch.Sample, 0, len(entries))
	skipped := 0
	for i, e := range entries {
		ids, ok := mllog.AppendTokenIDs(make([]int, 0, len(e.Data)/mllog.Int32Size), e.Data, mllog.Int32Size)
		if e.QSLIndex >= d.Len() || !ok {
			skipped++
			continue
		}
		text, err := tok.Decode(ids, opt)
		if err != nil {
			return nil, 0, fmt.Errorf("accuracy log entry %d (qsl_idx %d): %w", i, e.QSLIndex, err)
		}
		// pd.isna(ground_truth) skips None and NaN; an empty string grades
		// wrong everywhere (`not ground_truth`, int("")), so it counts as
		// missing too. A whitespace-only one is graded: MATH-500's
		// grade_answer normalizes it to "", which an answer normalizing to ""
		// matches.
		gt, typ := d.Reference(e.QSLIndex), d.ReferenceType(e.QSLIndex)
		samples = append(samples, exactmatch.Sample{
			QSLIndex: e.QSLIndex, Dataset: d.Meta(e.QSLIndex).Dataset,
			GroundTruth: gt, GroundTruthFloat: typ == tokenset.RefFloat,
			MissingGroundTruth: typ == tokenset.RefNone || gt == "",
			Output:             text,
			Tokens:             len(ids),
		})
	}
	return samples, skipped, nil
}

// CodeTests prepares what a scorer needs for the LiveCodeBench answers of
// samples: the problems from o.LiveCodeBench and a sandboxed runner. With no
// code answer it returns nothing; with code answers but no problems file it
// is an error saying which flag to pass, never a zero score. Close the
// runner when done; cancelling ctx kills its processes.
func CodeTests(ctx context.Context, o benchmark.EvalOptions, samples []exactmatch.Sample, release string) (map[string]codetest.Problem, *codetest.Runner, error) {
	n := 0
	for _, s := range samples {
		if strings.Contains(strings.ToLower(s.Dataset), "livecodebench") {
			n++
		}
	}
	if n == 0 {
		return nil, nil, nil
	}
	if o.LiveCodeBench == "" {
		return nil, nil, fmt.Errorf("the log has %d LiveCodeBench answers, whose tests come from LiveCodeBench's code_generation_lite (%s): pass --livecodebench PATH (its .jsonl files, or the folder holding them); a subset that cannot be tested is never scored as zero", n, release)
	}
	problems, err := codetest.LoadLCB(o.LiveCodeBench)
	if err != nil {
		return nil, nil, err
	}
	runner, err := codetest.New(ctx, codetest.Options{Python: o.Python})
	if err != nil {
		return nil, nil, fmt.Errorf("the LiveCodeBench answers cannot be run: %w", err)
	}
	return problems, runner, nil
}

// ReportText is rep as the reference's script prints it, accuracy.txt's
// content.
func ReportText(rep *exactmatch.Report) (string, error) {
	var b strings.Builder
	if _, err := rep.WriteTo(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Score runs the scorer, closing the runner after. The report's Notes name
// the modules the reference has loaded that the runner's interpreter lacks.
func Score(ctx context.Context, s *exactmatch.Scorer, runner *codetest.Runner, samples []exactmatch.Sample) (*exactmatch.Report, error) {
	if runner != nil {
		defer runner.Close()
		s.Code = runner
	}
	rep, err := s.Score(ctx, samples)
	if err != nil || runner == nil {
		return rep, err
	}
	if m := runner.Missing(); len(m) > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the LiveCodeBench interpreter cannot import %s, which the reference's process has loaded: answers importing them failed here and may pass in the reference; install them (pip install %s) or pass --python with an interpreter that has them",
			strings.Join(m, ", "), strings.Join(m, " ")))
	}
	return rep, nil
}

// NotesText is rep's notes as lines for the evaluation's report, or "".
func NotesText(rep *exactmatch.Report) string {
	var b strings.Builder
	for _, n := range rep.Notes {
		b.WriteString("Note: " + n + "\n")
	}
	return b.String()
}

// ScoreExactMatch scores an exact-match benchmark's log as its reference
// does: entries decoded with tok and opt and joined with
// d (ExactMatchSamples), the LiveCodeBench answers tested against
// release's problems (CodeTests), everything graded by s (its Problems
// and Code set here). It returns the report and its text (accuracy.txt).
func ScoreExactMatch(ctx context.Context, o benchmark.EvalOptions, entries []mllog.AccuracyEntry, d *tokenset.Dataset, tok *tokenizer.Tokenizer, opt tokenizer.DecodeOptions, release string, s *exactmatch.Scorer) (*exactmatch.Report, string, error) {
	samples, _, err := ExactMatchSamples(entries, d, tok, opt)
	if err != nil {
		return nil, "", err
	}
	problems, runner, err := CodeTests(ctx, o, samples, release)
	if err != nil {
		return nil, "", err
	}
	s.Problems = problems
	res, err := Score(ctx, s, runner, samples)
	if err != nil {
		return nil, "", err
	}
	out, err := ReportText(res)
	if err != nil {
		return nil, "", err
	}
	if err := benchmark.WriteVerdicts(o.Verdicts, exactMatchVerdicts(res)); err != nil {
		return nil, "", err
	}
	return res, out, nil
}

// exactMatchVerdicts are the graded samples as per-sample verdicts.
func exactMatchVerdicts(res *exactmatch.Report) []benchmark.SampleVerdict {
	vs := make([]benchmark.SampleVerdict, len(res.Samples))
	for i, g := range res.Samples {
		vs[i] = benchmark.SampleVerdict{Index: g.QSLIndex, Subset: g.DatasetKey,
			Extracted: benchmark.Extracted(g.Answer, g.HasAnswer), Correct: benchmark.Verdict(g.Correct), Why: g.Detail}
	}
	return vs
}
