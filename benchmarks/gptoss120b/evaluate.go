package gptoss120b

import (
	"context"
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/llmeval"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/score/answer"
	"github.com/mlperf-go/mlperf-go/score/exactmatch"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// Evaluate scores an accuracy log as language/gpt-oss-120b/
// eval_mlperf_accuracy.py does, after the log checks: every entry decoded
// with the model's tokenizer keeping special tokens (the harmony channel
// markers the answer extraction reads), graded per sub-dataset (multiple
// choice, AIME integers, LiveCodeBench tests run in a sandbox), the score
// returned as the script prints it (accuracy.txt).
func (d dataset) Evaluate(ctx context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	entries, tok, ev, err := tokencheck.CheckLogForDecoding(logPath, AccuracyInfo(o.Benchmark.Name, d.Dataset), o)
	if err != nil {
		return ev, err
	}
	cleanUp, _, _ := llmeval.CleanUp(o, tok)
	opt := tokenizer.DecodeOptions{CleanUp: cleanUp} // special tokens kept
	res, out, err := llmeval.ScoreExactMatch(ctx, o, entries, d.Dataset, tok, opt, "release_v6", &exactmatch.Scorer{Variant: answer.GPTOSS})
	if err != nil {
		return ev, err
	}
	ev.Scorer = fmt.Sprintf("mlperf-go's port of language/gpt-oss-120b/eval_mlperf_accuracy.py: tokenizer %s (special tokens kept), LiveCodeBench tests in a network-less python3 sandbox", tok.Path())
	ev.Report += "\n" + out + "\n" + llmeval.NotesText(res) + "Scored by " + ev.Scorer + "\n"
	ev.AccuracyTxt = []byte(out)
	return ev, nil
}
