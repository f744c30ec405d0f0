package tokenset_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/mlperf-go/mlperf-go/benchmarks/gptoss120b"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
)

// The readers are compared with the obvious alternatives: encoding/json into
// per-record structs, and parquet-go's row reader into per-row structs.
// Samples: 2,000 (about 1/7 of llama's set, 1/3 of gpt-oss's).
const benchSamples = 2000

func benchFile(b *testing.B, name string, write func(string, int, int64) error) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), name)
	if err := write(p, benchSamples, 1); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(p)
	b.SetBytes(st.Size())
	return p
}

// reportRetained reports the heap a loaded dataset keeps alive, the number
// that matters for a process holding it through a run.
func reportRetained(b *testing.B, load func() any) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	v := load()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(v)
	b.ReportMetric(float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc)), "retained-B")
}

func BenchmarkOpenLlamaJSON(b *testing.B) {
	p := benchFile(b, "cnn_eval.json", tokensynth.Llama)
	b.ReportAllocs()
	for b.Loop() {
		d, err := llama31.Open(p)
		if err != nil || d.Len() != benchSamples {
			b.Fatal(d, err)
		}
	}
	reportRetained(b, func() any { d, _ := llama31.Open(p); return d })
}

func BenchmarkEncodingJSONLlama(b *testing.B) {
	p := benchFile(b, "cnn_eval.json", tokensynth.Llama)
	b.ReportAllocs()
	for b.Loop() {
		if recs := decodeLlama(b, p); len(recs) != benchSamples {
			b.Fatal(len(recs))
		}
	}
	reportRetained(b, func() any { return decodeLlama(b, p) })
}

type llamaRec struct {
	TokInput []int64 `json:"tok_input"`
	Output   string  `json:"output"`
}

func decodeLlama(b *testing.B, p string) []llamaRec {
	b.Helper()
	raw, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	var recs []llamaRec
	if err := json.Unmarshal(raw, &recs); err != nil {
		b.Fatal(err)
	}
	return recs
}

func BenchmarkOpenGPTOSSParquet(b *testing.B) {
	p := benchFile(b, "acc.parquet", tokensynth.GPTOSS)
	b.ReportAllocs()
	for b.Loop() {
		d, err := gptoss120b.Open(p)
		if err != nil || d.Len() != benchSamples {
			b.Fatal(d, err)
		}
	}
	reportRetained(b, func() any { d, _ := gptoss120b.Open(p); return d })
}

func BenchmarkParquetReadFileGPTOSS(b *testing.B) {
	p := benchFile(b, "acc.parquet", tokensynth.GPTOSS)
	b.ReportAllocs()
	for b.Loop() {
		rows, err := parquet.ReadFile[tokensynth.GPTOSSRow](p)
		if err != nil || len(rows) != benchSamples {
			b.Fatal(err)
		}
	}
	reportRetained(b, func() any { rows, _ := parquet.ReadFile[tokensynth.GPTOSSRow](p); return rows })
}
