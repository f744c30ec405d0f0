// Package llama31 is the llama3_1-8b benchmark: CNN/DailyMail
// summarisation with Llama 3.1 8B Instruct, token IDs sent to vLLM's
// /v1/completions and returned as int32 token IDs, with its -interactive and
// -edge variants. It registers itself with package benchmark.
package llama31

import (
	"encoding/json"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/test06"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/internal/shellquote"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
)

// LoadGen model names and the submission directory.
const (
	Name            = "llama3_1-8b"
	InteractiveName = "llama3_1-8b-interactive"
	EdgeName        = "llama3_1-8b-edge"
	SubmissionDir   = "llama3.1-8b"
	// EdgeSubmissionDir is where the checker expects edge runs.
	EdgeSubmissionDir = "llama3.1-8b-edge"
)

// Reference numbers.
const (
	// Samples is the size of the datacenter set (cnn_eval.json).
	Samples = 13368
	// EdgeSamples is the size of the edge set (sample_cnn_eval_5000.json).
	EdgeSamples = 5000
	// GenLen and EdgeGenLen are the reference evaluator's gen_len targets
	// (language/llama3.1-8b/README.md); the submission checker accepts
	// ±10%. gen_len is the character count of the decoded, stripped
	// summaries (evaluation.py: sum(len(pred))), not a token count.
	GenLen     = 8167644
	EdgeGenLen = 3051113
	// MaxTokens is the reference's max_tokens (SUT_VLLM.py); it also sets
	// min_tokens = 1.
	MaxTokens = 128
	// TEST06EOS is Llama 3.1's <|eot_id|>, the end of a generated answer,
	// which TEST06's EOS check looks for (the reference script defaults to
	// Llama 2's id, 2, so it is given explicitly).
	TEST06EOS = 128009
)

// EndOfSequence are Llama 3.1's end-of-sequence IDs (generation_config.json
// eos_token_id): <|end_of_text|>, <|eom_id|>, <|eot_id|>. The accuracy
// check counts any of them when it looks for outputs TEST06 would fail.
var EndOfSequence = []int32{128001, 128008, 128009}

// sampling is the reference's gen_kwargs (language/llama3.1-8b/SUT_VLLM.py):
// greedy (temperature 0, top_p 1, top_k 1), seed 42, max_tokens 128,
// min_tokens 1.
const sampling = `{"temperature": 0, "top_p": 1, "top_k": 1, "seed": 42, "max_tokens": 128, "min_tokens": 1}`

func init() {
	benchmark.Register(benchmark.Benchmark{
		Identity: benchmark.Identity{
			Name:          Name,
			SubmissionDir: SubmissionDir,
			Description:   "CNN/DailyMail summarisation, token IDs, vLLM /v1/completions",
		},
		Variants: []benchmark.Variant{
			{Name: InteractiveName, Interactive: true},
			{
				Name: EdgeName, SubmissionDir: EdgeSubmissionDir,
				Description: "CNN/DailyMail summarisation (edge set), token IDs, vLLM /v1/completions",
				Data:        &edgeData,
				// The edge rules list no compliance test.
				Submission: &benchmark.Submission{Rounds: map[string]*benchmark.Rules{round.V60: edgeRules(), round.V61: edgeRules()}},
			},
		},
		Data: data,
		Serving: benchmark.Serving{
			API:      openaicompletions.Protocol,
			Model:    "meta-llama/Llama-3.1-8B-Instruct",
			Output:   benchmark.TokenIDs,
			Sampling: map[protocol.Protocol]json.RawMessage{openaicompletions.Protocol: json.RawMessage(sampling)},
			// Llama 3.1 keeps Llama 3's tokenizer.model (the same
			// 128,256-token vocabulary), which PyPI's llama-models wheel
			// ships without Meta's gated repository.
			UngatedTokenizer: "scripts/fetch-test-tokenizers.sh DIR (in mlperf-go's checkout) fetches Llama 3's tokenizer.model, the same vocabulary, " +
				"from PyPI's llama-models wheel into DIR/llama3/tokenizer.model, and `make test` leaves one at build/testdata/tokenizers/llama3/tokenizer.model: " +
				"pass it as --tokenizer",
		},
		Submission: benchmark.Submission{
			Rounds:     map[string]*benchmark.Rules{round.V60: rules(), round.V61: rules()},
			Compliance: map[string]benchmark.Compliance{"TEST06": test06.Compliance(TEST06EOS)},
		},
	})
}

// data is the datacenter set (cnn_eval.json).
var data = benchmark.Data{
	Size:           Samples,
	AccuracySize:   Samples,
	Help:           "one JSON or parquet file (cnn_eval.json)",
	InputDataTypes: "int32 token ids",
	Scoring:        "ROUGE-1/2/L/Lsum and gen_len (language/llama3.1-8b/evaluation.py); needs the model's tokenizer (--tokenizer, or the Hugging Face cache)",
	Open:           tokenset.Opener(Name, Open, withEvaluator),
	Synth:          tokensynth.Synth("cnn_eval.json", tokensynth.LlamaSummarizing(GenLen/Samples)),
	Downloads:      downloads,
}

// edgeData is the edge set (sample_cnn_eval_5000.json): the same reader
// over its own 5,000 samples and download.
var edgeData = func() benchmark.Data {
	d := data
	d.Size, d.AccuracySize, d.Downloads = EdgeSamples, EdgeSamples, edgeDownloads
	return d
}()

// withEvaluator gives an opened set the benchmark's evaluator.
func withEvaluator(d *tokenset.Dataset) benchmark.Dataset { return dataset{d} }

// dataset is an opened CNN/DailyMail set with the benchmark's evaluator.
type dataset struct{ *tokenset.Dataset }

// AccuracyInfo returns what an accuracy run of benchmark (a LoadGen name of
// this benchmark) over d is checked against: every sample of d.
func AccuracyInfo(benchmark string, d *tokenset.Dataset) tokencheck.DatasetInfo {
	return tokencheck.DatasetInfo{Benchmark: benchmark, Samples: d.Len(), Vocab: VocabSize, Extra: NewChecks}
}

// EvaluatorCommand returns the official evaluator's command line for an
// accuracy log (language/llama3.1-8b/README.md, run_accuracy.sh), to run
// from the root of a mlcommons/inference checkout; the paths are made
// absolute. Its --model-name defaults to meta-llama/Meta-Llama-3.1-8B-Instruct
// on the Hugging Face hub; add --model-name with a local checkpoint if
// needed.
func EvaluatorCommand(accLog, dataset string) string {
	return "python3 language/llama3.1-8b/evaluation.py --mlperf-accuracy-file " + shellquote.Quote(tokencheck.AbsPath(accLog)) +
		" --dataset-file " + shellquote.Quote(tokencheck.AbsPath(dataset)) + " --dtype int32"
}

// fakeWrongSummary is the fake endpoint's wrong answer: a summary of no
// article, which shares almost no words with a reference.
const fakeWrongSummary = "Officials declined to comment on the report."

// FakeTokenAnswers gives the fake endpoint each sample's reference summary
// as its right answer, as it is: the fake ends it where it ends, so a run
// against the fake at --accuracy 1 scores what a model answering with the
// references would (every ROUGE about 100) and its gen_len is the
// references' length. The synthetic set's summaries are as long as the
// model's are on average (dataset synth: GenLen / Samples characters), so
// its gen_len meets the round's bounds; a real set's highlights are
// shorter, and its gen_len falls short, as a model answering with them
// would.
func (d dataset) FakeTokenAnswers() []benchmark.FakeTokenAnswer {
	return d.Dataset.FakeTokenAnswers(func(i int) (string, []string, bool) {
		return d.Reference(i), []string{fakeWrongSummary}, true
	})
}
