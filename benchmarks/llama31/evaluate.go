package llama31

import (
	"context"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/llmeval"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/score/summarization"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// roundCleanUp is clean_up_tokenization_spaces as the round's targets were
// computed: the Llama 3.1 tokenizer_config.json said true until transformers
// PR #44914 (2026-03) and the Hub fixes that followed; the v6.0 and v6.1
// targets predate them. A tokenizer downloaded later may say false, so the
// evaluator sets the round's value unless told otherwise.
var roundCleanUp = map[string]bool{round.V60: true, round.V61: true}

// Evaluate scores an accuracy log as language/llama3.1-8b/evaluation.py
// does, after the log checks (coverage, token counts, vocabulary): the
// first answer of each sample in log order, decoded with the model's
// tokenizer (special tokens skipped, the round's clean-up), post-processed
// and scored with ROUGE (score/summarization), returned (accuracy.txt) exactly as
// the script prints it.
func (d dataset) Evaluate(ctx context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	entries, tok, ev, err := tokencheck.CheckLogForDecoding(logPath, AccuracyInfo(o.Benchmark.Name, d.Dataset), o)
	if err != nil {
		return ev, err
	}
	cleanUp, why := roundCleanUp[o.Round], "the round's ("+o.Round+") choice"
	if o.Round == "" {
		cleanUp, why = true, "the current round's choice"
	}
	if o.CleanUpSpaces != nil {
		cleanUp, why = *o.CleanUpSpaces, "--clean-up-spaces"
	}
	if file, from := tok.CleanUpSpaces(); file != cleanUp {
		why += fmt.Sprintf("; %s says %v", from, file)
	}
	tok.SetCleanUpSpaces(cleanUp, why)

	answers, err := llmeval.FirstAnswers(entries, d.Len())
	if err != nil {
		return ev, err
	}
	ids := make([][]int, len(answers))
	targets := make([]string, len(answers))
	for i, a := range answers {
		ids[i], targets[i] = a.Tokens, d.Reference(a.QSLIndex)
	}
	preds, err := tok.BatchDecode(ids, tokenizer.DecodeOptions{SkipSpecialTokens: true})
	if err != nil {
		return ev, fmt.Errorf("decoding the answers with %s: %w", tok.Path(), err)
	}
	res, err := summarization.Evaluate(ctx, preds, targets, summarization.Options{})
	if err != nil {
		return ev, err
	}
	if err := llmeval.WriteSummaryVerdicts(o, answers, preds, res); err != nil {
		return ev, err
	}
	out := res.Llama31Output()
	ev.Scorer = fmt.Sprintf("mlperf-go's port of language/llama3.1-8b/evaluation.py: tokenizer %s, clean_up_tokenization_spaces=%v (%s), nltk 3.9 punkt_tab English sentences, rouge_score 0.1.2 with the Porter stemmer",
		tok.Path(), cleanUp, why)
	ev.Report += "\n" + strings.TrimLeft(out, "\n") + "\nScored by " + ev.Scorer + "\n"
	ev.AccuracyTxt = []byte(out)
	return ev, nil
}
