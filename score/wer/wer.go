// Package wer is the word error rate of MLPerf's speech-to-text benchmark
// (whisper) as its evaluator, speech2text/accuracy_eval.py
// (mlcommons/inference), computes it: each transcript and reference
// normalized with whisper's EnglishTextNormalizer (score/whispernorm) and
// split into words, words aligned greedily so that up to three words
// written together on one side match the same words written apart on the
// other (helpers.py compute_wer_with_concatenation), then the word-level
// Levenshtein distance of the aligned lists over the reference's word
// count, summed over samples. Line prints the result as the script does.
package wer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/score/whispernorm"
)

// Result is the word error count of a set of transcripts.
type Result struct {
	// Errors is the summed word-level edit distance after alignment.
	Errors int
	// Words is the summed number of reference words (normalized).
	Words int
	// Samples is the number of transcripts scored.
	Samples int
}

// Scored is one transcript as word_error_rate scores it.
type Scored struct {
	// Hyp and Ref are the normalized transcript and reference.
	Hyp, Ref string
	// Errors is the word-level edit distance after alignment; Words the
	// number of reference words.
	Errors, Words int
}

// Add scores one transcript (hyp) against its reference (ref), both raw
// text, as word_error_rate does inside its loop, and returns that sample's
// part.
func (r *Result) Add(hyp, ref string) Scored {
	s := Scored{Hyp: whispernorm.Normalize(hyp), Ref: whispernorm.Normalize(ref)}
	s.Errors, s.Words = Sample(strings.Fields(s.Hyp), strings.Fields(s.Ref))
	r.Errors += s.Errors
	r.Words += s.Words
	r.Samples++
	return s
}

// ErrNoWords is returned for a set whose references have no word: the
// reference divides by zero there (ZeroDivisionError).
var ErrNoWords = errors.New("the references have no words, so the word error rate is undefined (the reference evaluator raises ZeroDivisionError)")

// WER returns Errors / Words, as Python's true division of the two ints.
func (r Result) WER() (float64, error) {
	if r.Words == 0 {
		return 0, ErrNoWords
	}
	return float64(r.Errors) / float64(r.Words), nil
}

// Line returns what accuracy_eval.py prints:
//
//	Word Error Rate: {wer*100}%, accuracy={(1-wer)*100}%
//
// with Python's str() of each float, so the checker's ACC_PATTERN
// (`Word Error Rate\:.*, accuracy=([0-9\.]+)%`) reads the same number.
func (r Result) Line() (string, error) {
	wer, err := r.WER()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Word Error Rate: %s%%, accuracy=%s%%", pyfloat.Repr(wer*100), pyfloat.Repr((1-wer)*100)), nil
}

// Sample is compute_wer_with_concatenation(hyp, ref) on normalized,
// split words: the edit distance after the concatenation-aware alignment,
// and len(ref). An empty reference still counts the distance (every
// hypothesis word), with 0 words, as the reference's return does.
func Sample(hyp, ref []string) (distance, words int) {
	refAligned, hypAligned := align(hyp, ref)
	return Levenshtein(refAligned, hypAligned), len(ref)
}

// align is the alignment loop of compute_wer_with_concatenation. Walking
// both lists, an exact match pairs one word with one; otherwise, for
// k = 1, 2, 3 in turn, k reference words joined equal to the hypothesis
// word, or k hypothesis words joined equal to the reference word, pair as
// one (the reference side tried first for each k); failing both, the two
// words pair as a substitution. What is left of either list stays unpaired.
// It returns each side's paired items with their spaces removed, as the
// reference builds ref_aligned and hyp_aligned.
func align(hyp, ref []string) (refAligned, hypAligned []string) {
	i, j := 0, 0
	for i < len(ref) && j < len(hyp) {
		rn, hn := 1, 1
		if ref[i] != hyp[j] {
			rn, hn = concatMatch(hyp, ref, i, j)
		}
		refAligned = append(refAligned, strings.Join(ref[i:i+rn], ""))
		hypAligned = append(hypAligned, strings.Join(hyp[j:j+hn], ""))
		i += rn
		j += hn
	}
	refAligned = append(refAligned, ref[i:]...)
	hypAligned = append(hypAligned, hyp[j:]...)
	return refAligned, hypAligned
}

// concatMatch returns how many reference and hypothesis words pair at
// (i, j) when the two words differ: a concatenation of up to three words
// on one side equal to the single word on the other, else one and one.
func concatMatch(hyp, ref []string, i, j int) (rn, hn int) {
	for k := 1; k <= 3; k++ {
		if i+k <= len(ref) && joined(ref[i:i+k]) == hyp[j] {
			return k, 1
		}
		if j+k <= len(hyp) && joined(hyp[j:j+k]) == ref[i] {
			return 1, k
		}
	}
	return 1, 1
}

func joined(ws []string) string {
	if len(ws) == 1 {
		return ws[0]
	}
	return strings.Join(ws, "")
}

// Levenshtein is legacy_helpers.py's __levenshtein: the word-level edit
// distance of a and b (insertions, deletions and substitutions cost 1).
func Levenshtein(a, b []string) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	cur := make([]int, len(a)+1)
	prev := make([]int, len(a)+1)
	for j := range cur {
		cur[j] = j
	}
	for i := 1; i <= len(b); i++ {
		prev, cur = cur, prev
		cur[0] = i
		for j := 1; j <= len(a); j++ {
			change := prev[j-1]
			if a[j-1] != b[i-1] {
				change++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, change)
		}
	}
	return cur[len(a)]
}
