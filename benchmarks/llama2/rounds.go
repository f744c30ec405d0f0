package llama2

import "github.com/mlperf-go/mlperf-go/benchmark"

// Accuracy lower bounds, the float64 values Python computes for the
// checker's "reference × factor" (constants.py MODEL_CONFIG
// "accuracy-target"), written out literally: bounds999 for
// llama2-70b-99.9 (v6.0 and v6.1: 44.4312, 22.0352, 28.6162 × 0.999),
// bounds99 for v6.0's llama2-70b-99 (× 0.99). Both bound
// TOKENS_PER_SAMPLE below at 294.45 × 0.9.
var (
	bounds999 = []benchmark.Bound{
		{Metric: "ROUGE1", Value: 44.3867688},
		{Metric: "ROUGE2", Value: 22.0131648},
		{Metric: "ROUGEL", Value: 28.5875838},
		{Metric: "TOKENS_PER_SAMPLE", Value: 265.005},
	}
	bounds99 = []benchmark.Bound{
		{Metric: "ROUGE1", Value: 43.98688799999999},
		{Metric: "ROUGE2", Value: 21.814847999999998},
		{Metric: "ROUGEL", Value: 28.330038},
		{Metric: "TOKENS_PER_SAMPLE", Value: 265.005},
	}
)

// rules are llama2-70b's rules in the official submission checker
// (tools/submission/submission_checker/constants.py), the same for
// llama2-70b-99 and -99.9 and in v6.0 and v6.1 but for the accuracy bounds.
// v6.1 removed llama2-70b-99 (commit 44cc3a35, "Remove llama2-70b-99
// (#2651)"), so only -99.9 has a v6.1 entry.
func rules(accuracy []benchmark.Bound) *benchmark.Rules {
	return &benchmark.Rules{
		Required: map[string][]string{
			"datacenter":      {"Offline"},
			"datacenter,edge": {"Offline"},
		},
		Optional: map[string][]string{
			"datacenter":      {"Interactive", "Server"},
			"datacenter,edge": {"Interactive", "Server"},
		},
		PerformanceSampleCount:    Samples,
		AccuracySampleCount:       map[string]int64{"": Samples},
		OfflineMinSamplesPerQuery: Samples,
		MinQueries:                map[string]int64{"SingleStream": 1024, "Server": 270336, "Offline": 1},
		LatencyConstraintNS:       map[string]int64{"Server": 20000000000},
		LLM:                       true,
		TokenLimits: map[string]benchmark.TokenLimit{
			"Server":      {TTFTNS: 2000000000, TPOTNS: 200000000},
			"Interactive": {TTFTNS: 450000000, TPOTNS: 40000000},
		},
		Accuracy: map[string][]benchmark.Bound{"": accuracy},
		Upper:    []benchmark.Bound{{Metric: "TOKENS_PER_SAMPLE", Value: 323.89500000000004}},
		ResultField: map[string]string{
			"Offline": "result_tokens_per_second",
			"Server":  "result_completed_tokens_per_second",
		},
	}
}
