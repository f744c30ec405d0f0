package deepseekr1

import (
	"context"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/llmeval"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/score/answer"
	"github.com/mlperf-go/mlperf-go/score/exactmatch"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// Evaluate scores an accuracy log as language/deepseek-r1/eval_accuracy.py
// does (process_mlperf_log_accuracy, --dtype int32), after the log checks:
// the first entry of each qsl_idx in log order (entries beyond the dataset
// skipped), decoded with DeepSeek-R1's tokenizer with special tokens
// skipped (the script asks for use_fast=False, but DeepSeek-R1's
// tokenizer_config.json names LlamaTokenizerFast, which transformers then
// loads as it is: the fast tokenizer), graded per sub-dataset
// (score/exactmatch: GPQA and MMLU-Pro letters, AIME integers, MATH-500
// \boxed{} answers through PRM800K's grader with o.PRM800K for what needs
// sympy, LiveCodeBench release_v1 tests from o.LiveCodeBench run in a
// sandbox), and returned as the script prints it (accuracy.txt): exact_match,
// tokens_per_sample (the mean count of logged token IDs) and num-samples.
func (d dataset) Evaluate(ctx context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	return d.evaluate(ctx, logPath, o, nil)
}

// evaluate is Evaluate with the MATH grader's fallback for the pairs Go
// cannot settle given (tests give the reference's recorded verdicts); nil
// runs PRM800K's grade_answer from o.PRM800K under o.Python when one is
// needed.
func (d dataset) evaluate(ctx context.Context, logPath string, o benchmark.EvalOptions, fallback mathFallback) (benchmark.Evaluation, error) {
	entries, tok, ev, err := tokencheck.CheckLogForDecoding(logPath, AccuracyInfo(o.Benchmark.Name, d.Dataset), o)
	if err != nil {
		return ev, err
	}
	cleanUp, on, from := llmeval.CleanUp(o, tok)
	opt := tokenizer.DecodeOptions{SkipSpecialTokens: true, CleanUp: cleanUp}
	math := newMathGrader(ctx, o, fallback)
	defer math.Close()
	res, out, err := llmeval.ScoreExactMatch(ctx, o, entries, d.Dataset, tok, opt, LiveCodeBenchRelease, &exactmatch.Scorer{Variant: answer.DeepSeekR1, Math: math})
	if err != nil {
		return ev, err
	}
	ev.Scorer = fmt.Sprintf("mlperf-go's port of language/deepseek-r1/eval_accuracy.py: tokenizer %s (special tokens skipped, clean_up_tokenization_spaces=%v from %s), MATH-500 by PRM800K's grade_answer (%s), LiveCodeBench %s tests in a network-less python3 sandbox",
		tok.Path(), on, from, math.describe(), LiveCodeBenchRelease)
	ev.Report += "\n" + subsetTable(res) + "\n" + strings.TrimLeft(out, "\n") + "\n" + llmeval.NotesText(res) + "Scored by " + ev.Scorer + "\n"
	ev.AccuracyTxt = []byte(out)
	return ev, nil
}

// subsetTable lists the score of each sub-dataset, which the reference
// logs as it goes.
func subsetTable(r *exactmatch.Report) string {
	var b strings.Builder
	b.WriteString("Per sub-dataset (first answer of each sample):\n")
	for _, s := range r.Datasets {
		fmt.Fprintf(&b, "  %-24s %5d / %-5d correct (%.1f%%)\n", s.Name, s.Correct, s.Total, 100*float64(s.Correct)/float64(s.Total))
	}
	return b.String()
}
