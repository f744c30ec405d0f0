// Package all imports every benchmark, so each registers itself with
// package benchmark. Import it for its side effect where the whole set is
// needed (the CLI, end-to-end tests); adding a benchmark is one line here.
package all

import (
	_ "github.com/mlperf-go/mlperf-go/benchmarks/deepseekr1"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/gptoss120b"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/llama2"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/llama31"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/qwen36"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/whisper"
)
