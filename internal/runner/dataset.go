package runner

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/eval/q3vl"
	"github.com/mlperf-go/mlperf-go/internal/fakeendpoint"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Dataset is an opened benchmark dataset: the Qwen3-VL catalogue or a
// token-ID set. Exactly one field is set.
type Dataset struct {
	Q3VL   *qsl.Q3VL
	Tokens *qsl.TokenDataset
}

// OpenDataset opens the dataset of benchmark b from paths (files or
// directories) and checks all of it, so bad input is reported before any
// test starts. splits only applies to Qwen3-VL (default train then test).
func OpenDataset(b benchmark.Benchmark, paths, splits []string) (*Dataset, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no dataset given: pass --dataset (make one with `mlperf-go dataset synth --benchmark %s`)", b.Name)
	}
	switch b.Name {
	case "qwen3-vl-235b-a22b":
		d, err := qsl.OpenQ3VL(paths, qsl.Q3VLOptions{Splits: splits})
		if err != nil {
			return nil, err
		}
		return &Dataset{Q3VL: d}, nil
	case "llama3_1-8b", "gpt-oss-120b":
		if len(paths) != 1 {
			return nil, fmt.Errorf("%s reads one dataset file, got %d: %s", b.Name, len(paths), strings.Join(paths, ", "))
		}
		open := qsl.OpenLlama
		if b.Name == "gpt-oss-120b" {
			open = qsl.OpenGPTOSS
		}
		d, err := open(paths[0])
		if err != nil {
			return nil, err
		}
		return &Dataset{Tokens: d}, nil
	}
	return nil, fmt.Errorf("no dataset reader for benchmark %s", b.Name)
}

// Len is the number of samples.
func (d *Dataset) Len() int {
	if d.Q3VL != nil {
		return d.Q3VL.Len()
	}
	return d.Tokens.Len()
}

// Close releases the dataset's files.
func (d *Dataset) Close() error {
	if d.Q3VL != nil {
		return d.Q3VL.Close()
	}
	return nil
}

// Q3VLTruth returns the ground truth the evaluator scores against, one per
// sample index.
func (d *Dataset) Q3VLTruth() []q3vl.Truth {
	t := make([]q3vl.Truth, d.Q3VL.Len())
	for i := range t {
		s := d.Q3VL.Sample(i)
		t[i] = q3vl.Truth{Category: s.Category, Brand: s.Brand, IsSecondhand: s.IsSecondhand, Categories: s.Categories}
	}
	return t
}

// FakeTruth returns the answers the fake endpoint keys on the exact user
// text the harness sends for each sample, as round v6.0's requests write it
// and as round v6.1's do.
func (d *Dataset) FakeTruth() []fakeendpoint.Q3VLTruth {
	t := make([]fakeendpoint.Q3VLTruth, d.Q3VL.Len())
	for i := range t {
		s := d.Q3VL.Sample(i)
		t[i] = fakeendpoint.Q3VLTruth{UserText: d.Q3VL.UserText(i), AltUserTexts: []string{d.Q3VL.UserTextV61(i)}, Category: s.Category, Brand: s.Brand, IsSecondhand: s.IsSecondhand, Categories: s.Categories}
	}
	return t
}
