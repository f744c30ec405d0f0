package llama31

import "github.com/mlperf-go/mlperf-go/benchmark"

// rules are llama3.1-8b's rules in the official submission checker
// (tools/submission/submission_checker/constants.py), identical in v6.0 and
// v6.1. Accuracy bounds are the float64 values Python computes for
// "reference × 0.99", written out literally.
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
		LatencyConstraintNS:       map[string]int64{"Server": 20000000000},
		LLM:                       true,
		TokenLimits: map[string]benchmark.TokenLimit{
			"Server":      {TTFTNS: 2000000000, TPOTNS: 100000000},
			"Interactive": {TTFTNS: 500000000, TPOTNS: 30000000},
		},
		Accuracy: map[string][]benchmark.Bound{"": {
			{Metric: "ROUGE1", Value: 38.391408000000006},
			{Metric: "ROUGE2", Value: 15.748425000000001},
			{Metric: "ROUGEL", Value: 24.250743},
			{Metric: "ROUGELSUM", Value: 35.435069999999996},
			{Metric: "GEN_LEN", Value: 7350879.600000001},
		}},
		Upper:      []benchmark.Bound{{Metric: "GEN_LEN", Value: 8984408.4}},
		Compliance: []string{"TEST06"},
		ResultField: map[string]string{
			"Offline": "result_tokens_per_second",
			"Server":  "result_completed_tokens_per_second",
		},
	}
}
