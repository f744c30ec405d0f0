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

	"github.com/mlperf-go/mlperf-go/loadgen"
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
func benchPool(b *testing.B, api API, stream bool, body []byte, contentType string, response []byte) {
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
	recs := loadQ3VL(b)
	body, err := EncodeChat("Qwen/Qwen3-VL-235B-A22B-Instruct", chatMessages(b, recs[0].Messages), recs[0].ResponseFormat, ChatParams{}, false)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

const benchChatResponse = `{"id":"chatcmpl-8d2c","object":"chat.completion","created":1732000000,"model":"Qwen/Qwen3-VL-235B-A22B-Instruct","choices":[{"index":0,"message":{"role":"assistant","content":"{\"category\": \"Clothing & Accessories > Clothing > Shirts > Polo Shirts\", \"brand\": \"giorgio armani\", \"is_secondhand\": false}","refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":[],"reasoning_content":null},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":1834,"total_tokens":1867,"completion_tokens":33,"prompt_tokens_details":null},"prompt_logprobs":null,"kv_transfer_params":null}`

func BenchmarkPoolChat(b *testing.B) {
	benchPool(b, APIChat, false, benchChatBody(b), "application/json", []byte(benchChatResponse))
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
	body, err := EncodeCompletion("meta-llama/Llama-3.1-8B-Instruct", prompt, DefaultCompletionParams(), false)
	if err != nil {
		b.Fatal(err)
	}
	benchPool(b, APICompletions, false, body, "application/json", benchCompletionResponse())
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
	body, err := EncodeSGLang(prompt, DefaultSGLangParams(), true)
	if err != nil {
		b.Fatal(err)
	}
	benchPool(b, APISGLang, true, body, "text/event-stream", benchSGLangStream(64))
}

// Parser micro-benchmarks, each beside an encoding/json decode of the same
// body into a struct holding just the needed fields.

func BenchmarkParseChat(b *testing.B) {
	body := []byte(benchChatResponse)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		var err error
		if buf, _, err = parseChat(buf[:0], body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseChatEncodingJSON(b *testing.B) {
	body := []byte(benchChatResponse)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var r struct {
			Choices []struct {
				Message struct {
					Content *string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
			Usage *struct {
				CompletionTokens int64 `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseCompletion(b *testing.B) {
	body := benchCompletionResponse()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		var err error
		if buf, _, err = parseCompletion(buf[:0], body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseCompletionEncodingJSON(b *testing.B) {
	body := benchCompletionResponse()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var r struct {
			Choices []struct {
				TokenIDs []int32 `json:"token_ids"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// sglangChunk1000 is one cumulative chunk 1,000 tokens into a stream.
func sglangChunk1000() []byte {
	ij, _ := json.Marshal(benchIDs(1000))
	return []byte(fmt.Sprintf(`{"text":"%s","output_ids":%s,"meta_info":{"id":"5b1f","finish_reason":null,"prompt_tokens":800,"completion_tokens":1000,"cached_tokens":0}}`, strings.Repeat("ab", 1000), ij))
}

func BenchmarkParseSGLangChunk(b *testing.B) {
	body := sglangChunk1000()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	pf := &idPrefix{}
	for b.Loop() {
		pf.raw, pf.ids = pf.raw[:0], pf.ids[:0] // no prefix: parse all 1,000 IDs
		if _, err := parseSGLangChunk(pf, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseSGLangChunkCumulative is the same chunk in its stream:
// the previous chunk carried the first 999 IDs.
func BenchmarkParseSGLangChunkCumulative(b *testing.B) {
	ids := benchIDs(1000)
	prev, _ := json.Marshal(ids[:999])
	body := sglangChunk1000()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	pf := &idPrefix{}
	prevChunk := []byte(fmt.Sprintf(`{"output_ids":%s,"meta_info":{"completion_tokens":999}}`, prev))
	for b.Loop() {
		b.StopTimer()
		if _, err := parseSGLangChunk(pf, prevChunk); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c, err := parseSGLangChunk(pf, body)
		if err != nil || len(c.ids) != 1000 {
			b.Fatal(err, len(c.ids))
		}
	}
}

func BenchmarkParseSGLangChunkEncodingJSON(b *testing.B) {
	body := sglangChunk1000()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var r struct {
			Text      string  `json:"text"`
			OutputIDs []int32 `json:"output_ids"`
			MetaInfo  struct {
				CompletionTokens int64           `json:"completion_tokens"`
				FinishReason     json.RawMessage `json:"finish_reason"`
			} `json:"meta_info"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}
