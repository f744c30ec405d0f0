package report_test

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/internal/browsertest"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/sut"
)

// vllmEngine stands in front of the fake endpoint as vLLM would: it passes
// requests through and serves /metrics in vLLM's format, with the requests
// it is serving as running, a KV cache that fills with them, and prefix
// cache hits (which the report must flag).
type vllmEngine struct {
	running, scrapes atomic.Int64
	proxy            *httputil.ReverseProxy
}

func (e *vllmEngine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/metrics" {
		n := e.scrapes.Add(1)
		run := e.running.Load()
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		fmt.Fprintf(w, `# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="m"} %d.0
# HELP vllm:num_requests_waiting Number of requests waiting to be processed.
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{engine="0",model_name="m"} 0.0
# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0",model_name="m"} %g
# HELP vllm:num_preemptions_total Cumulative number of preemption from the engine.
# TYPE vllm:num_preemptions_total counter
vllm:num_preemptions_total{engine="0",model_name="m"} 0.0
# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{engine="0",model_name="m"} %d.0
# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.
# TYPE vllm:prefix_cache_hits_total counter
vllm:prefix_cache_hits_total{engine="0",model_name="m"} %d.0
`, run, float64(run)/32, 1000*n, 16*n)
		return
	}
	e.running.Add(1)
	defer e.running.Add(-1)
	e.proxy.ServeHTTP(w, r)
}

// realRun runs llama3_1-8b in the Server scenario through the real LoadGen
// against the fake endpoint behind vllmEngine (10% of requests fail), and
// writes the run record `mlperf-go run` writes. It returns the output
// directory and the pool's counters.
func realRun(t *testing.T) (string, sut.Stats) {
	t.Helper()
	dir := t.TempDir()
	bench, err := benchmark.Lookup("llama3_1-8b")
	if err != nil {
		t.Fatal(err)
	}
	files, err := bench.Data.Synth(dir, 80, 5)
	if err != nil || len(files) != 1 {
		t.Fatalf("synth: %v, %v", files, err)
	}
	data := files[0]
	fake, err := fake.New(fake.Config{Model: bench.Serving.Model, OutputTokens: 24, TTFT: 20 * time.Millisecond, TPOT: 2 * time.Millisecond, MaxConcurrency: 8, FailRate: 0.1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	fakeURL, err := fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fake.Close() })
	target, _ := url.Parse(fakeURL)
	engine := httptest.NewServer(&vllmEngine{proxy: httputil.NewSingleHostReverseProxy(target)})
	t.Cleanup(engine.Close)

	out := filepath.Join(dir, "runs", "llama-server")
	start := time.Now()
	rep, err := run.Run(context.Background(), run.Options{
		SkipPreflight:      true, // faults are injected at random; the probe would take a draw
		Benchmark:          bench,
		Scenario:           loadgen.Server,
		Mode:               loadgen.PerformanceOnly,
		Dataset:            []string{data},
		Endpoints:          []string{engine.URL + "/v1"},
		OutputDir:          out,
		Settings:           []string{"min_duration=3000", "min_query_count=60", "target_qps=25"},
		EngineMetricsEvery: 250 * time.Millisecond,
	})
	if !errors.Is(err, run.ErrFailures) {
		t.Fatalf("Run: %v; want some failed samples (the fake fails 10%%)", err)
	}
	s := rep.Stats
	info := record.Run{
		HarnessVersion: "test", LoadGenVersion: "6.0.17", Round: "v6.1",
		Benchmark: bench.Name, Scenario: "Server", Kind: "performance",
		Endpoints: []string{engine.URL + "/v1"}, API: "completions", Model: bench.Serving.Model,
		Engine: "vLLM (fake)", Start: start.UTC(), End: time.Now().UTC(),
		Samples: &record.SampleCounts{Issued: s.Issued, Completed: s.Completed, Failed: s.Failed, FailuresByReason: s.FailuresByReason, OutputTokens: s.OutputTokens},
	}
	for _, f := range s.FirstFailures {
		info.Samples.FirstFailures = append(info.Samples.FirstFailures, record.SampleFailure{Index: f.Index, Reason: f.Reason, Message: f.Message})
	}
	if err := record.Write(out, info); err != nil {
		t.Fatal(err)
	}
	return out, s
}

// TestReportOfARealRun renders a real run's report and checks the page:
// self-contained, with the run's figures, charts with points, the failures
// and the engine metrics; then renders it in headless Chromium, checks the
// rendered DOM and keeps a screenshot in build/test-artifacts/.
func TestReportOfARealRun(t *testing.T) {
	loadgentest.Require(t)
	out, stats := realRun(t)
	r, err := report.WriteRun(out)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, record.ReportHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)

	// Nothing is fetched: no scripts, stylesheets, images or fonts from
	// anywhere.
	for _, re := range []string{`(?i)<script`, `(?i)<link\b`, `(?i)<img\b`, `(?i)\bsrc=`, `(?i)url\(`, `(?i)@import`, `(?i)href="(https?:)?//`} {
		if loc := regexp.MustCompile(re).FindStringIndex(html); loc != nil {
			t.Errorf("report.html is not self-contained: %q at %q", re, html[loc[0]:min(len(html), loc[0]+80)])
		}
	}

	checkPage := func(t *testing.T, dom string) {
		t.Helper()
		sps := r.Metrics.SamplesPerSecond.Value
		for _, want := range []string{
			`id="status" class="badge bad">FAILED<`,
			fmt.Sprintf("%.2f", sps),                                  // LoadGen's samples/s, in a card
			fmt.Sprintf("%.0f", r.Metrics.TokensPerSecond.Value/1000), // tokens/s (thousands)
			`data-chart="throughput"`, `data-chart="in-flight"`,
			`data-chart="latency"`, `data-chart="ttft"`, `data-chart="tpot"`,
			`data-chart="engine-kv-cache"`, `data-chart="engine-requests"`,
			`id="failure-classes"`, `<td>http_status</td>`,
			fmt.Sprintf("<strong>%d failed</strong>", stats.Failed),
			`id="engine-summary"`, `<td>vLLM</td>`,
			"prompt tokens in its prefix cache", // the prefix-caching warning
			`id="settings"`, "target_qps",
		} {
			if !strings.Contains(dom, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		// Throughput has a point per second of the run (about 3 s, two
		// series); the KV-cache chart one per scrape.
		for chart, least := range map[string]int{"throughput": 4, "in-flight": 6, "engine-kv-cache": 4} {
			if n := pointsIn(dom, chart); n < least {
				t.Errorf("chart %s has %d points, want at least %d", chart, n, least)
			}
		}
		for _, chart := range []string{"latency", "ttft", "tpot"} {
			if n := barsIn(dom, chart); n != 6 {
				t.Errorf("chart %s has %d bars, want 6 (p50 … p99.9)", chart, n)
			}
		}
	}
	t.Run("html", func(t *testing.T) { checkPage(t, html) })

	md, err := os.ReadFile(filepath.Join(out, record.ReportMarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"— FAILED", fmt.Sprintf("%.2f samples/s", r.Metrics.SamplesPerSecond.Value), "| http_status |", "| TTFT |", "prefix cache", "[report.html](report.html)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}

	t.Run("chromium", func(t *testing.T) {
		chrome := browsertest.Find(t)
		dom := browsertest.Run(t, chrome, "--dump-dom", "file://"+filepath.Join(out, record.ReportHTMLFile))
		checkPage(t, dom)
		shot := filepath.Join(browsertest.ArtifactDir(t), "report-llama-server.png")
		browsertest.Run(t, chrome, "--screenshot="+shot, "--window-size=1280,3400", "file://"+filepath.Join(out, record.ReportHTMLFile))
		checkScreenshot(t, shot)
		t.Logf("screenshot: %s", shot)
	})
}

// TestReportTree indexes a folder of runs: the real run, a copy of its
// LoadGen logs alone (as filed into a results tree) and a broken run.
func TestReportTree(t *testing.T) {
	loadgentest.Require(t)
	out, _ := realRun(t)
	root := filepath.Dir(out)
	filed := filepath.Join(root, "filed", "performance", "run_1")
	if err := os.MkdirAll(filed, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{mllog.DetailFile, mllog.SummaryFile, record.File} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(filed, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	broken := filepath.Join(root, "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, mllog.DetailFile), []byte(":::MLLOG {\"key\": \n"), 0o644); err != nil {
		t.Fatal(err)
	}

	entries, err := report.WriteTree(root)
	if err == nil || !strings.Contains(err.Error(), "broken") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("WriteTree error %v, want the broken run's file and line", err)
	}
	if len(entries) != 3 {
		t.Fatalf("%d entries, want 3", len(entries))
	}
	index, err := os.ReadFile(filepath.Join(root, record.IndexHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="llama-server/report.html"`, `href="filed/performance/run_1/report.html"`, `href="broken/report.html"`, "ERROR", "FAILED", "llama3_1-8b"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	// The filed copy has no timeline: its page says so instead of a chart.
	page, err := os.ReadFile(filepath.Join(filed, record.ReportHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), `data-chart="throughput"`) || !strings.Contains(string(page), "No timeline.jsonl") {
		t.Error("the filed run's page should say it has no timeline")
	}
	md, err := os.ReadFile(filepath.Join(root, record.IndexMarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "[llama-server](llama-server/report.md)") {
		t.Errorf("index.md:\n%s", md)
	}
	if c, err := exec.LookPath("chromium"); err == nil {
		checkScreenshotOf(t, c, filepath.Join(root, record.IndexHTMLFile), "report-index.png")
	}
}

// pointsIn counts the markers of the chart named name in a page.
func pointsIn(page, name string) int {
	return strings.Count(chartSVG(page, name), `class="pt"`)
}

func barsIn(page, name string) int {
	return strings.Count(chartSVG(page, name), `class="bar"`)
}

func chartSVG(page, name string) string {
	i := strings.Index(page, `data-chart="`+name+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</svg>")
	if j < 0 {
		return ""
	}
	return page[i : i+j]
}

// checkScreenshot checks the screenshot is a real rendering: a PNG of the
// window's size that is not one colour.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	b := img.Bounds()
	if b.Dx() < 800 || b.Dy() < 600 {
		t.Errorf("screenshot is %v", b)
	}
	colours := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	if len(colours) < 8 {
		t.Errorf("screenshot has %d colours: the page did not render", len(colours))
	}
	var _ image.Image = img
}

func checkScreenshotOf(t *testing.T, chrome, page, name string) {
	t.Helper()
	shot := filepath.Join(browsertest.ArtifactDir(t), name)
	browsertest.Run(t, chrome, "--screenshot="+shot, "--window-size=1280,800", "file://"+page)
	checkScreenshot(t, shot)
}
