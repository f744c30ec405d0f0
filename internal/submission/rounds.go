package submission

import (
	"fmt"
	"sort"
	"strings"
)

// The per-round rules below are copied (as data) from the official checker,
// mlcommons/inference tools/submission/submission_checker/constants.py
// (MODEL_CONFIG["v6.0"] / MODEL_CONFIG["v6.1"], ACC_PATTERN,
// LLM_LATENCY_LIMITS, OFFLINE_MIN_SPQ_SINCE_V4, RESULT_FIELD_NEW,
// RESULT_FIELD_BENCHMARK_OVERWRITE, TEST_DURATION_MS, MAX_ACCURACY_LOG_SIZE).
// Accuracy targets are the float64 values Python computes for
// "reference × 0.99" (e.g. 38.7792*0.99 = 38.391408000000006), written out
// literally so that a score exactly at the boundary is judged as the checker
// judges it (Go would fold the constant product exactly and round once).

// Benchmark names as the checker's MODEL_CONFIG "models" lists them. The
// results tree uses these names for benchmark directories.
const (
	BenchmarkQwen3VL  = "qwen3-vl-235b-a22b"
	BenchmarkLlama8B  = "llama3.1-8b"
	BenchmarkGPTOSS   = "gpt-oss-120b"
	minDurationMS     = 600000    // TEST_DURATION_MS
	maxAccuracyLogLen = 10 * 1024 // MAX_ACCURACY_LOG_SIZE
)

// Scenario directory names as the checker spells them (SCENARIO_MAPPING).
// Directory names are matched case-insensitively by the checker; FileRun and
// Package always write these spellings.
const (
	ScenarioOffline      = "Offline"
	ScenarioServer       = "Server"
	ScenarioInteractive  = "Interactive"
	ScenarioSingleStream = "SingleStream"
	ScenarioMultiStream  = "MultiStream"
)

// Compliance test names.
const (
	TEST06 = "TEST06"
	TEST07 = "TEST07"
	TEST09 = "TEST09"
)

// accMetric is one accuracy.txt metric the checker reads: the regular
// expression of ACC_PATTERN[name] (re.match semantics: anchored at the start of
// the line) and its bound.
type accMetric struct {
	name    string
	pattern string
	bound   float64
}

// accPattern holds the checker's ACC_PATTERN entries the three benchmarks use,
// verbatim (Python and Go RE2 agree on these constructs).
var accPattern = map[string]string{
	"ROUGE1":            `.*'rouge1':\s+'?([\d.]+)'?.*`,
	"ROUGE2":            `.*'rouge2':\s+'?([\d.]+)'?.*`,
	"ROUGEL":            `.*'rougeL':\s+'?([\d.]+)'?.*`,
	"ROUGELSUM":         `.*'rougeLsum':\s+'?([\d.]+)'?.*`,
	"GEN_LEN":           `.*'gen_len':\s([\d.]+).*`,
	"TOKENS_PER_SAMPLE": `.*'tokens_per_sample':\s([\d.]+).*`,
	"exact_match":       `.*'exact_match':\s([\d.]+).*`,
	"F1_HIERARCHICAL":   `\{.*"f1":\s*([\d\.]+).*\}`,
}

// ttftTpot is a p99 time-to-first-token / time-per-output-token limit in ns;
// the checker requires the logged value to be strictly below it.
type ttftTpot struct{ ttftNS, tpotNS int64 }

// BenchmarkRules are one benchmark's rules in one round.
type BenchmarkRules struct {
	// Name is the checker's benchmark name.
	Name string
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
	// (and, for qwen3-vl in v6.1, Interactive's).
	LatencyConstraintNS map[string]int64
	// LLM marks benchmarks the checker treats as LLMs (get_llm_models):
	// use_token_latencies required, TTFT/TPOT limits in Server/Interactive.
	LLM bool
	// TokenLimits are LLM_LATENCY_LIMITS per scenario.
	TokenLimits map[string]ttftTpot
	// accuracy lists the accuracy.txt lower bounds per scenario ("" applies
	// to every scenario) and upper are the upper limits.
	accuracy map[string][]accMetric
	upper    []accMetric
	// Compliance lists the compliance tests the closed division needs.
	Compliance []string
	// ResultField names the detail-log key holding the benchmark's metric
	// where it overrides the scenario's usual one
	// (RESULT_FIELD_BENCHMARK_OVERWRITE), per effective_scenario.
	ResultField map[string]string
}

// Round is one MLPerf Inference round's rules.
type Round struct {
	// Name is "v6.0" or "v6.1" (the checker's --version).
	Name string
	// QSLSeed, SampleIndexSeed and ScheduleSeed are the RNG seeds LoadGen's
	// built-in mlperf.conf must have applied (the checker's "seeds").
	QSLSeed, SampleIndexSeed, ScheduleSeed uint64
	// Benchmarks maps checker benchmark names to their rules.
	Benchmarks map[string]*BenchmarkRules
}

// DefaultRound is the round FileRun and Package assume when none is given:
// LoadGen 6.0.17 (the release mlperf-go links) writes the v6.1 seeds.
const DefaultRound = "v6.1"

var rounds = map[string]*Round{
	"v6.0": {
		Name:            "v6.0",
		QSLSeed:         2465351861681999779,
		SampleIndexSeed: 14276810075590677512,
		ScheduleSeed:    3936089224930324775,
		Benchmarks: map[string]*BenchmarkRules{
			BenchmarkLlama8B: llamaRules(),
			BenchmarkGPTOSS:  gptossRules(),
			BenchmarkQwen3VL: {
				Name: BenchmarkQwen3VL,
				Required: map[string][]string{
					"datacenter":      {ScenarioServer, ScenarioOffline},
					"datacenter,edge": {ScenarioOffline},
				},
				Optional: map[string][]string{
					"datacenter,edge": {ScenarioInteractive, ScenarioServer},
				},
				PerformanceSampleCount:    48289,
				AccuracySampleCount:       map[string]int64{"": 48289},
				OfflineMinSamplesPerQuery: 48289,
				MinQueries:                map[string]int64{ScenarioSingleStream: 1024, ScenarioServer: 270336, ScenarioOffline: 1},
				LatencyConstraintNS:       map[string]int64{ScenarioServer: 12000000000},
				accuracy: map[string][]accMetric{
					"": {{"F1_HIERARCHICAL", accPattern["F1_HIERARCHICAL"], 0.782397}},
				},
				ResultField: map[string]string{
					ScenarioOffline: "result_samples_per_second",
					ScenarioServer:  "result_completed_samples_per_sec",
				},
			},
		},
	},
	"v6.1": {
		Name:            "v6.1",
		QSLSeed:         2085463073848966840,
		SampleIndexSeed: 2747215439041700203,
		ScheduleSeed:    16159082839903944936,
		Benchmarks: map[string]*BenchmarkRules{
			BenchmarkLlama8B: llamaRules(),
			BenchmarkGPTOSS:  gptossRules(),
			BenchmarkQwen3VL: {
				Name: BenchmarkQwen3VL,
				Required: map[string][]string{
					"datacenter":      {ScenarioOffline},
					"datacenter,edge": {ScenarioOffline},
				},
				Optional: map[string][]string{
					"datacenter":      {ScenarioInteractive, ScenarioServer},
					"datacenter,edge": {ScenarioInteractive, ScenarioServer},
				},
				PerformanceSampleCount: 48289,
				AccuracySampleCount: map[string]int64{
					ScenarioOffline: 48289, ScenarioServer: 48289, ScenarioInteractive: 8000,
				},
				OfflineMinSamplesPerQuery: 48289,
				MinQueries:                map[string]int64{ScenarioSingleStream: 1024, ScenarioServer: 270336, ScenarioOffline: 1},
				LatencyConstraintNS:       map[string]int64{ScenarioServer: 12000000000, ScenarioInteractive: 1500000000},
				accuracy: map[string][]accMetric{
					ScenarioOffline:     {{"F1_HIERARCHICAL", accPattern["F1_HIERARCHICAL"], 0.782397}},
					ScenarioServer:      {{"F1_HIERARCHICAL", accPattern["F1_HIERARCHICAL"], 0.782397}},
					ScenarioInteractive: {{"F1_HIERARCHICAL", accPattern["F1_HIERARCHICAL"], 0.7799219999999999}},
				},
				ResultField: map[string]string{
					ScenarioOffline: "result_samples_per_second",
					ScenarioServer:  "result_completed_samples_per_sec",
				},
			},
		},
	},
}

// llamaRules are llama3.1-8b's rules, identical in v6.0 and v6.1.
func llamaRules() *BenchmarkRules {
	return &BenchmarkRules{
		Name: BenchmarkLlama8B,
		Required: map[string][]string{
			"datacenter":      {ScenarioOffline},
			"datacenter,edge": {ScenarioOffline},
		},
		Optional: map[string][]string{
			"datacenter":      {ScenarioInteractive, ScenarioServer},
			"datacenter,edge": {ScenarioInteractive, ScenarioServer},
		},
		PerformanceSampleCount:    13368,
		AccuracySampleCount:       map[string]int64{"": 13368},
		OfflineMinSamplesPerQuery: 13368,
		MinQueries:                map[string]int64{ScenarioSingleStream: 1024, ScenarioServer: 270336, ScenarioOffline: 1},
		LatencyConstraintNS:       map[string]int64{ScenarioServer: 20000000000},
		LLM:                       true,
		TokenLimits: map[string]ttftTpot{
			ScenarioServer:      {2000000000, 100000000},
			ScenarioInteractive: {500000000, 30000000},
		},
		accuracy: map[string][]accMetric{"": {
			{"ROUGE1", accPattern["ROUGE1"], 38.391408000000006},
			{"ROUGE2", accPattern["ROUGE2"], 15.748425000000001},
			{"ROUGEL", accPattern["ROUGEL"], 24.250743},
			{"ROUGELSUM", accPattern["ROUGELSUM"], 35.435069999999996},
			{"GEN_LEN", accPattern["GEN_LEN"], 7350879.600000001},
		}},
		upper:      []accMetric{{"GEN_LEN", accPattern["GEN_LEN"], 8984408.4}},
		Compliance: []string{TEST06},
		ResultField: map[string]string{
			ScenarioOffline: "result_tokens_per_second",
			ScenarioServer:  "result_completed_tokens_per_second",
		},
	}
}

// gptossRules are gpt-oss-120b's rules, identical in v6.0 and v6.1.
func gptossRules() *BenchmarkRules {
	return &BenchmarkRules{
		Name: BenchmarkGPTOSS,
		Required: map[string][]string{
			"datacenter":      {ScenarioOffline},
			"datacenter,edge": {ScenarioOffline},
		},
		Optional: map[string][]string{
			"datacenter":      {ScenarioInteractive, ScenarioServer},
			"datacenter,edge": {ScenarioInteractive, ScenarioServer},
		},
		PerformanceSampleCount:    6396,
		AccuracySampleCount:       map[string]int64{"": 4395},
		OfflineMinSamplesPerQuery: 6396,
		MinQueries:                map[string]int64{ScenarioSingleStream: 1024, ScenarioServer: 270336, ScenarioOffline: 1},
		LatencyConstraintNS:       map[string]int64{ScenarioServer: 60000000000},
		LLM:                       true,
		TokenLimits: map[string]ttftTpot{
			ScenarioServer:      {3000000000, 80000000},
			ScenarioInteractive: {2000000000, 15000000},
		},
		accuracy: map[string][]accMetric{"": {
			{"exact_match", accPattern["exact_match"], 82.2987},
		}},
		upper:      []accMetric{{"TOKENS_PER_SAMPLE", accPattern["TOKENS_PER_SAMPLE"], 10998.900000000001}},
		Compliance: []string{TEST07, TEST09},
		ResultField: map[string]string{
			ScenarioOffline: "result_tokens_per_second",
			ScenarioServer:  "result_completed_tokens_per_second",
		},
	}
}

// baseResultField is RESULT_FIELD_NEW (the same in v6.0 and v6.1 for the
// scenarios LoadGen logs), keyed by effective_scenario.
var baseResultField = map[string]string{
	ScenarioOffline:      "result_samples_per_second",
	ScenarioServer:       "result_completed_samples_per_sec",
	ScenarioSingleStream: "early_stopping_latency_ss",
	ScenarioMultiStream:  "early_stopping_latency_ms",
}

// LookupRound returns the rules of a round ("v6.0" or "v6.1").
func LookupRound(name string) (*Round, error) {
	r, ok := rounds[name]
	if !ok {
		return nil, fmt.Errorf("submission: unknown round %q: use one of %s", name, strings.Join(RoundNames(), ", "))
	}
	return r, nil
}

// RoundNames lists the supported rounds in order.
func RoundNames() []string {
	var names []string
	for n := range rounds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// benchmarkAliases maps other spellings to checker names (the checker's
// model_mapping, plus mlperf-go's own benchmark names).
var benchmarkAliases = map[string]string{
	"llama3_1-8b": BenchmarkLlama8B,
}

// CanonicalBenchmark returns the checker's name for a benchmark
// ("llama3_1-8b" → "llama3.1-8b"), or an error naming the known ones.
func CanonicalBenchmark(name string) (string, error) {
	if a, ok := benchmarkAliases[name]; ok {
		return a, nil
	}
	switch name {
	case BenchmarkQwen3VL, BenchmarkLlama8B, BenchmarkGPTOSS:
		return name, nil
	}
	return "", fmt.Errorf("submission: unknown benchmark %q: use %s, %s or %s", name, BenchmarkQwen3VL, BenchmarkLlama8B, BenchmarkGPTOSS)
}

// CanonicalScenario returns the checker's spelling of a scenario name,
// matched case-insensitively ("offline" → "Offline").
func CanonicalScenario(name string) (string, error) {
	for _, s := range []string{ScenarioOffline, ScenarioServer, ScenarioInteractive, ScenarioSingleStream, ScenarioMultiStream} {
		if strings.EqualFold(s, name) {
			return s, nil
		}
	}
	return "", fmt.Errorf("submission: unknown scenario %q: use Offline, Server, Interactive, SingleStream or MultiStream", name)
}

// accuracyMetrics returns the lower-bound metrics for a scenario directory.
func (b *BenchmarkRules) accuracyMetrics(scenario string) []accMetric {
	if m, ok := b.accuracy[scenario]; ok {
		return m
	}
	if m, ok := b.accuracy[""]; ok {
		return m
	}
	// The checker falls back to Offline, then Server (Config.get_accuracy_target).
	if m, ok := b.accuracy[ScenarioOffline]; ok {
		return m
	}
	return b.accuracy[ScenarioServer]
}

// accuracySamples returns the dataset size an accuracy run in scenario must cover.
func (b *BenchmarkRules) accuracySamples(scenario string) int64 {
	if n, ok := b.AccuracySampleCount[scenario]; ok {
		return n
	}
	return b.AccuracySampleCount[""]
}

func sortStrings(s []string) { sort.Strings(s) }
