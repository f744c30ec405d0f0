package exactmatch

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/score/answer"
)

// DatasetStats is one dataset's tally.
type DatasetStats struct {
	// Name is the lower-cased dataset name.
	Name string
	// Correct and Total count samples; Repeats is the dataset's entry of
	// DatasetRepeats (gpt-oss-120b) or 1.
	Correct, Total, Repeats int
}

// Report is the outcome of Score.
type Report struct {
	Variant answer.Variant
	// Samples are the graded samples in log order (after de-duplication
	// for deepseek-r1).
	Samples []Graded
	// Datasets are the per-dataset tallies, sorted by name.
	Datasets []DatasetStats
	// TotalCorrect and TotalSamples count all samples.
	TotalCorrect, TotalSamples int
	// OverallAccuracy is TotalCorrect/TotalSamples*100.
	OverallAccuracy float64
	// FinalScore, MaxScore and FinalScorePercentage are gpt-oss-120b's
	// repeat-weighted score: sum of correct/repeats, sum of total/repeats,
	// and their ratio × 100 — the exact_match the checker reads.
	FinalScore, MaxScore, FinalScorePercentage float64
	// ExactMatch is the metric the checker reads: FinalScorePercentage for
	// gpt-oss-120b, the mean of 100/0 per sample for deepseek-r1.
	ExactMatch float64
	// TokensPerSample is the mean output length in tokens. deepseek-r1's
	// evaluator prints it (the checker bounds it); gpt-oss-120b's does not,
	// so the checker's TOKENS_PER_SAMPLE limit never applies to it.
	TokensPerSample float64
	// Notes are what a reader of the score must know and the reference
	// does not print (e.g. a module the reference has loaded that the
	// answers' interpreter lacks); they never go into accuracy.txt.
	Notes []string
}

// newReport tallies graded samples the way the variant's reference does.
func newReport(v answer.Variant, graded []Graded) *Report {
	r := &Report{Variant: v, Samples: graded}
	byName := map[string]*DatasetStats{}
	tokens := 0
	for _, g := range graded {
		st := byName[g.DatasetKey]
		if st == nil {
			st = &DatasetStats{Name: g.DatasetKey, Repeats: 1}
			if rep, ok := DatasetRepeats[g.DatasetKey]; ok && v == answer.GPTOSS {
				st.Repeats = rep
			}
			byName[g.DatasetKey] = st
		}
		st.Total++
		if g.Correct {
			st.Correct++
			r.TotalCorrect++
		}
		tokens += g.Tokens
	}
	for _, st := range byName {
		r.Datasets = append(r.Datasets, *st)
	}
	sort.Slice(r.Datasets, func(i, j int) bool { return r.Datasets[i].Name < r.Datasets[j].Name })
	r.TotalSamples = len(graded)
	if r.TotalSamples > 0 {
		r.OverallAccuracy = float64(r.TotalCorrect) / float64(r.TotalSamples) * 100
		// pandas' mean of an integer column: a float64 sum over the count.
		r.TokensPerSample = float64(tokens) / float64(r.TotalSamples)
	}
	// Summed in sorted-name order, as the reference's dict (filled while
	// walking the sorted names) is iterated.
	for _, st := range r.Datasets {
		r.FinalScore += float64(st.Correct) / float64(st.Repeats)
		r.MaxScore += float64(st.Total) / float64(st.Repeats)
	}
	if r.MaxScore > 0 {
		r.FinalScorePercentage = r.FinalScore / r.MaxScore * 100
	}
	if v == answer.GPTOSS {
		r.ExactMatch = r.FinalScorePercentage
	} else if r.TotalSamples > 0 {
		// pandas' mean of the 100.0/0.0 prompt_accuracy column; the sum of
		// multiples of 100 is exact in any order.
		r.ExactMatch = float64(r.TotalCorrect) * 100 / float64(r.TotalSamples)
	}
	return r
}

// WriteTo writes what the reference prints on standard output, byte for
// byte: the accuracy.txt body the submission checker reads.
func (r *Report) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	if r.Variant == answer.DeepSeekR1 {
		fmt.Fprintf(&b, "\nResults\n\n{'exact_match': %s, 'tokens_per_sample': %s, 'num-samples': %d}\n",
			pyfloat.Repr(r.ExactMatch), pyfloat.Repr(r.TokensPerSample), r.TotalSamples)
	} else {
		r.writeGPTOSS(&b)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// writeGPTOSS is the print block at the end of eval_mlperf_accuracy.py.
func (r *Report) writeGPTOSS(b *strings.Builder) {
	eq, dash := strings.Repeat("=", 80), strings.Repeat("-", 80)
	fmt.Fprintf(b, "\n%s\nMLPerf Accuracy Evaluation Results\n%s\n", eq, eq)
	fmt.Fprintf(b, "Total samples evaluated: %d\n", r.TotalSamples)
	fmt.Fprintf(b, "Overall raw accuracy: %.2f%% (%d/%d)\n", r.OverallAccuracy, r.TotalCorrect, r.TotalSamples)
	fmt.Fprintf(b, "%s\n\nPer-Dataset Breakdown:\n%s\n", eq, dash)
	fmt.Fprintf(b, "%-25s %8s %8s %8s %10s %10s\n%s\n", "Dataset", "Correct", "Total", "Repeats", "Score", "Accuracy", dash)
	var formula, values, results, maxes []string
	for _, st := range r.Datasets {
		comp := float64(st.Correct) / float64(st.Repeats)
		acc := float64(st.Correct) / float64(st.Total) * 100
		fmt.Fprintf(b, "%-25s %8d %8d %8d %10.2f %9.2f%%\n", st.Name, st.Correct, st.Total, st.Repeats, comp, acc)
		formula = append(formula, fmt.Sprintf("%s/%d", st.Name, st.Repeats))
		values = append(values, fmt.Sprintf("%d/%d", st.Correct, st.Repeats))
		results = append(results, fmt.Sprintf("%.2f", comp))
		maxes = append(maxes, fmt.Sprintf("%d/%d", st.Total, st.Repeats))
	}
	fmt.Fprintf(b, "%s\n\nFinal Score Calculation:\n%s\n", eq, dash)
	fmt.Fprintf(b, "Formula: %s\n", strings.Join(formula, " + "))
	fmt.Fprintf(b, "Score:   = %s\n", strings.Join(values, " + "))
	fmt.Fprintf(b, "         = %s\n", strings.Join(results, " + "))
	fmt.Fprintf(b, "         = %.2f\n", r.FinalScore)
	fmt.Fprintf(b, "Max:     = %s\n", strings.Join(maxes, " + "))
	fmt.Fprintf(b, "         = %.2f\n", r.MaxScore)
	fmt.Fprintf(b, "\nFINAL SCORE: %.2f%% (%.2f/%.2f)\n%s\n", r.FinalScorePercentage, r.FinalScore, r.MaxScore, eq)
	fmt.Fprintf(b, "\n\nPrinting for submission_checker:\n\n'exact_match': %.3f\n", r.FinalScorePercentage)
}
