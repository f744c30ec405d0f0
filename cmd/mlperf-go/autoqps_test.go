package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
)

// TestTargetQPSAuto: a Server run with --target-qps auto targets 0.8x the
// samples/s of the Offline run in the run history, and refuses to guess
// without one. A --quick Offline run does not count: its throughput comes
// from ten samples.
func TestTargetQPSAuto(t *testing.T) {
	loadgentest.Require(t)
	const name = "llama3_1-8b"
	data := synthCLI(t, name, 20)
	url := startFake(t, fake.Config{Model: mustLookup(t, name).Serving.Model, OutputTokens: 4, TTFT: time.Millisecond, TPOT: time.Millisecond})
	runs := filepath.Join(t.TempDir(), "runs")
	base := append([]string{"run", "-b", name, "-e", url, "--progress-interval", "0",
		"--engine-metrics-interval", "0", "--runs-dir", runs}, data...)
	quick := append(slices.Clip(base), "--quick")
	base = slices.Clip(base)

	out, err := runCLI(t, append(quick, "-s", "Server", "--target-qps", "auto")...)
	if err == nil || !strings.Contains(err.Error(), "no valid Offline performance run") {
		t.Fatalf("auto without an Offline run: want a refusal, got %v\n%s", err, out)
	}
	// A quick Offline run is VALID but not representative: auto must
	// still refuse, and say that quick runs do not count.
	if out, err := runCLI(t, append(quick, "-s", "Offline")...); err != nil {
		t.Fatalf("quick Offline run: %v\n%s", err, out)
	}
	quickRun, err := results.Read(filepath.Join(runs, name, "Offline-performance", record.LatestLink))
	if err != nil {
		t.Fatal(err)
	}
	if !quickRun.Run.Quick || quickRun.Outcome.Status != results.StatusValid {
		t.Fatalf("quick Offline run: results.json says quick=%v, status %s; want a VALID run marked quick", quickRun.Run.Quick, quickRun.Outcome.Status)
	}
	out, err = runCLI(t, append(quick, "-s", "Server", "--target-qps", "auto")...)
	if err == nil || !strings.Contains(err.Error(), "no valid Offline performance run") || !strings.Contains(err.Error(), "--quick") {
		t.Fatalf("auto with only a quick Offline run: want a refusal naming --quick, got %v\n%s", err, out)
	}

	// A short Offline run that is not --quick counts.
	if out, err := runCLI(t, append(base, "-s", "Offline", "--min-duration", "0", "--min-query-count", "20",
		"--setting", "performance_sample_count_override=20")...); err != nil {
		t.Fatalf("Offline run: %v\n%s", err, out)
	}
	offline, err := results.Read(filepath.Join(runs, name, "Offline-performance", record.LatestLink))
	if err != nil {
		t.Fatal(err)
	}
	if offline.Run.Quick {
		t.Fatal("an Offline run without --quick is marked quick")
	}
	want := fmt.Sprintf("%s.Server.target_qps = %g", name, 0.8*offline.Metrics.SamplesPerSecond.Value)

	// A quick Offline run made after it is newer, but skipped.
	if out, err := runCLI(t, append(quick, "-s", "Offline")...); err != nil {
		t.Fatalf("second quick Offline run: %v\n%s", err, out)
	}
	out, err = runCLI(t, append(quick, "-s", "Server", "--target-qps", "auto")...)
	if c := exitCode(err); c != 0 && c != 3 { // a quick Server run may be INVALID
		t.Fatalf("Server run: %v\n%s", err, out)
	}
	conf, err := os.ReadFile(filepath.Join(runs, name, "Server-performance", record.LatestLink, "user.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conf), want) {
		t.Errorf("user.conf lacks %q (the newest Offline run that is not --quick):\n%s", want, conf)
	}
	// Interactive has no Offline run of its own: the benchmark's counts,
	// and the line goes under the -interactive name LoadGen reads.
	out, err = runCLI(t, append(quick, "-s", "Interactive", "--target-qps", "auto")...)
	if c := exitCode(err); c != 0 && c != 3 {
		t.Fatalf("Interactive run: %v\n%s", err, out)
	}
	conf, err = os.ReadFile(filepath.Join(runs, name+"-interactive", "Interactive-performance", record.LatestLink, "user.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(want, name+".Server", name+"-interactive.Server", 1); !strings.Contains(string(conf), want) {
		t.Errorf("Interactive user.conf lacks %q:\n%s", want, conf)
	}
	if out, err := runCLI(t, append(quick, "-s", "Server", "--target-qps", "fast")...); err == nil || !strings.Contains(err.Error(), "--target-qps") {
		t.Errorf("--target-qps fast: want an error naming the flag, got %v\n%s", err, out)
	}
}
