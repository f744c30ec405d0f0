package openaicompletions

import (
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// TestReadParts: the usage's prompt and reasoning token counts.
func TestReadParts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		data string
		want protocol.Parts
	}{
		{`{"choices":[],"usage":{"prompt_tokens":33,"completion_tokens":8}}`, protocol.Parts{Answer: -1, PromptTokens: 33, ReasoningTokens: -1}},
		{`{"choices":[],"usage":{"prompt_tokens":33,"completion_tokens":8,"completion_tokens_details":{"reasoning_tokens":5}}}`, protocol.Parts{Answer: -1, PromptTokens: 33, ReasoningTokens: 5}},
		{`{"choices":[{"text":" a","token_ids":[5]}]}`, protocol.NoParts},
	} {
		if got := Protocol.(protocol.PartsReader).ReadParts([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.data, got, tc.want)
		}
	}
}
