package openaichat

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/internal/q3vlvectors"
	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

func TestEncode(t *testing.T) {
	recs := q3vlvectors.Load(t)
	temp, topK, minP := 0.0, 1, 0.05
	for _, tc := range []struct {
		name   string
		params Params
		guided bool
		stream bool
		extra  map[string]any
	}{
		{name: "no params", extra: map[string]any{}},
		{name: "all sampling params", params: Params{
			FrequencyPenalty: ptr(0.1), PresencePenalty: ptr(0.2), Temperature: &temp, TopP: ptr(0.9),
			TopK: &topK, MinP: &minP, RepetitionPenalty: ptr(1.05), MaxTokens: ptr(100), MaxCompletionTokens: ptr(200),
		}, extra: map[string]any{
			"frequency_penalty": 0.1, "presence_penalty": 0.2, "temperature": 0.0, "top_p": 0.9,
			"top_k": 1.0, "min_p": 0.05, "repetition_penalty": 1.05, "max_tokens": 100.0, "max_completion_tokens": 200.0,
		}},
		{name: "guided streaming", guided: true, stream: true, params: Params{Temperature: &temp},
			extra: map[string]any{"temperature": 0.0, "stream": true, "stream_options": map[string]any{"include_usage": true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, rec := range recs {
				var rf json.RawMessage
				if tc.guided {
					rf = rec.ResponseFormat
				}
				body, err := Encode("Qwen/Qwen3-VL-235B-A22B-Instruct", q3vlvectors.Messages(t, rec.Messages), rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				var msgs any
				json.Unmarshal(rec.Messages, &msgs)
				want := map[string]any{"model": "Qwen/Qwen3-VL-235B-A22B-Instruct", "messages": msgs}
				for k, v := range tc.extra {
					want[k] = v
				}
				if tc.guided {
					var f any
					json.Unmarshal(rec.ResponseFormat, &f)
					want["response_format"] = f
				}
				if d := cmp.Diff(want, prototest.DecodeMap(t, body)); d != "" {
					t.Errorf("sample %d body (-want +got):\n%s", i, d)
				}
			}
		})
	}
}

// TestAppendAndPrefix: Append writes Encode's bytes after
// what dst holds, and every body of the reference vectors begins with
// Prefix, which covers the whole system message.
func TestAppendAndPrefix(t *testing.T) {
	recs := q3vlvectors.Load(t)
	const model = "Qwen/Qwen3-VL-235B-A22B-Instruct"
	temp := 0.0
	for _, tc := range []struct {
		name   string
		params Params
		guided bool
		stream bool
	}{
		{name: "plain"},
		{name: "params, guided, streamed", params: Params{Temperature: &temp, MaxTokens: ptr(100)}, guided: true, stream: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rf []byte
			if tc.guided {
				rf = recs[0].ResponseFormat
			}
			for i, rec := range recs {
				msgs := q3vlvectors.Messages(t, rec.Messages)
				want, err := Encode(model, msgs, rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Append([]byte("dst:"), model, msgs, rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, append([]byte("dst:"), want...)) {
					t.Fatalf("vector %d: Append differs from Encode", i)
				}
				prefix, err := Prefix(model, msgs[0], rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(want, prefix) {
					t.Fatalf("vector %d: body does not begin with the %d-byte Prefix", i, len(prefix))
				}
				sys, err := Encode(model, msgs[:1], rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				// sys is {"messages":[<system>],"model":...; a quote
				// inside a JSON string is escaped, so the first `],"model"`
				// ends the list. The prefix must hold <system> and the comma.
				end := bytes.Index(sys, []byte(`],"model"`))
				if end < 0 || !bytes.HasPrefix(prefix, append(bytes.Clone(sys[:end]), ',')) {
					t.Fatalf("vector %d: the %d-byte prefix does not hold the whole system message", i, len(prefix))
				}
			}
		})
	}
}
