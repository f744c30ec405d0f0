package protocol_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

func ptr[T any](v T) *T { return &v }

func TestDecodeGenerationConfig(t *testing.T) {
	// Shaped like the reference's generation_config.json: comment keys
	// (including a nested object) and the four sampling keys.
	cfg := []byte(`{
  "_comment": "Generation configuration",
  "max_new_tokens": 10240,
  "temperature": 0.001,
  "top_k": 1,
  "top_p": 1.0,
  "_parameter_descriptions": {"top_k": "Top-k sampling", "_x": {"y": 1}}
}`)
	p := sglang.Params{MaxNewTokens: ptr(32768), Temperature: ptr(1.0), TopK: ptr(-1), TopP: ptr(1.0)}
	if err := protocol.DecodeGenerationConfig(cfg, &p); err != nil {
		t.Fatal(err)
	}
	want := sglang.Params{MaxNewTokens: ptr(10240), Temperature: ptr(0.001), TopK: ptr(1), TopP: ptr(1.0)}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("params (-want +got):\n%s", d)
	}
	// Absent keys keep their defaults.
	c := completionParams()
	if err := protocol.DecodeGenerationConfig([]byte(`{"max_tokens": 64}`), &c); err != nil {
		t.Fatal(err)
	}
	wantC := completionParams()
	wantC.MaxTokens = ptr(64)
	if d := cmp.Diff(wantC, c); d != "" {
		t.Errorf("completion params (-want +got):\n%s", d)
	}
	for _, bad := range []string{`{"temprature": 1}`, `[1]`, `{"top_k": "one"}`} {
		var cp openaichat.Params
		if err := protocol.DecodeGenerationConfig([]byte(bad), &cp); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// completionParams are llama3.1-8b's reference values, set before a config
// layer.
func completionParams() openaicompletions.Params {
	return openaicompletions.Params{Temperature: ptr(0.0), TopP: ptr(1.0), TopK: ptr(1), Seed: ptr(int64(42)), MaxTokens: ptr(128), MinTokens: ptr(1)}
}

// TestSetOutputLengthExact: an exact length is ignore_eos and, where the
// API's ignore_eos leaves other stop tokens live (vLLM's request
// stop_token_ids), the minimum length too; SGLang's ignore_eos skips every
// stop token, and SGLang refuses min_new_tokens without a tokenizer, so it
// gets none.
func TestSetOutputLengthExact(t *testing.T) {
	for _, tc := range []struct {
		params protocol.Params
		want   string
	}{
		{&openaicompletions.Params{}, `{"max_tokens":8,"min_tokens":8,"ignore_eos":true}`},
		{&sglang.Params{}, `{"max_new_tokens":8,"ignore_eos":true}`},
		{&sglang.Params{MinNewTokens: ptr(1)}, `{"max_new_tokens":8,"min_new_tokens":1,"ignore_eos":true}`},
	} {
		if err := protocol.SetOutputLength(tc.params, 8, true); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("%T: %s, want %s", tc.params, got, tc.want)
		}
	}
}
