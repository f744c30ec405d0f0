package bfcl

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// goldenSample is one line of testdata/samples.jsonl.gz.
type goldenSample struct {
	Index           int
	SampleID        string `json:"sample_id"`
	Subset          string
	GroundTruth     string `json:"ground_truth"`
	FuncDescription string `json:"func_description"`
}

func (g goldenSample) sample() Sample {
	return Sample{Subset: g.Subset, GroundTruth: g.GroundTruth, FuncDescription: g.FuncDescription}
}

// loadSamples reads the golden samples in file order (sorted by index).
func loadSamples(t *testing.T) ([]goldenSample, map[int]goldenSample) {
	t.Helper()
	var list []goldenSample
	byIndex := map[int]goldenSample{}
	golden.JSONL(t, "testdata/samples.jsonl.gz", func(_ int, s goldenSample) {
		list = append(list, s)
		byIndex[s.Index] = s
	})
	return list, byIndex
}

// pyResult is a golden result: a value, or {"err": "TypeError"}.
func pyResult(raw json.RawMessage) (any, string) {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		if e, ok := m["err"].(string); ok {
			return nil, e
		}
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	return v, ""
}

func errType(err error) string {
	var pe *pyval.Error
	if errors.As(err, &pe) {
		return pe.Type
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// TestCasesGolden checks every (sample, output) case the reference
// scored: extract()'s JSON text, has_native_tool_calls(), and the
// sample's score, or the exception the reference raises.
func TestCasesGolden(t *testing.T) {
	t.Parallel()
	_, samples := loadSamples(t)
	type row struct {
		Index                  int
		Output                 string
		Extract, Native, Score json.RawMessage
	}
	n, bad, crashes := 0, 0, 0
	golden.JSONL(t, "testdata/cases.jsonl.gz", func(line int, r row) {
		n++
		s := samples[r.Index]
		fail := func(format string, a ...any) {
			bad++
			if bad <= 30 {
				t.Errorf("line %d (%s) output %.200q: "+format, append([]any{line, s.SampleID, r.Output}, a...)...)
			}
		}
		ext, err := Extract(r.Output)
		wantExt, wantErr := pyResult(r.Extract)
		switch {
		case wantErr != "":
			if errType(err) != wantErr {
				fail("extract: Python raises %s, the port %v / %q", wantErr, err, ext.JSON)
			}
		case err != nil || ext.JSON != wantExt:
			fail("extract %q (%v), Python %q", ext.JSON, err, wantExt)
		}
		nat, err := HasNativeToolCalls(r.Output)
		if wantNat, wantErr := pyResult(r.Native); wantErr != "" {
			if errType(err) != wantErr {
				fail("has_native_tool_calls: Python raises %s, the port %v", wantErr, err)
			}
		} else if err != nil || nat != wantNat {
			fail("has_native_tool_calls %v (%v), Python %v", nat, err, wantNat)
		}
		score, _, err := ScoreSample(s.sample(), r.Output)
		wantScore, wantErr := pyResult(r.Score)
		if wantErr != "" {
			crashes++
			if errType(err) != wantErr {
				fail("score: Python raises %s, the port %v (score %v)", wantErr, err, score)
			}
			return
		}
		if err != nil || score != wantScore.(float64) {
			fail("score %v (%v), Python %v", score, err, wantScore)
		}
	})
	t.Logf("%d cases, %d scoring exceptions reproduced, %d differ", n, crashes, bad)
	if n < 3000 || crashes == 0 {
		t.Errorf("golden file too small: %d cases, %d exceptions", n, crashes)
	}
}

// TestAggregatesGolden scores whole answer mixes (right, wrong, missing,
// empty) and compares the printed entry byte for byte with the
// reference's json.dumps(entry, indent=2).
func TestAggregatesGolden(t *testing.T) {
	t.Parallel()
	list, _ := loadSamples(t)
	samples := make([]Sample, len(list))
	for i, s := range list {
		samples[i] = s.sample()
	}
	type row struct {
		Name    string
		Outputs map[string]string
		Printed string
	}
	n := 0
	golden.JSONL(t, "testdata/aggregates.jsonl.gz", func(_ int, r row) {
		n++
		var outs []Output
		for k, v := range r.Outputs {
			i, _ := strconv.Atoi(k)
			outs = append(outs, Output{Index: i, Text: v})
		}
		sort.Slice(outs, func(a, b int) bool { return outs[a].Index > outs[b].Index }) // order must not matter
		res, err := Score(samples, outs)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if got := res.entryWithoutCounts(); got != r.Printed {
			t.Errorf("%s: printed\n%s\nreference\n%s", r.Name, got, r.Printed)
		}
	})
	if n < 5 {
		t.Errorf("only %d aggregate rows", n)
	}
}
