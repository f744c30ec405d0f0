package run

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

func TestRenderBar(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    progressSnapshot
		want string
	}{
		{"start", progressSnapshot{Elapsed: 0, Total: 1000},
			"[>                       ] 0/1000   0.0%  0.0 samples/s  ETA ?  0 failed  0 in flight"},
		{"half", progressSnapshot{Elapsed: 10 * time.Second, Done: 500, Failed: 3, Total: 1000, InFlight: 64},
			"[============>           ] 500/1000  50.0%  50.0 samples/s  ETA 10s  3 failed  64 in flight"},
		{"done", progressSnapshot{Elapsed: 20 * time.Second, Done: 1000, Total: 1000},
			"[========================] 1000/1000 100.0%  50.0 samples/s  ETA 0s  0 failed  0 in flight"},
		{"unknown total", progressSnapshot{Elapsed: 4500 * time.Millisecond, Done: 9},
			"9 done  2.0 samples/s  elapsed 4s  0 failed  0 in flight"},
		// A SingleStream run issues past its min_query_count estimate:
		// no bar over 100%.
		{"past the estimate", progressSnapshot{Elapsed: 2 * time.Second, Done: 30, Total: 20, InFlight: 1},
			"30 done  15.0 samples/s  elapsed 2s  0 failed  1 in flight"},
	} {
		if got := renderBar(tc.s); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestExpectedSamples(t *testing.T) {
	for _, tc := range []struct {
		name        string
		s           loadgen.TestSettings
		total, perf int
		want        int64
	}{
		{"accuracy issues the QSL", loadgen.TestSettings{Mode: loadgen.AccuracyOnly, Scenario: loadgen.Offline, MinQueryCount: 13368}, 40, 40, 40},
		{"offline min_query_count", loadgen.TestSettings{Scenario: loadgen.Offline, MinQueryCount: 13368, MinDurationMs: 600000, OfflineExpectedQPS: 1}, 20, 20, 13368},
		{"offline rounded to passes", loadgen.TestSettings{Scenario: loadgen.Offline, MinQueryCount: 25, SampleConcatenatePermutation: true}, 20, 20, 40},
		{"offline duration", loadgen.TestSettings{Scenario: loadgen.Offline, MinQueryCount: 1, MinDurationMs: 10000, OfflineExpectedQPS: 7.5}, 100, 100, 75},
		{"server", loadgen.TestSettings{Scenario: loadgen.Server, MinQueryCount: 100, MinDurationMs: 600000, ServerTargetQPS: 2}, 10, 10, 1200},
		// loadgen.cc pads Server's min_queries to whole passes over the
		// loaded samples and bumps it a pass at a time: 320 -> 400.
		{"server rounded to passes", loadgen.TestSettings{Scenario: loadgen.Server, MinQueryCount: 100, MinDurationMs: 10000, ServerTargetQPS: 32, SampleConcatenatePermutation: true}, 100, 100, 400},
		{"server min_query_count rounded", loadgen.TestSettings{Scenario: loadgen.Server, MinQueryCount: 130, MinDurationMs: 1000, ServerTargetQPS: 1, SampleConcatenatePermutation: true}, 100, 100, 200},
		{"single stream lower bound", loadgen.TestSettings{Scenario: loadgen.SingleStream, MinQueryCount: 64}, 10, 10, 64},
		{"multi stream", loadgen.TestSettings{Scenario: loadgen.MultiStream, MinQueryCount: 10, MultiStreamSamplesPerQuery: 8}, 10, 10, 80},
	} {
		if got := expectedSamples(tc.s, tc.total, tc.perf); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// progressRun runs a short llama3_1-8b Offline test that takes about a
// second (slow fake tokens, few slots), with progress written to w.
func progressRun(t *testing.T, w io.Writer) *Report {
	t.Helper()
	const n = 16
	b := mustBenchmark(t, "llama3_1-8b")
	url, _ := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 4, TTFT: 60 * time.Millisecond, TPOT: 20 * time.Millisecond, MaxConcurrency: 4})
	rep, err := Run(context.Background(), Options{
		Benchmark: b, Scenario: loadgen.Offline, Mode: loadgen.PerformanceOnly,
		Data: tokenFixture(t, b.Name, n), Endpoints: []string{url}, OutputDir: t.TempDir(),
		TotalSampleCount: n, Concurrency: 4,
		Settings:      []string{"min_duration=0", "min_query_count=16", "performance_sample_count_override=16"},
		Progress:      w,
		ProgressEvery: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.Stats.Completed != n {
		t.Fatalf("%d completed, want %d", rep.Stats.Completed, n)
	}
	return rep
}

// TestProgressPlainLines checks that a writer that is not a terminal (a
// batch log) gets periodic plain lines and no bar or control characters.
func TestProgressPlainLines(t *testing.T) {
	loadgentest.Require(t)
	var buf bytes.Buffer
	progressRun(t, &buf)
	out := buf.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 {
		t.Fatalf("want a line every 200ms over a ~1s run, got:\n%s", out)
	}
	for _, l := range lines {
		if !strings.Contains(l, "samples/s") || !strings.Contains(l, "done ") {
			t.Errorf("not a progress line: %q", l)
		}
	}
	if strings.ContainsAny(out, "\r\x1b") || strings.Contains(out, "ETA") {
		t.Errorf("plain progress carries terminal controls or the bar:\n%q", out)
	}
}

// TestProgressBarOnTerminal runs a test with progress on a pseudo-terminal
// and checks that it draws the live bar, redrawn in place, ending at
// 16/16 on its own line.
func TestProgressBarOnTerminal(t *testing.T) {
	loadgentest.Require(t)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	var (
		mu  sync.Mutex
		buf bytes.Buffer
	)
	read := make(chan struct{})
	go func() {
		defer close(read)
		b := make([]byte, 4096)
		for {
			n, err := ptmx.Read(b)
			mu.Lock()
			buf.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	progressRun(t, tty)
	tty.Close()
	// The reader sees EIO once the terminal side is closed and drained.
	select {
	case <-read:
	case <-time.After(5 * time.Second):
		t.Fatal("the pseudo-terminal was not drained")
	}
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if n := strings.Count(out, "\r["); n < 2 {
		t.Errorf("want the bar redrawn in place (\\r[…) at least twice, got %d:\n%q", n, out)
	}
	final := regexp.MustCompile(`\r\[=+\] 16/16 100\.0%  [0-9.]+ samples/s  ETA 0s  0 failed  0 in flight\x1b\[K\r?\n`)
	if !final.MatchString(out) {
		t.Errorf("no final full bar on its own line:\n%q", out)
	}
}
