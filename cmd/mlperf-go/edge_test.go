package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestEdgeRunsFiled runs llama3_1-8b-edge's two scenarios, Offline and
// SingleStream, through the CLI against the fake endpoint and checks each
// is filed under llama3.1-8b-edge/<Scenario>/, where the v6.1 checker
// looks, with LoadGen having read the edge model's mlperf.conf entries
// (performance_sample_count_override 5000, token latencies on).
func TestEdgeRunsFiled(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	files, err := mustLookup(t, "llama3_1-8b-edge").Data.Synth(dir, 24, 5)
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{Model: mustLookup(t, "llama3_1-8b-edge").Serving.Model, OutputTokens: 8,
		TTFT: 2 * time.Millisecond, TPOT: time.Millisecond})
	results := filepath.Join(dir, "results")
	for _, scen := range []string{"Offline", "SingleStream"} {
		t.Run(scen, func(t *testing.T) {
			out, err := runCLI(t, "run", "-b", "llama3_1-8b-edge", "-s", scen, "-d", files[0], "-e", url,
				"--results-dir", results, "--allow-unofficial-settings", "--system", "sys1", "--progress-interval", "0", "-o", filepath.Join(dir, scen),
				"--setting", "min_duration=200", "--min-query-count", "24")
			// Short runs cannot meet early stopping: INVALID is exit 3.
			if c := exitCode(err); c != 0 && c != 3 {
				t.Fatalf("edge %s run: %v\n%s", scen, err, out)
			} else if c == 3 && !strings.Contains(out, "Why INVALID") {
				t.Errorf("an INVALID run does not say why on the console:\n%s", out)
			}
			filed := filepath.Join(results, "sys1", "llama3.1-8b-edge", scen)
			detail, err := os.ReadFile(filepath.Join(filed, "performance", "run_1", "mlperf_log_detail.txt"))
			if err != nil {
				t.Fatalf("edge %s run not filed under %s: %v\n%s", scen, filed, err, out)
			}
			for _, want := range []string{
				`"key": "effective_scenario", "value": "` + scen + `"`,
				`"key": "requested_performance_sample_count_override", "value": 5000`,
				`"key": "requested_use_token_latencies", "value": true`,
			} {
				if !strings.Contains(string(detail), want) {
					t.Errorf("filed detail log lacks %s", want)
				}
			}
		})
	}
}
