package benchmark

// Compliance is one compliance test of a benchmark.
type Compliance struct {
	// AuditConfig is the official audit.config, byte for byte.
	AuditConfig []byte
	// EOSTokenID is the token TEST06's EOS check looks for (0 where the
	// test has none).
	EOSTokenID int64
}

// Scenario directory names as the checker spells them (SCENARIO_MAPPING).
// They key Rules; the checker matches directory names case-insensitively,
// and mlperf-go always writes these spellings.
const (
	ScenarioOffline      = "Offline"
	ScenarioServer       = "Server"
	ScenarioInteractive  = "Interactive"
	ScenarioSingleStream = "SingleStream"
	ScenarioMultiStream  = "MultiStream"
)

// Rules are one benchmark's rules in one round, as the official submission
// checker (tools/submission/submission_checker/constants.py) holds them.
// Scenario keys are the checker's scenario directory names ("Offline").
type Rules struct {
	// Required and Optional list scenarios per system_type
	// ("datacenter", "edge", "datacenter,edge"); a system_type whose suite
	// does not contain the benchmark has no entry.
	Required map[string][]string
	Optional map[string][]string
	// PerformanceSampleCount is the minimum effective_performance_sample_count.
	PerformanceSampleCount int64
	// AccuracySampleCount is the dataset size an accuracy run must cover,
	// per scenario directory ("" applies to every scenario).
	AccuracySampleCount map[string]int64
	// OfflineMinSamplesPerQuery is OFFLINE_MIN_SPQ_SINCE_V4 (closed division).
	OfflineMinSamplesPerQuery int64
	// MinQueries is the min-queries table (scenarios without early stopping).
	MinQueries map[string]int64
	// LatencyConstraintNS is latency-constraint: the Server target latency
	// (and Interactive's where the round sets one).
	LatencyConstraintNS map[string]int64
	// LLM marks benchmarks the checker treats as LLMs (get_llm_models):
	// use_token_latencies required, TTFT/TPOT limits in Server/Interactive.
	LLM bool
	// TokenLimits are LLM_LATENCY_LIMITS per scenario.
	TokenLimits map[string]TokenLimit
	// Accuracy lists the accuracy.txt lower bounds per scenario ("" applies
	// to every scenario); Upper the upper limits.
	Accuracy map[string][]Bound
	Upper    []Bound
	// ResultField names the detail-log key holding the benchmark's metric
	// where it overrides the scenario's usual one
	// (RESULT_FIELD_BENCHMARK_OVERWRITE), per effective_scenario.
	ResultField map[string]string
}

// BoundsMiddle is the middle of metric's lower bound (for every scenario)
// and upper bound: the value a run aims at to land safely inside both
// (the fake's answers' length). It is 0 unless the metric has both.
func (r *Rules) BoundsMiddle(metric string) float64 {
	var lo, hi float64
	for _, b := range r.Accuracy[""] {
		if b.Metric == metric {
			lo = b.Value
		}
	}
	for _, b := range r.Upper {
		if b.Metric == metric {
			hi = b.Value
		}
	}
	if lo == 0 || hi == 0 {
		return 0
	}
	return (lo + hi) / 2
}

// TokenLimit is a p99 time-to-first-token / time-per-output-token limit in
// ns; the checker requires the logged value to be strictly below it.
type TokenLimit struct{ TTFTNS, TPOTNS int64 }

// Bound is one accuracy metric's bound: Metric is the checker's
// ACC_PATTERN name ("ROUGE1", "F1_HIERARCHICAL") and Value the float64
// Python computes for it ("reference × 0.99"), written out literally.
type Bound struct {
	Metric string
	Value  float64
}
