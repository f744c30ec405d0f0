package fake

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape GETs /metrics and parses it with Prometheus's own text parser
// (classic names, as vLLM's and SGLang's are), failing on anything it
// rejects.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: status %d, Content-Type %q", resp.StatusCode, ct)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	return fams
}

// metricValue returns the one sample of family name, checking its type and
// labels.
func metricValue(t *testing.T, fams map[string]*dto.MetricFamily, name, modelName string) float64 {
	t.Helper()
	f := fams[name]
	if f == nil || len(f.Metric) != 1 {
		t.Fatalf("%s: family %v, want one sample", name, f)
	}
	m := f.Metric[0]
	labels := map[string]string{}
	for _, l := range m.Label {
		labels[l.GetName()] = l.GetValue()
	}
	want := map[string]string{"model_name": modelName}
	if strings.HasPrefix(name, "vllm:") {
		want["engine"] = "0"
	}
	if len(labels) != len(want) || labels["model_name"] != want["model_name"] || labels["engine"] != want["engine"] {
		t.Errorf("%s labels %v, want %v", name, labels, want)
	}
	isCounter := strings.HasSuffix(name, "_total")
	switch {
	case isCounter && f.GetType() == dto.MetricType_COUNTER:
		return m.GetCounter().GetValue()
	case !isCounter && f.GetType() == dto.MetricType_GAUGE:
		return m.GetGauge().GetValue()
	}
	t.Fatalf("%s has type %v", name, f.GetType())
	return 0
}

// TestMetrics holds requests in the fake's slots and queue and checks
// /metrics shows them, then that the token and prefix-cache counters add
// up once they are done.
func TestMetrics(t *testing.T) {
	const modelName = `org/m"odel\1`
	const n = 4
	s, url := start(t, Config{Model: modelName, TTFT: 400 * time.Millisecond, MaxConcurrency: 2, OutputTokens: n, PrefixCache: true, PrefixBlockTokens: 1})
	fams := scrape(t, url)
	for name := range fams {
		if !strings.HasPrefix(name, "vllm:") && !strings.HasPrefix(name, "sglang:") {
			t.Errorf("unexpected family %s", name)
		}
	}
	for _, f := range metricFamilies {
		if v := metricValue(t, fams, f.name, modelName); v != 0 {
			t.Errorf("idle server: %s = %v, want 0", f.name, v)
		}
	}

	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(url+"/generate", "application/json", strings.NewReader(`{"input_ids":[5,6,7],"stream":true}`))
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	// Two generate, one waits.
	deadline := time.Now().Add(5 * time.Second)
	for {
		fams = scrape(t, url)
		if metricValue(t, fams, "vllm:num_requests_running", modelName) == 2 && metricValue(t, fams, "vllm:num_requests_waiting", modelName) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("/metrics never showed 2 running and 1 waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for name, want := range map[string]float64{
		"sglang:num_running_reqs": 2, "sglang:num_queue_reqs": 1,
		"vllm:kv_cache_usage_perc": 1, "vllm:gpu_cache_usage_perc": 1, "sglang:token_usage": 1,
	} {
		if v := metricValue(t, fams, name, modelName); v != want {
			t.Errorf("while busy: %s = %v, want %v", name, v, want)
		}
	}
	wg.Wait()

	fams = scrape(t, url)
	// Three identical prompts of 3 tokens: 9 queried. The first two
	// start together and find nothing (the blocks of neither are
	// computed yet); the third, once a slot frees, finds the first two
	// tokens (the last is always computed): 2 hits.
	for name, want := range map[string]float64{
		"vllm:num_requests_running": 0, "vllm:num_requests_waiting": 0, "vllm:kv_cache_usage_perc": 0,
		"sglang:num_running_reqs": 0, "sglang:num_queue_reqs": 0,
		"vllm:prompt_tokens_total": 9, "sglang:prompt_tokens_total": 9,
		"vllm:generation_tokens_total": 3 * n, "sglang:generation_tokens_total": 3 * n,
		"vllm:prefix_cache_queries_total": 9, "vllm:prefix_cache_hits_total": 2,
		"sglang:cache_hit_rate": 2.0 / 9, "sglang:cached_tokens_total": 2, "sglang:num_requests_total": 3,
		"vllm:num_preemptions_total": 0,
	} {
		if v := metricValue(t, fams, name, modelName); v != want {
			t.Errorf("after the requests: %s = %v, want %v", name, v, want)
		}
	}
	if got := s.Stats().Requests["/metrics"]; got < 3 {
		t.Errorf("Stats counts %d /metrics requests", got)
	}
}

// TestMetricsCountsEveryAnswer: non-streamed, batched and chat answers
// all count their tokens.
func TestMetricsCountsEveryAnswer(t *testing.T) {
	_, url := start(t, Config{OutputTokens: 3, PrefixCache: true, PrefixBlockTokens: 1})
	for _, r := range []struct{ path, body string }{
		{"/v1/completions", `{"prompt":[[1,2],[1,2,3]],"max_tokens":10}`},                              // 2 answers of 3; 5 prompt tokens, no hit (side by side)
		{"/generate", `{"input_ids":[1,2,3]}`},                                                         // 3; 3 prompt tokens, 2 hits
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"abcdefgh"}],"max_tokens":2}`}, // 2; 2 estimated prompt tokens
	} {
		if code, _, body := post(t, http.DefaultClient, url+r.path, r.body); code != 200 {
			t.Fatalf("%s: %d %s", r.path, code, body)
		}
	}
	fams := scrape(t, url)
	for name, want := range map[string]float64{
		"vllm:generation_tokens_total": 6 + 3 + 2, "vllm:prompt_tokens_total": 5 + 3 + 2,
		"vllm:prefix_cache_queries_total": 10, "vllm:prefix_cache_hits_total": 2, "sglang:num_requests_total": 3,
	} {
		if v := metricValue(t, fams, name, DefaultModel); v != want {
			t.Errorf("%s = %v, want %v", name, v, want)
		}
	}
}

// TestNoPrefixCacheHitsByDefault: with its prefix cache off, as the rules
// require of a real engine, the fake reports lookups but no hits, even for
// prompts that share their first tokens (every llama prompt does).
func TestNoPrefixCacheHitsByDefault(t *testing.T) {
	t.Parallel()
	_, url := start(t, Config{OutputTokens: 3})
	for range 3 {
		if code, _, body := post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[128000,1,2,3],"max_tokens":3}`); code != 200 {
			t.Fatalf("%d %s", code, body)
		}
	}
	fams := scrape(t, url)
	if q, h := metricValue(t, fams, "vllm:prefix_cache_queries_total", DefaultModel), metricValue(t, fams, "vllm:prefix_cache_hits_total", DefaultModel); q != 12 || h != 0 {
		t.Errorf("prefix cache queries %v, hits %v: want 12 and 0", q, h)
	}
}
