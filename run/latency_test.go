package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/sut"
)

// TestOfflineLogsNoHarnessLatency: in Offline, where every sample is
// issued at once, the harness's parts are the workers' start-up burst and
// the log does not call them what the harness added; in Server it does.
// The breakdown file is written in both.
func TestOfflineLogsNoHarnessLatency(t *testing.T) {
	t.Parallel()
	for _, sc := range []loadgen.Scenario{loadgen.Offline, loadgen.Server} {
		var logs syncBuffer
		dir := t.TempDir()
		recordLatency(dir, sc, false, sut.Breakdown{}, debugLogger(&logs))
		if said := strings.Contains(logs.String(), "latency the harness added"); said != (sc != loadgen.Offline) {
			t.Errorf("%s: log %q", sc, logs.String())
		}
		if _, err := os.Stat(filepath.Join(dir, breakdown.File)); err != nil {
			t.Errorf("%s: %v", sc, err)
		}
	}
}

// TestOverwriteDropsAbortedSummary: a test run into a folder where an
// earlier test was aborted (--overwrite) leaves only its own summary, not
// the earlier mlperf_log_summary.aborted.txt beside it.
func TestOverwriteDropsAbortedSummary(t *testing.T) {
	loadgentest.Require(t)
	const bench = "llama3_1-8b"
	out := t.TempDir()
	stale := filepath.Join(out, abortedName(mllog.SummaryFile))
	if err := os.WriteFile(stale, []byte("ABORTED\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, _ := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, OutputTokens: 4})
	if _, err := Run(context.Background(), Options{Benchmark: mustBenchmark(t, bench), Scenario: loadgen.Offline, Mode: loadgen.PerformanceOnly,
		Data: tokenFixture(t, bench, 10), Endpoints: []string{url}, OutputDir: out, Settings: quick, SkipPreflight: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the earlier aborted summary is still there (stat: %v)", err)
	}
	if _, err := os.Stat(filepath.Join(out, mllog.SummaryFile)); err != nil {
		t.Errorf("no summary of the new test: %v", err)
	}
}
