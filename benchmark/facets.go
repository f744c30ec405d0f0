package benchmark

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/protocol"
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
