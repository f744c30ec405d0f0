package qwen3vl

import (
	"context"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/eval"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// Truth returns the ground truth the evaluator scores against, one per
// sample index.
func (d *Dataset) Truth() []eval.Truth {
	t := make([]eval.Truth, d.Len())
	for i := range t {
		t[i] = d.Sample(i).Truth
	}
	return t
}

// Evaluate scores the log as the reference's evaluator does, writes
// accuracy.txt in its format and fails when the F1 misses the target.
func (d *Dataset) Evaluate(_ context.Context, logPath string, o benchmark.EvalOptions) (benchmark.Evaluation, error) {
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return benchmark.Evaluation{}, err
	}
	opts := eval.DefaultOptions()
	if o.Seed != nil {
		opts.Seed = *o.Seed
	}
	if o.Workers > 0 {
		opts.Workers = o.Workers
	}
	opts.Interactive = o.Interactive || o.Benchmark.IsInteractive()
	if o.Round != "" {
		opts.Round = o.Round
	}
	res, err := opts.Evaluate(entries, d.Truth())
	if err != nil {
		return benchmark.Evaluation{}, err
	}
	txt, err := eval.AccuracyTxt(res.CategoryF1, nil)
	if err != nil {
		return benchmark.Evaluation{}, err
	}
	if err := benchmark.WriteVerdicts(o.Verdicts, verdicts(res)); err != nil {
		return benchmark.Evaluation{}, err
	}
	var b strings.Builder
	fmt.Fprintln(&b, res.Table())
	fmt.Fprintln(&b, res.Summary())
	ev := benchmark.Evaluation{Report: b.String(), AccuracyTxt: []byte(txt)}
	if !res.MeetsTarget() {
		ev.Failure = fmt.Errorf("f1 %.6f is below the target %.6f", res.CategoryF1, res.Target)
	}
	return ev, nil
}

// verdicts are the log entries as scored, one per entry (duplicates too,
// as the reference scores each): the validated response, or null and why
// not when the padded response was scored instead, and the entry's own
// category F1, brand and is_secondhand matches.
func verdicts(res eval.Result) []benchmark.SampleVerdict {
	vs := make([]benchmark.SampleVerdict, len(res.Entries))
	for i, e := range res.Entries {
		v := benchmark.SampleVerdict{Index: e.QSLIndex, Why: e.Reason, Metrics: map[string]float64{
			"category_f1": e.CategoryF1(), "brand_match": b2f(e.BrandMatch), "is_secondhand_match": b2f(e.SecondhandMatch)}}
		if p := e.Parsed; p != nil {
			v.Extracted = benchmark.Extracted(productJSON(p.Category, p.Brand, p.IsSecondhand), true)
		}
		vs[i] = v
	}
	return vs
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
