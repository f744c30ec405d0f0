package report

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/internal/lathist"
	"github.com/mlperf-go/mlperf-go/results"
)

func TestHarnessLatencySection(t *testing.T) {
	t.Parallel()
	part := func(name string, harness, sum bool, count, p50, p99 int64) breakdown.Part {
		return breakdown.Part{Name: name, Harness: harness, Sum: sum, What: "spans " + name,
			Summary: lathist.Summary{Count: count, P50: p50, P90: p50, P99: p99, P999: p99, Max: p99}}
	}
	r := &results.Results{Run: results.Run{Scenario: "Server"}, HarnessLatency: &results.HarnessLatency{Stream: true, Parts: []breakdown.Part{
		part("queue", true, false, 10, 10_000, 90_000),
		part("endpoint_first_token", false, false, 10, 50_500_000, 61_000_000),
		part("endpoint_rest", false, false, 10, 600_000_000, 640_000_000),
		part("harness_first_token", true, true, 10, 80_000, 1_250_000),
		part("harness_completion", true, true, 10, 70_000, 900_000),
		part("ttft", false, true, 10, 50_600_000, 62_000_000),
		part("latency", false, true, 10, 650_000_000, 700_000_000),
		part("unused", true, false, 0, 0, 0),
	}}}
	html := string(harnessLatencyHTML(r))
	for _, want := range []string{
		`id="harness-latency"`, `id="harness-latency-parts"`,
		"To TTFT the harness added 0.08 ms at p50 and 1.25 ms at p99 (of 50.60 ms and 62.00 ms in all)",
		"<td>total</td>",
		`<tr class="harness"><td class="mono"><strong>harness_first_token</strong></td><td>harness (sum)</td>`,
		"<td>endpoint</td>", "spans queue",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "unused") {
		t.Error("a part that counted no sample is shown")
	}
	md := harnessLatencyMarkdown(r)
	for _, want := range []string{"## Where the time went", "| harness_first_token | harness (sum) | 10 | 0.080 | 0.080 | 1.250 | 1.250 | 1.250 |", "to latency the harness added 0.07 ms"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if harnessLatencyHTML(&results.Results{}) != "" || harnessLatencyMarkdown(&results.Results{}) != "" {
		t.Error("a run without a breakdown gets a section")
	}
	// In Offline every sample is issued at once: the harness's parts
	// are the workers' start-up burst, shown as such, never as what the
	// harness added.
	r.Run.Scenario = "Offline"
	for what, s := range map[string]string{"HTML": string(harnessLatencyHTML(r)), "Markdown": harnessLatencyMarkdown(r)} {
		if strings.Contains(s, "harness added") || !strings.Contains(s, "Offline: LoadGen issued every sample at once") || !strings.Contains(s, "harness_completion") {
			t.Errorf("Offline %s: want the parts shown and called a start-up burst, not what the harness added:\n%s", what, s)
		}
	}
}

// TestOfflineHasNoLatencyCard: an Offline run's headline cards leave out
// the p99 latency (every sample issued at the start: it is about the run's
// length, 641067 ms in a quick start); a Server run's keep it.
func TestOfflineHasNoLatencyCard(t *testing.T) {
	t.Parallel()
	for _, sc := range []string{"Offline", "Server"} {
		r := &results.Results{Run: results.Run{Scenario: sc, DurationSeconds: 641.1},
			Metrics: results.Metrics{Latency: &results.Distribution{Percentiles: map[string]float64{"99.00": 641067e6}}}}
		found := false
		for _, c := range cards(r) {
			found = found || c.Label == "p99 latency"
		}
		if found != (sc == "Server") {
			t.Errorf("%s: p99 latency card shown: %v", sc, found)
		}
	}
}
