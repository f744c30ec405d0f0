package results

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/internal/lathist"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

func TestHarnessLatency(t *testing.T) {
	t.Parallel()
	part := func(name string, harness bool, p99 int64) breakdown.Part {
		return breakdown.Part{Name: name, Harness: harness, What: name, Summary: lathist.Summary{Count: 100, P50: p99 / 4, P99: p99, P999: p99 + 1, Max: p99 + 2}}
	}
	server := strings.Replace(offlineLLM, `"value": "Offline"`, `"value": "Server"`, 1)
	accuracy := strings.Replace(server, `"value": "PerformanceOnly"`, `"value": "AccuracyOnly"`, 1)
	for _, tc := range []struct {
		name     string
		detail   string
		first    int64 // harness_first_token p99, ns
		warnings int
	}{
		{"quiet", server, 1_500_000, 0},
		{"slow tail", server, 25_000_000, 1},
		// Offline is judged by throughput, and LoadGen issues every
		// sample at once: waking the workers and opening their
		// connections is in the tail, and no verdict depends on it.
		{"slow tail, Offline", offlineLLM, 25_000_000, 0},
		{"slow tail, accuracy run", accuracy, 25_000_000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeRun(t, map[string]string{mllog.DetailFile: tc.detail})
			if err := breakdown.Write(dir, breakdown.Breakdown{Stream: true, Parts: []breakdown.Part{
				part("endpoint_first_token", false, 60_000_000),
				part("harness_first_token", true, tc.first),
				part("harness_completion", true, 2_000_000),
			}}); err != nil {
				t.Fatal(err)
			}
			r, err := Build(dir)
			if err != nil {
				t.Fatal(err)
			}
			h := r.HarnessLatency
			if tc.detail != offlineLLM && r.Run.Scenario != "Server" {
				t.Fatalf("the fixture's scenario is %q, want Server", r.Run.Scenario)
			}
			if tc.detail == accuracy && r.Run.Mode != "AccuracyOnly" {
				t.Fatalf("the fixture's mode is %q, want AccuracyOnly", r.Run.Mode)
			}
			if h == nil || !h.Stream || len(h.Parts) != 3 || h.Parts[1].P99 != tc.first || !h.Parts[1].Harness || h.Parts[0].Harness {
				t.Fatalf("harness_latency %+v", h)
			}
			if !slices.Contains(r.Sources, breakdown.File) {
				t.Errorf("sources %v lack %s", r.Sources, breakdown.File)
			}
			var warned []string
			for _, w := range r.Outcome.Warnings {
				if strings.Contains(w, "the harness added") {
					warned = append(warned, w)
				}
			}
			if len(warned) != tc.warnings {
				t.Errorf("warnings %q, want %d about the harness", r.Outcome.Warnings, tc.warnings)
			}
			if tc.warnings > 0 && !strings.Contains(warned[0], "25.0 ms") {
				t.Errorf("warning %q does not give the p99", warned[0])
			}
		})
	}
}

func TestHarnessLatencyAbsentOrBroken(t *testing.T) {
	t.Parallel()
	dir := writeRun(t, map[string]string{mllog.DetailFile: offlineLLM})
	r, err := Build(dir)
	if err != nil || r.HarnessLatency != nil {
		t.Fatalf("without a breakdown: %+v, %v", r.HarnessLatency, err)
	}
	os.WriteFile(filepath.Join(dir, breakdown.File), []byte("{"), 0o644)
	if _, err := Build(dir); err == nil || !strings.Contains(err.Error(), breakdown.File) {
		t.Errorf("a broken breakdown: %v, want an error naming it", err)
	}
}
