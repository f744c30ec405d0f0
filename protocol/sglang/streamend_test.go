package sglang

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

// TestStreamEnd: a stream without output_ids fails like a body without
// them, an aborted one fails with SGLang's message, and one cut before its
// finish reason without [DONE] is truncated.
func TestStreamEnd(t *testing.T) {
	for _, tc := range []prototest.StreamEnd{
		{Name: "finished", Chunks: []string{`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":{"type":"stop"}}}`}, Done: true, Want: ""},
		{Name: "text only", Chunks: []string{`{"text":"abcdefgh","meta_info":{"completion_tokens":2,"finish_reason":{"type":"stop"}}}`}, Done: true, Want: "no output_ids in any of its 1 events"},
		{Name: "aborted", Chunks: []string{`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":null}}`,
			`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":{"type":"abort","message":"Aborted","status_code":null}}}`}, Done: true,
			Want: `SGLang aborted the answer (finish_reason type "abort": Aborted) after 2 events and 1 tokens`},
		{Name: "cut", Chunks: []string{`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":null}}`}, Done: false, Want: "no finish_reason and no data: [DONE], after 1 events and 1 tokens"},
	} {
		t.Run(tc.Name, func(t *testing.T) { prototest.CheckStreamEnd(t, Protocol, tc) })
	}
	if _, _, err := Protocol.DecodeResponse(nil, []byte(`{"output_ids":[1],"meta_info":{"finish_reason":{"type":"abort","message":"injected"}}}`)); err == nil || !strings.Contains(err.Error(), "injected") {
		t.Errorf("aborted body: error %v", err)
	}
}
