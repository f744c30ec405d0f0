package fake

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func seq(from, to int, more ...int32) []int32 {
	var s []int32
	for v := from; v <= to; v++ {
		s = append(s, int32(v))
	}
	return append(s, more...)
}

// TestPrefixCacheBlocks: hits come in whole blocks, leading ones only,
// never the prompt's last token; the answer's tokens continue the
// prompt's, in the block the prompt leaves unfilled too.
func TestPrefixCacheBlocks(t *testing.T) {
	t.Parallel()
	c := newPrefixCache(4)
	now := time.Unix(1000, 0)
	noPrefill := func(int) time.Duration { return 0 }
	admit := func(prompt, answer []int32) int {
		n, _ := c.admit([]cacheSeq{{prompt, answer}}, now, noPrefill, 0)
		return n[0]
	}
	for _, tc := range []struct {
		name           string
		prompt, answer []int32
		want           int
	}{
		{"cold", seq(1, 10), nil, 0},
		{"two shared blocks, then another tail", seq(1, 8, 99, 100), nil, 8},
		{"the whole prompt but its last block's last token", seq(1, 8), seq(20, 27), 4},
		{"the prompt and the answer it was entered with", append(seq(1, 8), seq(20, 27, 7)...), nil, 16},
		{"a block in the middle never hits alone", append([]int32{9, 9, 9, 9}, seq(5, 8, 1)...), nil, 0},
		{"shorter than a block", seq(1, 3), nil, 0},
		{"a prompt that ends mid-block", seq(1, 6), seq(30, 35), 4},
		{"its answer shares that block", append(seq(1, 6), seq(30, 35, 9)...), nil, 12},
	} {
		if got := admit(tc.prompt, tc.answer); got != tc.want {
			t.Errorf("%s: %d cached tokens, want %d", tc.name, got, tc.want)
		}
	}
	// The least recently used go first.
	c = newPrefixCache(1)
	c.capacity = 4
	for _, tc := range []struct {
		prompt []int32
		want   int
	}{
		{seq(1, 4), 0},   // fills the cache: blocks 1, 2, 3 and 4
		{seq(1, 4), 3},   // uses them again
		{seq(10, 11), 0}, // evicts the two least recently used, 1's and 2's
		{seq(1, 4), 0},   // the chain's head is gone
	} {
		if got := admit(tc.prompt, nil); got != tc.want {
			t.Errorf("capacity 4, prompt %v: %d cached tokens, want %d", tc.prompt, got, tc.want)
		}
	}
}

// TestPrefixCacheReadyAfterPrefill: a prompt's blocks serve later
// requests only once its prefill is done, as an engine caches blocks it
// has computed; its answer's only once the answer is done.
func TestPrefixCacheReadyAfterPrefill(t *testing.T) {
	t.Parallel()
	c := newPrefixCache(2)
	t0 := time.Unix(1000, 0)
	prefill := func(cached int) time.Duration { return time.Duration(10-cached) * time.Second }
	if n, pre := c.admit([]cacheSeq{{seq(1, 8), seq(20, 23)}}, t0, prefill, 4*time.Second); n[0] != 0 || pre != 10*time.Second {
		t.Fatalf("first: %d cached, prefill %v", n, pre)
	}
	for _, tc := range []struct {
		at   time.Duration
		want int
	}{{9 * time.Second, 0}, {10 * time.Second, 6}} {
		if n, _ := c.admit([]cacheSeq{{seq(1, 8), nil}}, t0.Add(tc.at), prefill, 0); n[0] != tc.want {
			t.Errorf("at +%v: %d cached, want %d", tc.at, n, tc.want)
		}
	}
	// The answer (prefill done at 10 s, answer at 14 s).
	next := append(seq(1, 8), seq(20, 23, 50)...)
	for _, tc := range []struct {
		at   time.Duration
		want int
	}{{13 * time.Second, 8}, {14 * time.Second, 12}} {
		if n, _ := c.admit([]cacheSeq{{next, nil}}, t0.Add(tc.at), prefill, 0); n[0] != tc.want {
			t.Errorf("next turn at +%v: %d cached, want %d", tc.at, n, tc.want)
		}
	}
}

// TestPrefixRepetitionOverHTTP: prompts of vllm bench serve's
// prefix_repetition shape (a shared prefix, then a suffix of their own),
// sent one after another as text completions and as chat, find their
// prefix's whole blocks in the cache from the second on, and /metrics
// counts exactly the queries and hits the requests were told.
func TestPrefixRepetitionOverHTTP(t *testing.T) {
	t.Parallel()
	var hits, prompts []int
	s, url := start(t, Config{OutputTokens: 4, PrefixCache: true, OnRequest: func(ri RequestInfo) {
		hits, prompts = append(hits, ri.CachedTokens), append(prompts, ri.PromptTokens)
	}})
	prefix := strings.Repeat("abcd", 100) // 100 of the fake's tokens: 6 whole blocks of 16
	for i := range 3 {
		suffix := fmt.Sprintf("%04d", i) + strings.Repeat("z", 40)
		for _, r := range []struct{ path, body string }{
			{"/v1/completions", `{"prompt":"` + prefix + suffix + `","max_tokens":4}`},
			{"/v1/chat/completions", `{"messages":[{"role":"user","content":"` + prefix + suffix + `"}],"max_tokens":4}`},
		} {
			if code, _, body := post(t, http.DefaultClient, url+r.path, r.body); code != 200 {
				t.Fatalf("%s: %d %s", r.path, code, body)
			}
		}
	}
	want := []int{0, 0, 96, 96, 96, 96}
	sum := 0
	for i := range want {
		if hits[i] != want[i] {
			t.Errorf("request %d: %d cached tokens, want %d (all %v)", i, hits[i], want[i], hits)
		}
		sum += hits[i]
	}
	queries := 0
	for _, p := range prompts {
		queries += p
	}
	fams := scrape(t, url)
	if q, h := metricValue(t, fams, "vllm:prefix_cache_queries_total", DefaultModel), metricValue(t, fams, "vllm:prefix_cache_hits_total", DefaultModel); q != float64(queries) || h != float64(sum) {
		t.Errorf("/metrics: %v queries, %v hits; the requests were told %d and %d", q, h, queries, sum)
	}
	if c := metricValue(t, fams, "sglang:cached_tokens_total", DefaultModel); c != float64(sum) {
		t.Errorf("sglang:cached_tokens_total %v, want %d", c, sum)
	}
	if st := s.Stats(); st.CachedTokens != uint64(sum) {
		t.Errorf("Stats.CachedTokens %d, want %d", st.CachedTokens, sum)
	}
}

// TestPrefixCacheWaitsForTheFirstPrefill: a request with the same prompt
// that arrives while the first is still before its first token finds
// nothing, as on an engine that has not computed the blocks yet.
func TestPrefixCacheWaitsForTheFirstPrefill(t *testing.T) {
	t.Parallel()
	got := make(chan int, 2)
	_, url := start(t, Config{OutputTokens: 2, PrefixCache: true, PrefixBlockTokens: 1, TTFT: time.Hour,
		OnRequest: func(ri RequestInfo) { got <- ri.CachedTokens }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := `{"prompt":[1,2,3,4,5],"max_tokens":2}`
	for range 2 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/completions", strings.NewReader(body))
		go func() {
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body) //nolint:errcheck // cancelled
				resp.Body.Close()
			}
		}()
		if n := <-got; n != 0 {
			t.Errorf("a request during the first one's prefill found %d tokens cached, want 0", n)
		}
	}
}
