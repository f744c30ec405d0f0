// Package summarization runs the summarization accuracy evaluation of
// mlcommons/inference's llama evaluators on decoded texts: the
// post-processing (strip, nltk.sent_tokenize, "\n".join), rouge_score per
// pair, the numpy aggregation and the exact line the scripts print
// (language/llama3.1-8b/evaluation.py and llama2-70b/evaluate-accuracy.py).
//
// It is its own package, not part of score/rouge, because these are the
// evaluators' choices (sentence splitting, np.mean, round, gen_len, the
// printed dict), not ROUGE's: rouge stays a metric that knows nothing of
// punkt or numpy.
package summarization

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/internal/pystr"
	"github.com/mlperf-go/mlperf-go/score/punkt"
	"github.com/mlperf-go/mlperf-go/score/rouge"
)

// Options tune Evaluate. The zero value is the reference evaluation.
type Options struct {
	// Splitter splits texts into sentences; nil is punkt's English model with
	// the nltk 3.9 character classes (punkt.NLTK39), as the targets were made.
	Splitter *punkt.Tokenizer
	// Workers is how many goroutines score pairs; 0 is GOMAXPROCS. The
	// result does not depend on it.
	Workers int
}

// Result is one evaluation.
type Result struct {
	// Rouge1, Rouge2, RougeL and RougeLsum are round(np.mean(F) * 100, 4)
	// of each metric's F-measures (numpy's mean and round: see pyfloat).
	Rouge1, Rouge2, RougeL, RougeLsum float64
	// GenLen is the sum of len(pred) over the post-processed predictions:
	// code points, "\n" joins included.
	GenLen int64
	// GenNum is the number of predictions.
	GenNum int
	// Pairs are the per-pair scores, in input order.
	Pairs []rouge.Scores
}

// Postprocess is postprocess_text for one text: stripped (Python's
// str.strip), split into sentences, joined with "\n".
func (o Options) Postprocess(text string) string {
	sp := o.Splitter
	if sp == nil {
		sp = defaultSplitter
	}
	return strings.Join(sp.Tokenize(pystr.Strip(text)), "\n")
}

var defaultSplitter = punkt.New(nil, punkt.NLTK39)

// Evaluate scores predictions against targets (same length, in qsl order,
// duplicates already dropped) as the reference scripts do. An empty input
// is an error, as it is for the scripts (evaluate's rouge indexes scores[0]).
// Cancelling ctx stops the scoring (a full set takes minutes) with ctx's
// error.
func Evaluate(ctx context.Context, predictions, targets []string, opt Options) (*Result, error) {
	if len(predictions) != len(targets) {
		return nil, fmt.Errorf("summarization: %d predictions but %d targets; pass one target per prediction", len(predictions), len(targets))
	}
	if len(predictions) == 0 {
		return nil, errors.New("summarization: no predictions to score")
	}
	res := &Result{GenNum: len(predictions), Pairs: make([]rouge.Scores, len(predictions))}
	lens := make([]int64, len(predictions))
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			sc := rouge.NewScorer(true)
			for i := w; i < len(predictions) && ctx.Err() == nil; i += workers {
				pred := opt.Postprocess(predictions[i])
				lens[i] = int64(pystr.Len(pred))
				res.Pairs[i] = sc.Score(opt.Postprocess(targets[i]), pred)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, n := range lens {
		res.GenLen += n
	}
	f := make([]float64, len(res.Pairs))
	for k, dst := range []*float64{&res.Rouge1, &res.Rouge2, &res.RougeL, &res.RougeLsum} {
		for i, p := range res.Pairs {
			f[i] = [4]rouge.Score{p.Rouge1, p.Rouge2, p.RougeL, p.RougeLsum}[k].FMeasure
		}
		*dst = pyfloat.RoundNumpy(float64(pyfloat.Mean(f)*100), 4)
	}
	return res, nil
}

// Llama31Output is what language/llama3.1-8b/evaluation.py prints (and what
// accuracy.txt holds): "\nResults\n\n" and the dict with the ROUGE values as
// strings, then gen_len and gen_num as plain integers (numpy 1 form; numpy 2
// prints np.int64(...), which the submission checker cannot read).
func (r *Result) Llama31Output() string {
	return fmt.Sprintf("\nResults\n\n{'rouge1': '%s', 'rouge2': '%s', 'rougeL': '%s', 'rougeLsum': '%s', 'gen_len': %d, 'gen_num': %d}\n",
		pyfloat.Repr(r.Rouge1), pyfloat.Repr(r.Rouge2), pyfloat.Repr(r.RougeL), pyfloat.Repr(r.RougeLsum), r.GenLen, r.GenNum)
}

// Llama2Output is what language/llama2-70b/evaluate-accuracy.py prints: the
// ROUGE values as numbers, gen_len, gen_num, gen_tok_len (genTokLen: the
// total number of output token IDs, before decoding) and tokens_per_sample,
// Python's round(gen_tok_len / gen_num, 1).
func (r *Result) Llama2Output(genTokLen int64) string {
	perSample := pyfloat.Round(float64(genTokLen)/float64(r.GenNum), 1)
	return fmt.Sprintf("\nResults\n\n{'rouge1': %s, 'rouge2': %s, 'rougeL': %s, 'rougeLsum': %s, 'gen_len': %d, 'gen_num': %d, 'gen_tok_len': %d, 'tokens_per_sample': %s}\n",
		pyfloat.Repr(r.Rouge1), pyfloat.Repr(r.Rouge2), pyfloat.Repr(r.RougeL), pyfloat.Repr(r.RougeLsum),
		r.GenLen, r.GenNum, genTokLen, pyfloat.Repr(perSample))
}
