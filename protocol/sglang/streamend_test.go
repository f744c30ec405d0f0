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
	for _, tc := range []struct {
		name   string
		chunks []string
		done   bool
		want   string
	}{
		{"finished", []string{`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":{"type":"stop"}}}`}, true, ""},
		{"text only", []string{`{"text":"abcdefgh","meta_info":{"completion_tokens":2,"finish_reason":{"type":"stop"}}}`}, true, "no output_ids in any of its 1 events"},
		{"aborted", []string{`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":null}}`,
			`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":{"type":"abort","message":"Aborted","status_code":null}}}`}, true,
			`SGLang aborted the answer (finish_reason type "abort": Aborted) after 2 events and 1 tokens`},
		{"cut", []string{`{"output_ids":[1],"meta_info":{"completion_tokens":1,"finish_reason":null}}`}, false, "no finish_reason and no data: [DONE], after 1 events and 1 tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := prototest.RunStream(Protocol.NewStream(), tc.chunks, tc.done)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if _, _, err := Protocol.DecodeResponse(nil, []byte(`{"output_ids":[1],"meta_info":{"finish_reason":{"type":"abort","message":"injected"}}}`)); err == nil || !strings.Contains(err.Error(), "injected") {
		t.Errorf("aborted body: error %v", err)
	}
}
