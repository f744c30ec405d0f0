package gptoss120b

import "github.com/mlperf-go/mlperf-go/benchmark"

// rules are gpt-oss-120b's rules in the official submission checker
// (tools/submission/submission_checker/constants.py), identical in v6.0 and
// v6.1. Bounds are the float64 values Python computes, written out
// literally.
func rules() *benchmark.Rules {
	return &benchmark.Rules{
		Required: map[string][]string{
			"datacenter":      {"Offline"},
			"datacenter,edge": {"Offline"},
		},
		Optional: map[string][]string{
			"datacenter":      {"Interactive", "Server"},
			"datacenter,edge": {"Interactive", "Server"},
		},
		PerformanceSampleCount:    PerformanceSamples,
		AccuracySampleCount:       map[string]int64{"": AccuracySamples},
		OfflineMinSamplesPerQuery: PerformanceSamples,
		MinQueries:                map[string]int64{"SingleStream": 1024, "Server": 270336, "Offline": 1},
		LatencyConstraintNS:       map[string]int64{"Server": 60000000000},
		LLM:                       true,
		TokenLimits: map[string]benchmark.TokenLimit{
			"Server":      {TTFTNS: 3000000000, TPOTNS: 80000000},
			"Interactive": {TTFTNS: 2000000000, TPOTNS: 15000000},
		},
		Accuracy: map[string][]benchmark.Bound{"": {
			{Metric: "exact_match", Value: 82.2987},
		}},
		Upper: []benchmark.Bound{{Metric: "TOKENS_PER_SAMPLE", Value: 10998.900000000001}},
		ResultField: map[string]string{
			"Offline": "result_tokens_per_second",
			"Server":  "result_completed_tokens_per_second",
		},
	}
}
