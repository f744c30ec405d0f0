package qwen36

import (
	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// rounds are the official submission checker's rules for qwen3.6-27b
// (tools/submission/submission_checker/constants.py, MODEL_CONFIG["v6.1"],
// mlcommons/inference b66003e; added by 2af078ba "Update endpoints
// structure", #2634), copied as data. The accuracy bound is the float64
// Python computes for 86.23 * 0.99, under the checker's metric name "mAP"
// (its pattern is YOLO's: no qwen3.6-27b evaluator prints such a line).
// The model is not in the checker's LLM list, and it has no compliance
// test.
var rounds = map[string]*benchmark.Rules{
	round.V61: {
		Required: map[string][]string{
			"edge":            {"SingleStream"},
			"datacenter,edge": {"SingleStream"},
		},
		PerformanceSampleCount: Samples,
		AccuracySampleCount:    map[string]int64{"": Samples},
		MinQueries:             map[string]int64{"SingleStream": Samples},
		Accuracy: map[string][]benchmark.Bound{
			"": {{Metric: "mAP", Value: 85.3677}},
		},
	},
}
