package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// TestSetSampling: the benchmark's defaults for the API in use, then the
// file (top level, then the mode's section), then the overrides; an API the
// benchmark has no reference defaults for starts from nothing sent, and a key
// the API does not take is an error naming the layer.
func TestSetSampling(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "gen.json")
	os.WriteFile(cfg, []byte(`{"top_p": 0.9, "accuracy": {"temperature": 0.5}}`), 0o644)

	o := Options{Benchmark: mustBenchmark(t, "gpt-oss-120b"), Mode: loadgen.AccuracyOnly}
	if err := o.SetSampling(cfg, map[string]any{"max_tokens": 64}); err != nil {
		t.Fatal(err)
	}
	if p, ok := o.Sampling.(*sglang.Params); !ok || *p.TopP != 0.9 || *p.Temperature != 0.5 || *p.MaxNewTokens != 64 || *p.TopK != -1 {
		t.Errorf("gpt-oss SGLang params: %#v", o.Sampling)
	}
	if got := o.SamplingRecord(); got["max_new_tokens"] != float64(64) || got["top_k"] != float64(-1) {
		t.Errorf("SamplingRecord() = %v", got)
	}

	// Without SetSampling, requests carry the benchmark's defaults.
	o = Options{Benchmark: mustBenchmark(t, "gpt-oss-120b")}
	if got := o.SamplingRecord(); got["max_new_tokens"] != float64(32768) || got["top_k"] != float64(-1) {
		t.Errorf("default SamplingRecord() = %v", got)
	}

	// llama3_1-8b over SGLang: no reference defaults for that API.
	o = Options{Benchmark: mustBenchmark(t, "llama3_1-8b"), API: sglang.Protocol}
	if err := o.SetSampling("", nil); err != nil {
		t.Fatal(err)
	}
	if len(o.SamplingRecord()) != 0 {
		t.Errorf("llama over SGLang sends %+v, want nothing", o.Sampling)
	}

	o = Options{Benchmark: mustBenchmark(t, "llama3_1-8b")}
	if err := o.SetSampling("", map[string]any{"max_new_tokens": 3}); err == nil || !strings.Contains(err.Error(), "sampling flags") {
		t.Errorf("completions with max_new_tokens: error %v", err)
	}
}
