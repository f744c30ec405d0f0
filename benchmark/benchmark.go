// Package benchmark is the registry of the MLPerf benchmarks mlperf-go runs.
// Each benchmark lives in its own folder under benchmarks/ and registers
// itself from init with Register, carrying its facts and behaviour in one
// facet per layer that reads them: Identity (names, submission directory),
// LoadGen (the model name and settings LoadGen runs it under), Data (sizes,
// reader, synthetic writer, the files `mlperf-go dataset download` fetches,
// pinned per round), Serving (API, served model, sampling, what responses
// carry), Submission (each round's checker rules, compliance tests, whether
// runs can be filed) and Fake (the fake endpoint's default answer). The
// core packages — the runner, the
// submission checks, the CLI — look benchmarks up here and never name one,
// as database/sql never names a driver. Adding a benchmark is one folder
// and one import in benchmarks/all.
package benchmark

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Output says what a benchmark's responses to LoadGen hold.
type Output int

const (
	// Text responses are the UTF-8 text the model generated.
	Text Output = iota
	// TokenIDs responses are int32 little-endian output token IDs.
	TokenIDs
	// CharIndices responses are int64 little-endian indices into the
	// benchmark's output alphabet (whisper's 42 transcript characters, as
	// speech2text/reference_SUT.py reports them).
	CharIndices
)

// LogDType is how the reference's scripts name the accuracy log's data
// type for o (compliance/TEST01's --dtype): "byte" for text, "int32" for
// token IDs, "int64" for character indices.
func (o Output) LogDType() string {
	switch o {
	case TokenIDs:
		return "int32"
	case CharIndices:
		return "int64"
	}
	return "byte"
}

// Benchmark is one MLPerf Inference benchmark: its facts and its behaviour,
// grouped by the layer that reads them, so a variant replaces a facet
// rather than a list of fields. Lookup returns it with a variant's facets
// applied when given a variant's name.
type Benchmark struct {
	// Identity names the benchmark (embedded: every layer names it).
	Identity
	// LoadGen is what LoadGen runs the benchmark as.
	LoadGen LoadGen
	// Data is the benchmark's dataset: its sizes, reader, synthetic writer
	// and downloads.
	Data Data
	// Serving is how requests go to the endpoint and what comes back.
	Serving Serving
	// Submission is what the submission tree and its checker require.
	Submission Submission
	// Fake is what the fake endpoint needs beyond the dataset's answers.
	Fake Fake
	// Variants are the benchmark's other LoadGen model names (Interactive,
	// edge), each with the facets that differ.
	Variants []Variant
}

// Identity names a benchmark for LoadGen, the submission tree and help.
type Identity struct {
	// Name is LoadGen's model name in mlperf.conf, e.g. "llama3_1-8b" (a
	// variant's own name, e.g. "llama3_1-8b-edge", when looked up by it;
	// LoadGen.Model, when set, is what LoadGen is given instead).
	Name string
	// Base is the registered benchmark's Name; it differs from Name only
	// for a variant.
	Base string
	// SubmissionDir is the directory name the submission tree and the
	// official checker use, e.g. "llama3.1-8b".
	SubmissionDir string
	// Description is one line for help text.
	Description string
}

// LoadGen is what LoadGen runs a benchmark (or a variant) as. A variant
// always brings its own: the benchmark's does not carry over.
type LoadGen struct {
	// Model, when set, is the model name LoadGen reads mlperf.conf and
	// user.conf under, for a variant mlperf.conf has no entry of its own
	// for ("": Name). See Benchmark.LoadGenModel.
	Model string
	// Settings are user.conf keys the round requires of this benchmark (or
	// variant) that LoadGen's built-in mlperf.conf lacks; the runner writes
	// them into the user.conf it gives LoadGen, under LoadGenModel and the
	// scenario run, ahead of the user's own lines.
	Settings []Setting
}

// Data is a benchmark's dataset: what it is, how to open, synthesise and
// download it.
type Data struct {
	// Size is the size of the official dataset (performance set).
	Size int
	// AccuracySize is the number of samples an accuracy run must cover.
	AccuracySize int
	// Splits are the dataset splits read when the user names none (nil:
	// the dataset reader's default).
	Splits []string
	// Help says, for help text, what --dataset takes.
	Help string
	// Scoring says, for `evaluate --help`, what Dataset.Evaluate scores,
	// after which reference script, and what it needs beyond the log and
	// the dataset.
	Scoring string
	// InputDataTypes is what the harness sends, as measurements.json's
	// input_data_types states it ("int32 token ids").
	InputDataTypes string
	// Open opens the benchmark's dataset from paths (files or directories)
	// and checks all of it, so bad input is reported before a test starts.
	// splits picks and orders the dataset's splits where it has any.
	Open func(paths, splits []string) (Dataset, error)
	// Synth writes a small synthetic dataset of n samples in the real
	// format into dir and returns the files written. The same seed gives
	// the same bytes.
	Synth func(dir string, n int, seed uint64) ([]string, error)
	// Downloads are the files `mlperf-go dataset download` fetches for the
	// benchmark, per round: its dataset (download.RoleDataset) and its
	// model's tokenizer (download.RoleTokenizer), each from the source the
	// round's reference names, at a pinned revision and checksum. A round
	// without an entry has nothing to download; OpenDataset opens a
	// download folder as the dataset pin's Open says.
	Downloads map[string][]download.Pin
}

// Serving is how a benchmark's requests go to the endpoint (or a launched
// engine) and what its responses carry.
type Serving struct {
	// API is the endpoint protocol used unless --api overrides it.
	API protocol.Protocol
	// Model is the served model name sent in requests by default.
	Model string
	// Output is what responses carry.
	Output Output
	// UngatedTokenizer, when set, says where a tokenizer of Model's
	// vocabulary can be had without Model's gated repository (for trying
	// the harness: the fake's answers, scoring them), for the error of a
	// tokenizer not found.
	UngatedTokenizer string
	// Sampling is the reference's default generation config per endpoint
	// protocol: a JSON object with the request's wire names, decoded over
	// the protocol's DefaultParams (DefaultSampling) as the first layer
	// under --generation-config and the sampling flags. A protocol without
	// an entry sends its DefaultParams (no sampling parameter: the server's
	// defaults apply).
	Sampling map[protocol.Protocol]json.RawMessage
	// Requests, when set, names the reference whose request bodies a run
	// over api in round sends, for the run record and the submission
	// README ("" where the round does not decide it). It reports an
	// unknown round as an error.
	Requests func(api protocol.Protocol, round string) (string, error)
	// StreamRequests says the reference streams every request whatever the
	// scenario (mlcommons/endpoints' "online" runs): the runner then
	// streams unless --stream says otherwise (default false: stream only
	// when LoadGen measures a first token).
	StreamRequests bool
	// FinalResponseOmitsFirstToken says the reference SUT, when it reports
	// a first token to LoadGen (Server, Interactive, SingleStream with
	// token latencies), completes the sample with every token except the
	// first, counting n-1 (gpt-oss-120b's server_sut.py
	// _send_final_response). LoadGen's TPOT and tokens/s follow the final
	// count, so mlperf-go matches it per benchmark.
	FinalResponseOmitsFirstToken bool
	// EngineRules are the engine flags the benchmark's rules require and
	// forbid when mlperf-go launches the engine (--launch), per engine
	// kind, on top of those of every benchmark.
	EngineRules map[engine.Kind]engine.Rules
}

// Submission is what filing a benchmark's runs and checking a submission
// of them require.
type Submission struct {
	// Rounds holds the submission checker's rules for the benchmark per
	// round ("v6.0", "v6.1"); a round without an entry does not have the
	// benchmark.
	Rounds map[string]*Rules
	// Compliance lists the compliance tests the closed division needs of
	// the benchmark in every round it belongs to, by name ("TEST06"), with
	// their official audit.config and constants.
	Compliance map[string]Compliance
	// NotFileable, when set, says why no run of the benchmark can be filed
	// as an MLPerf result ("" for benchmarks that can be): filing into a
	// results tree and packaging a submission refuse with this message,
	// while run and evaluate work as for any benchmark.
	NotFileable string
}

// ComplianceTests names the compliance tests s requires, sorted.
func (s Submission) ComplianceTests() []string {
	return slices.Sorted(maps.Keys(s.Compliance))
}

// Fake is what the fake endpoint (package fake) needs of a benchmark
// beyond the answers its dataset gives (FakeAnswerer, FakeTokenAnswerer).
type Fake struct {
	// DefaultAnswer is what the fake endpoint answers a request it has no
	// FakeAnswer for, in the benchmark's answer format ("": the fake's
	// own).
	DefaultAnswer string
}

// Variant is another LoadGen model name of a benchmark (its Interactive or
// edge form): the same requests and evaluator, with the facets below in
// place of the benchmark's where set.
type Variant struct {
	// Name is the variant's LoadGen model name, e.g.
	// "llama3_1-8b-interactive".
	Name string
	// SubmissionDir is where its runs are filed ("" for the benchmark's).
	SubmissionDir string
	// Description replaces the benchmark's when set.
	Description string
	// Interactive marks the variant as the benchmark's Interactive
	// scenario: LoadGen runs it as the Server scenario of the variant's
	// model name (mlperf.conf gives the *-interactive names their own
	// TTFT/TPOT limits) and it is filed under Interactive/.
	Interactive bool
	// LoadGen replaces the benchmark's, always (qwen3-vl's Interactive runs
	// as qwen3-vl-235b-a22b with Settings on top).
	LoadGen LoadGen
	// Data, when set, replaces the benchmark's (a variant with a dataset
	// of its own: llama3.1-8b-edge's 5,000 samples).
	Data *Data
	// Submission, when set, replaces the benchmark's: a variant the checker
	// treats as a model of its own (llama3.1-8b-edge has its own
	// scenarios, sample counts, accuracy targets and no TEST06).
	Submission *Submission
}

// Setting is one user.conf key a round requires that LoadGen's built-in
// mlperf.conf does not set, with where the requirement comes from.
type Setting struct {
	// Key is the user.conf key (e.g. "target_latency") and Value its value
	// in user.conf's units (ms for latencies).
	Key, Value string
	// Why names the rule, for the generated user.conf and the run record.
	Why string
}

// Dataset is an opened benchmark dataset.
type Dataset interface {
	// Len is the number of samples.
	Len() int
	// Close releases the dataset's files.
	Close() error
	// Bodies returns the qsl.Builder that turns samples into request
	// bodies for o.API, and the prefix those bodies share (nil if none
	// worth sharing) for qsl.Library.SharePrefix. An API the benchmark
	// cannot be sent over is an error naming it.
	Bodies(o BodyOptions) (qsl.Builder, []byte, error)
	// Evaluate scores or checks an accuracy log (LoadGen's
	// mlperf_log_accuracy.json at logPath) against the dataset. Cancelling
	// ctx stops a long evaluation (ROUGE over a full set, code tests,
	// graders) and kills the processes it started.
	Evaluate(ctx context.Context, logPath string, o EvalOptions) (Evaluation, error)
}

// TokenPrompts is a Dataset whose prompts are token IDs (the token-ID
// benchmarks'), which a serving benchmark counts as a request's prompt
// tokens where the server's answer does not say.
type TokenPrompts interface {
	// Tokens is sample i's prompt.
	Tokens(i int) []int32
}

// BodyOptions say how request bodies are built.
type BodyOptions struct {
	// Benchmark is the benchmark (with its variant's facts) being run.
	Benchmark Benchmark
	// API is the endpoint protocol; Model the served model name.
	API   protocol.Protocol
	Model string
	// Stream asks for streamed responses.
	Stream bool
	// Guided turns on guided decoding where the benchmark has it (the
	// answer's JSON schema as response_format).
	Guided bool
	// Sampling are the sampling parameters, of API's own type
	// (API.DefaultParams); nil sends the benchmark's defaults
	// (DefaultSampling).
	Sampling protocol.Params
	// Round is the MLPerf round whose reference the bodies follow ("v6.0",
	// "v6.1"; "" is the benchmark's default), where the round changes them.
	// A round the benchmark does not know is an error.
	Round string
	// Logger receives warnings about the bodies chosen (nil: none).
	Logger *zap.Logger
}

// Params returns the sampling parameters the bodies carry: Sampling, or the
// benchmark's defaults for API.
func (o BodyOptions) Params() (protocol.Params, error) {
	if o.Sampling != nil {
		return o.Sampling, nil
	}
	return o.Benchmark.DefaultSampling(o.API)
}

// EvalOptions tune Dataset.Evaluate. Zero values take the evaluator's
// (the reference's) defaults.
type EvalOptions struct {
	// Benchmark is the benchmark (with its variant's facts) the log belongs
	// to.
	Benchmark Benchmark
	// Out is the accuracy.txt to write, for evaluators that write one
	// ("": next to the log).
	Out string
	// Seed, when set, replaces the evaluator's random seed.
	Seed *uint64
	// Workers, when positive, replaces the evaluator's worker count where
	// it changes random draws.
	Workers int
	// Interactive judges against the Interactive scenario's target.
	Interactive bool
	// Round is the MLPerf round whose scorer applies, where the rounds
	// score differently ("": the evaluator's default).
	Round string
	// Tokenizer is the tokenizer file or folder that decodes token-ID
	// answers (--tokenizer); "" looks for TokenizerModel's tokenizer in a
	// model folder of that name or the Hugging Face cache.
	Tokenizer string
	// TokenizerModel is the model name or folder the tokenizer is looked
	// up by ("": the benchmark's Model).
	TokenizerModel string
	// CleanUpSpaces, when set, overrides the decode's
	// clean_up_tokenization_spaces; nil takes the round's choice (what the
	// round's targets were computed with).
	CleanUpSpaces *bool
	// LiveCodeBench is the LiveCodeBench problems file the code subsets are
	// tested with ("": none; a log with code answers is then an error).
	LiveCodeBench string
	// Python is the interpreter generated code and reference-only steps run
	// under ("": python3 on PATH).
	Python string
	// PRM800K is the folder holding PRM800K's grading/grader.py (the
	// prm800k folder of an openai/prm800k checkout, deepseek-r1's
	// submodules/prm800k/prm800k). MATH-500 answers whose grade depends on
	// sympy or pylatexenc are graded by its grade_answer under Python ("":
	// such an answer is an error naming the flag, never a wrong answer).
	PRM800K string
	// Verdicts, when set, is the file Evaluate writes one JSON line per
	// scored sample to (SampleVerdict): index, what was extracted, the
	// verdict or per-sample metrics, and why.
	Verdicts string
}

// Evaluation is what an evaluator found.
type Evaluation struct {
	// Report is the text to show: tables, checks, the next step.
	Report string
	// Failure is non-nil when the log failed its checks or missed the
	// target; it says which.
	Failure error
	// Scorer says what computed the score and with which choices (the
	// tokenizer and its clean-up setting, the splitter's version), for the
	// run record and results.json.
	Scorer string
}

// FakeAnswer is one sample the fake endpoint (package fake) can answer
// with its ground truth, in the benchmark's answer format: Keys are the
// exact request texts that identify the sample (the text of the last user
// message, once per way the rounds' requests write it), Right the right
// answer and Wrongs the plausible wrong ones. The fake hashes Keys[0] to
// decide whether the sample is answered right and, if not, which of
// Wrongs it gets, so a run's accuracy is predictable.
type FakeAnswer struct {
	Keys   []string
	Right  string
	Wrongs []string
}

// FakeAnswerer is implemented by datasets whose answers the fake endpoint
// must be told (chat answers keyed on the request text). Token-ID
// benchmarks need not (the fake derives their output from the prompt);
// they give reference answers through FakeTokenAnswerer.
type FakeAnswerer interface {
	FakeAnswers() []FakeAnswer
}

// FakeTokenAnswer is one sample of a token-ID benchmark the fake endpoint
// can answer with its ground truth: Prompt, the prompt's token IDs as the
// harness sends them, identifies the sample; Right and Wrongs are answer
// texts in the format the benchmark's evaluator extracts, which the
// fake's caller encodes with the model's tokenizer (so the evaluator,
// decoding the logged IDs, reads them back).
type FakeTokenAnswer struct {
	Prompt []int32
	Right  string
	Wrongs []string
	// Tokens, when > 0, is the length in tokens every encoded answer,
	// right or wrong, is brought to, for a checker that bounds the mean
	// output length (tokens_per_sample): cut there, or preceded by
	// Filler's tokens, over and over, until it is that long.
	Tokens int
	// Filler is what a short answer is preceded by ("": its own text and
	// a space; a reasoning benchmark's answer, read from its end, gives
	// the model's thinking).
	Filler string
}

// FakeTokenAnswerer is implemented by token-ID datasets whose reference
// answers the fake endpoint can give (with a tokenizer), so a run against
// the fake scores what its --accuracy says rather than random tokens.
type FakeTokenAnswerer interface {
	FakeTokenAnswers() []FakeTokenAnswer
}

// Compliance is one compliance test of a benchmark.
type Compliance struct {
	// AuditConfig is the official audit.config, byte for byte.
	AuditConfig []byte
	// EOSTokenID is the token TEST06's EOS check looks for (0 where the
	// test has none).
	EOSTokenID int64
}

// Scenario directory names as the checker spells them (SCENARIO_MAPPING).
// They key Rules; the checker matches directory names case-insensitively,
// and mlperf-go always writes these spellings.
const (
	ScenarioOffline      = "Offline"
	ScenarioServer       = "Server"
	ScenarioInteractive  = "Interactive"
	ScenarioSingleStream = "SingleStream"
	ScenarioMultiStream  = "MultiStream"
)

// Rules are one benchmark's rules in one round, as the official submission
// checker (tools/submission/submission_checker/constants.py) holds them.
// Scenario keys are the checker's scenario directory names ("Offline").
type Rules struct {
	// Required and Optional list scenarios per system_type
	// ("datacenter", "edge", "datacenter,edge"); a system_type whose suite
	// does not contain the benchmark has no entry.
	Required map[string][]string
	Optional map[string][]string
	// PerformanceSampleCount is the minimum effective_performance_sample_count.
	PerformanceSampleCount int64
	// AccuracySampleCount is the dataset size an accuracy run must cover,
	// per scenario directory ("" applies to every scenario).
	AccuracySampleCount map[string]int64
	// OfflineMinSamplesPerQuery is OFFLINE_MIN_SPQ_SINCE_V4 (closed division).
	OfflineMinSamplesPerQuery int64
	// MinQueries is the min-queries table (scenarios without early stopping).
	MinQueries map[string]int64
	// LatencyConstraintNS is latency-constraint: the Server target latency
	// (and Interactive's where the round sets one).
	LatencyConstraintNS map[string]int64
	// LLM marks benchmarks the checker treats as LLMs (get_llm_models):
	// use_token_latencies required, TTFT/TPOT limits in Server/Interactive.
	LLM bool
	// TokenLimits are LLM_LATENCY_LIMITS per scenario.
	TokenLimits map[string]TokenLimit
	// Accuracy lists the accuracy.txt lower bounds per scenario ("" applies
	// to every scenario); Upper the upper limits.
	Accuracy map[string][]Bound
	Upper    []Bound
	// ResultField names the detail-log key holding the benchmark's metric
	// where it overrides the scenario's usual one
	// (RESULT_FIELD_BENCHMARK_OVERWRITE), per effective_scenario.
	ResultField map[string]string
}

// BoundsMiddle is the middle of metric's lower bound (for every scenario)
// and upper bound: the value a run aims at to land safely inside both
// (the fake's answers' length). It is 0 unless the metric has both.
func (r *Rules) BoundsMiddle(metric string) float64 {
	var lo, hi float64
	for _, b := range r.Accuracy[""] {
		if b.Metric == metric {
			lo = b.Value
		}
	}
	for _, b := range r.Upper {
		if b.Metric == metric {
			hi = b.Value
		}
	}
	if lo == 0 || hi == 0 {
		return 0
	}
	return (lo + hi) / 2
}

// TokenLimit is a p99 time-to-first-token / time-per-output-token limit in
// ns; the checker requires the logged value to be strictly below it.
type TokenLimit struct{ TTFTNS, TPOTNS int64 }

// Bound is one accuracy metric's bound: Metric is the checker's
// ACC_PATTERN name ("ROUGE1", "F1_HIERARCHICAL") and Value the float64
// Python computes for it ("reference × 0.99"), written out literally.
type Bound struct {
	Metric string
	Value  float64
}

var (
	mu    sync.RWMutex
	byKey = map[string]Benchmark{} // registered benchmarks by Name
)

// Register adds b to the registry; benchmarks call it from init. It panics
// when b lacks a name, dataset reader or submission directory, when a
// default sampling entry does not decode into its protocol's parameters, or
// when one of its names is taken, as database/sql.Register does.
func Register(b Benchmark) {
	mu.Lock()
	defer mu.Unlock()
	if b.Name == "" || b.SubmissionDir == "" || b.Data.Open == nil {
		panic(fmt.Sprintf("benchmark: Register(%q): Name, SubmissionDir and Data.Open are required", b.Name))
	}
	b.Base = b.Name
	for api := range b.Serving.Sampling {
		if _, err := b.DefaultSampling(api); err != nil {
			panic(fmt.Sprintf("benchmark: Register(%q): %v", b.Name, err))
		}
	}
	if err := checkDownloads(b.Data.Downloads); err != nil {
		panic(fmt.Sprintf("benchmark: Register(%q): %v", b.Name, err))
	}
	for _, v := range b.Variants {
		if v.Data == nil {
			continue
		}
		if v.Data.Open == nil {
			panic(fmt.Sprintf("benchmark: Register(%q): variant %s: its Data has no Open (copy the benchmark's Data and change what differs)", b.Name, v.Name))
		}
		if err := checkDownloads(v.Data.Downloads); err != nil {
			panic(fmt.Sprintf("benchmark: Register(%q): variant %s: %v", b.Name, v.Name, err))
		}
	}
	for _, n := range b.names() {
		if _, _, ok := lookupLocked(n); ok {
			panic(fmt.Sprintf("benchmark: Register(%q): the name %q is already registered", b.Name, n))
		}
	}
	byKey[b.Name] = b
}

// names are every name b answers to.
func (b Benchmark) names() []string {
	n := []string{b.Name, b.SubmissionDir}
	for _, v := range b.Variants {
		n = append(n, v.Name)
		if v.SubmissionDir != "" {
			n = append(n, v.SubmissionDir)
		}
	}
	return n
}

// Lookup returns the benchmark named name: a LoadGen model name, a
// variant's LoadGen name ("llama3_1-8b-interactive", returned with the
// variant's facts) or a submission directory name ("llama3.1-8b").
func Lookup(name string) (Benchmark, error) {
	mu.RLock()
	defer mu.RUnlock()
	if b, v, ok := lookupLocked(name); ok {
		return b.withVariant(v), nil
	}
	if len(byKey) == 0 {
		return Benchmark{}, fmt.Errorf("unknown benchmark %q: no benchmark is registered (import github.com/mlperf-go/mlperf-go/benchmarks/all)", name)
	}
	return Benchmark{}, fmt.Errorf("unknown benchmark %q: use one of %s", name, strings.Join(namesLocked(), ", "))
}

func lookupLocked(name string) (Benchmark, *Variant, bool) {
	if b, ok := byKey[name]; ok {
		return b, nil, true
	}
	for _, b := range byKey {
		if b.SubmissionDir == name {
			return b, nil, true
		}
		for i := range b.Variants {
			if v := &b.Variants[i]; v.Name == name || (v.SubmissionDir != "" && v.SubmissionDir == name) {
				return b, v, true
			}
		}
	}
	return Benchmark{}, nil, false
}

// InteractiveVariant returns the benchmark as its Interactive scenario
// runs it (the Variant marked Interactive applied); b itself when b is
// already that variant. A benchmark without one is an error naming the
// scenarios to use instead.
func (b Benchmark) InteractiveVariant() (Benchmark, error) {
	if b.Base != "" && b.Name != b.Base && !b.IsInteractive() {
		// Another variant (llama3_1-8b-edge) has no Interactive form, even
		// though it carries its base's variant list.
		return Benchmark{}, fmt.Errorf("benchmark %s has no Interactive scenario: use its own scenarios, or -b %s", b.Name, b.Base)
	}
	for i := range b.Variants {
		v := &b.Variants[i]
		if !v.Interactive {
			continue
		}
		if b.Name == v.Name {
			return b, nil
		}
		return b.withVariant(v), nil
	}
	return Benchmark{}, fmt.Errorf("benchmark %s has no Interactive scenario: use Offline or Server", b.Name)
}

// IsInteractive reports whether b is its benchmark's Interactive variant
// (what InteractiveVariant returns), whose Server runs are filed as
// Interactive.
func (b Benchmark) IsInteractive() bool {
	for _, v := range b.Variants {
		if v.Interactive && v.Name == b.Name {
			return true
		}
	}
	return false
}

// withVariant returns b with v's facets applied (b itself for nil).
func (b Benchmark) withVariant(v *Variant) Benchmark {
	if v == nil {
		return b
	}
	b.Name = v.Name
	if v.SubmissionDir != "" {
		b.SubmissionDir = v.SubmissionDir
	}
	if v.Description != "" {
		b.Description = v.Description
	}
	b.LoadGen = v.LoadGen
	if v.Data != nil {
		b.Data = *v.Data
	}
	if v.Submission != nil {
		b.Submission = *v.Submission
	}
	return b
}

// Names lists the registered benchmarks' LoadGen names with their
// variants', sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	var n []string
	for _, b := range byKey {
		n = append(n, b.Name)
		for _, v := range b.Variants {
			n = append(n, v.Name)
		}
	}
	sort.Strings(n)
	return n
}

// All returns the registered benchmarks (without variants applied), sorted
// by name.
func All() []Benchmark {
	mu.RLock()
	defer mu.RUnlock()
	all := make([]Benchmark, 0, len(byKey))
	for _, b := range byKey {
		all = append(all, b)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// OpenDataset opens b's dataset from paths; see Data.Open. No paths is
// an error saying how to make a dataset. No splits reads b.Splits. A path
// that is a `dataset download` folder opens the files its dataset pin names
// (Pin.Open: the performance set where a benchmark has two).
func (b Benchmark) OpenDataset(paths, splits []string) (Dataset, error) {
	return b.openDataset(paths, splits, false)
}

// OpenAccuracyDataset is OpenDataset for an accuracy run or an evaluation:
// a download folder opens its accuracy set (Pin.OpenAccuracy, e.g.
// gpt-oss-120b's acc/acc_eval_ref.parquet) where the benchmark has one.
func (b Benchmark) OpenAccuracyDataset(paths, splits []string) (Dataset, error) {
	return b.openDataset(paths, splits, true)
}

// SeparateAccuracySet reports whether paths (a download folder) hold an
// accuracy set apart from the performance set, so a command running both
// tests must open each.
func (b Benchmark) SeparateAccuracySet(paths []string) bool {
	perf, err1 := b.openDownloads(paths, false)
	acc, err2 := b.openDownloads(paths, true)
	return err1 == nil && err2 == nil && !slices.Equal(perf, acc)
}

func (b Benchmark) openDataset(paths, splits []string, accuracy bool) (Dataset, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no dataset given: pass --dataset (make one with `mlperf-go dataset synth --benchmark %s`)", b.Name)
	}
	if len(splits) == 0 {
		splits = b.Data.Splits
	}
	if err := notManifests(paths); err != nil {
		return nil, err
	}
	paths, err := b.openDownloads(paths, accuracy)
	if err != nil {
		return nil, err
	}
	if paths, err = b.openSynth(paths); err != nil {
		return nil, err
	}
	return b.Data.Open(paths, splits)
}

// notManifests refuses a manifest given as the dataset: the synthetic
// set's (SynthManifestFile) or a download's (download.ManifestFile)
// names the dataset's files, and its folder is what --dataset takes.
func notManifests(paths []string) error {
	for _, p := range paths {
		what := ""
		switch filepath.Base(p) {
		case SynthManifestFile:
			what = "the manifest `mlperf-go dataset synth` wrote beside a synthetic set"
		case download.ManifestFile:
			what = "the manifest `mlperf-go dataset download` wrote beside a download"
		default:
			continue
		}
		return fmt.Errorf("%s is %s, not a dataset file: pass its folder, --dataset %s", p, what, filepath.Dir(p))
	}
	return nil
}

// checkDownloads validates each round's pins: each pin valid, one per role,
// each in its own folder.
func checkDownloads(byRound map[string][]download.Pin) error {
	for round, pins := range byRound {
		roles, dirs := map[string]bool{}, map[string]bool{}
		for _, p := range pins {
			if err := p.Validate(); err != nil {
				return fmt.Errorf("Downloads[%q]: %v", round, err)
			}
			if roles[p.Role] || dirs[p.Dir] {
				return fmt.Errorf("Downloads[%q]: two pins share the role %q or the folder %q", round, p.Role, p.Dir)
			}
			roles[p.Role], dirs[p.Dir] = true, true
		}
	}
	return nil
}

// DownloadPins returns the files b pins for round (download.Pin), or an
// error naming the rounds that have some.
func (b Benchmark) DownloadPins(round string) ([]download.Pin, error) {
	if pins := b.Data.Downloads[round]; len(pins) > 0 {
		return pins, nil
	}
	var have []string
	for r := range b.Data.Downloads {
		have = append(have, r)
	}
	sort.Strings(have)
	if len(have) == 0 {
		return nil, fmt.Errorf("benchmark %s pins no download: pass its files with --dataset", b.Name)
	}
	return nil, fmt.Errorf("benchmark %s pins no download for round %s: use --round %s", b.Name, round, strings.Join(have, " or --round "))
}

// openDownloads replaces each download folder among paths (one holding a
// download.ManifestFile, as `mlperf-go dataset download --out DIR` leaves
// it) by the files its dataset pin says b's reader takes (for an accuracy
// run when accuracy), after checking that the folder holds b's dataset,
// complete.
func (b Benchmark) openDownloads(paths []string, accuracy bool) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !download.IsDownload(p) {
			out = append(out, p)
			continue
		}
		m, err := download.ReadManifest(p)
		if err != nil {
			return nil, err
		}
		fix := fmt.Sprintf("mlperf-go dataset download -b %s --out %s", b.Name, p)
		s := m.Role(download.RoleDataset)
		if s == nil {
			return nil, fmt.Errorf("%s holds no dataset: download it with `%s`", p, fix)
		}
		if !b.pinsDataset(s.Pin) {
			return nil, fmt.Errorf("%s holds the dataset %s (for %s), not %s's: download %s's into another folder with `mlperf-go dataset download -b %s --out DIR`",
				p, s.Pin.Source(), strings.Join(s.For, ", "), b.Name, b.Name, b.Name)
		}
		if err := s.Missing(p); err != nil {
			return nil, fmt.Errorf("%s: the download is incomplete (%v): run `%s` again", p, err, fix)
		}
		out = append(out, s.OpenPaths(p, accuracy)...)
	}
	return out, nil
}

// pinsDataset reports whether p is b's dataset pin in some round.
func (b Benchmark) pinsDataset(p download.Pin) bool {
	key := p.Key()
	for _, pins := range b.Data.Downloads {
		for _, q := range pins {
			if q.Role == download.RoleDataset && q.Key() == key {
				return true
			}
		}
	}
	return false
}

// engineRulesAll are the MLPerf Inference rules for the flags of every
// launched engine, whatever the benchmark: no reuse of cached prefixes
// across samples. Required flags are added, forbidden ones refused.
var engineRulesAll = map[engine.Kind]engine.Rules{
	engine.VLLM:   {Require: []string{"--no-enable-prefix-caching"}, Forbid: []string{"--enable-prefix-caching"}},
	engine.SGLang: {Require: []string{"--disable-radix-cache"}},
}

// EngineRulesFor returns the rules for running b on an engine of kind:
// those of every benchmark, then b's own (EngineRules).
func (b Benchmark) EngineRulesFor(kind engine.Kind) engine.Rules {
	r := engineRulesAll[kind].Merge(b.Serving.EngineRules[kind])
	r.Why = fmt.Sprintf("the MLPerf Inference rules for %s on %s", b.Name, kind)
	return r
}

// LoadGenModel is the model name LoadGen runs b under: LoadGen.Model, else
// Name.
func (b Benchmark) LoadGenModel() string {
	if b.LoadGen.Model != "" {
		return b.LoadGen.Model
	}
	return b.Name
}

// DefaultSampling returns the sampling parameters b sends over api when the
// user sets none: api's DefaultParams with b's Sampling entry for api, if
// any, decoded over them (protocol.DecodeGenerationConfig, so a key api
// does not take is an error naming it).
func (b Benchmark) DefaultSampling(api protocol.Protocol) (protocol.Params, error) {
	p := api.DefaultParams()
	if def, ok := b.Serving.Sampling[api]; ok {
		if err := protocol.DecodeGenerationConfig(def, p); err != nil {
			return nil, fmt.Errorf("%s's default sampling for %s: %w", b.Name, api.Name(), err)
		}
	}
	return p, nil
}
