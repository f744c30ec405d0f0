package results_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/run"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestResultsFromARealRun runs llama3_1-8b in the Server scenario through
// the real LoadGen against the fake endpoint (streaming, so LoadGen
// measures TTFT and TPOT; some requests fail), builds results.json from
// the logs, and checks it three ways: its shape against a golden file
// (the figures differ from run to run, the fields must not), every figure
// against the one LoadGen printed in mlperf_log_summary.txt, and the
// failures against the pool's counters.
func TestResultsFromARealRun(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	bench, err := benchmark.Lookup("llama3_1-8b")
	if err != nil {
		t.Fatal(err)
	}
	files, err := bench.Data.Synth(dir, 60, 3)
	if err != nil || len(files) != 1 {
		t.Fatalf("synth: %v, %v", files, err)
	}
	data := files[0]
	fake, err := fake.New(fake.Config{Model: bench.Serving.Model, OutputTokens: 16, TTFT: 5 * time.Millisecond, TPOT: time.Millisecond, FailRate: 0.1, Seed: 1, PrefixCache: true, PrefixBlockTokens: 1})
	if err != nil {
		t.Fatal(err)
	}
	url, err := fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	out := filepath.Join(dir, "out")
	start := time.Now()
	rep, err := run.Run(context.Background(), run.Options{
		SkipPreflight: true, // faults are injected at random; the probe would take a draw
		Benchmark:     bench,
		Scenario:      loadgen.Server,
		Mode:          loadgen.PerformanceOnly,
		Dataset:       []string{data},
		Endpoints:     []string{url},
		OutputDir:     out,
		Settings:      []string{"min_duration=1000", "min_query_count=40", "target_qps=40"},
		// The fake serves vLLM's and SGLang's metrics on /metrics.
		EngineMetricsEvery: 200 * time.Millisecond,
	})
	if !errors.Is(err, run.ErrFailures) {
		t.Fatalf("Run: %v; want some failed samples (the fake fails 10%%)", err)
	}
	// What `mlperf-go run` records beside LoadGen's logs (cmd/mlperf-go
	// writeRunInfo), with credentials in the endpoint to be stripped.
	secretURL := strings.Replace(url, "http://", "http://user:pa55@", 1)
	s := rep.Stats
	if err := record.Write(out, record.Run{
		HarnessVersion: "test", LoadGenVersion: "6.0.17", Round: "v6.1",
		Benchmark: bench.Name, Scenario: "Server", Kind: "performance",
		Endpoints: []string{secretURL}, API: "completions", Model: bench.Serving.Model,
		Start: start.UTC(), End: time.Now().UTC(),
		Samples: &record.SampleCounts{Issued: s.Issued, Completed: s.Completed, Failed: s.Failed, FailuresByReason: s.FailuresByReason, OutputTokens: s.OutputTokens},
	}); err != nil {
		t.Fatal(err)
	}

	r, err := results.Build(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := results.Write(out, r); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(out, record.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(written), "pa55") {
		t.Error("results.json holds the endpoint's password")
	}

	// 1. Shape.
	var doc any
	if err := json.Unmarshal(written, &doc); err != nil {
		t.Fatal(err)
	}
	// LoadGen logs an early-stopping text only when it has something to
	// say, which depends on the latencies of the moment.
	delete(doc.(map[string]any)["outcome"].(map[string]any), "early_stopping")
	shape, _ := json.MarshalIndent(shapeOf(doc), "", "  ")
	golden := filepath.Join("testdata", "llama-server.shape.json")
	if *update {
		if err := os.WriteFile(golden, append(shape, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.TrimSpace(string(want)), strings.TrimSpace(string(shape))); diff != "" {
		t.Errorf("results.json shape differs from %s (-want +got); rerun with -update if the change is meant:\n%s", golden, diff)
	}

	// 2. Every figure is LoadGen's, as its summary file prints it.
	sum := readSummary(t, filepath.Join(out, mllog.SummaryFile))
	m := r.Metrics
	checks := []struct {
		label string
		got   float64
	}{
		{"Completed samples per second", m.SamplesPerSecond.Value},
		{"Scheduled samples per second", m.ScheduledSamplesPerSecond.Value},
		{"Completed tokens per second", m.TokensPerSecond.Value},
		{"Min latency (ns)", *m.Latency.Min},
		{"Max latency (ns)", *m.Latency.Max},
		{"Mean latency (ns)", *m.Latency.Mean},
		{"Min First Token latency (ns)", *m.TTFT.Min},
		{"Mean First Token latency (ns)", *m.TTFT.Mean},
		{"Mean Time per Output Token (ns)", *m.TPOT.Mean},
	}
	for _, p := range []string{"50.00", "90.00", "95.00", "97.00", "99.00", "99.90"} {
		checks = append(checks,
			struct {
				label string
				got   float64
			}{p + " percentile latency (ns)", m.Latency.Percentiles[p]},
			struct {
				label string
				got   float64
			}{p + " percentile first token latency (ns)", m.TTFT.Percentiles[p]},
			struct {
				label string
				got   float64
			}{p + " percentile time to output token (ns)", m.TPOT.Percentiles[p]})
	}
	for _, c := range checks {
		text, ok := sum[c.label]
		if !ok {
			t.Errorf("the summary has no %q line", c.label)
			continue
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatalf("summary %q = %q: %v", c.label, text, err)
		}
		// The summary rounds rates to two decimals; latencies are exact.
		if math.Abs(v-c.got) > 0.005+1e-9*math.Abs(v) {
			t.Errorf("%s: results %v, summary %v", c.label, c.got, v)
		}
	}
	if got, want := r.Outcome.LoadGenValidity, sum["Result is"]; got != want {
		t.Errorf("validity %q, summary %q", got, want)
	}

	// 3. The harness's failures, and the settings LoadGen used.
	if r.Outcome.Status != results.StatusFailed || r.Samples.Failed != s.Failed || r.Samples.FailuresByReason["http_status"] != s.Failed {
		t.Errorf("outcome %+v samples %+v, want failed with %d http_status failures", r.Outcome, r.Samples, s.Failed)
	}
	if !strings.Contains(r.Outcome.Reasons[0], fmt.Sprintf("%d of %d samples failed (http_status: %d)", s.Failed, s.Completed, s.Failed)) {
		t.Errorf("first reason %q", r.Outcome.Reasons[0])
	}
	if r.Settings["target_qps"] != json.Number("40") || r.Settings["min_duration_ms"] != json.Number("1000") || r.Settings["use_token_latencies"] != true {
		t.Errorf("settings %v", r.Settings)
	}
	// The fake serves vLLM's metrics; its prefix cache (of one-token
	// blocks) holds every prompt, and every llama prompt begins with the
	// same header tokens, so the run must be flagged for prefix-cache
	// hits.
	if len(r.Engine.Metrics) != 1 {
		t.Fatalf("engine metrics %+v, want one endpoint", r.Engine.Metrics)
	}
	em := r.Engine.Metrics[0]
	if !em.Available || em.Engine != "vLLM" || em.MaxRunning == nil || em.GenerationTokens == nil || *em.GenerationTokens <= 0 {
		t.Errorf("engine metrics %+v", em)
	}
	if em.PrefixCacheHits == nil || *em.PrefixCacheHits <= 0 || !strings.Contains(strings.Join(r.Outcome.Warnings, "\n"), "prefix cache") {
		t.Errorf("prefix-cache hits %v, warnings %q: want hits flagged", em.PrefixCacheHits, r.Outcome.Warnings)
	}
}

// shapeOf replaces every leaf of a JSON document by its type and keeps one
// element of each array, so a golden file pins the fields, not the figures.
// Maps keyed by data (settings, percentiles) keep their keys: they are
// part of the schema too.
func shapeOf(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = shapeOf(e)
		}
		return out
	case []any:
		if len(x) == 0 {
			return []any{}
		}
		return []any{shapeOf(x[0])}
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// readSummary reads LoadGen's "name : value" summary lines.
func readSummary(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if _, dup := out[k]; ok && !dup && k != "" {
			out[k] = v
		}
	}
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return out
}
