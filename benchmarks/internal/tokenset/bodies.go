package tokenset

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/benchmark"
	"github.com/mlperf-go/mlperf-go/qsl"
	"github.com/mlperf-go/mlperf-go/sut"
)

// Bodies builds the request bodies of the prompts: vLLM /v1/completions or
// SGLang /generate requests carrying the token IDs as they are. It
// implements benchmark.Dataset.Bodies for the token-ID benchmarks.
func (d *Dataset) Bodies(o benchmark.BodyOptions) (qsl.Builder, []byte, error) {
	model, stream := o.Model, o.Stream
	switch o.API {
	case sut.APICompletions:
		params := o.Completion
		return d.Builder(func(_ int, t []int32) ([]byte, error) {
			return sut.EncodeCompletion(model, t, params, stream)
		}), nil, nil
	case sut.APISGLang:
		params := o.SGLang
		return d.Builder(func(_ int, t []int32) ([]byte, error) {
			return sut.EncodeSGLang(t, params, stream)
		}), nil, nil
	}
	return nil, nil, fmt.Errorf("benchmark %s cannot be sent over the %s API", o.Benchmark.Name, o.API)
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
