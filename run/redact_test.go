package run

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// syncBuffer is a bytes.Buffer the logger and the progress line may write
// to from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// debugLogger logs every level to w, as --log-level debug does.
func debugLogger(w *syncBuffer) *zap.Logger {
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	return zap.New(zapcore.NewCore(enc, zapcore.AddSync(w), zapcore.DebugLevel))
}

// TestQueryKeyNeverLoggedNorWritten: a key in the endpoint's query string
// reaches the server but no log line (at debug level, with and without
// preflight, with failing samples), progress line or file of the run,
// while the endpoint still shows, redacted.
func TestQueryKeyNeverLoggedNorWritten(t *testing.T) {
	loadgentest.Require(t)
	const bench, secret = "llama3_1-8b", "S3cretQ"
	d := tokenFixture(t, bench, 20)
	url, srv := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, OutputTokens: 4, FailRate: 0.3, Seed: 3})
	for _, skip := range []bool{true, false} {
		var logs syncBuffer
		out := t.TempDir()
		_, err := Run(context.Background(), Options{Benchmark: mustBenchmark(t, bench), Scenario: loadgen.Offline, Mode: loadgen.PerformanceOnly,
			Data: d, Endpoints: []string{url + "/v1?api_key=" + secret}, OutputDir: out, Settings: quick, SkipPreflight: skip,
			Logger: debugLogger(&logs), Progress: &logs, ProgressEvery: time.Millisecond, EngineMetricsEvery: 10 * time.Millisecond})
		if err == nil {
			t.Fatalf("skip preflight %v: the run passed with 30%% of its samples failing", skip)
		}
		if strings.Contains(logs.String()+err.Error(), secret) {
			t.Errorf("skip preflight %v: the log or the error shows the key:\n%s\n%v", skip, logs.String(), err)
		}
		if !strings.Contains(logs.String(), "api_key=REDACTED") {
			t.Errorf("skip preflight %v: no log line names the endpoint:\n%s", skip, logs.String())
		}
		filepath.WalkDir(out, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(secret)) {
				t.Errorf("skip preflight %v: %s holds the key", skip, p)
			}
			return nil
		})
	}
	if srv.Stats().Requests["/v1/completions"] == 0 {
		t.Fatal("no request reached the server")
	}
	// A probe request that fails is reported with the endpoint it went to.
	dead, _ := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, FailRate: 1})
	_, err := Run(context.Background(), Options{Benchmark: mustBenchmark(t, bench), Scenario: loadgen.Offline, Mode: loadgen.PerformanceOnly,
		Data: d, Endpoints: []string{dead + "/v1?api_key=" + secret}, OutputDir: t.TempDir(), Settings: quick})
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "api_key=REDACTED") {
		t.Errorf("failed probe: %v, want the endpoint named without its key", err)
	}
}

// TestEngineStartedHidesKey: the log line of a launched engine shows its
// command line without the value of a key flag (vLLM's --api-key).
func TestEngineStartedHidesKey(t *testing.T) {
	const secret = "S3cretK"
	b := mustBenchmark(t, "llama3_1-8b")
	files, err := b.Data.Synth(t.TempDir(), 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	o := Options{Benchmark: b, Scenario: loadgen.Offline, Dataset: files, OutputDir: t.TempDir(), Logger: debugLogger(&logs)}
	// An engine that exits at once: only its start is logged here.
	s, err := Open(&o, &Launch{Spec: engine.Spec{Kind: engine.VLLM, Command: "true", Port: 1, Args: []string{"--api-key", secret}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if l := logs.String(); strings.Contains(l, secret) || !strings.Contains(l, "engine started") {
		t.Errorf("want the engine's start logged without its key:\n%s", l)
	}
}

// TestOpenPrecheckStopsTheEngine: a precheck that refuses the run, made
// with the dataset open while a launched engine loads, stops that engine
// (its whole process group) before Open returns.
func TestOpenPrecheckStopsTheEngine(t *testing.T) {
	b := mustBenchmark(t, "llama3_1-8b")
	files, err := b.Data.Synth(t.TempDir(), 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	o := Options{Benchmark: b, Scenario: loadgen.Offline, Dataset: files, OutputDir: t.TempDir(), Logger: zap.NewNop()}
	refused := errors.New("refused")
	var checked int
	_, err = Open(&o, &Launch{Spec: engine.Spec{Kind: engine.Command, Command: "echo $$ > " + pidFile + "; exec sleep 60", Port: 1}},
		func(d benchmark.Dataset) error {
			checked = d.Len()
			// Refuse once the engine's shell runs, so that its pid is known.
			for i := 0; i < 1000 && !fileExists(pidFile); i++ {
				time.Sleep(10 * time.Millisecond)
			}
			return refused
		})
	if !errors.Is(err, refused) || checked != 4 {
		t.Fatalf("Open: %v after checking %d samples; want the precheck's refusal over the 4 samples", err, checked)
	}
	pidText, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the engine never started: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the engine (pid %d) still runs after the refusal: %v", pid, err)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
