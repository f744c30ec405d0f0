package fake

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/q3vlvectors"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// The fake is a test instrument, not a benchmark target: these benchmarks
// only say roughly what it sustains at zero latency, in-process (ServeHTTP
// into a discarding writer) and over loopback HTTP with keep-alive
// clients, so a harness measurement can tell whether the fake was the
// bottleneck. Run them as smoke tests with -benchtime=1x.

func benchChatBody(b *testing.B) string { return chatBody(b, testUserText, nil) }

const benchGenerateStream = `{"input_ids":[200006,17360,200008,3575,1,2,3,4,5,6,7,8,9,10],"sampling_params":{"max_new_tokens":10240,"temperature":0.001,"top_k":1,"top_p":1.0},"stream":true}`

func benchServer(b *testing.B, cfg Config) *Server {
	b.Helper()
	cfg.Answers = []Answer{testAnswer}
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
	b.Helper()
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

func BenchmarkHandlerGenerateStream(b *testing.B) {
	benchHandler(b, Config{}, "/generate", benchGenerateStream)
}

func BenchmarkHandlerGenerateStreamIncremental(b *testing.B) {
	benchHandler(b, Config{IncrementalStream: true}, "/generate", benchGenerateStream)
}

func BenchmarkHandlerCompletionsTokenIDs(b *testing.B) {
	benchHandler(b, Config{}, "/v1/completions", `{"prompt":[128000,9906,1917,11,1268],"max_tokens":128,"return_token_ids":true}`)
}

func benchHTTP(b *testing.B, cfg Config, path, body string) {
	b.Helper()
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
	benchHTTP(b, Config{IncrementalStream: true}, "/generate", benchGenerateStream)
}

// q3vlBody is a Qwen3-VL request as the harness sends it (v6.1: the
// reference's messages, max_completion_tokens 150) with an image of
// imageBytes bytes, the size of the dataset's (60-150 KB bodies).
func q3vlBody(b *testing.B, imageBytes int, stream bool) string {
	b.Helper()
	rec := q3vlvectors.Load(b)[0]
	img := make([]byte, imageBytes)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img {
		img[i] = byte(r.Uint32())
	}
	var msgs []map[string]any
	if err := json.Unmarshal(rec.Messages, &msgs); err != nil {
		b.Fatal(err)
	}
	for _, m := range msgs {
		if parts, ok := m["content"].([]any); ok {
			for _, p := range parts {
				if iu, ok := p.(map[string]any)["image_url"].(map[string]any); ok {
					iu["url"] = "data:image/JPEG;base64," + base64.StdEncoding.EncodeToString(img)
				}
			}
		}
	}
	raw, err := json.Marshal(msgs)
	if err != nil {
		b.Fatal(err)
	}
	body, err := openaichat.AppendRaw(nil, DefaultModel, rawMessages(b, raw), nil,
		&openaichat.Params{MaxCompletionTokens: ptrInt(150)}, stream)
	if err != nil {
		b.Fatal(err)
	}
	return string(body)
}

func ptrInt(v int) *int { return &v }

func rawMessages(b *testing.B, list []byte) []json.RawMessage {
	b.Helper()
	var out []json.RawMessage
	if err := json.Unmarshal(list, &out); err != nil {
		b.Fatal(err)
	}
	return out
}

// cpuTime is the process's user plus system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHandlerChatQwen3VL is the fake's CPU per Qwen3-VL request (a
// 96 KB body), in-process: what caps the requests/s a harness benchmark
// can drive through it on a core. It reports cpu-µs/req (process CPU,
// the in-process client's small part included).
func BenchmarkHandlerChatQwen3VL(b *testing.B) {
	s := benchServer(b, Config{})
	body := q3vlBody(b, 72<<10, false)
	b.SetBytes(int64(len(body)))
	c0 := cpuTime()
	benchHandlerServer(b, s, "/v1/chat/completions", body)
	b.ReportMetric(float64(cpuTime()-c0)/1e3/float64(b.N), "cpu-µs/req")
}
