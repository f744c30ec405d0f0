// Package logtest writes, for the submission packages' tests, the files a
// run leaves behind: LoadGen's detail and summary logs and accuracy logs
// (laid out as LoadGen 6.0.17 writes them), the accuracy.txt the official
// evaluators print, and small file helpers. Only tests import it.
//
// Importing logtest registers every benchmark (benchmarks/all): the rules
// the tests check against come from the benchmark registry.
package logtest

import (
	// The rules the tests check against come from the benchmark registry.
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
)

// Benchmark names as the checker's MODEL_CONFIG "models" lists them (the
// results tree's benchmark directories), for the tests.
const (
	BenchmarkQwen3VL    = "qwen3-vl-235b-a22b"
	BenchmarkLlama8B    = "llama3.1-8b"
	BenchmarkGPTOSS     = "gpt-oss-120b"
	BenchmarkDeepSeekR1 = "deepseek-r1"
	BenchmarkLlama2     = "llama2-70b-99.9"
	// BenchmarkLlama2_99 is v6.0's 99% llama2-70b (v6.1 removed it).
	BenchmarkLlama2_99 = "llama2-70b-99"
)
