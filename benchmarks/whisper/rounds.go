package whisper

import "github.com/mlperf-go/mlperf-go/benchmark"

// rules are whisper's rules in the official submission checker
// (tools/submission/submission_checker/constants.py), identical in v6.0 and
// v6.1: Offline only, on datacenter and edge systems; the ACCURACY bound is
// the float64 Python computes for (100.0 - 2.0671) * 0.99, written out
// literally; TEST01 is its one compliance test.
func rules() *benchmark.Rules {
	return &benchmark.Rules{
		Required: map[string][]string{
			"datacenter":      {"Offline"},
			"edge":            {"Offline"},
			"datacenter,edge": {"Offline"},
		},
		PerformanceSampleCount:    Samples,
		AccuracySampleCount:       map[string]int64{"": Samples},
		OfflineMinSamplesPerQuery: Samples,
		MinQueries:                map[string]int64{"SingleStream": 1024, "Offline": 1},
		Accuracy:                  map[string][]benchmark.Bound{"": {{Metric: "ACCURACY", Value: 96.953571}}},
		ResultField:               map[string]string{"Offline": "result_tokens_per_second"},
	}
}
