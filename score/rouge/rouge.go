// Package rouge computes ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum exactly as
// rouge_score 0.1.2's RougeScorer(["rouge1", "rouge2", "rougeL",
// "rougeLsum"], use_stemmer=...).score(target, prediction) does, to the bit:
// the same tokens, the same LCS back-tracking for the summary-level union,
// and the same float64 operations in the same order.
package rouge

import (
	"github.com/mlperf-go/mlperf-go/score/porter"
)

// Score is rouge_score's scoring.Score.
type Score struct {
	Precision, Recall, FMeasure float64
}

// Scores are the four metrics of one target/prediction pair.
type Scores struct {
	Rouge1, Rouge2, RougeL, RougeLsum Score
}

// newScore computes the F-measure as scoring.fmeasure does:
// 2 * precision * recall / (precision + recall), or 0 when both are 0.
func newScore(precision, recall float64) Score {
	f := 0.0
	if precision+recall > 0 {
		f = float64(2*precision*recall) / (precision + recall)
	}
	return Score{precision, recall, f}
}

// Scorer scores pairs. It keeps the tokens it has seen (and their stems) to
// compare them as integers; it is not safe for concurrent use: give each
// goroutine its own.
type Scorer struct {
	stem  bool
	ids   map[string]int32 // raw token -> id of its (stemmed) form
	forms map[string]int32 // stemmed form -> id
	work  lcsWork
}

// NewScorer returns a Scorer; useStemmer is rouge_score's use_stemmer (the
// mlcommons evaluators pass true).
func NewScorer(useStemmer bool) *Scorer {
	return &Scorer{stem: useStemmer, ids: map[string]int32{}, forms: map[string]int32{}}
}

// text is a tokenized text: token ids, and where each line ("\n"-separated,
// as rougeLsum splits) ends in ids.
type text struct {
	ids      []int32
	lineEnds []int
}

// tokenize tokenizes t as rouge_score does, once for all four metrics: a
// "\n" is never part of a token, so the tokens of each line are the tokens
// of the whole text cut at the line ends. Empty lines are dropped as
// rougeLsum drops them; lines of only spaces keep an empty token list.
func (s *Scorer) tokenize(t string) text {
	var out text
	start := 0
	for i := 0; i <= len(t); i++ {
		if i < len(t) && t[i] != '\n' {
			continue
		}
		if i > start {
			words(t[start:i], func(w string) { out.ids = append(out.ids, s.id(w)) })
			out.lineEnds = append(out.lineEnds, len(out.ids))
		}
		start = i + 1
	}
	return out
}

// id returns the id of raw token w after stemming (tokens longer than three
// characters are stemmed, as rouge_score does).
func (s *Scorer) id(w string) int32 {
	if id, ok := s.ids[w]; ok {
		return id
	}
	form := w
	if s.stem && len(w) > 3 {
		form = porter.Stem(w)
	}
	id, ok := s.forms[form]
	if !ok {
		id = int32(len(s.forms))
		s.forms[form] = id
	}
	s.ids[w] = id
	return id
}

// Score returns RougeScorer.score(target, prediction) for the four metrics.
func (s *Scorer) Score(target, prediction string) Scores {
	t, p := s.tokenize(target), s.tokenize(prediction)
	return Scores{
		Rouge1:    ngramScore(t.ids, p.ids, 1),
		Rouge2:    ngramScore(t.ids, p.ids, 2),
		RougeL:    s.lcsScore(t.ids, p.ids),
		RougeLsum: s.summaryLCSScore(t, p),
	}
}

// ngramScore is _score_ngrams over _create_ngrams: matches are the sum over
// target n-grams of the smaller count; precision divides by the number of
// prediction n-grams and recall by the number of target n-grams (each at
// least 1).
func ngramScore(target, pred []int32, n int) Score {
	key := func(ids []int32, i int) uint64 {
		k := uint64(uint32(ids[i]))
		if n == 2 {
			k = k<<32 | uint64(uint32(ids[i+1]))
		}
		return k
	}
	counts := map[uint64]int{}
	nt := max(len(target)-n+1, 0)
	np := max(len(pred)-n+1, 0)
	for i := range nt {
		counts[key(target, i)]++
	}
	matches := 0
	for i := range np {
		k := key(pred, i)
		if counts[k] > 0 {
			counts[k]--
			matches++
		}
	}
	return newScore(float64(matches)/float64(max(np, 1)), float64(matches)/float64(max(nt, 1)))
}
