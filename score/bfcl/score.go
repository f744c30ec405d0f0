// Package bfcl scores BFCL v4 single-turn function calling (the
// qwen3.6-27b edge agentic benchmark) exactly as its reference,
// mlcommons/endpoints' BFCLv4Scorer (evaluation/bfcl_v4_scorer.py at
// ea33275) with bfcl-eval 2026.3.23's ast_checker, computes and prints
// it: hallucination subsets right when the output holds no native tool
// call; the other subsets extracted by FunctionCallExtractor and checked
// by ast_checker (types, possible values, optional parameters, any order
// for parallel calls); missing samples wrong; subset means, category
// aggregates (live sample-weighted, non_live with the simple_* subsets
// first averaged, hallucination unweighted), the normalized single-turn
// score and the overall mean, rounded as the reference rounds them.
package bfcl

import (
	"fmt"
	"math"
	"sort"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Categories are endpoints' CATEGORY_MAP for the gated single-turn
// categories, in its order.
var Categories = []struct {
	Name    string
	Subsets []string
}{
	{"non_live", []string{"simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple"}},
	{"live", []string{"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"}},
	{"hallucination", []string{"irrelevance", "live_irrelevance"}},
}

// simpleAST are _SIMPLE_AST_SUBSETS, averaged first in non_live.
var simpleAST = []string{"simple_python", "simple_java", "simple_javascript"}

// relevanceSubsets are scored right when a tool call was made (none is
// in the gated categories).
var relevanceSubsets = map[string]bool{"live_relevance": true}

// CategoryOf returns a subset's category ("" for none).
func CategoryOf(subset string) string {
	for _, c := range Categories {
		for _, s := range c.Subsets {
			if s == subset {
				return c.Name
			}
		}
	}
	return ""
}

// Sample is one row of the accuracy set as the scorer reads it.
type Sample struct {
	// Subset is the BFCL subset ("simple_python", "live_irrelevance").
	Subset string
	// GroundTruth is the dataset's ground_truth column: json.dumps of the
	// possible answers, or "[]".
	GroundTruth string
	// FuncDescription is its func_description column: json.dumps of the
	// BFCL function definitions ("" for none).
	FuncDescription string
}

// Output is one answer from the accuracy log.
type Output struct {
	// Index is the sample's index in the accuracy set.
	Index int
	// Text is what was scored: the serialized tool calls or the text.
	Text string
}

// SampleError is an exception the reference's Python raises while
// scoring a sample's output, which aborts its whole scoring run.
type SampleError struct {
	Index  int
	Subset string
	Err    error
}

func (e *SampleError) Error() string {
	return fmt.Sprintf("sample %d (%s): the reference scorer raises %v on this output, which ends its scoring run", e.Index, e.Subset, e.Err)
}

func (e *SampleError) Unwrap() error { return e.Err }

// Named is one named score, in the reference's order.
type Named struct {
	Name  string
	Value float64
}

// Result is what the scorer computes: Score is the overall accuracy as a
// fraction (the entry's "score"); the rest is score_breakdown().
type Result struct {
	Score float64
	// Overall and Normalized are round(x*100, 2).
	Overall, Normalized float64
	// Categories and Subsets are round(x*100, 2), in the order the
	// reference's dicts hold them.
	Categories, Subsets []Named
	// TotalSamples counts the answered samples, IssuedSamples every
	// sample.
	TotalSamples, IssuedSamples int
	// Scores are the per-sample scores (1 or 0) by index; missing samples
	// score 0.
	Scores []float64
	// Answered marks the samples the log answered; Empty those answered
	// with no text at all.
	Answered, Empty []bool
	// Calls are what extract() read from each answered sample's output,
	// the calls as JSON ("[]" when none), by index.
	Calls []string
	// Notes say, by index, why the reference may not share a sample's
	// verdict ("" for most; see ScoreSample).
	Notes []string
}

// ScoreSample scores one output of sample s: 1 or 0. The extraction runs
// first for every subset, as the reference extracts every row before
// scoring any.
//
// Its note, when not empty, says why the reference may not share the
// verdict: an answer nested so deeply that the reference may have raised
// RecursionError on it (pyval.UncertainDepth).
func ScoreSample(s Sample, text string) (v float64, note string, err error) {
	v, _, note, err = scoreOne(s, text)
	return v, note, err
}

// scoreOne is ScoreSample that also returns what extract() read: the
// calls as JSON ("[]" when none).
func scoreOne(s Sample, text string) (v float64, calls, note string, err error) {
	v, calls, err = scoreSample(s, text)
	if d := pyval.BracketDepth(text); err == nil && d >= pyval.UncertainDepth {
		note = fmt.Sprintf("brackets nested %d deep: CPython's json.loads raises RecursionError from %d levels when called directly and 2 levels fewer for each C call between it and its caller, so the reference may have stopped with that error where the port scored %g", d, pyval.MaxDepth+1, v)
	}
	return v, calls, note, err
}

// scoreSample is ScoreSample without the depth note.
func scoreSample(s Sample, text string) (float64, string, error) {
	ext, err := Extract(text)
	if err != nil {
		return 0, "", err
	}
	switch {
	case CategoryOf(s.Subset) == "hallucination":
		made, err := HasNativeToolCalls(text)
		return b2f(!made), ext.JSON, err
	case relevanceSubsets[s.Subset]:
		made, err := HasNativeToolCalls(text)
		return b2f(made), ext.JSON, err
	}
	var fd pyval.Value
	if s.FuncDescription != "" {
		if fd, err = pyval.Loads(s.FuncDescription); err != nil {
			return 0, ext.JSON, err
		}
	}
	v, err := scoreAST(ext.JSON, s.GroundTruth, fd, s.Subset)
	return v, ext.JSON, err
}

// Why says how sample s's score was decided.
func Why(s Sample) string {
	switch {
	case CategoryOf(s.Subset) == "hallucination":
		return s.Subset + ": right when the answer makes no native tool call"
	case relevanceSubsets[s.Subset]:
		return s.Subset + ": right when the answer makes a native tool call"
	}
	return s.Subset + ": the extracted calls checked against the ground truth by ast_checker"
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// scoreAST is BFCLv4Scorer._score_ast.
func scoreAST(value, groundTruth string, fd pyval.Value, subset string) (float64, error) {
	out, err := pyval.Loads(value)
	if err != nil {
		out = pyval.List()
	}
	hasCalls := out.Truth()
	expected, err := pyval.Loads(groundTruth)
	if err != nil {
		if pe, ok := err.(*pyval.Error); ok && pe.Type == "JSONDecodeError" {
			return 0, nil
		}
		return 0, err
	}
	if !expected.Truth() {
		return b2f(!hasCalls), nil
	}
	var calls []pyval.Value
	if out.Kind == pyval.ListKind {
		for _, call := range out.Items {
			if call.Kind != pyval.DictKind || !call.Has(pyval.Str("name")) {
				continue
			}
			args, ok := call.GetStr("arguments")
			if !ok {
				args = pyval.Dict()
			}
			if args.Kind == pyval.StrKind {
				v, err := pyval.Loads(args.Str)
				switch {
				case err == nil:
					args = v
				case isJSONOrValueError(err):
					args = pyval.Dict()
				default:
					return 0, err
				}
			}
			name, _ := call.GetStr("name")
			var d pyval.DictBuilder
			if err := d.Set(name, args); err != nil {
				return 0, err
			}
			calls = append(calls, d.Dict())
		}
	}
	if !fd.Truth() {
		fd = pyval.List()
	}
	ok, err := astCheck(fd, calls, expected, LanguageOf(subset), subset)
	return b2f(ok), err
}

// Score scores the outputs of an accuracy log against samples, as
// BFCLv4Scorer.score does. Outputs are taken in sample order (the order
// the reference's single worker completes them in, which orders its
// subset dict), the first of each index; indexes outside the set are
// ignored. A *SampleError is an output the reference cannot score.
func Score(samples []Sample, outputs []Output) (*Result, error) {
	byIndex := map[int]string{}
	var answered []int
	for _, o := range outputs {
		if o.Index < 0 || o.Index >= len(samples) {
			continue
		}
		if _, dup := byIndex[o.Index]; dup {
			continue
		}
		byIndex[o.Index] = o.Text
		answered = append(answered, o.Index)
	}
	sort.Ints(answered)
	r := &Result{
		IssuedSamples: len(samples), TotalSamples: len(answered),
		Scores: make([]float64, len(samples)), Answered: make([]bool, len(samples)), Empty: make([]bool, len(samples)),
		Calls: make([]string, len(samples)), Notes: make([]string, len(samples)),
	}
	if len(answered) == 0 {
		return r, nil
	}
	bySubset := map[string][]float64{}
	var order []string
	add := func(subset string, v float64) {
		if _, ok := bySubset[subset]; !ok {
			order = append(order, subset)
		}
		bySubset[subset] = append(bySubset[subset], v)
	}
	var all []float64
	for _, i := range answered {
		text := byIndex[i]
		v, calls, note, err := scoreOne(samples[i], text)
		if err != nil {
			return nil, &SampleError{Index: i, Subset: samples[i].Subset, Err: err}
		}
		r.Calls[i], r.Notes[i] = calls, note
		r.Scores[i], r.Answered[i], r.Empty[i] = v, true, text == ""
		add(samples[i].Subset, v)
		all = append(all, v)
	}
	for i := range samples {
		if !r.Answered[i] {
			add(samples[i].Subset, 0)
			all = append(all, 0)
		}
	}
	r.aggregate(bySubset, order, all)
	return r, nil
}

// aggregate computes the subset, category, normalized and overall
// scores with numpy's and Python 3.12's arithmetic.
func (r *Result) aggregate(bySubset map[string][]float64, order []string, all []float64) {
	means := map[string]float64{}
	for _, s := range order {
		means[s] = pyfloat.Mean(bySubset[s])
		r.Subsets = append(r.Subsets, Named{s, pyfloat.Round(means[s]*100, 2)})
	}
	var cats []float64
	for _, c := range Categories {
		var present []string
		for _, s := range c.Subsets {
			if _, ok := means[s]; ok {
				present = append(present, s)
			}
		}
		if len(present) == 0 {
			continue
		}
		var v float64
		switch c.Name {
		case "live": // sample_weighted
			total := 0
			var terms []float64
			for _, s := range present {
				total += len(bySubset[s])
				terms = append(terms, means[s]*float64(len(bySubset[s])))
			}
			v = pySum(terms) / float64(total)
		case "non_live": // hierarchical
			var simple, top []float64
			for _, s := range simpleAST {
				if m, ok := means[s]; ok {
					simple = append(simple, m)
				}
			}
			if len(simple) > 0 {
				top = append(top, pyfloat.Mean(simple))
			}
			for _, s := range present {
				if !isSimple(s) {
					top = append(top, means[s])
				}
			}
			v = pyfloat.Mean(top)
		default: // unweighted
			var xs []float64
			for _, s := range present {
				xs = append(xs, means[s])
			}
			v = pyfloat.Mean(xs)
		}
		cats = append(cats, v)
		r.Categories = append(r.Categories, Named{c.Name, pyfloat.Round(v*100, 2)})
	}
	norm := 0.0
	if len(cats) > 0 {
		norm = pyfloat.Mean(cats)
	}
	r.Score = pyfloat.Mean(all)
	r.Overall = pyfloat.Round(r.Score*100, 2)
	r.Normalized = pyfloat.Round(norm*100, 2)
}

func isSimple(s string) bool {
	for _, x := range simpleAST {
		if x == s {
			return true
		}
	}
	return false
}

// pySum is Python 3.12's sum() of floats: Neumaier's compensated
// summation, the compensation added at the end when finite.
func pySum(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	f, c := xs[0], 0.0
	for _, x := range xs[1:] {
		t := f + x
		if math.Abs(f) >= math.Abs(x) {
			c += (f - t) + x
		} else {
			c += (x - t) + f
		}
		f = t
	}
	if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
		f += c
	}
	return f
}
