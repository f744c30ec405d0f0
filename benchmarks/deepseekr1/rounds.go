package deepseekr1

import "github.com/mlperf-go/mlperf-go/benchmark"

// rules are deepseek-r1's rules in the official submission checker
// (tools/submission/submission_checker/constants.py), identical in v6.0 and
// v6.1. Bounds are the float64 values Python computes for the checker's
// expressions (0.99 * 81.3582, 0.9 * 3886.2274, 1.1 * 3886.2274), written
// out literally.
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
		PerformanceSampleCount:    Samples,
		AccuracySampleCount:       map[string]int64{"": Samples},
		OfflineMinSamplesPerQuery: Samples,
		MinQueries:                map[string]int64{"SingleStream": 1024, "Server": 270336, "Offline": 1},
		LatencyConstraintNS:       map[string]int64{"Server": 60000000000},
		LLM:                       true,
		TokenLimits: map[string]benchmark.TokenLimit{
			"Server":      {TTFTNS: 2000000000, TPOTNS: 80000000},
			"Interactive": {TTFTNS: 1500000000, TPOTNS: 15000000},
		},
		Accuracy: map[string][]benchmark.Bound{"": {
			{Metric: "exact_match", Value: 80.544618},
			{Metric: "TOKENS_PER_SAMPLE", Value: 3497.6046600000004},
		}},
		Upper: []benchmark.Bound{{Metric: "TOKENS_PER_SAMPLE", Value: 4274.8501400000005}},
		ResultField: map[string]string{
			"Offline": "result_tokens_per_second",
			"Server":  "result_completed_tokens_per_second",
		},
	}
}
