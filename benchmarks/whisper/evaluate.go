package whisper

import (
	"context"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol/openaiaudio"
	"github.com/mlperf-go/mlperf-go/score/wer"
)

// Scorer names what computes the score, for the run record.
const Scorer = "mlperf-go's port of speech2text/accuracy_eval.py (mlcommons/inference b66003e1): " +
	"whisper's EnglishTextNormalizer of openai-whisper 20250625, compute_wer_with_concatenation"

// Evaluate scores an accuracy log as speech2text/accuracy_eval.py does:
// every entry in log order (duplicates included), its data read as int64
// labels and turned back into text, scored against its sample's reference
// transcript with the word error rate (score/wer), and the script's line
// as accuracy.txt:
//
//	Word Error Rate: X%, accuracy=Y%
//
// A log that does not cover every sample is scored all the same, and
// fails.
func (d *Dataset) Evaluate(_ context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return benchmark.Evaluation{}, err
	}
	// Every entry counts, duplicates too, as in the reference: one verdict
	// line each.
	var verdicts []benchmark.SampleVerdict
	res, covered, err := d.score(entries, func(qsl int, s wer.Scored) {
		if o.Verdicts != "" {
			verdicts = append(verdicts, benchmark.SampleVerdict{Index: qsl, Extracted: &s.Hyp,
				Metrics: map[string]float64{"word_errors": float64(s.Errors), "reference_words": float64(s.Words)},
				Why:     "normalized reference: " + s.Ref})
		}
	})
	if err != nil {
		return benchmark.Evaluation{}, fmt.Errorf("%s: %w", logPath, err)
	}
	if err := benchmark.WriteVerdicts(o.Verdicts, verdicts); err != nil {
		return benchmark.Evaluation{}, err
	}
	line, err := res.Line()
	if err != nil {
		return benchmark.Evaluation{}, fmt.Errorf("%s: %w", logPath, err)
	}
	ev := benchmark.Evaluation{Scorer: Scorer}
	var rep strings.Builder
	fmt.Fprintf(&rep, "%d answers for %d of the %d samples; %d word errors in %d reference words\n",
		len(entries), covered, d.Len(), res.Errors, res.Words)
	if covered < d.Len() {
		ev.Failure = fmt.Errorf("the accuracy log answers %d of the %d samples: an accuracy run covers them all", covered, d.Len())
	}
	ev.AccuracyTxt = []byte(d.Output(line))
	fmt.Fprintf(&rep, "%s\nScored by %s\n", line, Scorer)
	ev.Report = rep.String()
	return ev, nil
}

// Output is what accuracy_eval.py prints for this dataset and its result
// line: the manifest's warnings, then the line.
func (d *Dataset) Output(line string) string {
	var b strings.Builder
	for _, w := range d.Warnings {
		b.WriteString(w + "\n")
	}
	return b.String() + line + "\n"
}

// Score scores log entries against d and returns the word errors and how
// many distinct samples the entries answer. An entry whose data is not
// int64 labels, or whose sample is not in d, is an error, as the reference
// script stops there.
func (d *Dataset) Score(entries []mllog.AccuracyEntry) (wer.Result, int, error) {
	return d.score(entries, nil)
}

// score is Score, calling each (when not nil) with each entry's part.
func (d *Dataset) score(entries []mllog.AccuracyEntry, each func(qsl int, s wer.Scored)) (wer.Result, int, error) {
	var res wer.Result
	seen := make([]bool, d.Len())
	covered := 0
	for i, e := range entries {
		if e.QSLIndex < 0 || e.QSLIndex >= d.Len() {
			return res, 0, fmt.Errorf("entry %d: qsl_idx %d is outside the %d-sample dataset", i, e.QSLIndex, d.Len())
		}
		hyp, err := openaiaudio.LabelText(e.Data)
		if err != nil {
			return res, 0, fmt.Errorf("entry %d (qsl_idx %d): %w", i, e.QSLIndex, err)
		}
		s := res.Add(hyp, d.samples[e.QSLIndex].Transcript)
		if each != nil {
			each(e.QSLIndex, s)
		}
		if !seen[e.QSLIndex] {
			seen[e.QSLIndex] = true
			covered++
		}
	}
	return res, covered, nil
}

// EvaluatorCommand returns the official evaluator's command line for an
// accuracy log, to run from speech2text/ of a mlcommons/inference checkout
// with openai-whisper installed.
func EvaluatorCommand(logDir, datasetDir string) string {
	return "python3 accuracy_eval.py --log_dir " + logDir + " --dataset_dir " + datasetDir +
		" --manifest " + datasetDir + "/" + ManifestFile + " --output_dtype int64"
}
