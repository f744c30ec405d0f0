package tokensynth_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmarks/deepseekr1"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama2"
)

// TestRecordsRoundTrip: what the writers write, the benchmarks' readers
// read back: prompts, references (an AIME integer as its digits) and
// sub-datasets; the same seed gives the same bytes.
func TestRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r1 := filepath.Join(dir, "r1.json")
	if err := tokensynth.DeepSeekR1(r1, 30, 4); err != nil {
		t.Fatal(err)
	}
	d, err := deepseekr1.Open(r1)
	if err != nil {
		t.Fatal(err)
	}
	var want []llmSample
	sets := map[string]bool{}
	for _, r := range tokensynth.DeepSeekR1Records(30, 4) {
		ref := string(r.GroundTruth) // a number reads as its literal, str() of the int
		if strings.HasPrefix(ref, `"`) {
			if err := json.Unmarshal(r.GroundTruth, &ref); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, llmSample{Tokens: to32(r.TokInput), Ref: ref, Dataset: r.Dataset})
		sets[r.Dataset] = true
		if r.TokInput[0] != tokensynth.DeepSeekR1BOS || len(r.TokInput) > 3136 {
			t.Errorf("prompt shape: starts %d, %d tokens", r.TokInput[0], len(r.TokInput))
		}
	}
	if diff := cmp.Diff(want, readBack(t, d)); diff != "" {
		t.Errorf("deepseek-r1 read back (-want +got):\n%s", diff)
	}
	if len(sets) != 5 {
		t.Errorf("30 records cover %d of the 5 sub-datasets: %v", len(sets), sets)
	}

	orca := filepath.Join(dir, "orca.json")
	if err := tokensynth.Llama2(orca, 30, 4); err != nil {
		t.Fatal(err)
	}
	d, err = llama2.Open(orca)
	if err != nil {
		t.Fatal(err)
	}
	want = want[:0]
	for _, r := range tokensynth.Llama2Records(30, 4) {
		want = append(want, llmSample{Tokens: to32(r.TokInput), Ref: r.Output})
		if r.TokInput[len(r.TokInput)-1] != tokensynth.Llama2ResponseInit || r.TokInputLength != len(r.TokInput) || len(r.TokInput) > 1024 {
			t.Errorf("prompt shape: %d tokens ending %d (length column %d)", len(r.TokInput), r.TokInput[len(r.TokInput)-1], r.TokInputLength)
		}
	}
	if diff := cmp.Diff(want, readBack(t, d)); diff != "" {
		t.Errorf("llama2 read back (-want +got):\n%s", diff)
	}

	for _, write := range []func(string, int, int64) error{tokensynth.DeepSeekR1, tokensynth.Llama2} {
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if err := write(a, 12, 77); err != nil {
			t.Fatal(err)
		}
		if err := write(b, 12, 77); err != nil {
			t.Fatal(err)
		}
		x, _ := os.ReadFile(a)
		y, _ := os.ReadFile(b)
		if !bytes.Equal(x, y) || len(x) == 0 {
			t.Errorf("the same seed wrote different bytes")
		}
		if err := write(a, 0, 1); err == nil {
			t.Errorf("0 samples: no error")
		}
	}
}
