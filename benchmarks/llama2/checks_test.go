package llama2_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama2"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

func ent(seq uint64, idx int, toks ...int32) mllog.AccuracyEntry {
	data := make([]byte, 4*len(toks))
	for i, t := range toks {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(t))
	}
	return mllog.AccuracyEntry{SeqID: seq, QSLIndex: idx, Data: data, TokenCount: int64(len(toks)), HasTokenCount: true}
}

func seq(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(10 + i%30000)
	}
	return out
}

// TestChecks: llama2-70b's own findings on a log, and the
// tokens_per_sample note against the checker's limits.
func TestChecks(t *testing.T) {
	t.Parallel()
	info := tokencheck.DatasetInfo{Benchmark: llama2.Name, Samples: 4, Vocab: llama2.VocabSize, Extra: llama2.NewChecks}
	r := tokencheck.Check([]mllog.AccuracyEntry{
		ent(0, 0, seq(1025)...), // over max_new_tokens
		ent(1, 1, 5, 2, 2),      // TEST06's EOS check fails
		ent(2, 2, 5, 2),         // one EOS is fine
		ent(3, 3),               // empty
	}, info)
	joined := strings.Join(r.Warnings, "\n")
	for _, want := range []string{
		"1 samples have more than 1024 output tokens",
		"1 samples end with two or more EOS tokens (2)",
		"1 samples have an empty output; the reference generates at least one token",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	if notes := strings.Join(r.Notes, "\n"); !strings.Contains(notes, "tokens_per_sample, the mean output length, is 257.5; the checker wants 265.005 to 323.895") || !strings.Contains(notes, "not the full 24576") {
		t.Errorf("notes: %s", notes)
	}
}
