package llama31_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
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

func TestLlamaChecks(t *testing.T) {
	info := DatasetInfo{Benchmark: "llama3_1-8b", Samples: 5, Vocab: llama31.VocabSize, Extra: llama31.NewChecks}
	entries := []mllog.AccuracyEntry{
		ent(0, 0, seq(129)...),       // over max_tokens
		ent(1, 1, 5, 128009, 128009), // two trailing EOS: TEST06 fails
		ent(2, 2, 5, 128009),         // one EOS is fine
		ent(3, 3, 128001, 128001),    // TEST06 does not look at index 0
		ent(4, 4),                    // empty
	}
	r := Check(entries, info)
	for _, want := range []string{
		"1 samples have more than 128 output tokens",
		"1 samples end with two or more EOS tokens",
		"1 samples have an empty output; the reference sets min_tokens = 1",
	} {
		if !hasLine(r.Warnings, want) {
			t.Errorf("warnings lack %q: %q", want, r.Warnings)
		}
	}
	if !hasLine(r.Notes, "not the full 13368") {
		t.Errorf("notes lack the partial-set note: %q", r.Notes)
	}

	full := make([]mllog.AccuracyEntry, llama31.Samples)
	for i := range full {
		full[i] = ent(uint64(i), llama31.Samples-1-i, seq(100)...)
	}
	r = Check(full, DatasetInfo{Benchmark: "llama3_1-8b", Samples: llama31.Samples, Vocab: llama31.VocabSize, Extra: llama31.NewChecks})
	if !r.OK() || len(r.Warnings) != 0 {
		t.Errorf("full clean log: OK %v, warnings %q", r.OK(), r.Warnings)
	}
	if r.Output.Total != 100*llama31.Samples {
		t.Errorf("total tokens %d, want %d", r.Output.Total, 100*llama31.Samples)
	}
	if !hasLine(r.Notes, "±10% of 8167644 ([7350879, 8984408])") || !hasLine(r.Notes, "characters of the decoded summaries") {
		t.Errorf("notes lack the gen_len target: %q", r.Notes)
	}
	r = Check(full[:llama31.EdgeSamples], DatasetInfo{Benchmark: "llama3_1-8b-edge", Samples: llama31.EdgeSamples, Extra: llama31.NewChecks})
	if !hasLine(r.Notes, "3051113") {
		t.Errorf("edge notes lack the edge gen_len target: %q", r.Notes)
	}
}

func TestEvaluatorCommand(t *testing.T) {
	for _, tc := range []struct{ log, data, want string }{
		{"/r/mlperf_log_accuracy.json", "/d/cnn_eval.json",
			"python3 language/llama3.1-8b/evaluation.py --mlperf-accuracy-file /r/mlperf_log_accuracy.json --dataset-file /d/cnn_eval.json --dtype int32"},
		{"/r/acc.json", "/d/sample_cnn_eval_5000.json",
			"python3 language/llama3.1-8b/evaluation.py --mlperf-accuracy-file /r/acc.json --dataset-file /d/sample_cnn_eval_5000.json --dtype int32"},
	} {
		if got := llama31.EvaluatorCommand(tc.log, tc.data); got != tc.want {
			t.Errorf("EvaluatorCommand(%q, %q) =\n  %q\nwant\n  %q", tc.log, tc.data, got, tc.want)
		}
	}
	wd, _ := os.Getwd()
	got := llama31.EvaluatorCommand("acc.json", "data.json")
	if !strings.Contains(got, filepath.Join(wd, "acc.json")) || !strings.Contains(got, filepath.Join(wd, "data.json")) {
		t.Errorf("relative paths not made absolute: %s", got)
	}
}
