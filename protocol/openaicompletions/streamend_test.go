package openaicompletions

import (
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

// TestStreamEnd: a stream without token IDs fails like a body without
// them; one that ends after its finish_reason without [DONE] is complete;
// a failed finish_reason fails it.
func TestStreamEnd(t *testing.T) {
	for _, tc := range []prototest.StreamEnd{
		{Name: "done", Chunks: []string{`{"choices":[{"token_ids":[1,2],"finish_reason":null}]}`}, Done: true, Want: ""},
		{Name: "finish, no done", Chunks: []string{`{"choices":[{"token_ids":[1],"finish_reason":"length"}]}`}, Done: false, Want: ""},
		{Name: "cut", Chunks: []string{`{"choices":[{"token_ids":[1],"finish_reason":null}]}`}, Done: false, Want: "no data: [DONE] and no finish_reason, after 1 events and 1 tokens"},
		{Name: "no token ids", Chunks: []string{`{"choices":[{"text":"a","token_ids":null}]}`, `{"choices":[{"text":"b","finish_reason":"stop"}]}`}, Done: true, Want: "return_token_ids (vLLM >= 0.10.2), in none of 2 events"},
		{Name: "error", Chunks: []string{`{"choices":[{"token_ids":[1],"finish_reason":"error"}]}`}, Done: true, Want: `finish_reason "error" after 1 events and 0 tokens`},
	} {
		t.Run(tc.Name, func(t *testing.T) { prototest.CheckStreamEnd(t, Protocol, tc) })
	}
}
