package bfcl

import (
	"encoding/json"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// FuzzScoreSample: no output makes the scorer panic; an extraction is
// the JSON of a list; every output of a simple_python sample scores 0 or
// 1 or is an exception the reference raises (a *pyval.Error).
func FuzzScoreSample(f *testing.F) {
	var sample Sample
	golden.JSONL(f, "testdata/samples.jsonl.gz", func(_ int, s goldenSample) {
		if sample.Subset == "" && s.Subset == "simple_python" {
			sample = s.sample()
		}
	})
	n := 0
	golden.JSONL(f, "testdata/cases.jsonl.gz", func(_ int, r struct{ Output string }) {
		if n++; n%7 == 0 {
			f.Add(r.Output)
		}
	})
	f.Fuzz(func(t *testing.T, out string) {
		ext, err := Extract(out)
		if err == nil {
			var v []any
			if json.Unmarshal([]byte(ext.JSON), &v) != nil && !json.Valid([]byte(ext.JSON)) {
				t.Errorf("extract %q is not JSON", ext.JSON)
			}
		}
		score, _, err := ScoreSample(sample, out)
		if err != nil {
			if _, ok := err.(*pyval.Error); !ok {
				t.Errorf("error %v is not a Python exception", err)
			}
			return
		}
		if score != 0 && score != 1 {
			t.Errorf("score %v", score)
		}
	})
}
