package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/fakeendpoint"
)

// TestInteractiveRunFiled runs --scenario Interactive through the CLI for
// each benchmark that has it in mlperf.conf, against the fake endpoint:
// LoadGen must run the Server scenario of the *-interactive model name
// (its own TTFT/TPOT limits, streamed first tokens), and the run must be
// filed under <benchmark>/Interactive/, where the v6.1 checker looks.
func TestInteractiveRunFiled(t *testing.T) {
	for _, tc := range []struct{ bench, model, dir, ttft, tpot string }{
		// mlperf.conf: *-interactive.Server.ttft_latency / tpot_latency.
		{"llama3_1-8b", "llama3_1-8b-interactive", "llama3.1-8b", "500000000", "30000000"},
		{"gpt-oss-120b", "gpt-oss-120b-interactive", "gpt-oss-120b", "2000000000", "15000000"},
	} {
		t.Run(tc.bench, func(t *testing.T) {
			dir := t.TempDir()
			files, err := mustLookup(t, tc.bench).Synth(dir, 24, 5)
			if err != nil {
				t.Fatal(err)
			}
			url := startFake(t, fakeendpoint.Config{Model: mustLookup(t, tc.bench).Model, OutputTokens: 8,
				TTFT: 2 * time.Millisecond, TPOT: time.Millisecond})
			results := filepath.Join(dir, "results")
			logs := filepath.Join(dir, "perf")
			out, err := runCLI(t, "run", "-b", tc.bench, "-s", "interactive", "-d", files[0], "-e", url,
				"--results-dir", results, "--allow-unofficial-settings", "--system", "sys1", "--progress-interval", "0", "-o", logs,
				"--setting", "min_duration=300", "--target-qps", "100", "--min-query-count", "24")
			// A 0.3 s run cannot meet early stopping: INVALID is exit 3.
			if c := exitCode(err); c != 0 && c != 3 {
				t.Fatalf("Interactive run: %v\n%s", err, out)
			}
			if !strings.Contains(out, "p99 time to first token") {
				t.Errorf("Interactive report lacks TTFT (not streamed?):\n%s", out)
			}
			scen := filepath.Join(results, "sys1", tc.dir, "Interactive")
			detail, err := os.ReadFile(filepath.Join(scen, "performance", "run_1", "mlperf_log_detail.txt"))
			if err != nil {
				t.Fatalf("Interactive run not filed under %s: %v\n%s", scen, err, out)
			}
			for _, want := range []string{
				`"key": "effective_scenario", "value": "Server"`,
				`"key": "requested_server_ttft_latency", "value": ` + tc.ttft,
				`"key": "requested_server_tpot_latency", "value": ` + tc.tpot,
				`"key": "requested_use_token_latencies", "value": true`,
			} {
				if !strings.Contains(string(detail), want) {
					t.Errorf("filed detail log lacks %s", want)
				}
			}
			if _, err := os.Stat(filepath.Join(results, "sys1", tc.dir, "Server")); !os.IsNotExist(err) {
				t.Errorf("an Interactive run left a Server directory (stat: %v)", err)
			}
			if _, err := os.Stat(filepath.Join(scen, "user.conf")); err != nil {
				t.Errorf("user.conf not filed: %v", err)
			}
		})
	}
	if _, err := runCLI(t, "run", "-b", "qwen3-vl-235b-a22b", "-s", "Interactive", "-d", "x", "-e", "http://127.0.0.1:1"); err == nil ||
		!strings.Contains(err.Error(), "Interactive") {
		t.Errorf("qwen3-vl Interactive without its settings: error %v, want one naming Interactive", err)
	}
}
