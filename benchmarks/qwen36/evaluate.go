package qwen36

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/score/bfcl"
)

// The accuracy gate the reference's ruleset applies
// (config/rulesets/mlcommons/models.py, Qwen3_6_27B; the policy's
// "97% of validated Q4_K_M reference"): each breakdown metric at least
// 0.97 × the reference's.
const (
	refOverall    = 86.23
	refNormalized = 87.96
	gateFactor    = 0.97
)

// CheckerLinePrefix starts the accuracy.txt line the v6.1 checker's
// pattern for qwen3.6-27b reads (ACC_PATTERN["mAP"],
// `.*(?:mAP=|'Total':)\s*([\d.]+)`). The reference prints no such line:
// mlperf-go adds it with the overall accuracy so the checker's bound can
// be judged.
const CheckerLinePrefix = "mAP="

// Evaluate scores the log as endpoints' BFCLv4Scorer does (package
// bfcl), writes accuracy.txt (the reference's accuracy_results.json entry,
// then the checker's line) and fails when the reference's gate is missed.
func (d *Dataset) Evaluate(_ context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return benchmark.Evaluation{}, err
	}
	outputs := make([]bfcl.Output, 0, len(entries))
	seen := map[int]bool{}
	dups := 0
	for _, e := range entries {
		if e.QSLIndex < 0 || e.QSLIndex >= d.Len() {
			return benchmark.Evaluation{}, fmt.Errorf("%s: qsl_idx %d is outside the %d-sample accuracy set: the log is not of this dataset", logPath, e.QSLIndex, d.Len())
		}
		if seen[e.QSLIndex] {
			dups++
		}
		seen[e.QSLIndex] = true
		text := string(e.Data)
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD")
		}
		outputs = append(outputs, bfcl.Output{Index: e.QSLIndex, Text: text})
	}
	res, err := bfcl.Score(d.Samples(), outputs)
	if err != nil {
		var se *bfcl.SampleError
		if errors.As(err, &se) {
			err = fmt.Errorf("%w (sample %s)", err, d.rows[se.Index].SampleID)
		}
		return benchmark.Evaluation{}, err
	}
	if err := benchmark.WriteVerdicts(o.Verdicts, d.verdicts(res)); err != nil {
		return benchmark.Evaluation{}, err
	}
	ev := benchmark.Evaluation{
		Report:      d.report(res, dups),
		AccuracyTxt: []byte(AccuracyTxt(res)),
		Scorer:      fmt.Sprintf("mlcommons/endpoints BFCLv4Scorer with bfcl-eval %s's ast_checker, ported to Go (score/bfcl)", bfclVersion),
	}
	if fails := Gate(res); len(fails) > 0 {
		ev.Failure = fmt.Errorf("the reference's accuracy gate: %s", strings.Join(fails, "; "))
	}
	return ev, nil
}

// verdicts are the samples as scored, in index order: the calls extract()
// read (null for a sample the log does not answer, scored 0), the verdict
// and how it was decided, with the note of a verdict the reference may not
// share.
func (d *Dataset) verdicts(r *bfcl.Result) []benchmark.SampleVerdict {
	samples := d.Samples()
	vs := make([]benchmark.SampleVerdict, len(samples))
	for i, s := range samples {
		why := bfcl.Why(s)
		if !r.Answered[i] {
			why = "not answered in the log: scored 0, as the reference scores a missing sample"
		} else if r.Notes[i] != "" {
			why += "; " + r.Notes[i]
		}
		vs[i] = benchmark.SampleVerdict{Index: i, Subset: s.Subset, Extracted: benchmark.Extracted(r.Calls[i], r.Answered[i]),
			Correct: benchmark.Verdict(r.Scores[i] == 1), Why: why}
	}
	return vs
}

// AccuracyTxt is what accuracy.txt holds: the reference's entry, then the
// line for the v6.1 checker (CheckerLinePrefix and the overall accuracy).
func AccuracyTxt(r *bfcl.Result) string {
	return r.Entry() + "\n" + CheckerLinePrefix + pyfloat.Repr(r.Overall) + "\n"
}

// Gate returns what misses the reference's gate (empty when it passes):
// overall and normalized accuracy each at least 0.97 × the reference's,
// compared as endpoints' compliance checker compares them.
func Gate(r *bfcl.Result) []string {
	var fails []string
	for _, m := range []struct {
		name     string
		got, ref float64
	}{{"overall_accuracy", r.Overall, refOverall}, {"normalized_single_turn_score", r.Normalized, refNormalized}} {
		if bound := m.ref * gateFactor; m.got < bound {
			fails = append(fails, fmt.Sprintf("%s %s < %s (%g × %g)", m.name, pyfloat.Repr(m.got), pyfloat.Repr(bound), gateFactor, m.ref))
		}
	}
	return fails
}

// report is what evaluate prints.
func (d *Dataset) report(r *bfcl.Result, dups int) string {
	var b strings.Builder
	b.WriteString(d.Describe())
	fmt.Fprintf(&b, "%-24s %8s\n", "subset", "accuracy")
	for _, s := range r.Subsets {
		fmt.Fprintf(&b, "  %-22s %8s\n", s.Name, pyfloat.Repr(s.Value))
	}
	for _, c := range r.Categories {
		fmt.Fprintf(&b, "%-24s %8s\n", c.Name, pyfloat.Repr(c.Value))
	}
	fmt.Fprintf(&b, "%-24s %8s   (gate >= %s)\n", "overall", pyfloat.Repr(r.Overall), pyfloat.Repr(refOverall*gateFactor))
	fmt.Fprintf(&b, "%-24s %8s   (gate >= %s)\n", "normalized single-turn", pyfloat.Repr(r.Normalized), pyfloat.Repr(refNormalized*gateFactor))
	fmt.Fprintf(&b, "answered %d of %d samples", r.TotalSamples, r.IssuedSamples)
	if missing := r.IssuedSamples - r.TotalSamples; missing > 0 {
		fmt.Fprintf(&b, " (%d missing, scored wrong as the reference scores them)", missing)
	}
	if dups > 0 {
		fmt.Fprintf(&b, "; %d repeated log entries (the first of each sample counts)", dups)
	}
	b.WriteString("\n")
	var notes []string
	for i, n := range r.Notes {
		if n != "" {
			notes = append(notes, fmt.Sprintf("sample %d: %s", i, n))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, "%d answers the reference may score otherwise:\n  %s\n", len(notes), strings.Join(notes, "\n  "))
	}
	if fails := Gate(r); len(fails) == 0 {
		b.WriteString("reference gate (0.97 x reference, endpoints' ruleset and the policy): PASS\n")
	} else {
		fmt.Fprintf(&b, "reference gate (0.97 x reference, endpoints' ruleset and the policy): FAIL: %s\n", strings.Join(fails, "; "))
	}
	return b.String()
}
