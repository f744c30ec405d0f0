// Package benchmark describes the MLPerf benchmarks mlperf-go runs: their
// LoadGen model names, the endpoint API each uses by default, and the
// official dataset sizes the rules require. It is the single place that
// knows these facts; the CLI, the evaluators and the submission checks read
// them from here.
package benchmark

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// Output says what a benchmark's responses to LoadGen hold.
type Output int

const (
	// Text responses are the UTF-8 text the model generated.
	Text Output = iota
	// TokenIDs responses are int32 little-endian output token IDs.
	TokenIDs
)

// Benchmark is one MLPerf Inference benchmark.
type Benchmark struct {
	// Name is LoadGen's model name in mlperf.conf, e.g. "llama3_1-8b".
	Name string
	// SubmissionDir is the directory name the submission tree uses.
	SubmissionDir string
	// API is the endpoint protocol used unless --api overrides it.
	API protocol.Protocol
	// Model is the served model name sent in requests by default.
	Model string
	// Output is what responses carry.
	Output Output
	// DatasetSize is the size of the official dataset (performance set).
	DatasetSize int
	// AccuracySize is the number of samples an accuracy run must cover.
	AccuracySize int
	// Description is one line for help text.
	Description string
}

var all = map[string]Benchmark{
	"qwen3-vl-235b-a22b": {
		Name:          "qwen3-vl-235b-a22b",
		SubmissionDir: "qwen3-vl-235b-a22b",
		API:           openaichat.Protocol,
		Model:         "Qwen/Qwen3-VL-235B-A22B-Instruct",
		Output:        Text,
		DatasetSize:   48289,
		AccuracySize:  48289,
		Description:   "Shopify product catalogue, images + text, OpenAI chat completions",
	},
	"llama3_1-8b": {
		Name:          "llama3_1-8b",
		SubmissionDir: "llama3.1-8b",
		API:           openaicompletions.Protocol,
		Model:         "meta-llama/Llama-3.1-8B-Instruct",
		Output:        TokenIDs,
		DatasetSize:   13368,
		AccuracySize:  13368,
		Description:   "CNN/DailyMail summarisation, token IDs, vLLM /v1/completions",
	},
	"gpt-oss-120b": {
		Name:          "gpt-oss-120b",
		SubmissionDir: "gpt-oss-120b",
		API:           sglang.Protocol,
		Model:         "openai/gpt-oss-120b",
		Output:        TokenIDs,
		DatasetSize:   6396,
		AccuracySize:  4395,
		Description:   "reasoning mix, token IDs, SGLang /generate",
	},
}

// Lookup returns the benchmark named name (LoadGen's model name; the
// submission directory name "llama3.1-8b" is accepted too).
func Lookup(name string) (Benchmark, error) {
	if b, ok := all[name]; ok {
		return b, nil
	}
	for _, b := range all {
		if b.SubmissionDir == name {
			return b, nil
		}
	}
	return Benchmark{}, fmt.Errorf("unknown benchmark %q: use one of %s", name, strings.Join(Names(), ", "))
}

// Names lists the benchmark names, sorted.
func Names() []string {
	n := make([]string, 0, len(all))
	for k := range all {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
