// Package metrics scrapes the serving engine's Prometheus /metrics
// (vLLM's and SGLang's metric names) during a run, keeps the time series of
// a fixed set of metrics in engine_metrics.jsonl beside LoadGen's logs, and
// summarises them: the most KV cache used, the most requests running and
// waiting, preemptions, and prefix-cache hits, which MLPerf's rules forbid
// across queries.
//
// The exposition text is parsed with Prometheus's own parser
// (github.com/prometheus/common/expfmt). An endpoint without a /metrics
// route is recorded as unavailable and is not an error: not every
// OpenAI-compatible server has one.
package metrics

// Quantity is what a metric measures, whichever engine exposes it.
type Quantity string

// The quantities the report shows.
const (
	// Running and Waiting are requests being generated and queued.
	Running Quantity = "running"
	Waiting Quantity = "waiting"
	// KVCacheUsage is the fraction of the KV cache in use, 0 to 1.
	KVCacheUsage Quantity = "kv_cache_usage"
	// Preemptions counts requests preempted (vLLM) or retracted (SGLang)
	// for want of KV cache.
	Preemptions Quantity = "preemptions"
	// PrefixCacheHits and PrefixCacheQueries count prompt tokens found in
	// and looked up in the prefix cache (vLLM's queries; SGLang's cached
	// tokens out of its prompt tokens).
	PrefixCacheHits    Quantity = "prefix_cache_hits"
	PrefixCacheQueries Quantity = "prefix_cache_queries"
	// PrefixCacheHitRate is SGLang's prefix-cache hit rate, 0 to 1.
	PrefixCacheHitRate Quantity = "prefix_cache_hit_rate"
	// GenerationTokens counts tokens generated.
	GenerationTokens Quantity = "generation_tokens"
)

// Metric is one engine metric the scraper keeps.
type Metric struct {
	// Name is the sample name in the exposition text (counters with their
	// _total suffix, as prometheus_client writes them).
	Name string
	// Engine is the engine that exposes it ("vLLM", "SGLang").
	Engine string
	// Quantity is what it measures.
	Quantity Quantity
	// Counter metrics only grow (until the engine restarts); they are
	// summarised as their increase over the run, gauges by their maximum.
	Counter bool
	// Max combines the series of several label sets (data-parallel
	// engines, several models) by their maximum instead of their sum: a
	// fraction of each engine's cache does not add up.
	Max bool
}

// Metrics are the metrics scraped, with the names vLLM (v1 engine,
// vllm/v1/metrics/loggers.py) and SGLang (python/sglang/srt/metrics/
// collector.py) give them. Where an engine renamed a metric, both names are
// listed, the current one first; a quantity takes the first listed name an
// endpoint exposes.
var Metrics = []Metric{
	{Name: "vllm:num_requests_running", Engine: "vLLM", Quantity: Running},
	{Name: "vllm:num_requests_waiting", Engine: "vLLM", Quantity: Waiting},
	{Name: "vllm:kv_cache_usage_perc", Engine: "vLLM", Quantity: KVCacheUsage, Max: true},
	{Name: "vllm:gpu_cache_usage_perc", Engine: "vLLM", Quantity: KVCacheUsage, Max: true}, // before vLLM 0.10.1
	{Name: "vllm:num_preemptions_total", Engine: "vLLM", Quantity: Preemptions, Counter: true},
	{Name: "vllm:prefix_cache_hits_total", Engine: "vLLM", Quantity: PrefixCacheHits, Counter: true},
	{Name: "vllm:gpu_prefix_cache_hits_total", Engine: "vLLM", Quantity: PrefixCacheHits, Counter: true}, // vLLM 0.8–0.10
	{Name: "vllm:prefix_cache_queries_total", Engine: "vLLM", Quantity: PrefixCacheQueries, Counter: true},
	{Name: "vllm:gpu_prefix_cache_queries_total", Engine: "vLLM", Quantity: PrefixCacheQueries, Counter: true},
	{Name: "vllm:generation_tokens_total", Engine: "vLLM", Quantity: GenerationTokens, Counter: true},
	{Name: "sglang:num_running_reqs", Engine: "SGLang", Quantity: Running},
	{Name: "sglang:num_queue_reqs", Engine: "SGLang", Quantity: Waiting},
	{Name: "sglang:token_usage", Engine: "SGLang", Quantity: KVCacheUsage, Max: true},
	{Name: "sglang:num_retracted_requests_total", Engine: "SGLang", Quantity: Preemptions, Counter: true},
	{Name: "sglang:cache_hit_rate", Engine: "SGLang", Quantity: PrefixCacheHitRate, Max: true},
	{Name: "sglang:cached_tokens_total", Engine: "SGLang", Quantity: PrefixCacheHits, Counter: true},
	{Name: "sglang:prompt_tokens_total", Engine: "SGLang", Quantity: PrefixCacheQueries, Counter: true},
	{Name: "sglang:generation_tokens_total", Engine: "SGLang", Quantity: GenerationTokens, Counter: true},
}

// metricByName indexes Metrics.
var metricByName = func() map[string]Metric {
	m := make(map[string]Metric, len(Metrics))
	for _, x := range Metrics {
		m[x.Name] = x
	}
	return m
}()
