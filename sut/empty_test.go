package sut

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// TestEmptyAnswersFail: well-formed answers with no output at all (a chat
// content "" with finish_reason stop, a stream of only a finish chunk or of
// only [DONE], completions with token_ids []) are failed samples with the
// reason empty_answer, completed exactly once, never empty successes.
func TestEmptyAnswersFail(t *testing.T) {
	t.Parallel()
	const finish = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}]}` + "\n\n"
	for _, tc := range []struct {
		name   string
		api    protocol.Protocol
		stream bool
		body   string
	}{
		{"chat content empty", openaichat.Protocol, false,
			`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":0,"total_tokens":3}}`},
		{"chat stream only a finish", openaichat.Protocol, true, finish + "data: [DONE]\n\n"},
		{"chat stream only DONE", openaichat.Protocol, true, "data: [DONE]\n\n"},
		{"completions no token ids", openaicompletions.Protocol, false,
			`{"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"","token_ids":[],"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":0,"total_tokens":3}}`},
		{"generate no output ids", sglang.Protocol, false,
			`{"text":"","output_ids":[],"meta_info":{"id":"r","finish_reason":{"type":"stop"},"prompt_tokens":3,"completion_tokens":0}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.stream {
					w.Header().Set("Content-Type", "text/event-stream")
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				fmt.Fprint(w, tc.body)
			})
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: tc.api, Stream: tc.stream, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 2})
			qs := samples(3)
			for i := range qs {
				qs[i].Index = 0
			}
			p.IssueQuery(qs)
			waitFor(t, "every completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == 3 })
			p.Close()
			_, finals, dups := rec.snapshot()
			st := p.Stats()
			if len(finals) != 3 || len(dups) != 0 || st.Failed != 3 || st.FailuresByReason[ReasonEmpty] != 3 {
				t.Fatalf("%d completions, dups %v, stats %+v: want 3 failed as %s", len(finals), dups, st, ReasonEmpty)
			}
			if f := st.FirstFailures[0]; !strings.Contains(f.Message, "no output") {
				t.Errorf("failure message %q does not say the answer was empty", f.Message)
			}
		})
	}
}

// TestEmptyTextWithTokensIsAnAnswer: an empty text for which the server
// counts generated tokens (whisper's transcript of a silent clip is its
// end-of-text token) is an answer, not a failure, streamed or not.
func TestEmptyTextWithTokensIsAnAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		stream bool
		body   string
	}{
		{"chat", false, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`},
		{"chat stream", true, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}]}` + "\n\n" +
			`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}` + "\n\ndata: [DONE]\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.stream {
					w.Header().Set("Content-Type", "text/event-stream")
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				fmt.Fprint(w, tc.body)
			})
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: openaichat.Protocol, Stream: tc.stream, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 2})
			qs := samples(2)
			for i := range qs {
				qs[i].Index = 0
			}
			p.IssueQuery(qs)
			waitFor(t, "every completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == 2 })
			p.Close()
			_, finals, dups := rec.snapshot()
			st := p.Stats()
			if len(finals) != 2 || len(dups) != 0 || st.Failed != 0 || st.OutputTokens != 2 {
				t.Fatalf("%d completions, dups %v, stats %+v: want 2 answers of one token each", len(finals), dups, st)
			}
		})
	}
}
