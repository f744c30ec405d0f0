package bench

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// TestSyntheticOverTextAPIs: a synthetic text workload goes over vLLM's
// /v1/completions and SGLang's /generate as text prompts (vllm bench
// serve's default API), streamed and not: every request completes, the
// server receives the drawn prompt as text, and the prompt tokens the
// server reports are counted.
func TestSyntheticOverTextAPIs(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"openai-completions", "sglang-generate"} {
		for _, stream := range []bool{false, true} {
			api, err := protocol.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			w, err := Synthetic(SyntheticOptions{Requests: 6, InputLen: 12, OutputLen: 5, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var prompts []string
			url := startFake(t, fake.Config{OnRequest: func(ri fake.RequestInfo) {
				mu.Lock()
				prompts = append(prompts, ri.Ask.TextPrompts...)
				mu.Unlock()
			}}, nil)
			res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}},
				API: api, Model: fake.DefaultModel, Stream: stream, ExactOutput: true})
			if err != nil {
				t.Fatalf("%s stream=%v: %v", name, stream, err)
			}
			r := res.Runs[0]
			if r.Completed != 6 || r.Failed != 0 || r.OutputTokens != 30 {
				t.Errorf("%s stream=%v: %d completed, %d failed, %d output tokens", name, stream, r.Completed, r.Failed, r.OutputTokens)
			}
			if r.PromptTokens <= 0 {
				t.Errorf("%s stream=%v: %d prompt tokens counted", name, stream, r.PromptTokens)
			}
			for _, rec := range recs[0] {
				if rec.PromptTokens <= 0 {
					t.Errorf("%s stream=%v: request %s has prompt_tokens %d", name, stream, rec.Conversation, rec.PromptTokens)
				}
			}
			mu.Lock()
			if len(prompts) != 6 || len(strings.Fields(prompts[0])) != 12 {
				t.Errorf("%s stream=%v: the server got %d text prompts (first %q), want 6 of 12 words", name, stream, len(prompts), prompts)
			}
			mu.Unlock()
		}
	}
}

// TestTextAPIRefusesChatOnlyWorkloads: images, later turns and tools need
// a chat API; over a text API the run is refused before anything is
// sent, naming the conversation, what it has and the API to use.
func TestTextAPIRefusesChatOnlyWorkloads(t *testing.T) {
	t.Parallel()
	api, err := protocol.Lookup("openai-completions")
	if err != nil {
		t.Fatal(err)
	}
	var s seen
	url := startFake(t, fake.Config{}, &s)
	for _, tc := range []struct {
		o    SyntheticOptions
		want string
	}{
		{SyntheticOptions{Requests: 2, InputLen: 4, OutputLen: 2, MultiTurn: 1}, "has 2 turns (--multi-turn)"},
		{SyntheticOptions{Requests: 2, InputLen: 4, OutputLen: 2, Images: 1, ImageWidth: 8, ImageHeight: 8}, "has 1 images"},
	} {
		w, err := Synthetic(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, API: api})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "synthetic-0") || !strings.Contains(err.Error(), "--api openai-chat") {
			t.Errorf("error %v, want it to name synthetic-0, %q and --api openai-chat", err, tc.want)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) != 0 {
		t.Errorf("%d requests sent before the refusal", len(s.reqs))
	}
}

// TestBenchmarkPromptTokens: a benchmark's dataset of token IDs, streamed
// over /v1/completions, counts every prompt token: from the usage chunk
// the stream asks for, and from the dataset where the server sends no
// usage (here, a proxy that drops stream_options before the fake sees it).
func TestBenchmarkPromptTokens(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup("llama3_1-8b")
	if err != nil {
		t.Fatal(err)
	}
	files, err := b.Data.Synth(t.TempDir(), 8, 5)
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.Data.Open(files, b.Data.Splits)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range d.Len() {
		want += len(d.(benchmark.TokenPrompts).Tokens(i))
	}
	d.Close()
	w, err := LoadBenchmark(BenchmarkOptions{Benchmark: b, Paths: files, Stream: true, OutputLen: 4, Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	fakeURL := startFake(t, fake.Config{Model: b.Serving.Model}, nil)
	noUsage := proxy(t, fakeURL, func(body []byte) []byte {
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			delete(m, "stream_options")
			body, _ = json.Marshal(m)
		}
		return body
	}, nil)
	for _, target := range []Target{{Name: "usage", URLs: []string{fakeURL}}, {Name: "no-usage", URLs: []string{noUsage}}} {
		api, _ := protocol.Lookup("openai-completions")
		res, _, err := Run(context.Background(), w, Options{Targets: []Target{target}, API: api, Model: b.Serving.Model, Stream: true, ExactOutput: true})
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Runs[0]; r.Completed != 8 || int(r.PromptTokens) != want {
			t.Errorf("%s: %d completed, %d prompt tokens, want 8 and the dataset's %d", target.Name, r.Completed, r.PromptTokens, want)
		}
	}
}
