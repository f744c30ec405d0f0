package metrics

import "fmt"

// Summary is what one endpoint's engine metrics say about a run. Pointer
// fields are nil when the engine did not expose the quantity.
type Summary struct {
	// Endpoint is the base URL, without user information.
	Endpoint string `json:"endpoint"`
	// Engine is "vLLM" or "SGLang" when recognised by its metric names.
	Engine string `json:"engine,omitempty"`
	// Available is true if at least one scrape succeeded; Unavailable
	// says why not (no /metrics route, or the last error).
	Available   bool   `json:"available"`
	Unavailable string `json:"unavailable,omitempty"`
	// Scrapes and Errors count the scrapes made and those that failed.
	Scrapes int `json:"scrapes"`
	Errors  int `json:"errors"`
	// MaxKVCacheUsage is the largest fraction of KV cache in use (0–1).
	MaxKVCacheUsage *float64 `json:"max_kv_cache_usage,omitempty"`
	// MaxRunning and MaxWaiting are the most requests generating and
	// queued at a scrape.
	MaxRunning *float64 `json:"max_running,omitempty"`
	MaxWaiting *float64 `json:"max_waiting,omitempty"`
	// Preemptions is how many requests were preempted (vLLM) or retracted
	// (SGLang) during the run.
	Preemptions *float64 `json:"preemptions,omitempty"`
	// PrefixCacheHits and PrefixCacheQueries are the prompt tokens found
	// in and looked up in the prefix cache during the run (vLLM).
	PrefixCacheHits    *float64 `json:"prefix_cache_hit_tokens,omitempty"`
	PrefixCacheQueries *float64 `json:"prefix_cache_query_tokens,omitempty"`
	// MaxPrefixCacheHitRate is SGLang's largest reported hit rate (0–1).
	MaxPrefixCacheHitRate *float64 `json:"max_prefix_cache_hit_rate,omitempty"`
	// GenerationTokens is the tokens the engine generated during the run.
	GenerationTokens *float64 `json:"generation_tokens,omitempty"`
	// Warnings are findings that put the run in doubt, e.g. prefix-cache
	// hits.
	Warnings []string `json:"warnings,omitempty"`
}

// Summarize summarises scrapes per endpoint, in the order endpoints first
// appear.
func Summarize(scrapes []Scrape) []Summary {
	var order []string
	byEndpoint := map[string][]Scrape{}
	for _, s := range scrapes {
		if _, ok := byEndpoint[s.Endpoint]; !ok {
			order = append(order, s.Endpoint)
		}
		byEndpoint[s.Endpoint] = append(byEndpoint[s.Endpoint], s)
	}
	out := make([]Summary, 0, len(order))
	for _, e := range order {
		out = append(out, summarize(e, byEndpoint[e]))
	}
	return out
}

func summarize(endpoint string, scrapes []Scrape) Summary {
	s := Summary{Endpoint: endpoint, Scrapes: len(scrapes)}
	var ok []Scrape
	for _, x := range scrapes {
		switch x.Status {
		case StatusOK:
			ok = append(ok, x)
		default:
			s.Errors++
			s.Unavailable = x.Error
		}
	}
	s.Available = len(ok) > 0
	if s.Available {
		s.Unavailable = ""
	}
	// The engine is the one whose metric, in Metrics' order, the endpoint
	// exposed first; each quantity then takes the first listed metric of
	// that engine the endpoint exposed. A server that exposes both
	// engines' names (a proxy, a test double) is read as one engine, not
	// summed twice.
	chosen := map[Quantity]Metric{}
	for _, m := range Metrics {
		if _, done := chosen[m.Quantity]; done || (s.Engine != "" && m.Engine != s.Engine) {
			continue
		}
		for _, x := range ok {
			if _, has := x.Values[m.Name]; has {
				chosen[m.Quantity] = m
				s.Engine = m.Engine
				break
			}
		}
	}
	for q, m := range chosen {
		v := aggregate(m, ok)
		switch q {
		case KVCacheUsage:
			s.MaxKVCacheUsage = v
		case Running:
			s.MaxRunning = v
		case Waiting:
			s.MaxWaiting = v
		case Preemptions:
			s.Preemptions = v
		case PrefixCacheHits:
			s.PrefixCacheHits = v
		case PrefixCacheQueries:
			s.PrefixCacheQueries = v
		case PrefixCacheHitRate:
			s.MaxPrefixCacheHitRate = v
		case GenerationTokens:
			s.GenerationTokens = v
		}
	}
	if v := s.PrefixCacheHits; v != nil && *v > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("the engine found %.0f prompt tokens in its prefix cache during the run: MLPerf's rules forbid caching across queries; start it with prefix caching off (%s)", *v, cacheOff[s.Engine]))
	}
	// SGLang's hit rate is a gauge over its recent requests; its cached
	// tokens, where it counts them, said it above.
	if v := s.MaxPrefixCacheHitRate; v != nil && *v > 0 && s.PrefixCacheHits == nil {
		s.Warnings = append(s.Warnings, fmt.Sprintf("the engine reported a prefix-cache hit rate of up to %.1f%% during the run: MLPerf's rules forbid caching across queries; start it with prefix caching off (%s)", *v*100, cacheOff["SGLang"]))
	}
	if v := s.Preemptions; v != nil && *v > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("the engine preempted %.0f requests for want of KV cache: latency suffers; fewer requests in flight or more KV cache may help", *v))
	}
	return s
}

// cacheOff is how each engine is started with its prefix cache off.
var cacheOff = map[string]string{"vLLM": "vLLM: --no-enable-prefix-caching", "SGLang": "SGLang: --disable-radix-cache"}

// aggregate is a gauge's maximum, or a counter's increase, over the
// scrapes that have it; a counter that goes down was reset (the engine
// restarted) and counts from zero again.
func aggregate(m Metric, scrapes []Scrape) *float64 {
	var out float64
	var prev float64
	seen := false
	for _, x := range scrapes {
		v, ok := x.Values[m.Name]
		if !ok {
			continue
		}
		switch {
		case !m.Counter && (!seen || v > out):
			out = v
		case m.Counter && seen && v >= prev:
			out += v - prev
		case m.Counter && seen:
			out += v
		}
		prev, seen = v, true
	}
	if !seen {
		return nil
	}
	return &out
}

// Value is q's value in the scrape: that of the first of Metrics measuring
// q that the scrape holds.
func (s Scrape) Value(q Quantity) (float64, bool) {
	for _, m := range Metrics {
		if m.Quantity != q {
			continue
		}
		if v, ok := s.Values[m.Name]; ok {
			return v, true
		}
	}
	return 0, false
}
