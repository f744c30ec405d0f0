package llama2

import (
	"context"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/llmeval"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/score/summarization"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// Evaluate scores an accuracy log as language/llama2-70b/evaluate-accuracy.py
// does (--dtype int32, as its README runs it), after the log checks: the
// first answer of each sample in log order, its token count summed into
// gen_tok_len, decoded with Llama 2's tokenizer as transformers' slow,
// sentencepiece-based LlamaTokenizer decodes (the script loads it with
// use_fast=False; special tokens skipped), post-processed and scored with
// ROUGE (score/summarization), returned (accuracy.txt) exactly as the script
// prints it under numpy 1 (numpy 2 would print np.float64(…), which the
// checker cannot read).
func (d dataset) Evaluate(ctx context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	entries, tok, ev, err := tokencheck.CheckLogForDecoding(logPath, AccuracyInfo(o.Benchmark.Name, d.Dataset), o)
	if err != nil {
		return ev, err
	}
	cleanUp, on, why := llmeval.CleanUp(o, tok)
	opt := tokenizer.DecodeOptions{SkipSpecialTokens: true, SlowLlama: true, CleanUp: cleanUp}
	answers, err := llmeval.FirstAnswers(entries, d.Len())
	if err != nil {
		return ev, err
	}
	ids := make([][]int, len(answers))
	targets := make([]string, len(answers))
	var genTokLen int64
	for i, a := range answers {
		ids[i], targets[i] = a.Tokens, d.Reference(a.QSLIndex)
		genTokLen += int64(len(a.Tokens))
	}
	preds, err := tok.BatchDecode(ids, opt)
	if err != nil {
		return ev, fmt.Errorf("decoding the answers with %s as the slow Llama 2 tokenizer: %w", tok.Path(), err)
	}
	res, err := summarization.Evaluate(ctx, preds, targets, summarization.Options{})
	if err != nil {
		return ev, err
	}
	if err := llmeval.WriteSummaryVerdicts(o, answers, preds, res); err != nil {
		return ev, err
	}
	out := res.Llama2Output(genTokLen)
	ev.Scorer = fmt.Sprintf("mlperf-go's port of language/llama2-70b/evaluate-accuracy.py: tokenizer %s decoded as the slow LlamaTokenizer (use_fast=False), clean_up_tokenization_spaces=%v (%s), nltk 3.9 punkt_tab English sentences, rouge_score 0.1.2 with the Porter stemmer",
		tok.Path(), on, why)
	ev.Report += "\n" + strings.TrimLeft(out, "\n") + "\nScored by " + ev.Scorer + "\n"
	ev.AccuracyTxt = []byte(out)
	return ev, nil
}
