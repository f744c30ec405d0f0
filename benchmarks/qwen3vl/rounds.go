package qwen3vl

import (
	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// rounds are the official submission checker's rules for qwen3-vl
// (tools/submission/submission_checker/constants.py, MODEL_CONFIG["v6.0"]
// and ["v6.1"]), copied as data. v6.1 made Server optional and added the
// Interactive scenario over an 8,000-sample subset with its own target.
var rounds = map[string]*benchmark.Rules{
	round.V60: {
		Required: map[string][]string{
			"datacenter":      {"Server", "Offline"},
			"datacenter,edge": {"Offline"},
		},
		Optional: map[string][]string{
			"datacenter,edge": {"Interactive", "Server"},
		},
		PerformanceSampleCount:    Samples,
		AccuracySampleCount:       map[string]int64{"": Samples},
		OfflineMinSamplesPerQuery: Samples,
		MinQueries:                map[string]int64{"SingleStream": 1024, "Server": 270336, "Offline": 1},
		LatencyConstraintNS:       map[string]int64{"Server": 12000000000},
		Accuracy: map[string][]benchmark.Bound{
			"": {{Metric: "F1_HIERARCHICAL", Value: 0.782397}},
		},
		ResultField: map[string]string{
			"Offline": "result_samples_per_second",
			"Server":  "result_completed_samples_per_sec",
		},
	},
	round.V61: {
		Required: map[string][]string{
			"datacenter":      {"Offline"},
			"datacenter,edge": {"Offline"},
		},
		Optional: map[string][]string{
			"datacenter":      {"Interactive", "Server"},
			"datacenter,edge": {"Interactive", "Server"},
		},
		PerformanceSampleCount: Samples,
		AccuracySampleCount: map[string]int64{
			"Offline": Samples, "Server": Samples, "Interactive": InteractiveSamples,
		},
		OfflineMinSamplesPerQuery: Samples,
		MinQueries:                map[string]int64{"SingleStream": 1024, "Server": 270336, "Offline": 1},
		LatencyConstraintNS:       map[string]int64{"Server": 12000000000, "Interactive": 1500000000},
		Accuracy: map[string][]benchmark.Bound{
			"Offline":     {{Metric: "F1_HIERARCHICAL", Value: 0.782397}},
			"Server":      {{Metric: "F1_HIERARCHICAL", Value: 0.782397}},
			"Interactive": {{Metric: "F1_HIERARCHICAL", Value: 0.7799219999999999}},
		},
		ResultField: map[string]string{
			"Offline": "result_samples_per_second",
			"Server":  "result_completed_samples_per_sec",
		},
	},
}

// InteractiveSamples is the size of the Interactive scenario's subset
// (v6.1).
const InteractiveSamples = 8000
