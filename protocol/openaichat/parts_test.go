package openaichat

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// TestReadParts: reasoning apart from content, in vLLM's current field
// (reasoning) and its former one (reasoning_content, which wins when both
// are given, as messageText reads them), in a chunk's delta and a whole
// answer's message, and the usage's prompt and reasoning token counts.
func TestReadParts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		api  protocol.Protocol
		data string
		want protocol.Parts
	}{
		{"reasoning delta", Protocol, `{"id":"x","choices":[{"index":0,"delta":{"reasoning":"Let me think"},"finish_reason":null}]}`, protocol.Parts{Reasoning: 12, PromptTokens: -1, ReasoningTokens: -1}},
		{"former field, escaped", Protocol, `{"choices":[{"delta":{"content":null,"reasoning_content":"a\nb\u00e9"}}]}`, protocol.Parts{Reasoning: 5, PromptTokens: -1, ReasoningTokens: -1}},
		{"both: reasoning_content", Protocol, `{"choices":[{"delta":{"reasoning":"abc","reasoning_content":"abcdef"}}]}`, protocol.Parts{Reasoning: 6, PromptTokens: -1, ReasoningTokens: -1}},
		{"content only", Protocol, `{"choices":[{"delta":{"content":"answer","reasoning":null}}]}`, protocol.Parts{Answer: 6, PromptTokens: -1, ReasoningTokens: -1}},
		{"content, no reasoning key", Protocol, `{"choices":[{"delta":{"content":"answer"}}]}`, protocol.NoParts},
		{"reasoning ends, answer begins", Protocol, `{"choices":[{"delta":{"content":"\n\n","reasoning":"done."}}]}`, protocol.Parts{Answer: 2, Reasoning: 5, PromptTokens: -1, ReasoningTokens: -1}},
		{"second choice ignored", Protocol, `{"choices":[{"delta":{"content":"a"}},{"delta":{"reasoning":"zz"}}]}`, protocol.Parts{Answer: 1, PromptTokens: -1, ReasoningTokens: -1}},
		{"usage chunk", Protocol, `{"choices":[],"usage":{"prompt_tokens":17,"total_tokens":40,"completion_tokens":23,"completion_tokens_details":{"reasoning_tokens":11}}}`, protocol.Parts{PromptTokens: 17, ReasoningTokens: 11}},
		{"usage without details", Protocol, `{"choices":[],"usage":{"prompt_tokens":17,"completion_tokens":23,"completion_tokens_details":null}}`, protocol.Parts{PromptTokens: 17, ReasoningTokens: -1}},
		{"whole answer", Protocol, `{"choices":[{"message":{"role":"assistant","content":"4","reasoning":"2+2"}}],"usage":{"prompt_tokens":5,"completion_tokens":9}}`, protocol.Parts{Answer: 1, Reasoning: 3, PromptTokens: 5, ReasoningTokens: -1}},
		{"tools protocol", ToolsProtocol, `{"choices":[{"delta":{"reasoning":"hmm"}}]}`, protocol.Parts{Reasoning: 3, PromptTokens: -1, ReasoningTokens: -1}},
		{"malformed", Protocol, `{"choices":[{"delta":{"reasoning":`, protocol.Parts{Answer: 0, PromptTokens: -1, ReasoningTokens: -1}},
		{"no choices", Protocol, `{"id":"x"}`, protocol.NoParts},
	} {
		got := tc.api.(protocol.PartsReader).ReadParts([]byte(tc.data))
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// FuzzReadParts: whatever the bytes, ReadParts does not panic, and on
// valid JSON it counts the reasoning encoding/json decodes:
// choices[0]'s delta (or message), its reasoning_content when not empty,
// else its reasoning, in decoded bytes.
func FuzzReadParts(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"delta":{"reasoning":"Let me think"}}]}`,
		`{"choices":[{"delta":{"reasoning_content":"a\u00e9\n"}}],"usage":{"prompt_tokens":3}}`,
		`{"choices":[{"message":{"reasoning":"x","reasoning_content":null}}]}`,
		`{"choices":[{"delta":{"reasoning":"ab"},"delta":{"content":"x"}}]}`,
		`{"choices":null,"usage":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := readParts(data)
		if !utf8.Valid(data) || !json.Valid(data) {
			return // encoding/json replaces what jscan keeps, or refuses it
		}
		var v map[string]any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		want := 0
		if choices, ok := v["choices"].([]any); ok && len(choices) > 0 {
			if c, ok := choices[0].(map[string]any); ok {
				d, hasD := c["delta"]
				m, hasM := c["message"]
				if hasD && hasM {
					return // which one is read depends on the document's order
				}
				if !hasD {
					d = m
				}
				if o, ok := d.(map[string]any); ok {
					rc, _ := o["reasoning_content"].(string)
					r, _ := o["reasoning"].(string)
					want = len(r)
					if rc != "" {
						want = len(rc)
					}
				}
			}
		}
		if got.Reasoning != want {
			t.Errorf("%q: reasoning %d bytes, encoding/json reads %d", data, got.Reasoning, want)
		}
	})
}
