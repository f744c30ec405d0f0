package bench

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// TestPrefixRepetitionShape: vllm bench serve's prefix_repetition: each
// of the prefixes is sent ⌊requests/prefixes⌋ times, followed each time by
// a suffix of its own, in a shuffled order; fewer requests than prefixes
// is refused, naming both flags.
func TestPrefixRepetitionShape(t *testing.T) {
	t.Parallel()
	w, err := PrefixRepetition(PrefixOptions{Requests: 27, PrefixLen: 12, SuffixLen: 5, NumPrefixes: 4, OutputLen: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Conversations) != 24 || w.Facts["requests"] != 24 || w.Kind != "prefix-repetition" {
		t.Fatalf("%d requests, facts %v", len(w.Conversations), w.Facts)
	}
	prefixes := map[string]string{}
	suffixes := map[string]bool{}
	count := map[string]int{}
	runs := 0 // how often the group changes from one request to the next
	prev := ""
	for _, c := range w.Conversations {
		turn := c.Turns[0]
		text, err := promptText(turn.Messages)
		if err != nil {
			t.Fatal(err)
		}
		words := strings.Fields(text)
		if len(words) != 17 || turn.MaxTokens != 3 || turn.PrefixShare != 12.0/17 {
			t.Fatalf("%s: %d words, max tokens %d, share %v", c.ID, len(words), turn.MaxTokens, turn.PrefixShare)
		}
		g := turn.PrefixGroup
		p := strings.Join(words[:12], " ")
		if q, ok := prefixes[g]; ok && q != p {
			t.Errorf("%s: group %s has two prefixes", c.ID, g)
		}
		prefixes[g] = p
		suffixes[strings.Join(words[12:], " ")] = true
		count[g]++
		if g != prev {
			runs++
		}
		prev = g
	}
	if len(prefixes) != 4 || len(suffixes) != 24 {
		t.Errorf("%d prefixes, %d distinct suffixes: want 4 and 24", len(prefixes), len(suffixes))
	}
	for g, n := range count {
		if n != 6 {
			t.Errorf("%s sent %d times, want 6", g, n)
		}
	}
	if runs <= 4 {
		t.Errorf("the requests come grouped by prefix (%d runs): not shuffled", runs)
	}
	if _, err := PrefixRepetition(PrefixOptions{Requests: 3, NumPrefixes: 4}); err == nil || !strings.Contains(err.Error(), "--num-prefixes 4") {
		t.Errorf("3 requests over 4 prefixes: %v", err)
	}
}

// TestPrefixCacheHitRate: against the fake with its prefix cache on, the
// engine hit rate a run reports is its counters' increase over the run,
// which is what the fake found for each request (told through
// OnRequest); the rate the workload implies repeats every prefix after
// its first request (prefix_repetition over chat and text completions),
// and each later turn's whole previous turn (a growing conversation), and
// the engine's rate comes near it. With the cache off the engine finds
// nothing and the workload still implies as much.
func TestPrefixCacheHitRate(t *testing.T) {
	t.Parallel()
	prefixes, err := PrefixRepetition(PrefixOptions{Requests: 40, PrefixLen: 200, SuffixLen: 20, NumPrefixes: 4, OutputLen: 4, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	growing, err := Synthetic(SyntheticOptions{Requests: 6, InputLen: 100, OutputLen: 30, MultiTurn: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	completions, _ := protocol.Lookup("openai-completions")
	for _, tc := range []struct {
		name  string
		w     *Workload
		api   protocol.Protocol
		cache bool
		conc  int
	}{
		{"prefix repetition, chat", prefixes, nil, true, 1},
		{"prefix repetition, completions", prefixes, completions, true, 4},
		{"growing conversations", growing, nil, true, 3},
		{"cache off", prefixes, nil, false, 4},
	} {
		var mu sync.Mutex
		var found, asked int64
		url := startFake(t, fake.Config{PrefixCache: tc.cache, OnRequest: func(ri fake.RequestInfo) {
			mu.Lock()
			found, asked = found+int64(ri.CachedTokens), asked+int64(ri.PromptTokens)
			mu.Unlock()
		}}, nil)
		res, recs, err := Run(context.Background(), tc.w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, API: tc.api,
			Stream: true, ExactOutput: true, Loads: []Load{{Concurrency: tc.conc}}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c := res.Runs[0].PrefixCache
		if c == nil || c.HitTokens == nil || c.QueryTokens == nil || c.HitRate == nil || len(c.Endpoints) != 1 || c.Endpoints[0].Engine != "vLLM" {
			t.Fatalf("%s: prefix cache %+v", tc.name, c)
		}
		mu.Lock()
		if int64(*c.HitTokens) != found || int64(*c.QueryTokens) != asked || c.PromptTokens != asked {
			t.Errorf("%s: engine %v hits of %v queries, %d prompt tokens; the fake found %d of %d", tc.name, *c.HitTokens, *c.QueryTokens, c.PromptTokens, found, asked)
		}
		mu.Unlock()
		prompt, implied := impliedHits(recs[0], false, func(i int) float64 { return recs[0][i].SentS })
		if implied != c.ImpliedHitTokens || prompt != c.PromptTokens || c.ImpliedHitRate != float64(implied)/float64(prompt) {
			t.Errorf("%s: implied %d of %d, rate %v; recomputed %d of %d", tc.name, c.ImpliedHitTokens, c.PromptTokens, c.ImpliedHitRate, implied, prompt)
		}
		t.Logf("%s: engine %.3f, workload %.3f", tc.name, *c.HitRate, c.ImpliedHitRate)
		switch {
		case !tc.cache:
			if *c.HitTokens != 0 || c.ImpliedHitRate < 0.5 {
				t.Errorf("%s: %v hits, implied %v", tc.name, *c.HitTokens, c.ImpliedHitRate)
			}
		case math.Abs(*c.HitRate-c.ImpliedHitRate) > 0.1:
			t.Errorf("%s: engine rate %v, workload %v: not near", tc.name, *c.HitRate, c.ImpliedHitRate)
		}
	}
}

// TestImpliedHits: the rate a workload implies, request by request in the
// order sent: a shared prefix counts from its group's second request on,
// a later turn counts its previous turn's prompt and answer (less its
// reasoning, which is not sent back; a replay's prompt alone), and
// failed requests and unknown prompts count in neither.
func TestImpliedHits(t *testing.T) {
	t.Parallel()
	recs := []Record{
		{Conversation: "b", Turn: 0, SentS: 2, OK: true, PromptTokens: 100, PrefixGroup: "g", PrefixShare: 0.5},
		{Conversation: "a", Turn: 0, SentS: 1, OK: true, PromptTokens: 100, PrefixGroup: "g", PrefixShare: 0.5},
		{Conversation: "c", Turn: 0, SentS: 3, OK: false, PromptTokens: 100, PrefixGroup: "g", PrefixShare: 0.5},
		{Conversation: "d", Turn: 0, SentS: 4, OK: true, PromptTokens: -1, PrefixGroup: "g", PrefixShare: 0.5},
		{Conversation: "e", Turn: 0, SentS: 5, OK: true, PromptTokens: 40, OutputTokens: 30, ReasoningTokens: 10},
		{Conversation: "e", Turn: 1, SentS: 6, OK: true, PromptTokens: 75, OutputTokens: 5},
		{Conversation: "e", Turn: 2, SentS: 7, OK: true, PromptTokens: 90},
	}
	sent := func(i int) float64 { return recs[i].SentS }
	if p, n := impliedHits(recs, false, sent); p != 405 || n != 50+60+80 {
		t.Errorf("own replies: %d of %d implied, want %d of 405", n, p, 50+60+80)
	}
	if p, n := impliedHits(recs, true, sent); p != 405 || n != 50+40+75 {
		t.Errorf("replay: %d of %d implied, want %d of 405", n, p, 50+40+75)
	}
}

// TestCacheCountersSGLang: SGLang's cached and prompt token counters give
// the hit rate over the run; an SGLang without them gives its gauge at
// the end, marked as such; a counter that went down (the engine
// restarted) counts from zero.
func TestCacheCountersSGLang(t *testing.T) {
	t.Parallel()
	snap := func(ms int64, vals map[string]float64) metrics.Scrape {
		return metrics.Scrape{UnixMs: ms, Endpoint: "http://s", Status: metrics.StatusOK, Values: vals}
	}
	counted := cacheCounters(
		[]metrics.Scrape{snap(1, map[string]float64{"sglang:cached_tokens_total": 100, "sglang:prompt_tokens_total": 1000, "sglang:cache_hit_rate": 0.1})},
		[]metrics.Scrape{snap(2, map[string]float64{"sglang:cached_tokens_total": 400, "sglang:prompt_tokens_total": 2000, "sglang:cache_hit_rate": 0.3})})
	c := &CacheResult{Endpoints: counted}
	c.total()
	if c.HitRate == nil || *c.HitRate != 0.3 || counted[0].Engine != "SGLang" || counted[0].GaugeHitRate != nil {
		t.Errorf("counters: %+v, rate %v", counted, c.HitRate)
	}
	gauge := cacheCounters([]metrics.Scrape{snap(1, map[string]float64{"sglang:cache_hit_rate": 0.1})},
		[]metrics.Scrape{snap(2, map[string]float64{"sglang:cache_hit_rate": 0.25})})
	if g := gauge[0].GaugeHitRate; g == nil || *g != 0.25 || gauge[0].After.Hits != nil {
		t.Errorf("gauge only: %+v", gauge[0])
	}
	restarted := cacheCounters([]metrics.Scrape{snap(1, map[string]float64{"vllm:prefix_cache_hits_total": 500, "vllm:prefix_cache_queries_total": 900})},
		[]metrics.Scrape{snap(2, map[string]float64{"vllm:prefix_cache_hits_total": 30, "vllm:prefix_cache_queries_total": 60})})
	c = &CacheResult{Endpoints: restarted}
	c.total()
	if *c.HitTokens != 30 || *c.QueryTokens != 60 {
		t.Errorf("after a restart: %v hits of %v", *c.HitTokens, *c.QueryTokens)
	}
}
