// Package deepseekr1 is the deepseek-r1 benchmark: a reasoning mix (AIME,
// MATH-500, GPQA, MMLU-Pro, LiveCodeBench) answered by DeepSeek-R1, the
// dataset's chat-templated prompt token IDs sent to SGLang's /generate
// (greedy, 1 to 20,000 new tokens) and returned to LoadGen as int32 token
// IDs, scored as language/deepseek-r1/eval_accuracy.py scores it (exact
// match over the sub-datasets and tokens per sample), with its -interactive
// variant and TEST06. It registers itself with package benchmark.
//
// What is sent, and why. The reference has three backends. Its PyTorch
// backend, which produced the reference scores (README "Pytorch reference
// scores": exact match 81.3582, 3,886.2274 tokens per sample, the checker's
// targets), tokenizes each prompt with the model's chat template
// (apply_chat_template, add_generation_prompt) and counts the token IDs it
// generates. Its SGLang backend, the only one that runs Server and
// Interactive, sends the prompt text to /v1/chat/completions (the server
// applies the same template; temperature 0, top_p 1, max_tokens 20000,
// seed 42) and re-tokenizes the answer text for LoadGen. mlcommons/endpoints,
// the other official harness for deepseek-r1, sends the dataset's
// pre-tokenized prompt (tok_input) to /v1/completions, "bypassing the
// server chat template". mlperf-go sends token IDs, as the PyTorch
// reference and endpoints do: the dataset's tok_input, to SGLang's
// /generate by default (the reference's serving engine; --api
// openai-completions for vLLM, with endpoints' request shape), greedy
// (temperature 0, top_p 1) with max_new_tokens 20000 and min_new_tokens 1
// (the rules' "Additional inference parameters" for DeepSeek). The seed 42
// goes with the completions API; SGLang's /generate body as mlperf-go
// writes it has no seed, and greedy decoding does not use one. The IDs the
// server generated go back to LoadGen, first token included in the final
// response (TEST06's first-token and sample-length checks require it), so
// tokens_per_sample counts generated IDs as the PyTorch reference did,
// where the SGLang backend's re-encoded text would count a BOS and drop
// the EOS.
package deepseekr1

import (
	"encoding/json"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/llmeval"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/test06"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// LoadGen model names; the submission directory is Name.
const (
	Name            = "deepseek-r1"
	InteractiveName = "deepseek-r1-interactive"
)

// Reference numbers.
const (
	// Samples is the size of the dataset
	// (mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl), performance and
	// accuracy set alike (mlperf.conf performance_sample_count_override).
	Samples = 4388
	// MaxTokens is the reference's MAX_OSL (utils/backend_registry.py),
	// the rules' max_new_tokens.
	MaxTokens = 20000
	// ExactMatch and TokensPerSample are the reference's scores
	// (language/deepseek-r1/README.md); the checker wants 99% of the
	// first and 90% to 110% of the second.
	ExactMatch      = 81.3582
	TokensPerSample = 3886.2274
	// EOS is <｜end▁of▁sentence｜>, DeepSeek-R1's end of an answer, which
	// TEST06's EOS check is given.
	EOS = tokensynth.DeepSeekR1EOS
	// VocabSize is DeepSeek-R1's vocab_size (config.json); token IDs lie
	// in [0, VocabSize).
	VocabSize = tokensynth.DeepSeekR1Vocab
	// LiveCodeBenchRelease is the LiveCodeBench release whose tests grade
	// the code answers (eval_accuracy.py release_version).
	LiveCodeBenchRelease = "release_v1"
)

// Default sampling per API (see the package comment).
const (
	samplingSGLang      = `{"temperature": 0, "top_p": 1, "max_new_tokens": 20000, "min_new_tokens": 1}`
	samplingCompletions = `{"temperature": 0, "top_p": 1, "max_tokens": 20000, "min_tokens": 1, "seed": 42}`
)

func init() {
	benchmark.Register(benchmark.Benchmark{
		Identity: benchmark.Identity{
			Name:          Name,
			SubmissionDir: Name,
			Description:   "reasoning mix (AIME, MATH-500, GPQA, MMLU-Pro, LiveCodeBench), token IDs, SGLang /generate",
		},
		Variants: []benchmark.Variant{{Name: InteractiveName, Interactive: true}},
		Data: benchmark.Data{
			Size:           Samples,
			AccuracySize:   Samples,
			Help:           "one JSON or parquet file (mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl converted)",
			InputDataTypes: "int32 token ids",
			Scoring:        "exact match over AIME, MATH-500, GPQA, MMLU-Pro and LiveCodeBench and tokens per sample (eval_accuracy.py); needs the tokenizer, --livecodebench (release_v1) and, for MATH answers only sympy grades, --prm800k",
			Open:           tokenset.Opener(Name, Open, withEvaluator),
			Synth:          tokensynth.Synth("mlperf_deepseek_r1_dataset_4388_fp8_eval.json", tokensynth.DeepSeekR1),
			Downloads:      downloads,
		},
		Serving: benchmark.Serving{
			API:    sglang.Protocol,
			Model:  "deepseek-ai/DeepSeek-R1",
			Output: benchmark.TokenIDs,
			Sampling: map[protocol.Protocol]json.RawMessage{
				sglang.Protocol:            json.RawMessage(samplingSGLang),
				openaicompletions.Protocol: json.RawMessage(samplingCompletions),
			},
		},
		Submission: benchmark.Submission{
			Rounds:     map[string]*benchmark.Rules{round.V60: rules(), round.V61: rules()},
			Compliance: map[string]benchmark.Compliance{"TEST06": test06.Compliance(EOS)},
		},
	})
}

// withEvaluator gives an opened set the benchmark's evaluator.
func withEvaluator(d *tokenset.Dataset) benchmark.Dataset { return dataset{d} }

// dataset is an opened deepseek-r1 set with the benchmark's evaluator.
type dataset struct{ *tokenset.Dataset }

// AccuracyInfo returns what an accuracy run of benchmark (a LoadGen name of
// this benchmark) over d is checked against: every sample of d, with each
// one's sub-dataset.
func AccuracyInfo(benchmark string, d *tokenset.Dataset) tokencheck.DatasetInfo {
	info := tokencheck.DatasetInfo{Benchmark: benchmark, Samples: d.Len(), Vocab: VocabSize, Extra: NewChecks}
	info.Datasets = make([]string, info.Samples)
	for i := range info.Datasets {
		info.Datasets[i] = d.Meta(i).Dataset
	}
	return info
}

// fakeThinking is what the fake's answers think before answering, repeated
// to the length the checker's tokens_per_sample bounds expect.
const fakeThinking = "Let me work through this carefully, one step at a time. "

// FakeTokenAnswers gives the fake endpoint each sample's answer in the form
// the evaluator extracts (llmeval.FakeAnswer), after thinking up to the
// middle of the round's tokens_per_sample bounds.
func (d dataset) FakeTokenAnswers() []benchmark.FakeTokenAnswer {
	tokens := int(rules().BoundsMiddle("TOKENS_PER_SAMPLE"))
	a := d.Dataset.FakeTokenAnswers(func(i int) (string, []string, bool) {
		return llmeval.FakeAnswer(d.Meta(i).Dataset, d.Reference(i), "</think>\n\n")
	})
	for i := range a {
		a[i].Tokens, a[i].Filler = tokens, fakeThinking
	}
	return a
}
