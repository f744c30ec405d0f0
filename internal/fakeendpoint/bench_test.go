package fakeendpoint

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The benchmarks measure what the fake sustains at zero latency: in-process
// (ServeHTTP into a recorder: the server's own cost) and over loopback HTTP
// with keep-alive clients (server plus client on the same cores).

func benchChatBody(b *testing.B) string { return chatBody(b, testUserText, nil) }

const benchGenerateStream = `{"input_ids":[200006,17360,200008,3575,1,2,3,4,5,6,7,8,9,10],"sampling_params":{"max_new_tokens":10240,"temperature":0.001,"top_k":1,"top_p":1.0},"stream":true}`

func benchServer(b *testing.B, cfg Config) *Server {
	b.Helper()
	cfg.Q3VL = []Q3VLTruth{testTruth}
	cfg.Accuracy = 1
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// discardWriter is a ResponseWriter and Flusher that counts and drops bytes,
// so handler benchmarks measure the server, not a recorder's buffer growth.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) WriteHeader(code int)        { d.code = code }
func (d *discardWriter) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }
func (d *discardWriter) Flush()                      {}

func benchHandler(b *testing.B, cfg Config, path, body string) {
	benchHandlerServer(b, benchServer(b, cfg), path, body)
}

func benchHandlerServer(b *testing.B, s *Server, path, body string) {
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := &discardWriter{h: http.Header{}}
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
			w.code, w.n = 200, 0
			clear(w.h)
			s.ServeHTTP(w, req)
			if w.code != 200 || w.n == 0 {
				b.Fatalf("status %d, %d bytes", w.code, w.n)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

func BenchmarkHandlerChat(b *testing.B) {
	benchHandler(b, Config{}, "/v1/chat/completions", benchChatBody(b))
}

// q3vlChatBody is a qwen3-vl chat request as the harness sends it
// (sut.EncodeChat's shape: json.Marshal key order and HTML escaping): the
// reference's system prompt (about 1.6 KB), a user message with the
// product text and a 48 KB JPEG as a base64 data URL, and the guided
// decoding response_format. About 68 KB, 96% of it the image.
func q3vlChatBody(b *testing.B) string {
	b.Helper()
	img := make([]byte, 48<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img {
		img[i] = byte(r.Uint32())
	}
	copy(img, "\xff\xd8\xff\xdb") // a JPEG's first bytes, as the reference's data URLs carry
	system := strings.Repeat("Please analyze the product from the user prompt\nand provide the following fields in a valid JSON object:\n- \"category\"\n", 12)
	req := map[string]any{
		"model": "Qwen/Qwen3-VL-235B-A22B-Instruct",
		"messages": []any{
			map[string]any{"role": "system", "content": system},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": testUserText},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/JPEG;base64," + base64.StdEncoding.EncodeToString(img)}},
			}},
		},
		"max_completion_tokens": 1024,
		"temperature":           0,
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{
			"name": "product_metadata", "strict": true,
			"schema": map[string]any{
				"type": "object", "additionalProperties": false, "required": []string{"category", "brand", "is_secondhand"},
				"properties": map[string]any{
					"category":      map[string]any{"type": "string", "description": "The complete category of the product, e.g., \"Clothing & Accessories > Clothing > Shirts > Polo Shirts\"."},
					"brand":         map[string]any{"type": "string", "description": "The brand of the product, e.g., \"giorgio armani\"."},
					"is_secondhand": map[string]any{"type": "boolean", "description": "True if the product is second-hand, False otherwise."},
				},
			},
		}},
	}
	body, err := json.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	return string(body)
}

// chatParsers are the chat request parsers compared side by side: the
// encoding/json original (the oracle FuzzParseChat holds scanChat to) and
// the one-pass jscan parser the server uses.
var chatParsers = []struct {
	name  string
	parse func([]byte) (*chatRequest, error)
}{
	{"encoding-json", parseChatEncodingJSON},
	{"jscan", parseChat},
}

// BenchmarkParseChatRequest: decoding a qwen3-vl chat request.
func BenchmarkParseChatRequest(b *testing.B) {
	body := []byte(q3vlChatBody(b))
	for _, p := range chatParsers {
		b.Run("parser="+p.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if req, err := p.parse(body); err != nil || req.userText() != testUserText {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHandlerChatQ3VL: the whole chat handler at zero latency on a
// qwen3-vl request, with each parser.
func BenchmarkHandlerChatQ3VL(b *testing.B) {
	body := q3vlChatBody(b)
	for _, p := range chatParsers {
		b.Run("parser="+p.name, func(b *testing.B) {
			s := benchServer(b, Config{})
			s.parseChat = p.parse
			b.SetBytes(int64(len(body)))
			benchHandlerServer(b, s, "/v1/chat/completions", body)
		})
	}
}

// llamaCompletionBody is a llama3.1-8b completions request as the
// harness sends it (sut.EncodeCompletion): a token-ID prompt of 1,500
// IDs (CNN/DailyMail articles run 1-2K tokens), sampling parameters and
// return_token_ids. About 9 KB.
func llamaCompletionBody(b *testing.B) []byte {
	b.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	prompt := make([]int32, 1500)
	for i := range prompt {
		prompt[i] = int32(r.IntN(128256))
	}
	body, err := json.Marshal(struct {
		Model          string  `json:"model"`
		Prompt         []int32 `json:"prompt"`
		MaxTokens      int     `json:"max_tokens"`
		Temperature    float64 `json:"temperature"`
		TopK           int     `json:"top_k"`
		TopP           float64 `json:"top_p"`
		ReturnTokenIDs bool    `json:"return_token_ids"`
		Stream         bool    `json:"stream"`
	}{"meta-llama/Llama-3.1-8B-Instruct", prompt, 128, 0, 1, 1, true, false})
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// BenchmarkParseCompletionRequest: decoding a llama3.1-8b completions
// request with the encoding/json original and with scanCompletion.
func BenchmarkParseCompletionRequest(b *testing.B) {
	body := llamaCompletionBody(b)
	for _, p := range []struct {
		name  string
		parse func([]byte) (*completionRequest, [][]int32, error)
	}{
		{"encoding-json", parseCompletionEncodingJSON},
		{"jscan", parseCompletion},
	} {
		b.Run("parser="+p.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, prompts, err := p.parse(body); err != nil || len(prompts[0]) != 1500 {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHandlerGenerateStream(b *testing.B) {
	benchHandler(b, Config{}, "/generate", benchGenerateStream)
}

func BenchmarkHandlerGenerateStreamIncremental(b *testing.B) {
	benchHandler(b, Config{SGLangIncrementalStream: true}, "/generate", benchGenerateStream)
}

func BenchmarkHandlerCompletionsTokenIDs(b *testing.B) {
	benchHandler(b, Config{}, "/v1/completions", `{"prompt":[128000,9906,1917,11,1268],"max_tokens":128,"return_token_ids":true}`)
}

func benchHTTP(b *testing.B, cfg Config, path, body string) {
	s := benchServer(b, cfg)
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	bodyBytes := []byte(body)
	b.ReportAllocs()
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Post(url+path, "application/json", bytes.NewReader(bodyBytes))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

func BenchmarkHTTPChat(b *testing.B) {
	benchHTTP(b, Config{}, "/v1/chat/completions", benchChatBody(b))
}

func BenchmarkHTTPGenerateStream(b *testing.B) {
	benchHTTP(b, Config{}, "/generate", benchGenerateStream)
}

func BenchmarkHTTPGenerateStreamIncremental(b *testing.B) {
	benchHTTP(b, Config{SGLangIncrementalStream: true}, "/generate", benchGenerateStream)
}
