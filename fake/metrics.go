package fake

import (
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// The fake's /metrics serves, in the Prometheus text format, the engine
// metrics vLLM and SGLang export under the names they use (vLLM v0.12's
// vllm/v1/metrics/loggers.py PrometheusStatLogger; SGLang's
// srt/metrics/collector.py SchedulerMetricsCollector and
// TokenizerMetricsCollector), so a harness that scrapes a real server can
// be tested against the fake. Values come from the fake's own state:
//
//   - running: requests holding a generation slot; waiting: requests
//     queued for one (Config.MaxConcurrency);
//   - KV-cache / token usage: the fraction of slots in use (0 when
//     concurrency is unlimited): the fake has no KV cache, and a full
//     batch is what a full cache means to a client;
//   - prompt and generation tokens: counted as requests take a slot and
//     as tokens are sent;
//   - prefix cache: every prompt token is a query, and those found in
//     the fake's prefix cache (prefix.go; off by default, when nothing is
//     found) are hits; SGLang's hit rate is hits over queries since the
//     start, its cached tokens the hits;
//   - preemptions: always 0, the fake never preempts.

// engineMetrics is the state behind /metrics beyond Server's counters.
type engineMetrics struct {
	queued           atomic.Int64  // requests waiting for a slot
	promptTokens     atomic.Uint64 // prompt tokens of requests given a slot
	generationTokens atomic.Uint64 // output tokens sent
	cacheQueries     atomic.Uint64 // prompt tokens looked up in the prefix cache
	cacheHits        atomic.Uint64 // of those, found there
	finished         atomic.Uint64 // generation requests that ended after taking a slot
}

// admit records a request's prompt as it takes a slot: its tokens, all
// looked up in the prefix cache, and those found there.
func (m *engineMetrics) admit(promptTokens, cached int) {
	m.promptTokens.Add(uint64(promptTokens))
	m.cacheQueries.Add(uint64(promptTokens))
	m.cacheHits.Add(uint64(cached))
}

// metricFamily is one metric /metrics exposes: its exposed name, help,
// type, the label set it carries (vLLM's or SGLang's) and its value.
type metricFamily struct {
	name, help, typ string
	sglang          bool // SGLang's labels ({model_name}) rather than vLLM's ({engine, model_name})
	value           func(s *Server) float64
}

// kvUsage is the fraction of generation slots in use (0 when unlimited).
func (s *Server) kvUsage() float64 {
	if s.cfg.MaxConcurrency <= 0 {
		return 0
	}
	return float64(s.active.Load()) / float64(s.cfg.MaxConcurrency)
}

func (s *Server) hitRate() float64 {
	q := s.metrics.cacheQueries.Load()
	if q == 0 {
		return 0
	}
	return float64(s.metrics.cacheHits.Load()) / float64(q)
}

func running(s *Server) float64 { return float64(s.active.Load()) }
func waiting(s *Server) float64 { return float64(s.metrics.queued.Load()) }
func counter(c func(*engineMetrics) *atomic.Uint64) func(*Server) float64 {
	return func(s *Server) float64 { return float64(c(&s.metrics).Load()) }
}

// metricFamilies is everything /metrics serves, in order. Counter names
// carry the _total suffix as prometheus_client exposes them.
var metricFamilies = []metricFamily{
	{"vllm:num_requests_running", "Number of requests in model execution batches.", "gauge", false, running},
	{"vllm:num_requests_waiting", "Number of requests waiting to be processed.", "gauge", false, waiting},
	{"vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", "gauge", false, (*Server).kvUsage},
	{"vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.DEPRECATED: Use vllm:kv_cache_usage_perc instead.", "gauge", false, (*Server).kvUsage},
	{"vllm:num_preemptions_total", "Cumulative number of preemption from the engine.", "counter", false, func(*Server) float64 { return 0 }},
	{"vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.", "counter", false, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.cacheQueries })},
	{"vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.", "counter", false, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.cacheHits })},
	{"vllm:prompt_tokens_total", "Number of prefill tokens processed.", "counter", false, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.promptTokens })},
	{"vllm:generation_tokens_total", "Number of generation tokens processed.", "counter", false, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.generationTokens })},
	{"sglang:num_running_reqs", "The number of running requests.", "gauge", true, running},
	{"sglang:num_queue_reqs", "The number of requests in the waiting queue.", "gauge", true, waiting},
	{"sglang:token_usage", "The token usage.", "gauge", true, (*Server).kvUsage},
	{"sglang:cache_hit_rate", "The prefix cache hit rate.", "gauge", true, (*Server).hitRate},
	{"sglang:cached_tokens_total", "Number of cached prompt tokens.", "counter", true, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.cacheHits })},
	{"sglang:prompt_tokens_total", "Number of prefill tokens processed.", "counter", true, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.promptTokens })},
	{"sglang:generation_tokens_total", "Number of generation tokens processed.", "counter", true, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.generationTokens })},
	{"sglang:num_requests_total", "Number of requests processed.", "counter", true, counter(func(m *engineMetrics) *atomic.Uint64 { return &m.finished })},
}

// handleMetrics writes metricFamilies in the Prometheus text format
// (version 0.0.4), the Content-Type prometheus_client serves it with.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	model := escapeLabel(s.cfg.Model)
	vllmLabels := `{engine="0",model_name="` + model + `"}`
	sglangLabels := `{model_name="` + model + `"}`
	var b strings.Builder
	for _, f := range metricFamilies {
		labels := vllmLabels
		if f.sglang {
			labels = sglangLabels
		}
		b.WriteString("# HELP " + f.name + " " + f.help + "\n")
		b.WriteString("# TYPE " + f.name + " " + f.typ + "\n")
		b.WriteString(f.name + labels + " " + strconv.FormatFloat(f.value(s), 'g', -1, 64) + "\n")
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

// escapeLabel escapes a label value for the text format: backslash,
// double quote and newline.
func escapeLabel(v string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(v)
}
