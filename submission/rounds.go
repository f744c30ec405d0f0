package submission

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// The per-round rules come from the official checker,
// mlcommons/inference tools/submission/submission_checker/constants.py: what
// is the same for every benchmark (the seeds, ACC_PATTERN, RESULT_FIELD_NEW,
// TEST_DURATION_MS, MAX_ACCURACY_LOG_SIZE) is here; each benchmark's own rules
// (MODEL_CONFIG, LLM_LATENCY_LIMITS, OFFLINE_MIN_SPQ_SINCE_V4,
// RESULT_FIELD_BENCHMARK_OVERWRITE, its accuracy targets) are registered with
// it (benchmark.Benchmark.Rounds) and read from the registry.

const (
	minDurationMS     = 600000    // TEST_DURATION_MS
	maxAccuracyLogLen = 10 * 1024 // MAX_ACCURACY_LOG_SIZE
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

// accPattern holds the checker's ACC_PATTERN entries the benchmarks use,
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

// BenchmarkRules are one benchmark's rules in one round: the registered
// benchmark.Rules with each accuracy bound's ACC_PATTERN resolved.
type BenchmarkRules struct {
	// Name is the checker's benchmark name (the submission directory).
	Name string
	*benchmark.Rules
	// accuracy lists the accuracy.txt lower bounds per scenario ("" applies
	// to every scenario) and upper are the upper limits.
	accuracy map[string][]accMetric
	upper    []accMetric
}

// Round is one MLPerf Inference round's rules.
type Round struct {
	// Name is "v6.0" or "v6.1" (the checker's --version).
	Name string
	// QSLSeed, SampleIndexSeed and ScheduleSeed are the RNG seeds LoadGen's
	// built-in mlperf.conf must have applied (the checker's "seeds").
	QSLSeed, SampleIndexSeed, ScheduleSeed uint64
	// Benchmarks maps checker benchmark names to their rules, from the
	// benchmark registry.
	Benchmarks map[string]*BenchmarkRules
}

// DefaultRound is the round FileRun and Package assume when none is given:
// LoadGen 6.0.17 (the release mlperf-go links) writes the v6.1 seeds.
const DefaultRound = "v6.1"

// roundSeeds are the RNG seeds of each round (the checker's "seeds").
var roundSeeds = map[string]Round{
	"v6.0": {Name: "v6.0", QSLSeed: 2465351861681999779, SampleIndexSeed: 14276810075590677512, ScheduleSeed: 3936089224930324775},
	"v6.1": {Name: "v6.1", QSLSeed: 2085463073848966840, SampleIndexSeed: 2747215439041700203, ScheduleSeed: 16159082839903944936},
}

// baseResultField is RESULT_FIELD_NEW (the same in v6.0 and v6.1 for the
// scenarios LoadGen logs), keyed by effective_scenario.
var baseResultField = map[string]string{
	benchmark.ScenarioOffline:      "result_samples_per_second",
	benchmark.ScenarioServer:       "result_completed_samples_per_sec",
	benchmark.ScenarioSingleStream: "early_stopping_latency_ss",
	benchmark.ScenarioMultiStream:  "early_stopping_latency_ms",
}

// LookupRound returns the rules of a round ("v6.0" or "v6.1"): its seeds
// and the rules every registered benchmark has for it.
func LookupRound(name string) (*Round, error) {
	seeds, ok := roundSeeds[name]
	if !ok {
		return nil, fmt.Errorf("submission: unknown round %q: use one of %s", name, strings.Join(RoundNames(), ", "))
	}
	r := seeds
	r.Benchmarks = map[string]*BenchmarkRules{}
	for _, b := range benchmark.All() {
		rules, ok := b.Rounds[name]
		if !ok {
			continue
		}
		br, err := resolveRules(b.SubmissionDir, rules)
		if err != nil {
			return nil, err
		}
		r.Benchmarks[b.SubmissionDir] = br
	}
	return &r, nil
}

// mustRound is LookupRound for rounds known to exist.
func mustRound(name string) *Round {
	r, err := LookupRound(name)
	if err != nil {
		panic(err)
	}
	return r
}

// resolveRules attaches the checker's ACC_PATTERN to each accuracy bound.
func resolveRules(name string, r *benchmark.Rules) (*BenchmarkRules, error) {
	metrics := func(bounds []benchmark.Bound) ([]accMetric, error) {
		var out []accMetric
		for _, b := range bounds {
			p, ok := accPattern[b.Metric]
			if !ok {
				return nil, fmt.Errorf("submission: %s's accuracy metric %q has no ACC_PATTERN here: add the checker's pattern to accPattern", name, b.Metric)
			}
			out = append(out, accMetric{b.Metric, p, b.Value})
		}
		return out, nil
	}
	br := &BenchmarkRules{Name: name, Rules: r, accuracy: map[string][]accMetric{}}
	for scen, bounds := range r.Accuracy {
		m, err := metrics(bounds)
		if err != nil {
			return nil, err
		}
		br.accuracy[scen] = m
	}
	var err error
	if br.upper, err = metrics(r.Upper); err != nil {
		return nil, err
	}
	return br, nil
}

// RoundNames lists the supported rounds in order.
func RoundNames() []string {
	var names []string
	for n := range roundSeeds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CanonicalBenchmark returns the checker's name for a benchmark (its
// submission directory: "llama3_1-8b" → "llama3.1-8b"), or an error naming
// the known ones.
func CanonicalBenchmark(name string) (string, error) {
	b, err := lookupBenchmark(name)
	if err != nil {
		return "", err
	}
	return b.SubmissionDir, nil
}

// CanonicalScenario returns the checker's spelling of a scenario name,
// matched case-insensitively ("offline" → "Offline").
func CanonicalScenario(name string) (string, error) {
	for _, s := range []string{benchmark.ScenarioOffline, benchmark.ScenarioServer, benchmark.ScenarioInteractive, benchmark.ScenarioSingleStream, benchmark.ScenarioMultiStream} {
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
	if m, ok := b.accuracy[benchmark.ScenarioOffline]; ok {
		return m
	}
	return b.accuracy[benchmark.ScenarioServer]
}

// accuracySamples returns the dataset size an accuracy run in scenario must cover.
func (b *BenchmarkRules) accuracySamples(scenario string) int64 {
	if n, ok := b.AccuracySampleCount[scenario]; ok {
		return n
	}
	return b.AccuracySampleCount[""]
}

func sortStrings(s []string) { sort.Strings(s) }

// lookupBenchmark is benchmark.Lookup with this package's error prefix.
func lookupBenchmark(name string) (benchmark.Benchmark, error) {
	b, err := benchmark.Lookup(name)
	if err != nil {
		return b, fmt.Errorf("submission: %w", err)
	}
	return b, nil
}
