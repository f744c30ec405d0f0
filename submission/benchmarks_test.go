package submission

import (
	// The rules the tests check against come from the benchmark registry.
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
)

// Benchmark names as the checker's MODEL_CONFIG "models" lists them (the
// results tree's benchmark directories), for the tests.
const (
	BenchmarkQwen3VL = "qwen3-vl-235b-a22b"
	BenchmarkLlama8B = "llama3.1-8b"
	BenchmarkGPTOSS  = "gpt-oss-120b"
)
