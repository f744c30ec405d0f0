// Package llama2 is the llama2-70b benchmark: OpenOrca question answering
// with Llama 2 70B Chat, the dataset's token IDs sent to vLLM's
// /v1/completions (greedy, at most 1,024 new tokens, at least one) and
// returned to LoadGen as int32 token IDs, scored with ROUGE and tokens per
// sample as language/llama2-70b/evaluate-accuracy.py scores them, with its
// -interactive variant and TEST06. It registers itself with package
// benchmark twice: as llama2-70b (filed as llama2-70b-99.9, the only
// llama2 benchmark of v6.1) and as llama2-70b-99, v6.0's 99% form.
//
// LoadGen knows only llama2-70b and llama2-70b-interactive; -99 and -99.9
// are submission directories, the same runs judged against 99% or 99.9% of
// the reference's ROUGE (reference main.py --lg-model-name). So the -99
// registration runs LoadGen under the same names (LoadGen.Model) and differs
// only in its directory and its v6.0 accuracy bounds.
//
// Requests follow the reference's behaviour, not its broken API mode.
// language/llama2-70b/SUT_API.py, the API-server SUT, sends
// {"model", "prompt": [token IDs], "min_tokens": 1, "max_tokens": 1024} to
// /v1/completions with no temperature (so the server's defaults sample,
// where the HF reference SUT.py decodes greedily: do_sample False,
// num_beams 1, max_new_tokens 1024, min_new_tokens 1; the rules say "use
// greedy search"), re-tokenizes the returned text and reports it as int64
// while the evaluator reads int32; its Server path never reaches the API at
// all. mlperf-go sends the same token-ID prompt and token bounds with
// temperature 0 (vLLM's greedy), and returns the server's own generated IDs
// as int32, the whole sequence in the final response, as TEST06 requires.
package llama2

import (
	"encoding/json"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/test06"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// LoadGen model names and submission directories.
const (
	// Name and InteractiveName are LoadGen's model names (mlperf.conf).
	Name            = "llama2-70b"
	InteractiveName = "llama2-70b-interactive"
	// SubmissionDir is where runs against the 99.9% targets are filed:
	// the llama2 benchmark of v6.0 and v6.1.
	SubmissionDir = "llama2-70b-99.9"
	// Name99 is the registered name of v6.0's 99% form, which is also its
	// submission directory; Interactive99 its Interactive variant (the
	// checker's legacy name for it). Both run LoadGen as Name and
	// InteractiveName.
	Name99        = "llama2-70b-99"
	Interactive99 = "llama2-70b-interactive-99"
)

// Reference numbers.
const (
	// Samples is the size of the OpenOrca set, performance and accuracy
	// alike (open_orca_gpt4_tokenized_llama.sampled_24576.pkl).
	Samples = 24576
	// MaxTokens is the reference's max_new_tokens (SUT.py gen_kwargs,
	// SUT_API.py max_tokens); it also sets min_new_tokens = 1.
	MaxTokens = 1024
	// TokensPerSample is the reference's tokens_per_sample
	// (language/llama2-70b/README.md); the checker accepts 90% to 110%.
	TokensPerSample = 294.45
	// EOS is Llama 2's </s>, the ID TEST06's EOS check looks for (the
	// script's default, 2).
	EOS = 2
	// VocabSize is Llama 2's vocabulary size (config.json "vocab_size");
	// prompt and output token IDs lie in [0, VocabSize).
	VocabSize = 32000
)

// Default sampling per API: greedy (SUT.py do_sample=False, num_beams=1),
// at most MaxTokens and at least one new token.
const (
	samplingCompletions = `{"temperature": 0, "max_tokens": 1024, "min_tokens": 1}`
	samplingSGLang      = `{"temperature": 0, "max_new_tokens": 1024, "min_new_tokens": 1}`
)

func init() {
	b := benchmark.Benchmark{
		Identity: benchmark.Identity{
			Name:          Name,
			SubmissionDir: SubmissionDir,
			Description:   "OpenOrca Q&A (99.9% targets), token IDs, vLLM /v1/completions",
		},
		Variants: []benchmark.Variant{{Name: InteractiveName, Interactive: true}},
		Data: benchmark.Data{
			Size:           Samples,
			AccuracySize:   Samples,
			Help:           "one JSON or parquet file (open_orca_gpt4_tokenized_llama.sampled_24576.pkl converted)",
			InputDataTypes: "int32 token ids",
			Scoring:        "ROUGE-1/2/L and tokens per sample (evaluate-accuracy.py); needs Llama 2's tokenizer (decoded as the slow sentencepiece LlamaTokenizer)",
			Open:           tokenset.Opener(Name, Open, withEvaluator),
			Synth:          tokensynth.Synth("open_orca_gpt4_tokenized_llama.sampled_24576.json", tokensynth.Llama2),
			Downloads:      downloads,
		},
		Serving: benchmark.Serving{
			API:    openaicompletions.Protocol,
			Model:  "meta-llama/Llama-2-70b-chat-hf",
			Output: benchmark.TokenIDs,
			Sampling: map[protocol.Protocol]json.RawMessage{
				openaicompletions.Protocol: json.RawMessage(samplingCompletions),
				sglang.Protocol:            json.RawMessage(samplingSGLang),
			},
		},
		Submission: benchmark.Submission{
			Rounds:     map[string]*benchmark.Rules{round.V60: rules(bounds999), round.V61: rules(bounds999)},
			Compliance: map[string]benchmark.Compliance{"TEST06": test06.Compliance(EOS)},
		},
	}
	benchmark.Register(b)

	// v6.0's llama2-70b-99: the same runs, filed and judged apart.
	b.Identity = benchmark.Identity{
		Name:          Name99,
		SubmissionDir: Name99,
		Description:   "OpenOrca Q&A (99% targets, v6.0 only), token IDs, vLLM /v1/completions",
	}
	b.LoadGen.Model = Name
	b.Variants = []benchmark.Variant{{Name: Interactive99, LoadGen: benchmark.LoadGen{Model: InteractiveName}, Interactive: true}}
	b.Data.Downloads = downloads99
	b.Submission.Rounds = map[string]*benchmark.Rules{round.V60: rules(bounds99)}
	benchmark.Register(b)
}

// withEvaluator gives an opened set the benchmark's evaluator.
func withEvaluator(d *tokenset.Dataset) benchmark.Dataset { return dataset{d} }

// dataset is an opened OpenOrca set with the benchmark's evaluator.
type dataset struct{ *tokenset.Dataset }

// AccuracyInfo returns what an accuracy run of benchmark (a LoadGen name of
// this benchmark) over d is checked against: every sample of d.
func AccuracyInfo(benchmark string, d *tokenset.Dataset) tokencheck.DatasetInfo {
	return tokencheck.DatasetInfo{Benchmark: benchmark, Samples: d.Len(), Vocab: VocabSize, Extra: NewChecks}
}

// fakeWrongAnswer is the fake endpoint's wrong answer: one that shares
// almost no words with a reference.
const fakeWrongAnswer = "I am not able to answer that."

// FakeTokenAnswers gives the fake endpoint each sample's reference answer
// as its right answer, so a run against the fake scores its --accuracy,
// brought to the middle of the round's tokens_per_sample bounds (the
// checker bounds the answers' mean length, and the references are
// shorter than Llama 2's answers).
func (d dataset) FakeTokenAnswers() []benchmark.FakeTokenAnswer {
	tokens := fakeAnswerTokens()
	a := d.Dataset.FakeTokenAnswers(func(i int) (string, []string, bool) {
		return d.Reference(i), []string{fakeWrongAnswer}, true
	})
	for i := range a {
		a[i].Tokens = tokens
	}
	return a
}

// fakeAnswerTokens is the middle of the TOKENS_PER_SAMPLE bounds.
func fakeAnswerTokens() int { return int(rules(bounds999).BoundsMiddle("TOKENS_PER_SAMPLE")) }
