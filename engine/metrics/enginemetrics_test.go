package metrics

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// vllmPage is /metrics as vLLM's prometheus_client writes it (v1 engine,
// two data-parallel engines), at scrape n: counters grow with n.
func vllmPage(n int64, prefixHits int64) string {
	return fmt.Sprintf(`# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} %d.0
vllm:num_requests_running{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 3.0
# HELP vllm:num_requests_waiting Number of requests waiting to be processed.
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} %d.0
vllm:num_requests_waiting{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.0
# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.%d5
vllm:kv_cache_usage_perc{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.1
# HELP vllm:num_preemptions_total Cumulative number of preemption from the engine.
# TYPE vllm:num_preemptions_total counter
vllm:num_preemptions_total{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} %d.0
vllm:num_preemptions_total{engine="1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 1.0
# HELP vllm:num_preemptions_created Cumulative number of preemption from the engine.
# TYPE vllm:num_preemptions_created gauge
vllm:num_preemptions_created{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 1.7637e+09
# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} %d.0
# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.
# TYPE vllm:prefix_cache_hits_total counter
vllm:prefix_cache_hits_total{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} %d.0
# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{engine="0",le="0.001",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.0
vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="meta-llama/Llama-3.1-8B-Instruct"} 4.0
vllm:time_to_first_token_seconds_count{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 4.0
vllm:time_to_first_token_seconds_sum{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.5
# HELP vllm:generation_tokens_total Number of generation tokens processed.
# TYPE vllm:generation_tokens_total counter
vllm:generation_tokens_total{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} %d.0
`, n, 2*n, n%10, n, 1000*n, prefixHits, 128*n)
}

const sglangPage = `# HELP sglang:num_running_reqs The number of running requests.
# TYPE sglang:num_running_reqs gauge
sglang:num_running_reqs{model_name="openai/gpt-oss-120b",tp_rank="0"} 12.0
# HELP sglang:num_queue_reqs The number of requests in the waiting queue.
# TYPE sglang:num_queue_reqs gauge
sglang:num_queue_reqs{model_name="openai/gpt-oss-120b",tp_rank="0"} 4.0
# HELP sglang:token_usage The token usage.
# TYPE sglang:token_usage gauge
sglang:token_usage{model_name="openai/gpt-oss-120b",tp_rank="0"} 0.42
# HELP sglang:cache_hit_rate The prefix cache hit rate.
# TYPE sglang:cache_hit_rate gauge
sglang:cache_hit_rate{model_name="openai/gpt-oss-120b",tp_rank="0"} 0.25
# HELP sglang:num_retracted_requests_total Total number of retracted requests.
# TYPE sglang:num_retracted_requests_total counter
sglang:num_retracted_requests_total{model_name="openai/gpt-oss-120b",tp_rank="0"} 0.0
`

func TestParseCombinesLabelSets(t *testing.T) {
	vals, err := Parse(strings.NewReader(vllmPage(5, 0)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"vllm:num_requests_running":       8,    // 5 + 3: summed over engines
		"vllm:num_requests_waiting":       10,   // 10 + 0
		"vllm:kv_cache_usage_perc":        0.55, // max(0.55, 0.1)
		"vllm:num_preemptions_total":      6,
		"vllm:prefix_cache_queries_total": 5000,
		"vllm:prefix_cache_hits_total":    0,
		"vllm:generation_tokens_total":    640,
	}
	if len(vals) != len(want) {
		t.Errorf("got %d values %v, want %d", len(vals), vals, len(want))
	}
	for k, v := range want {
		if got, ok := vals[k]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	if _, err := Parse(strings.NewReader("vllm:num_requests_running{engine=\"0\" 1\n")); err == nil {
		t.Error("malformed text parsed without error")
	}
}

func TestMetricsURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://gpu0:8000":              "http://gpu0:8000/metrics",
		"http://gpu0:8000/v1":           "http://gpu0:8000/metrics",
		"http://gpu0:8000/v1/":          "http://gpu0:8000/metrics",
		"https://u:p@host/proxy/v1?x=1": "https://u:p@host/proxy/metrics",
	} {
		got, err := MetricsURL(in)
		if err != nil || got != want {
			t.Errorf("MetricsURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := MetricsURL("gpu0:8000"); err == nil {
		t.Error("a URL without scheme was accepted")
	}
	// The refusal names the endpoint without its key.
	for _, in := range []string{"ftp://u:S3cret@host/v1?api_key=S3cret", "http://host/v1?api_key=S3cret\x7f"} {
		if _, err := MetricsURL(in); err == nil || strings.Contains(err.Error(), "S3cret") {
			t.Errorf("MetricsURL(%q): %v, want a refusal without the key", in, err)
		}
	}
}

// TestRecorderAgainstServers scrapes a vLLM-like, an SGLang-like, a server
// without /metrics and one that serves garbage, and checks the series and
// the summaries.
func TestRecorderAgainstServers(t *testing.T) {
	var vllmN atomic.Int64
	vllm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		n := vllmN.Add(1)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		fmt.Fprint(w, vllmPage(n, 64*(n-1)))
	}))
	defer vllm.Close()
	sglang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, sglangPage)
	}))
	defer sglang.Close()
	var noRouteN atomic.Int64
	noRoute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noRouteN.Add(1)
		http.NotFound(w, r)
	}))
	defer noRoute.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "vllm:num_requests_running{ 1 2 3\n")
	}))
	defer garbage.Close()

	// The vLLM endpoint is given with credentials and /v1: the file must
	// not keep them.
	withUser := strings.Replace(vllm.URL, "http://", "http://bob:hunter2@", 1) + "/v1"
	path := filepath.Join(t.TempDir(), File)
	rec, err := Start(path, []string{withUser, sglang.URL, noRoute.URL, garbage.URL}, 10*time.Millisecond, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	// Wait on the scrapes themselves (the first and a few periodic ones).
	for deadline := time.Now().Add(10 * time.Second); vllmN.Load() < 4; {
		if time.Now().After(deadline) {
			t.Fatal("the recorder did not scrape")
		}
		time.Sleep(time.Millisecond)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	scrapes, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := noRouteN.Load(); n != 1 {
		t.Errorf("the server without /metrics was asked %d times, want once", n)
	}
	for _, s := range scrapes {
		if strings.Contains(s.Endpoint, "hunter2") || strings.Contains(s.Endpoint, "bob") {
			t.Fatalf("scrape kept credentials: %+v", s)
		}
	}
	sums := Summarize(scrapes)
	if len(sums) != 4 {
		t.Fatalf("%d summaries, want 4: %+v", len(sums), sums)
	}
	v, sg, nr, gb := sums[0], sums[1], sums[2], sums[3]

	// The page numbers its scrapes (generation tokens are 128 a scrape);
	// a scrape cut short by Stop reaches the server but is not recorded.
	var ns []float64
	for _, x := range scrapes {
		if x.Status == StatusOK && x.Values["vllm:generation_tokens_total"] > 0 {
			ns = append(ns, x.Values["vllm:generation_tokens_total"]/128)
		}
	}
	if len(ns) < 3 || v.Engine != "vLLM" || !v.Available || v.Errors != 0 || v.Scrapes != len(ns) {
		t.Fatalf("vLLM summary %+v from scrapes %v (server asked %d times)", v, ns, vllmN.Load())
	}
	first, n := ns[0], ns[len(ns)-1]
	// Counters: the increase from the first scrape to the last.
	eq := func(name string, p *float64, want float64) {
		t.Helper()
		if p == nil || *p != want {
			t.Errorf("%s = %v, want %v", name, deref(p), want)
		}
	}
	eq("preemptions", v.Preemptions, n-first)
	eq("prefix hits", v.PrefixCacheHits, 64*(n-first))
	eq("prefix queries", v.PrefixCacheQueries, 1000*(n-first))
	eq("generation tokens", v.GenerationTokens, 128*(n-first))
	eq("max running", v.MaxRunning, n+3)
	eq("max waiting", v.MaxWaiting, 2*n)
	if v.MaxKVCacheUsage == nil || *v.MaxKVCacheUsage <= 0.1 || *v.MaxKVCacheUsage >= 1 {
		t.Errorf("max KV cache usage %v", deref(v.MaxKVCacheUsage))
	}
	if !hasWarning(v.Warnings, "prefix cache") || !hasWarning(v.Warnings, "preempted") {
		t.Errorf("vLLM warnings %q, want prefix-cache and preemption warnings", v.Warnings)
	}

	if sg.Engine != "SGLang" || !sg.Available {
		t.Errorf("SGLang summary %+v", sg)
	}
	eq("sglang running", sg.MaxRunning, 12)
	eq("sglang waiting", sg.MaxWaiting, 4)
	eq("sglang token usage", sg.MaxKVCacheUsage, 0.42)
	eq("sglang retractions", sg.Preemptions, 0)
	eq("sglang hit rate", sg.MaxPrefixCacheHitRate, 0.25)
	if !hasWarning(sg.Warnings, "prefix-cache hit rate of up to 25.0%") || hasWarning(sg.Warnings, "preempted") {
		t.Errorf("SGLang warnings %q", sg.Warnings)
	}

	if nr.Available || nr.Scrapes != 1 || !strings.Contains(nr.Unavailable, "404") {
		t.Errorf("no-route summary %+v, want one unavailable scrape naming the 404", nr)
	}
	if gb.Available || gb.Errors != gb.Scrapes || gb.Scrapes < 2 || !strings.Contains(gb.Unavailable, "malformed") {
		t.Errorf("garbage summary %+v, want every scrape an error, retried", gb)
	}
}

func TestCounterResetCountsFromZero(t *testing.T) {
	m := metricByName["vllm:num_preemptions_total"]
	var s []Scrape
	for _, v := range []float64{5, 7, 2, 4} { // restart after 7
		s = append(s, Scrape{Status: StatusOK, Values: map[string]float64{m.Name: v}})
	}
	if got := aggregate(m, s); got == nil || *got != 6 { // 2 + 2 + 2
		t.Errorf("increase %v, want 6", deref(got))
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func hasWarning(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

// TestBothEnginesNamesReadAsOne: a server exposing vLLM's and SGLang's
// names (the project's fake does) is summarised as the first engine only.
func TestBothEnginesNamesReadAsOne(t *testing.T) {
	vals := map[string]float64{"vllm:num_requests_running": 2, "sglang:num_running_reqs": 2, "sglang:cache_hit_rate": 0.5, "vllm:prefix_cache_hits_total": 0}
	s := Summarize([]Scrape{{Endpoint: "e", Status: StatusOK, Values: vals}, {Endpoint: "e", Status: StatusOK, Values: vals}})[0]
	if s.Engine != "vLLM" || s.MaxPrefixCacheHitRate != nil || s.MaxRunning == nil || *s.MaxRunning != 2 || len(s.Warnings) != 0 {
		t.Errorf("summary %+v, want vLLM's metrics only", s)
	}
}

// TestParseNeverPanics: bodies that are not Prometheus text (a proxy's
// catch-all JSON, binary) are errors, never panics; prometheus/common's
// parser dereferences nil on "{}".
func TestParseNeverPanics(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"{}", `{"detail":"Not Found"}`, "\x00\xff", "vllm:num_requests_running{", "# TYPE x gauge\nx{a=\"b\"} 1 2 3 4"} {
		if _, err := Parse(strings.NewReader(body)); err == nil {
			t.Errorf("Parse(%q) = nil error, want one saying it is not Prometheus text", body)
		}
	}
}

// TestScrapeOfJSONIsACountedFailure: an endpoint whose /metrics answers JSON
// is recorded as a failed scrape, counted, and the recorder goes on.
func TestScrapeOfJSONIsACountedFailure(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), File)
	r, err := Start(path, []string{srv.URL + "/v1"}, time.Hour, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	if r.Failed() != 2 {
		t.Errorf("Failed() = %d, want 2 (the first and the last scrape)", r.Failed())
	}
	scrapes, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(scrapes) != 2 || scrapes[0].Status != StatusError || !strings.Contains(scrapes[0].Error, "not Prometheus text") {
		t.Errorf("scrapes = %+v, want two errors saying the answer is not Prometheus text", scrapes)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("{}")
	f.Add("# HELP vllm:num_requests_running x\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} 3\n")
	f.Add("sglang:num_running_reqs 1\n")
	f.Fuzz(func(t *testing.T, body string) {
		vals, err := Parse(strings.NewReader(body))
		if err != nil && vals != nil {
			t.Fatalf("Parse returned values with an error")
		}
	})
}

// TestScrapeSendsTheKey: a server that wants the key on every route gets it
// on /metrics too.
func TestScrapeSendsTheKey(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, "vllm:num_requests_running 2\n")
	}))
	defer srv.Close()
	for _, tc := range []struct {
		key    string
		status string
	}{{"s3cret", StatusOK}, {"", StatusError}} {
		path := filepath.Join(t.TempDir(), File)
		r, err := Start(path, []string{srv.URL}, time.Hour, nil, tc.key)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Stop(); err != nil {
			t.Fatal(err)
		}
		scrapes, err := Read(path)
		if err != nil || len(scrapes) == 0 || scrapes[0].Status != tc.status {
			t.Fatalf("key %q: scrapes %+v (%v), want status %s", tc.key, scrapes, err, tc.status)
		}
		if tc.key == "" && !strings.Contains(scrapes[0].Error, "wants a valid API key") {
			t.Errorf("a refused scrape says %q, want it to name the API key", scrapes[0].Error)
		}
	}
}

// TestSGLangCachedTokens: SGLang's cached and prompt token counters are
// its prefix-cache hits and queries, summarised by their increase and
// warned of with SGLang's flag (not its hit-rate gauge as well); Snap
// reads one endpoint once, and says why not for one without /metrics.
func TestSGLangCachedTokens(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		k := n.Add(1)
		fmt.Fprintf(w, "# TYPE sglang:cached_tokens_total counter\nsglang:cached_tokens_total{model_name=\"m\",cache_source=\"device\"} %d\nsglang:cached_tokens_total{model_name=\"m\",cache_source=\"host\"} 1\n"+
			"# TYPE sglang:prompt_tokens_total counter\nsglang:prompt_tokens_total{model_name=\"m\"} %d\n# TYPE sglang:cache_hit_rate gauge\nsglang:cache_hit_rate{model_name=\"m\"} 0.5\n", 100*k, 1000*k)
	}))
	defer srv.Close()
	a, b := Snap(context.Background(), nil, srv.URL+"/v1", ""), Snap(context.Background(), nil, srv.URL+"/v1", "")
	if a.Status != StatusOK || a.Values["sglang:cached_tokens_total"] != 101 || b.Values["sglang:prompt_tokens_total"] != 2000 {
		t.Fatalf("snaps %+v %+v", a, b)
	}
	s := Summarize([]Scrape{a, b})[0]
	if s.Engine != "SGLang" || s.PrefixCacheHits == nil || *s.PrefixCacheHits != 100 || s.PrefixCacheQueries == nil || *s.PrefixCacheQueries != 1000 {
		t.Fatalf("summary %+v", s)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "--disable-radix-cache") {
		t.Errorf("warnings %q: want one, naming SGLang's flag", s.Warnings)
	}
	if none := Snap(context.Background(), nil, srv.URL+"/nothing/v1", ""); none.Status != StatusUnavailable || none.Error == "" {
		t.Errorf("an endpoint without /metrics: %+v", none)
	}
}
