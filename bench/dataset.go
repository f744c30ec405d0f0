package bench

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// BenchmarkOptions pick a registered benchmark's dataset as the workload.
type BenchmarkOptions struct {
	// Benchmark is the registered benchmark; Paths its dataset.
	Benchmark benchmark.Benchmark
	Paths     []string
	// API and Model are what the bodies are built for ("" model: the
	// benchmark's).
	API   protocol.Protocol
	Model string
	// Stream must match Options.Stream.
	Stream bool
	// Requests takes the first samples (0: all).
	Requests int
	// OutputLen, when positive, replaces the reference's output cap; with
	// Exact the answers are made exactly that long (ignore_eos and the
	// minimum length).
	OutputLen int
	Exact     bool
}

// LoadBenchmark builds one single-turn request per sample, each body made
// by the benchmark's own encoder (the bodies mlperf-go run sends), with
// the reference's sampling parameters. The dataset opens as run opens it
// (benchmark.OpenDataset: a download or synthetic set's folder too).
func LoadBenchmark(o BenchmarkOptions) (*Workload, error) {
	b := o.Benchmark
	d, err := b.OpenDataset(o.Paths, nil)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	api := o.API
	if api == nil {
		api = b.Serving.API
	}
	model := o.Model
	if model == "" {
		model = b.Serving.Model
	}
	params, err := b.DefaultSampling(api)
	if err != nil {
		return nil, err
	}
	if o.OutputLen > 0 {
		if err := protocol.SetOutputLength(params, o.OutputLen, o.Exact); err != nil {
			return nil, fmt.Errorf("--output-len for %s: %w", api.Name(), err)
		}
	}
	build, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: api, Model: model, Stream: o.Stream, Sampling: params})
	if err != nil {
		return nil, err
	}
	n := d.Len()
	if o.Requests > 0 {
		n = min(n, o.Requests)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	w := &Workload{Kind: "benchmark", Source: b.Name, Facts: map[string]any{"benchmark": b.Name, "api": api.Name(), "samples": n}}
	w.Conversations = make([]Conversation, n)
	prompts, _ := d.(benchmark.TokenPrompts)
	err = build.Build(idx, func(i int, body []byte) {
		t := Turn{Body: append([]byte(nil), body...), MaxTokens: o.OutputLen}
		if prompts != nil {
			t.PromptTokens = len(prompts.Tokens(i))
		}
		w.Conversations[i] = Conversation{ID: fmt.Sprintf("%s-%d", b.Name, i), Turns: []Turn{t}}
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}
