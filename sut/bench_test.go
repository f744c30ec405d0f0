package sut

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/q3vlvectors"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// countingCompleter signals when n final responses have arrived.
type countingCompleter struct {
	n, got atomic.Int64
	done   chan struct{}
}

func (c *countingCompleter) QuerySamplesComplete(rs []loadgen.Response) error {
	if c.got.Add(int64(len(rs))) == c.n.Load() {
		close(c.done)
	}
	return nil
}

func (c *countingCompleter) FirstTokenComplete([]loadgen.Response) error { return nil }

// benchPool issues b.N samples against a zero-latency server returning a
// fixed response and reports process CPU per sample. The server runs in
// the same process, so cpu-µs/sample is harness plus server (an upper
// bound on the harness's own cost).
func benchPool(b *testing.B, api protocol.Protocol, stream bool, body []byte, contentType string, response []byte) {
	b.Helper()
	if !cpuTimeKnown {
		b.Skip("process CPU time is measured with getrusage (Unix only)")
	}
	srv := serve(b, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", contentType)
		w.Write(response)
	})
	cc := &countingCompleter{done: make(chan struct{})}
	cc.n.Store(int64(b.N))
	bodies := make(sliceBodies, 64)
	for i := range bodies {
		bodies[i] = body
	}
	p, err := New(context.Background(), Config{Endpoints: []string{srv.URL}, API: api, Stream: stream, Bodies: bodies, Completer: cc, Concurrency: 64})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	qs := make([]loadgen.QuerySample, b.N)
	for i := range qs {
		qs[i] = loadgen.QuerySample{ID: uint64(i), Index: i % len(bodies)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	p.IssueQuery(qs)
	<-cc.done
	cpu := cpuTime() - cpu0
	b.StopTimer()
	if st := p.Stats(); st.Failed != 0 {
		b.Fatalf("failures: %+v", st)
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/sample")
}

func benchChatBody(b *testing.B) []byte {
	b.Helper()
	recs := q3vlvectors.Load(b)
	body, err := openaichat.Encode("Qwen/Qwen3-VL-235B-A22B-Instruct", q3vlvectors.Messages(b, recs[0].Messages), recs[0].ResponseFormat, openaichat.Params{}, false)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

const benchChatResponse = `{"id":"chatcmpl-8d2c","object":"chat.completion","created":1732000000,"model":"Qwen/Qwen3-VL-235B-A22B-Instruct","choices":[{"index":0,"message":{"role":"assistant","content":"{\"category\": \"Clothing & Accessories > Clothing > Shirts > Polo Shirts\", \"brand\": \"giorgio armani\", \"is_secondhand\": false}","refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":[],"reasoning_content":null},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":1834,"total_tokens":1867,"completion_tokens":33,"prompt_tokens_details":null},"prompt_logprobs":null,"kv_transfer_params":null}`

func BenchmarkPoolChat(b *testing.B) {
	benchPool(b, openaichat.Protocol, false, benchChatBody(b), "application/json", []byte(benchChatResponse))
}

// benchIDs are n plausible token IDs.
func benchIDs(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = (i*7919 + 128000) % 128256
	}
	return ids
}

// benchCompletionResponse is a vLLM completions response with 128
// generated IDs and the echoed 1,000-token prompt (return_token_ids).
func benchCompletionResponse() []byte {
	out, _ := json.Marshal(benchIDs(128))
	prompt, _ := json.Marshal(benchIDs(1000))
	return []byte(fmt.Sprintf(`{"id":"cmpl-1","object":"text_completion","created":1,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"text":"%s","logprobs":null,"finish_reason":"length","stop_reason":null,"token_ids":%s,"prompt_logprobs":null,"prompt_token_ids":%s}],"usage":{"prompt_tokens":1000,"total_tokens":1128,"completion_tokens":128}}`,
		strings.Repeat("word ", 100), out, prompt))
}

func BenchmarkPoolCompletions(b *testing.B) {
	prompt := make([]int32, 1000)
	for i, v := range benchIDs(1000) {
		prompt[i] = int32(v)
	}
	body, err := openaicompletions.Encode("meta-llama/Llama-3.1-8B-Instruct", prompt, llamaParams(), false)
	if err != nil {
		b.Fatal(err)
	}
	benchPool(b, openaicompletions.Protocol, false, body, "application/json", benchCompletionResponse())
}

// benchSGLangStream is an SGLang stream of n tokens in SGLang's default
// cumulative form: chunk k carries all k output IDs.
func benchSGLangStream(n int) []byte {
	var sb strings.Builder
	ids := benchIDs(n)
	for k := 1; k <= n; k++ {
		ij, _ := json.Marshal(ids[:k])
		fin := "null"
		if k == n {
			fin = fmt.Sprintf(`{"type":"length","length":%d}`, n)
		}
		fmt.Fprintf(&sb, "data: {\"text\":\"%s\",\"output_ids\":%s,\"meta_info\":{\"id\":\"5b1f\",\"finish_reason\":%s,\"prompt_tokens\":800,\"weight_version\":\"default\",\"completion_tokens\":%d,\"cached_tokens\":0}}\n\n", strings.Repeat("ab", k), ij, fin, k)
	}
	sb.WriteString("data: [DONE]\n\n")
	return []byte(sb.String())
}

func BenchmarkPoolSGLangStream(b *testing.B) {
	prompt := make([]int32, 800)
	for i, v := range benchIDs(800) {
		prompt[i] = int32(v)
	}
	body, err := sglang.Encode(prompt, gptossParams(), true)
	if err != nil {
		b.Fatal(err)
	}
	benchPool(b, sglang.Protocol, true, body, "text/event-stream", benchSGLangStream(64))
}
