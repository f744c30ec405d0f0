package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/fakeendpoint"
	"github.com/mlperf-go/mlperf-go/internal/results"
)

// TestTargetQPSAuto: a Server run with --target-qps auto targets 0.8x the
// samples/s of the Offline run in the run history, and refuses to guess
// without one.
func TestTargetQPSAuto(t *testing.T) {
	const name = "llama3_1-8b"
	data := synthCLI(t, name, 20)
	url := startFake(t, fakeendpoint.Config{Model: mustLookup(t, name).Model, OutputTokens: 4, TTFT: time.Millisecond, TPOT: time.Millisecond})
	runs := filepath.Join(t.TempDir(), "runs")
	base := append([]string{"run", "-b", name, "-e", url, "--quick", "--progress-interval", "0",
		"--engine-metrics-interval", "0", "--runs-dir", runs}, data...)

	out, err := runCLI(t, append(base, "-s", "Server", "--target-qps", "auto")...)
	if err == nil || !strings.Contains(err.Error(), "no valid Offline performance run") {
		t.Fatalf("auto without an Offline run: want a refusal, got %v\n%s", err, out)
	}
	if out, err := runCLI(t, append(base, "-s", "Offline")...); err != nil {
		t.Fatalf("Offline run: %v\n%s", err, out)
	}
	offline, err := results.Read(filepath.Join(runs, name, "Offline-performance", latestLink))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s.Server.target_qps = %g", name, 0.8*offline.Metrics.SamplesPerSecond.Value)

	out, err = runCLI(t, append(base, "-s", "Server", "--target-qps", "auto")...)
	if c := exitCode(err); c != 0 && c != 3 { // a quick Server run may be INVALID
		t.Fatalf("Server run: %v\n%s", err, out)
	}
	conf, err := os.ReadFile(filepath.Join(runs, name, "Server-performance", latestLink, "user.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conf), want) {
		t.Errorf("user.conf lacks %q:\n%s", want, conf)
	}
	if out, err := runCLI(t, append(base, "-s", "Server", "--target-qps", "fast")...); err == nil || !strings.Contains(err.Error(), "--target-qps") {
		t.Errorf("--target-qps fast: want an error naming the flag, got %v\n%s", err, out)
	}
}
