package gptoss120b_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmarks/gptoss120b"
	. "github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// ent builds an entry whose data is toks as little-endian int32 and whose
// token_count matches.
func ent(seq uint64, idx int, toks ...int32) mllog.AccuracyEntry {
	data := make([]byte, 4*len(toks))
	for i, t := range toks {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(t))
	}
	return mllog.AccuracyEntry{SeqID: seq, QSLIndex: idx, Data: data, TokenCount: int64(len(toks)), HasTokenCount: true}
}

// seq returns n ordinary token IDs.
func seq(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(10 + i)
	}
	return out
}

func hasLine(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

func TestGPTOSSChecks(t *testing.T) {
	perf := func(n int) []mllog.AccuracyEntry {
		out := make([]mllog.AccuracyEntry, gptoss120b.PerformanceSamples)
		for i := range out {
			out[i] = ent(uint64(i), i, seq(n)...)
		}
		return out
	}
	info := DatasetInfo{Benchmark: "gpt-oss-120b", Samples: gptoss120b.PerformanceSamples, Vocab: gptoss120b.VocabSize, Extra: gptoss120b.NewChecks}
	r := Check(perf(1278), info)
	if !hasLine(r.Notes, "1278.00 tokens is inside TEST09's bounds") || len(r.Warnings) != 0 {
		t.Errorf("mean 1278: notes %q warnings %q", r.Notes, r.Warnings)
	}
	r = Check(perf(1100), info)
	if !hasLine(r.Warnings, "1100.00 tokens is outside TEST09's bounds") || !hasLine(r.Warnings, "TEST09 would fail") {
		t.Errorf("mean 1100: warnings %q", r.Warnings)
	}

	// An accuracy-set log with per-dataset statistics.
	entries := []mllog.AccuracyEntry{ent(0, 0, seq(10)...), ent(1, 1, seq(20)...), ent(2, 2, seq(30)...), ent(3, 3, seq(gptoss120b.MaxNewTokens+1)...)}
	r = Check(entries, DatasetInfo{Benchmark: "gpt-oss-120b", Samples: 4, Vocab: gptoss120b.VocabSize, Extra: gptoss120b.NewChecks,
		Datasets: []string{"aime25", "gpqa_diamond", "aime25", "livecodebench_v6"}})
	want := map[string]Stats{
		"aime25":           {Samples: 2, Total: 40, Min: 10, Max: 30, Mean: 20},
		"gpqa_diamond":     {Samples: 1, Total: 20, Min: 20, Max: 20, Mean: 20},
		"livecodebench_v6": {Samples: 1, Total: gptoss120b.MaxNewTokens + 1, Min: gptoss120b.MaxNewTokens + 1, Max: gptoss120b.MaxNewTokens + 1, Mean: gptoss120b.MaxNewTokens + 1},
	}
	if diff := cmp.Diff(want, r.ByDataset); diff != "" {
		t.Errorf("by dataset (-want +got):\n%s", diff)
	}
	if !hasLine(r.Warnings, "more than the reference's max_new_tokens 32768") {
		t.Errorf("warnings lack the max_new_tokens finding: %q", r.Warnings)
	}
	if !hasLine(r.Notes, "only a rough comparison") || !hasLine(r.Notes, "covers the 4395-sample accuracy set; this one covers 4") {
		t.Errorf("notes: %q", r.Notes)
	}
	if f := r.Format(); !strings.Contains(f, "gpqa_diamond: 1 samples, total 20") {
		t.Errorf("Format lacks per-dataset lines:\n%s", f)
	}
}

func TestEvaluatorCommand(t *testing.T) {
	for _, tc := range []struct{ log, data, want string }{
		{"/r/mlperf_log_accuracy.json", "/d/acc_eval_inputs.parquet",
			"python3 language/gpt-oss-120b/eval_mlperf_accuracy.py --mlperf-log /r/mlperf_log_accuracy.json --reference-data /d/acc_eval_inputs.parquet --tokenizer openai/gpt-oss-120b"},
		{"/my runs/it's.json", "/d/a.parquet",
			`python3 language/gpt-oss-120b/eval_mlperf_accuracy.py --mlperf-log '/my runs/it'\''s.json' --reference-data /d/a.parquet --tokenizer openai/gpt-oss-120b`},
	} {
		if got := gptoss120b.EvaluatorCommand(tc.log, tc.data); got != tc.want {
			t.Errorf("EvaluatorCommand(%q, %q) =\n  %q\nwant\n  %q", tc.log, tc.data, got, tc.want)
		}
	}
	wd, _ := os.Getwd()
	got := gptoss120b.EvaluatorCommand("acc.json", "data.json")
	if !strings.Contains(got, filepath.Join(wd, "acc.json")) || !strings.Contains(got, filepath.Join(wd, "data.json")) {
		t.Errorf("relative paths not made absolute: %s", got)
	}
}
