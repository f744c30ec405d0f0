package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
)

// realLogs runs a short real LoadGen test in mode against the fake endpoint
// and returns the directory holding its logs.
func realLogs(t *testing.T, mode loadgen.Mode) string {
	t.Helper()
	d, _ := q3vlFixture(t, 20)
	url, _ := startFake(t, fake.Config{Answers: fakeAnswers(d), Accuracy: 1, TTFT: 10 * time.Millisecond, MaxConcurrency: 8})
	out := t.TempDir()
	if _, err := Run(context.Background(), Options{
		Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
		Scenario:  loadgen.Offline,
		Mode:      mode,
		Data:      d,
		Endpoints: []string{url},
		OutputDir: out,
		Settings:  quick,
	}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out
}

// copyLogs copies LoadGen's three checked logs from src into a new directory.
func copyLogs(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range []string{mllog.SummaryFile, mllog.DetailFile, mllog.AccuracyFile} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// cutLog cuts the file to its first n bytes (n < 0: drops -n bytes from
// its end), as a full disk or a crashed writer leaves it.
func cutLog(t *testing.T, path string, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n < 0 {
		n = len(b) + n
	}
	if err := os.WriteFile(path, b[:n], 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineStart returns the byte offset where line (from 1) of the file begins.
func lineStart(t *testing.T, path string, line int) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := 0
	for i := 1; i < line; i++ {
		j := strings.IndexByte(string(b[off:]), '\n')
		if j < 0 {
			t.Fatalf("%s has fewer than %d lines", path, line)
		}
		off += j + 1
	}
	return off
}

// TestCheckLogsOnRealLogs: the logs of a real performance run and of a real
// accuracy run pass; each log damaged the way a full disk or a crash leaves
// it is an error naming that file (and the line, for the detail log).
func TestCheckLogsOnRealLogs(t *testing.T) {
	loadgentest.Require(t)
	perf := realLogs(t, loadgen.PerformanceOnly)
	acc := realLogs(t, loadgen.AccuracyOnly)
	if _, err := checkLogs(perf, loadgen.PerformanceOnly); err != nil {
		t.Fatalf("a real performance run's logs: %v", err)
	}
	if _, err := checkLogs(acc, loadgen.AccuracyOnly); err != nil {
		t.Fatalf("a real accuracy run's logs: %v", err)
	}

	cases := []struct {
		name   string
		src    string
		mode   loadgen.Mode
		damage func(t *testing.T, dir string)
		want   []string
	}{
		{"summary cut before its verdict", perf, loadgen.PerformanceOnly, func(t *testing.T, dir string) {
			cutLog(t, filepath.Join(dir, mllog.SummaryFile), 40)
		}, []string{mllog.SummaryFile, "Result is"}},
		{"detail log cut inside line 5", perf, loadgen.PerformanceOnly, func(t *testing.T, dir string) {
			p := filepath.Join(dir, mllog.DetailFile)
			cutLog(t, p, lineStart(t, p, 5)+20)
		}, []string{mllog.DetailFile, "line 5"}},
		{"detail log with a line not MLLOG", acc, loadgen.AccuracyOnly, func(t *testing.T, dir string) {
			p := filepath.Join(dir, mllog.DetailFile)
			b, _ := os.ReadFile(p)
			off := lineStart(t, p, 3)
			os.WriteFile(p, append(append(append([]byte{}, b[:off]...), "garbage\n"...), b[off:]...), 0o644)
		}, []string{mllog.DetailFile, "line 3", ":::MLLOG"}},
		{"detail log emptied", perf, loadgen.PerformanceOnly, func(t *testing.T, dir string) {
			cutLog(t, filepath.Join(dir, mllog.DetailFile), 0)
		}, []string{mllog.DetailFile}},
		{"accuracy log without its closing bracket", acc, loadgen.AccuracyOnly, func(t *testing.T, dir string) {
			cutLog(t, filepath.Join(dir, mllog.AccuracyFile), -3)
		}, []string{mllog.AccuracyFile, "truncated"}},
		{"performance run's accuracy log cut", perf, loadgen.PerformanceOnly, func(t *testing.T, dir string) {
			cutLog(t, filepath.Join(dir, mllog.AccuracyFile), 1)
		}, []string{mllog.AccuracyFile}},
		{"accuracy log missing", acc, loadgen.AccuracyOnly, func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, mllog.AccuracyFile))
		}, []string{mllog.AccuracyFile}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyLogs(t, c.src)
			if _, err := checkLogs(dir, c.mode); err != nil {
				t.Fatalf("the undamaged copy: %v", err)
			}
			c.damage(t, dir)
			_, err := checkLogs(dir, c.mode)
			if err == nil {
				t.Fatal("damaged log passed")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestRunWithDamagedLogIsNotValid: a log damaged after LoadGen's test ended
// makes Run return an error naming the file and line, and the run's outcome
// INVALID with that reason, though LoadGen said VALID and no sample failed.
func TestRunWithDamagedLogIsNotValid(t *testing.T) {
	loadgentest.Require(t)
	afterTestHook = func(dir string) {
		p := filepath.Join(dir, mllog.DetailFile)
		cutLog(t, p, lineStart(t, p, 4)+10)
	}
	t.Cleanup(func() { afterTestHook = nil })
	d, _ := q3vlFixture(t, 20)
	url, _ := startFake(t, fake.Config{Answers: fakeAnswers(d), Accuracy: 1, TTFT: 10 * time.Millisecond, MaxConcurrency: 8})
	rep, err := Run(context.Background(), Options{
		Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
		Scenario:  loadgen.Offline,
		Mode:      loadgen.PerformanceOnly,
		Data:      d,
		Endpoints: []string{url},
		OutputDir: t.TempDir(),
		Settings:  quick,
	})
	if err == nil || !strings.Contains(err.Error(), mllog.DetailFile) || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("Run error %v, want one naming %s, line 4", err, mllog.DetailFile)
	}
	if rep == nil {
		t.Fatal("no report")
	}
	if rep.Stats.Failed != 0 {
		t.Fatalf("%d samples failed; the test wants a clean run", rep.Stats.Failed)
	}
	if rep.Outcome != record.Invalid || !strings.Contains(rep.OutcomeReason, mllog.DetailFile) {
		t.Errorf("outcome %q (%q), want %q naming %s", rep.Outcome, rep.OutcomeReason, record.Invalid, mllog.DetailFile)
	}
}
