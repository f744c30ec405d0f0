package bench

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
)

// CacheResult is a run's prefix-cache hit rate: what the engine's own
// counters say over the run, beside what the workload implies.
type CacheResult struct {
	// PromptTokens are the completed requests' prompt tokens (as the
	// server reported them), ImpliedHitTokens the part of them the
	// workload repeats from a request sent before (impliedHits),
	// ImpliedHitRate their ratio: what a cache holding all it saw would
	// find, before rounding to its blocks and without the tokens a chat
	// template adds.
	PromptTokens     int64   `json:"prompt_tokens"`
	ImpliedHitTokens int64   `json:"implied_hit_tokens"`
	ImpliedHitRate   float64 `json:"implied_hit_rate"`
	// HitTokens and QueryTokens are the increase over the run of the
	// engine's counters, summed over the endpoints that have them
	// (vLLM's vllm:prefix_cache_hits and _queries; SGLang's
	// sglang:cached_tokens and prompt_tokens), HitRate their ratio; nil
	// where no endpoint has them.
	HitTokens   *float64 `json:"hit_tokens,omitempty"`
	QueryTokens *float64 `json:"query_tokens,omitempty"`
	HitRate     *float64 `json:"hit_rate,omitempty"`
	// Endpoints are each endpoint's counters before and after the run.
	Endpoints []CacheCounters `json:"endpoints,omitempty"`
}

// CacheCounters are one endpoint's prefix-cache counters at a run's start
// (after its warm-up) and end.
type CacheCounters struct {
	Endpoint string `json:"endpoint"`
	// Engine is "vLLM" or "SGLang", by the counters' names.
	Engine string    `json:"engine,omitempty"`
	Before CacheSnap `json:"before"`
	After  CacheSnap `json:"after"`
	// GaugeHitRate is SGLang's sglang:cache_hit_rate at the end, where
	// it counts no cached tokens: its recent requests' rate, not the
	// run's.
	GaugeHitRate *float64 `json:"gauge_hit_rate,omitempty"`
	// Unavailable says why the counters could not be read.
	Unavailable string `json:"unavailable,omitempty"`
}

// CacheSnap is an endpoint's counters at one moment.
type CacheSnap struct {
	UnixMs  int64    `json:"unix_ms"`
	Hits    *float64 `json:"hit_tokens,omitempty"`
	Queries *float64 `json:"query_tokens,omitempty"`
}

// delta is the counters' increase from b to a; a counter that went down
// was reset (the engine restarted) and counts from zero.
func delta(b, a *float64) *float64 {
	if b == nil || a == nil {
		return nil
	}
	d := *a - *b
	if d < 0 {
		d = *a
	}
	return &d
}

// snapCache reads the prefix-cache counters of every URL.
func snapCache(ctx context.Context, urls []string, apiKey string) []metrics.Scrape {
	client := &http.Client{Timeout: 5 * time.Second}
	out := make([]metrics.Scrape, len(urls))
	for i, u := range urls {
		out[i] = metrics.Snap(ctx, client, u, apiKey)
	}
	return out
}

// cacheCounters pairs the snaps taken before and after a run.
func cacheCounters(before, after []metrics.Scrape) []CacheCounters {
	out := make([]CacheCounters, len(after))
	for i, a := range after {
		b := before[i]
		c := CacheCounters{Endpoint: a.Endpoint}
		for _, s := range []metrics.Scrape{b, a} {
			if s.Status != metrics.StatusOK {
				c.Unavailable = s.Error
			}
		}
		snap := func(s metrics.Scrape) CacheSnap {
			cs := CacheSnap{UnixMs: s.UnixMs}
			if v, ok := s.Value(metrics.PrefixCacheHits); ok {
				cs.Hits = &v
			}
			if v, ok := s.Value(metrics.PrefixCacheQueries); ok {
				cs.Queries = &v
			}
			return cs
		}
		c.Before, c.After = snap(b), snap(a)
		if sum := metrics.Summarize([]metrics.Scrape{b, a}); len(sum) == 1 {
			c.Engine = sum[0].Engine
		}
		if v, ok := a.Value(metrics.PrefixCacheHitRate); ok && c.After.Hits == nil {
			c.GaugeHitRate = &v
		}
		out[i] = c
	}
	return out
}

// prefixCache is a run's CacheResult from its records and its endpoints'
// counters; nil when the workload repeats nothing and no endpoint counts
// its cache.
func prefixCache(recs []Record, replay bool, counters []CacheCounters) *CacheResult {
	c := &CacheResult{Endpoints: counters}
	c.PromptTokens, c.ImpliedHitTokens = impliedHits(recs, replay, func(i int) float64 { return recs[i].SentS })
	if c.PromptTokens > 0 {
		c.ImpliedHitRate = float64(c.ImpliedHitTokens) / float64(c.PromptTokens)
	}
	c.total()
	if c.ImpliedHitTokens == 0 && c.QueryTokens == nil && c.HitTokens == nil {
		hasGauge := false
		for _, e := range counters {
			hasGauge = hasGauge || e.GaugeHitRate != nil
		}
		if !hasGauge {
			return nil
		}
	}
	return c
}

// total sums the endpoints' deltas into HitTokens, QueryTokens and
// HitRate.
func (c *CacheResult) total() {
	c.HitTokens, c.QueryTokens, c.HitRate = nil, nil, nil
	for i := range c.Endpoints {
		e := &c.Endpoints[i]
		if h := delta(e.Before.Hits, e.After.Hits); h != nil {
			c.HitTokens = addTo(c.HitTokens, *h)
		}
		if q := delta(e.Before.Queries, e.After.Queries); q != nil {
			c.QueryTokens = addTo(c.QueryTokens, *q)
		}
	}
	if c.HitTokens != nil && c.QueryTokens != nil && *c.QueryTokens > 0 {
		r := *c.HitTokens / *c.QueryTokens
		c.HitRate = &r
	}
}

func addTo(p *float64, v float64) *float64 {
	if p == nil {
		return &v
	}
	*p += v
	return p
}

// impliedHits is the prompt tokens of the completed requests and the part
// of them the workload repeats from a request sent before, taken in the
// order sent (sent gives each record's send time on one clock): a
// turn's shared prefix once its group's first request was sent
// (prefix-repetition; its share of the prompt tokens the server
// reported, so a template's tokens count in proportion), and a later
// turn's previous prompt and answer
// (the answer without its reasoning, as it is sent back; a replayed
// conversation's previous prompt alone, its recorded reply's tokens being
// unknown). Requests whose prompt tokens the server did not report count
// in neither.
func impliedHits(recs []Record, replay bool, sent func(i int) float64) (prompt, implied int64) {
	order := make([]int, 0, len(recs))
	for i := range recs {
		if recs[i].OK {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch sa, sb := sent(a), sent(b); {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	groups := map[string]bool{}
	last := map[string]*Record{} // by host and conversation
	for _, i := range order {
		r := &recs[i]
		if r.PromptTokens <= 0 {
			continue
		}
		var n int64
		if r.PrefixGroup != "" {
			if groups[r.PrefixGroup] {
				n += int64(r.PrefixShare * float64(r.PromptTokens))
			}
			groups[r.PrefixGroup] = true
		}
		conv := r.Host + "\x00" + r.Conversation
		if p := last[conv]; p != nil && p.Turn == r.Turn-1 {
			n += int64(p.PromptTokens)
			if !replay {
				n += p.OutputTokens - p.ReasoningTokens
			}
		}
		last[conv] = r
		prompt += int64(r.PromptTokens)
		implied += min(n, int64(r.PromptTokens))
	}
	return prompt, implied
}
