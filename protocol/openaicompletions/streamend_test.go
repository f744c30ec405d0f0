package openaicompletions

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

// TestStreamEnd: a stream without token IDs fails like a body without
// them; one that ends after its finish_reason without [DONE] is complete;
// a failed finish_reason fails it.
func TestStreamEnd(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		done   bool
		want   string
	}{
		{"done", []string{`{"choices":[{"token_ids":[1,2],"finish_reason":null}]}`}, true, ""},
		{"finish, no done", []string{`{"choices":[{"token_ids":[1],"finish_reason":"length"}]}`}, false, ""},
		{"cut", []string{`{"choices":[{"token_ids":[1],"finish_reason":null}]}`}, false, "no data: [DONE] and no finish_reason, after 1 events and 1 tokens"},
		{"no token ids", []string{`{"choices":[{"text":"a","token_ids":null}]}`, `{"choices":[{"text":"b","finish_reason":"stop"}]}`}, true, "return_token_ids (vLLM >= 0.10.2), in none of 2 events"},
		{"error", []string{`{"choices":[{"token_ids":[1],"finish_reason":"error"}]}`}, true, `finish_reason "error" after 1 events and 0 tokens`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := prototest.RunStream(Protocol.NewStream(), tc.chunks, tc.done)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
