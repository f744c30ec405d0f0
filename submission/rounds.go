package submission

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// The per-round rules come from the official checker,
// mlcommons/inference tools/submission/submission_checker/constants.py: what
// is the same for every benchmark (the seeds, ACC_PATTERN, RESULT_FIELD_NEW,
// TEST_DURATION_MS, MAX_ACCURACY_LOG_SIZE) is here; each benchmark's own rules
// (MODEL_CONFIG, LLM_LATENCY_LIMITS, OFFLINE_MIN_SPQ_SINCE_V4,
// RESULT_FIELD_BENCHMARK_OVERWRITE, its accuracy targets) are registered with
// it (benchmark.Submission.Rounds) and read from the registry.

// MinDurationMS is the shortest performance run the checker accepts, in
// milliseconds (TEST_DURATION_MS: ten minutes).
const MinDurationMS = 600000

// MaxAccuracyLogSize is the largest mlperf_log_accuracy.json a submission
// may hold, in bytes (MAX_ACCURACY_LOG_SIZE: 10,240); packaging truncates
// larger logs to fit.
const MaxAccuracyLogSize = 10 * 1024

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
	"mAP":               `.*(?:mAP=|'Total':)\s*([\d.]+)`,
	"ACCURACY":          `Word Error Rate\:.*, accuracy=([0-9\.]+)%`,
}

// totalMetrics are the checker's metrics that are sums over the samples
// rather than means or rates: llama3.1-8b's gen_len is the characters of
// every summary. A log of part of the set cannot meet their bounds, so a
// partial run leaves them unjudged (JudgePartialAccuracy).
var totalMetrics = map[string]bool{"GEN_LEN": true}

// BenchmarkRules are one benchmark's rules in one round: the registered
// benchmark.Rules with each accuracy bound's ACC_PATTERN resolved.
type BenchmarkRules struct {
	// Name is the checker's benchmark name (the submission directory).
	Name string
	*benchmark.Rules
	// Compliance lists the compliance tests the closed division needs
	// (the benchmark's Submission.Compliance), sorted.
	Compliance []string
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

// DefaultRound is the round filing.FileRun and pack.Package assume when none
// is given: LoadGen 6.0.17 (the release mlperf-go links) writes the v6.1
// seeds.
const DefaultRound = round.V61

// roundSeeds are the RNG seeds of each round (the checker's "seeds").
var roundSeeds = map[string]Round{
	round.V60: {Name: round.V60, QSLSeed: 2465351861681999779, SampleIndexSeed: 14276810075590677512, ScheduleSeed: 3936089224930324775},
	round.V61: {Name: round.V61, QSLSeed: 2085463073848966840, SampleIndexSeed: 2747215439041700203, ScheduleSeed: 16159082839903944936},
}

// BaseResultField returns the detail-log key the checker reads a
// performance run's result from for every benchmark (RESULT_FIELD_NEW),
// by the effective_scenario LoadGen logged; "" for a scenario LoadGen does
// not log. A benchmark may name a further field (BenchmarkRules.ResultField,
// RESULT_FIELD_BENCHMARK_OVERWRITE) that must be present too.
func BaseResultField(effectiveScenario string) string {
	// RESULT_FIELD_NEW is the same in v6.0 and v6.1 for the scenarios
	// LoadGen logs: the key LoadGen writes the result under.
	return loadgen.ResultKeyOf(effectiveScenario)
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
		rules, ok := b.Submission.Rounds[name]
		if !ok {
			continue
		}
		br, err := resolveRules(b.SubmissionDir, rules)
		if err != nil {
			return nil, err
		}
		br.Compliance = b.Submission.ComplianceTests()
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
	b, err := LookupBenchmark(name)
	if err != nil {
		return "", err
	}
	return b.SubmissionDir, nil
}

// CheckBenchmarkDir reports a benchmark folder of a results tree that
// names a benchmark other than as the checker spells it (LoadGen's
// "llama3_1-8b" for "llama3.1-8b"): packaging reads measurements.json and
// runs from the checker's spelling, so a file under the other is never
// used. A name that is no benchmark passes (CanonicalBenchmark judges it).
func CheckBenchmarkDir(dir string) error {
	name := filepath.Base(filepath.Clean(dir))
	b, err := LookupBenchmark(name)
	if err != nil || b.SubmissionDir == name {
		return nil
	}
	return fmt.Errorf("%s: the results tree spells %s's folder %s, as the checker does: move what it holds into %s",
		dir, b.Name, b.SubmissionDir, filepath.Join(filepath.Dir(filepath.Clean(dir)), b.SubmissionDir))
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

// AccuracySamples returns the dataset size an accuracy run in a scenario
// directory must cover (the benchmark's per-scenario count, else the one
// for every scenario).
func (b *BenchmarkRules) AccuracySamples(scenario string) int64 {
	if n, ok := b.AccuracySampleCount[scenario]; ok {
		return n
	}
	return b.AccuracySampleCount[""]
}

func sortStrings(s []string) { sort.Strings(s) }

// LookupBenchmark is benchmark.Lookup with the submission packages' error
// prefix: the registered benchmark of that name (either spelling,
// "llama3_1-8b" or "llama3.1-8b"), or an error naming the known ones.
func LookupBenchmark(name string) (benchmark.Benchmark, error) {
	b, err := benchmark.Lookup(name)
	if err != nil {
		return b, fmt.Errorf("submission: %w", err)
	}
	return b, nil
}

// LookupCompliance returns compliance test test (TEST06, TEST07, TEST09)
// of benchmark name as the benchmark registered it (its official
// audit.config and constants), or an error naming the tests the benchmark
// takes.
func LookupCompliance(test, name string) (benchmark.Compliance, error) {
	b, err := LookupBenchmark(name)
	if err != nil {
		return benchmark.Compliance{}, err
	}
	c, ok := b.Submission.Compliance[test]
	if !ok {
		return benchmark.Compliance{}, fmt.Errorf("submission: %s has no compliance test %q (it takes: %s)", b.SubmissionDir, test, complianceList(b))
	}
	return c, nil
}

// complianceList names b's compliance tests, or "none".
func complianceList(b benchmark.Benchmark) string {
	var t []string
	for k := range b.Submission.Compliance {
		t = append(t, k)
	}
	if len(t) == 0 {
		return "none"
	}
	sort.Strings(t)
	return strings.Join(t, ", ")
}
