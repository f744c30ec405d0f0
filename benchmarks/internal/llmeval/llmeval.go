// Package llmeval holds what the token-ID LLM evaluators share (each opens
// the model's tokenizer with benchmark.EvalOptions.OpenTokenizer): the
// decode's clean-up of spaces, reading an accuracy log into the first
// answer of each sample, as the references do, and scoring exact-match
// answers (exactmatch.go).
package llmeval

import (
	"fmt"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/score/summarization"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// CleanUp returns how a decode with tok cleans up tokenization spaces
// under o: the decode option (tokenizer.CleanUpDefault, tok's own setting,
// unless --clean-up-spaces, o.CleanUpSpaces, sets it) and the value in
// effect with where it comes from, for the scorer's description.
func CleanUp(o benchmark.EvalOptions, tok *tokenizer.Tokenizer) (opt tokenizer.CleanUp, on bool, from string) {
	on, from = tok.CleanUpSpaces()
	if o.CleanUpSpaces == nil {
		return tokenizer.CleanUpDefault, on, from
	}
	if *o.CleanUpSpaces {
		return tokenizer.CleanUpOn, true, "--clean-up-spaces"
	}
	return tokenizer.CleanUpOff, false, "--clean-up-spaces"
}

// Answer is one sample's logged answer.
type Answer struct {
	// QSLIndex is the sample's index; Tokens its output token IDs.
	QSLIndex int
	Tokens   []int
}

// FirstAnswers returns, in log order, the first entry of each qsl_idx
// (the references drop later duplicates), its data read as little-endian
// int32 token IDs (the references' --dtype int32). Entries whose index is
// not below n or whose data is not whole int32s are errors naming them: the
// log checks run first and refuse such logs.
func FirstAnswers(entries []mllog.AccuracyEntry, n int) ([]Answer, error) {
	seen := make(map[int]bool, len(entries))
	out := make([]Answer, 0, min(len(entries), n))
	for i, e := range entries {
		if seen[e.QSLIndex] {
			continue
		}
		seen[e.QSLIndex] = true
		if e.QSLIndex >= n {
			return nil, fmt.Errorf("accuracy log entry %d: qsl_idx %d is outside the dataset's %d samples", i, e.QSLIndex, n)
		}
		ids, ok := mllog.AppendTokenIDs(make([]int, 0, len(e.Data)/mllog.Int32Size), e.Data, mllog.Int32Size)
		if !ok {
			return nil, fmt.Errorf("accuracy log entry %d (qsl_idx %d): %d bytes are not whole int32 token IDs", i, e.QSLIndex, len(e.Data))
		}
		out = append(out, Answer{QSLIndex: e.QSLIndex, Tokens: ids})
	}
	return out, nil
}

// WriteSummaryVerdicts writes o.Verdicts ("" writes nothing) for a ROUGE
// evaluation: per answer, the prediction as scored (post-processed: split
// into sentences, one a line), its ROUGE F-measures (0 to 1, before the
// mean and the × 100 of the printed result), its length in code points
// (what gen_len sums) and its token count.
func WriteSummaryVerdicts(o benchmark.EvalOptions, answers []Answer, preds []string, res *summarization.Result) error {
	if o.Verdicts == "" {
		return nil
	}
	vs := make([]benchmark.SampleVerdict, len(answers))
	for i, a := range answers {
		pred := summarization.Options{}.Postprocess(preds[i])
		p := res.Pairs[i]
		vs[i] = benchmark.SampleVerdict{Index: a.QSLIndex, Extracted: &pred, Metrics: map[string]float64{
			"rouge1": p.Rouge1.FMeasure, "rouge2": p.Rouge2.FMeasure, "rougeL": p.RougeL.FMeasure, "rougeLsum": p.RougeLsum.FMeasure,
			"gen_len": float64(utf8.RuneCountInString(pred)), "tokens": float64(len(a.Tokens)),
		}}
	}
	return benchmark.WriteVerdicts(o.Verdicts, vs)
}
