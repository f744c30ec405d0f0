package sut

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go"

	"github.com/mlperf-go/mlperf-go/internal/q3vlvectors"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// chatServer answers like vLLM: the content echoes the request's last
// user text length so each sample's answer is distinct; completion_tokens
// is the number of words.
func chatServer(t testing.TB, reqs chan<- map[string]any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "bad path "+r.URL.Path, http.StatusNotFound)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if reqs != nil {
			reqs <- m
		}
		content := chatAnswer(m)
		stream, _ := m["stream"].(bool)
		if !stream {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s,"refusal":null,"tool_calls":[],"reasoning_content":null},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":1234,"total_tokens":1240,"completion_tokens":%d,"prompt_tokens_details":null},"prompt_logprobs":null,"kv_transfer_params":null}`,
				m["model"], jsonString(content), len(strings.Fields(content)))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}`+"\n\n")
		fl.Flush()
		for _, word := range strings.SplitAfter(content, " ") {
			fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n", jsonString(word))
			fl.Flush()
		}
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":null}`+"\n\n")
		fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":1234,\"total_tokens\":1240,\"completion_tokens\":%d}}\n\n", len(strings.Fields(content)))
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// chatAnswer derives the answer from the request: a JSON object naming
// the request's user text length, with quotes and non-ASCII to exercise
// string decoding.
func chatAnswer(m map[string]any) string {
	msgs, _ := m["messages"].([]any)
	n := 0
	for _, x := range msgs {
		b, _ := json.Marshal(x)
		n += len(b)
	}
	return fmt.Sprintf(`{"category": "Größe \"%d\"", "brand": "x", "is_secondhand": false}`, n)
}

// chatBodies builds n bodies from the shared vectors, cycling through
// them, with distinct message lengths per index.
func chatBodies(t testing.TB, n int, stream bool) (sliceBodies, []string) {
	t.Helper()
	recs := q3vlvectors.Load(t)
	bodies := make(sliceBodies, n)
	answers := make([]string, n)
	for i := range bodies {
		msgs := q3vlvectors.Messages(t, recs[i%len(recs)].Messages)
		msgs = append(msgs, openai.UserMessage(strings.Repeat("x", i)))
		b, err := openaichat.Encode("m", msgs, nil, openaichat.Params{Temperature: ptr(0.0)}, stream)
		if err != nil {
			t.Fatal(err)
		}
		bodies[i] = b
		answers[i] = chatAnswer(decodeMap(t, b))
	}
	return bodies, answers
}

func TestPoolChat(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			const n = 40
			bodies, answers := chatBodies(t, n, stream)
			reqs := make(chan map[string]any, n)
			srv := serve(t, chatServer(t, reqs))
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL + "/v1/"}, API: openaichat.Protocol, Stream: stream, Bodies: bodies})
			p.IssueQuery(samples(n))
			p.Close()
			firsts, finals, dups := rec.snapshot()
			if len(dups) > 0 {
				t.Fatalf("duplicate or misordered completions: %v", dups)
			}
			if len(finals) != n {
				t.Fatalf("got %d completions, want %d", len(finals), n)
			}
			for i, qs := range samples(n) {
				got := finals[qs.ID]
				want := answers[i]
				if string(got.Data) != want || got.NTokens != int64(len(strings.Fields(want))) {
					t.Errorf("sample %d: got (%q, %d), want (%q, %d)", i, got.Data, got.NTokens, want, len(strings.Fields(want)))
				}
				if stream {
					f, ok := firsts[qs.ID]
					// The first non-empty content delta is the first word.
					if wantFirst := strings.SplitAfter(want, " ")[0]; !ok || string(f.Data) != wantFirst || f.NTokens != 1 {
						t.Errorf("sample %d first token: got %+v (present %v), want %q", i, f, ok, wantFirst)
					}
				}
			}
			if !stream && len(firsts) != 0 {
				t.Errorf("non-streaming pool sent %d first tokens", len(firsts))
			}
			st := p.Stats()
			if st.Issued != n || st.Completed != n || st.Failed != 0 {
				t.Errorf("stats = %+v", st)
			}
			close(reqs)
			for m := range reqs {
				if m["model"] != "m" || m["temperature"] != 0.0 {
					t.Errorf("request fields: model %v temperature %v", m["model"], m["temperature"])
				}
				if _, has := m["stream"]; has != stream {
					t.Errorf("stream field present=%v, want %v", has, stream)
				}
			}
		})
	}
}
