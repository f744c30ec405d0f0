package sglang

import (
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// TestReadParts: meta_info's prompt and reasoning token counts.
func TestReadParts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		data string
		want protocol.Parts
	}{
		{`{"text":" a","output_ids":[5],"meta_info":{"id":"x","prompt_tokens":12,"completion_tokens":7,"reasoning_tokens":4}}`, protocol.Parts{Answer: -1, PromptTokens: 12, ReasoningTokens: 4}},
		{`{"text":" a","meta_info":{"prompt_tokens":12,"completion_tokens":7}}`, protocol.Parts{Answer: -1, PromptTokens: 12, ReasoningTokens: -1}},
		{`{"text":" a","meta_info":null}`, protocol.NoParts},
		{`{"text":" a","meta_info":{"prompt_tokens":`, protocol.NoParts},
	} {
		if got := Protocol.(protocol.PartsReader).ReadParts([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.data, got, tc.want)
		}
	}
}
