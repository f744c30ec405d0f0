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
		Upper: []benchmark.Bound{{Metric: "GEN_LEN", Value: 8984408.4}},
		ResultField: map[string]string{
			"Offline": "result_tokens_per_second",
			"Server":  "result_completed_tokens_per_second",
		},
	}
}

// edgeRules are llama3.1-8b-edge's rules in the official submission
// checker, identical in v6.0 and v6.1: a model of its own there, with the
// 5,000-sample set, SingleStream and Offline, its own ROUGE and gen_len
// targets, and no compliance test (models_TEST06 does not list it).
func edgeRules() *benchmark.Rules {
	return &benchmark.Rules{
		Required: map[string][]string{
			"edge":            {"SingleStream", "Offline"},
			"datacenter,edge": {"SingleStream", "Offline"},
		},
		PerformanceSampleCount:    EdgeSamples,
		AccuracySampleCount:       map[string]int64{"": EdgeSamples},
		OfflineMinSamplesPerQuery: EdgeSamples,
		MinQueries:                map[string]int64{"SingleStream": 1024, "Offline": 1},
		LLM:                       true,
		Accuracy: map[string][]benchmark.Bound{"": {
			{Metric: "ROUGE1", Value: 38.6694},
			{Metric: "ROUGE2", Value: 15.953553},
			{Metric: "ROUGEL", Value: 24.391125},
			{Metric: "ROUGELSUM", Value: 35.76276},
			{Metric: "GEN_LEN", Value: 2746001.7},
		}},
		Upper: []benchmark.Bound{{Metric: "GEN_LEN", Value: 3356224.3000000003}},
		ResultField: map[string]string{
			"Offline":      "result_tokens_per_second",
			"SingleStream": "result_90.00_percentile_latency_ns",
		},
	}
}
