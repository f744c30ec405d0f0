// Package gptoss120b is the gpt-oss-120b benchmark: a reasoning mix (AIME,
// GPQA, LiveCodeBench) as harmony-format token IDs sent to SGLang's
// /generate and returned as int32 token IDs, with its -interactive variant
// and the TEST07/TEST09 compliance tests. It registers itself with
// package benchmark.
package gptoss120b

import (
	"embed"
	"encoding/json"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/llmeval"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/internal/shellquote"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// LoadGen model names; the submission directory is Name.
const (
	Name            = "gpt-oss-120b"
	InteractiveName = "gpt-oss-120b-interactive"
)

// Reference numbers.
const (
	// AccuracySamples is mlperf.conf's accuracy_sample_count_override;
	// PerformanceSamples its performance_sample_count_override.
	AccuracySamples    = 4395
	PerformanceSamples = 6396
	// MaxNewTokens is generation_config.json's max_new_tokens for accuracy
	// runs.
	MaxNewTokens = 32768
	// TEST09MinMeanTokens and TEST09MaxMeanTokens bound the mean output
	// length of a performance-mode run over the performance set
	// (compliance/TEST09/gpt-oss-120b/audit.config: 1278.2 ± 10%).
	TEST09MinMeanTokens = 1150.38
	TEST09MaxMeanTokens = 1406.02
)

// sampling is the reference's language/gpt-oss-120b/generation_config.json:
// max_new_tokens 32768, temperature 1.0, top_k -1 (disabled), top_p 1.0.
const sampling = `{"max_new_tokens": 32768, "temperature": 1.0, "top_k": -1, "top_p": 1.0}`

// The audit.config files are byte-for-byte copies of the reference's
// configuration data (mlcommons/inference at b66003e1):
//
//	TEST07.audit.config compliance/TEST07/gpt-oss-120b/audit.config (blob dc0b9fd1)
//	TEST09.audit.config compliance/TEST09/gpt-oss-120b/audit.config (blob 8f9d7a4e)
//
//go:embed TEST07.audit.config TEST09.audit.config
var auditConfigs embed.FS

func init() {
	test07, err := auditConfigs.ReadFile("TEST07.audit.config")
	if err != nil {
		panic(err)
	}
	test09, err := auditConfigs.ReadFile("TEST09.audit.config")
	if err != nil {
		panic(err)
	}
	benchmark.Register(benchmark.Benchmark{
		Identity: benchmark.Identity{
			Name:          Name,
			SubmissionDir: Name,
			Description:   "reasoning mix, token IDs, SGLang /generate",
		},
		Variants: []benchmark.Variant{{Name: InteractiveName, Interactive: true}},
		Data: benchmark.Data{
			Size:           PerformanceSamples,
			AccuracySize:   AccuracySamples,
			Help:           "one parquet or JSON file (perf_eval_ref.parquet, acc_eval_inputs.parquet)",
			InputDataTypes: "int32 token ids",
			Scoring:        "exact match over AIME, GPQA and LiveCodeBench (eval_mlperf_accuracy.py); needs the tokenizer and, for the code subset, --livecodebench",
			Open:           tokenset.Opener(Name, Open, withEvaluator),
			Synth:          tokensynth.Synth("gpt-oss-120b.parquet", tokensynth.GPTOSS),
			Downloads:      downloads,
		},
		Serving: benchmark.Serving{
			API:      sglang.Protocol,
			Model:    "openai/gpt-oss-120b",
			Output:   benchmark.TokenIDs,
			Sampling: map[protocol.Protocol]json.RawMessage{sglang.Protocol: json.RawMessage(sampling)},
			// language/gpt-oss-120b/mlperf/server_sut.py sends token 0 with
			// FirstTokenComplete and QuerySamplesComplete(tokens[1:], n-1).
			FinalResponseOmitsFirstToken: true,
		},
		Submission: benchmark.Submission{
			Rounds: map[string]*benchmark.Rules{round.V60: rules(), round.V61: rules()},
			Compliance: map[string]benchmark.Compliance{
				"TEST07": {AuditConfig: test07},
				"TEST09": {AuditConfig: test09},
			},
		},
	})
}

// withEvaluator gives an opened set the benchmark's evaluator.
func withEvaluator(d *tokenset.Dataset) benchmark.Dataset { return dataset{d} }

// dataset is an opened gpt-oss-120b set with the benchmark's evaluator.
type dataset struct{ *tokenset.Dataset }

// AccuracyInfo returns what an accuracy run of benchmark (a LoadGen name of
// this benchmark) over d is checked against: min(d.Len(), 4395) samples,
// mlperf.conf's accuracy_sample_count_override, with each one's
// sub-dataset.
func AccuracyInfo(benchmark string, d *tokenset.Dataset) tokencheck.DatasetInfo {
	info := tokencheck.DatasetInfo{Benchmark: benchmark, Samples: min(d.Len(), AccuracySamples), Vocab: VocabSize, Extra: NewChecks}
	info.Datasets = make([]string, info.Samples)
	for i := range info.Datasets {
		info.Datasets[i] = d.Meta(i).Dataset
	}
	return info
}

// EvaluatorCommand returns the official evaluator's command line for an
// accuracy log (language/gpt-oss-120b/README.md), to run from the root of a
// mlcommons/inference checkout; the paths are made absolute.
func EvaluatorCommand(accLog, dataset string) string {
	return "python3 language/gpt-oss-120b/eval_mlperf_accuracy.py --mlperf-log " + shellquote.Quote(tokencheck.AbsPath(accLog)) +
		" --reference-data " + shellquote.Quote(tokencheck.AbsPath(dataset)) + " --tokenizer openai/gpt-oss-120b"
}

// fakeLead is how the fake's answers begin: a short analysis channel, then
// the final channel the evaluator reads the answer from.
const fakeLead = "<|channel|>analysis<|message|>Let me work through this carefully.<|end|><|start|>assistant<|channel|>final<|message|>"

// FakeTokenAnswers gives the fake endpoint each sample's answer in the form
// the evaluator extracts (llmeval.FakeAnswer) in the harmony final channel.
// The round bounds tokens_per_sample only from above, so answers keep
// their length.
func (d dataset) FakeTokenAnswers() []benchmark.FakeTokenAnswer {
	return d.Dataset.FakeTokenAnswers(func(i int) (string, []string, bool) {
		return llmeval.FakeAnswer(d.Meta(i).Dataset, d.Reference(i), fakeLead)
	})
}
