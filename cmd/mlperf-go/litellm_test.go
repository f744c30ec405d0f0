package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/results"
)

// litellmKey is the gateway's master key in TestLiteLLMGateway.
const litellmKey = "sk-mlperf-go-test"

// startLiteLLM starts LiteLLM's proxy (the command bin) in mock mode,
// serving model with a fixed answer behind a master key, and returns its
// URL once it answers. Its log goes to the test's temporary folder and is
// printed if it does not come up.
func startLiteLLM(t *testing.T, bin, model string) string {
	t.Helper()
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	conf := filepath.Join(dir, "config.yaml")
	// mock_response answers without calling api_base, which nothing serves.
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(`model_list:
  - model_name: %s
    litellm_params:
      model: openai/%s
      api_base: http://127.0.0.1:9/v1
      api_key: none
      mock_response: "A short mocked answer about the image."
general_settings:
  master_key: %s
`, model, model, litellmKey)), 0o600); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "litellm.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--config", conf, "--host", "127.0.0.1", "--port", fmt.Sprint(port))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(), "LITELLM_TELEMETRY=False", "NO_DOCS=True")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait(); logFile.Close() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(3 * time.Minute) // importing litellm takes a while on a busy machine
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "/health/liveliness"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	log, _ := os.ReadFile(logPath)
	t.Fatalf("LiteLLM did not come up at %s:\n%s", base, log)
	return ""
}

// TestLiteLLMGateway runs against LiteLLM's proxy (PyPI, mock mode), a
// server no one here wrote, with a master key, as a gateway in front of
// engines is often set up. Without the key it answers /health and
// /v1/models with 500, not 401: the preflight stops before the test and
// says to set the key. With it, every request the harness makes (health,
// model list, probe, generation, /metrics) carries the key: an Offline
// run is VALID, and a streamed Server run completes every sample with its
// first token.
func TestLiteLLMGateway(t *testing.T) {
	bin := os.Getenv("MLPERF_GO_LITELLM")
	if bin == "" {
		t.Skip("set MLPERF_GO_LITELLM to LiteLLM's proxy command (scripts/fetch-litellm.sh installs it; ctest's litellm_gateway test does both)")
	}
	loadgentest.Require(t)
	const bench = "qwen3-vl-235b-a22b"
	url := startLiteLLM(t, bin, mustLookup(t, bench).Serving.Model) + "/v1"
	data := synthCLI(t, bench, 16)
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte(litellmKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	common := append([]string{"run", "-b", bench, "-e", url, "--api-key-env", "MLPERF_GO_TEST_NO_SUCH_KEY",
		"--progress-interval", "0", "--min-query-count", "16"}, data...)

	runs := filepath.Join(t.TempDir(), "runs")
	out, code := runSub(t, append(common, "-s", "Offline", "--runs-dir", runs, "--min-duration", "0")...)
	if code != 1 || !strings.Contains(out, "answers /health with 500 and /v1/models with 500") || !strings.Contains(out, "no API key was sent") {
		t.Errorf("without the key: exit %d, want 1 and the hint to set the key:\n%s", code, out)
	}
	if entries, _ := os.ReadDir(runs); len(entries) != 0 {
		t.Errorf("a run stopped by the preflight left %d entries in %s", len(entries), runs)
	}

	offline := filepath.Join(t.TempDir(), "offline")
	out, code = runSub(t, append(common, "-s", "Offline", "-o", offline, "--min-duration", "0", "--api-key-file", keyFile)...)
	if code != 0 || !strings.Contains(out, "=== Outcome: VALID ===") {
		t.Fatalf("Offline with the key: exit %d, want 0 and VALID:\n%s", code, out)
	}
	checkAllCompleted(t, offline, 16)

	server := filepath.Join(t.TempDir(), "server")
	out, code = runSub(t, append(common, "-s", "Server", "-o", server, "--min-duration", "1000", "--target-qps", "20", "--api-key-file", keyFile,
		// Streamed, with LoadGen timing the first tokens.
		"--setting", "use_token_latencies=1")...)
	// A second's Server run is too short for LoadGen's early stopping:
	// INVALID (exit 3) is its verdict, not a failure of the harness.
	if code != 0 && code != 3 {
		t.Fatalf("Server with the key: exit %d:\n%s", code, out)
	}
	res := checkAllCompleted(t, server, 16)
	if res.Metrics.TTFT == nil {
		t.Errorf("the streamed Server run has no TTFT: %+v", res.Metrics)
	}
}

// checkAllCompleted reads results.json in dir: at least n samples, every
// one completed, none failed.
func checkAllCompleted(t *testing.T, dir string, n int64) *results.Results {
	t.Helper()
	res, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Samples; s == nil || s.Completed < n || s.Failed != 0 {
		t.Errorf("%s: samples %+v, want %d or more completed and none failed", dir, s, n)
	}
	return res
}
