package tokenset

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Bodies builds the request bodies of the prompts over any protocol whose
// requests carry token IDs (protocol.TokenEncoder: vLLM /v1/completions,
// SGLang /generate), the IDs as they are. It implements
// benchmark.Dataset.Bodies for the token-ID benchmarks.
func (d *Dataset) Bodies(o benchmark.BodyOptions) (qsl.Builder, []byte, error) {
	enc, ok := o.API.(protocol.TokenEncoder)
	if !ok {
		return nil, nil, fmt.Errorf("benchmark %s cannot be sent over the %s API: its requests carry token IDs", o.Benchmark.Name, o.API.Name())
	}
	params, err := o.Params()
	if err != nil {
		return nil, nil, err
	}
	model, stream := o.Model, o.Stream
	return d.Builder(func(_ int, t []int32) ([]byte, error) {
		return enc.EncodeTokens(model, t, params, stream)
	}), nil, nil
}

// Close releases nothing: the dataset is all in memory.
func (d *Dataset) Close() error { return nil }

// OnePath returns the one dataset file of paths: the token-ID benchmarks
// read one file, so more are an error naming them.
func OnePath(benchmark string, paths []string) (string, error) {
	if len(paths) != 1 {
		return "", fmt.Errorf("%s reads one dataset file, got %d: %s", benchmark, len(paths), strings.Join(paths, ", "))
	}
	return paths[0], nil
}

// Opener returns a benchmark.Data.Open for the token-ID benchmark
// name: its one dataset file (OnePath) read by open, the result given the
// benchmark's evaluator by wrap.
func Opener(name string, open func(path string) (*Dataset, error), wrap func(*Dataset) benchmark.Dataset) func(paths, splits []string) (benchmark.Dataset, error) {
	return func(paths, _ []string) (benchmark.Dataset, error) {
		path, err := OnePath(name, paths)
		if err != nil {
			return nil, err
		}
		d, err := open(path)
		if err != nil {
			return nil, err
		}
		return wrap(d), nil
	}
}
