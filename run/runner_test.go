package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl"
	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/eval"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// These tests run the whole harness: a synthesized dataset in the real
// format, the real LoadGen through the cgo bridge, the worker pool over
// loopback HTTP, and the project's fake endpoint.

func mustBenchmark(t testing.TB, name string) benchmark.Benchmark {
	t.Helper()
	b, err := benchmark.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// q3vlFixture writes n synthetic Qwen3-VL samples and opens them.
func q3vlFixture(t testing.TB, n int) (*qwen3vl.Dataset, string) {
	t.Helper()
	dir := t.TempDir()
	b := mustBenchmark(t, "qwen3-vl-235b-a22b")
	if _, err := b.Data.Synth(dir, n, 7); err != nil {
		t.Fatal(err)
	}
	d, err := b.OpenDataset([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d.(*qwen3vl.Dataset), dir
}

// fakeAnswers gives the fake endpoint the answers of d.
func fakeAnswers(d benchmark.FakeAnswerer) []fake.Answer {
	answers := d.FakeAnswers()
	t := make([]fake.Answer, len(answers))
	for i, a := range answers {
		t[i] = fake.Answer(a)
	}
	return t
}

func startFake(t *testing.T, cfg fake.Config) (string, *fake.Server) {
	t.Helper()
	srv, url := faketest.Start(t, cfg)
	return url, srv
}

// quick are user.conf settings that keep a test short: LoadGen's official
// minimums are ten minutes and the whole dataset.
var quick = []string{"min_duration=200", "min_query_count=1", "target_qps=2000"}

func TestQ3VLOfflineAccuracyEndToEnd(t *testing.T) {
	loadgentest.Require(t)
	const n = 40
	d, _ := q3vlFixture(t, n)
	url, srv := startFake(t, fake.Config{Answers: fakeAnswers(d), Accuracy: 1})
	out := t.TempDir()
	rep, err := Run(context.Background(), Options{
		Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
		Scenario:  loadgen.Offline,
		Mode:      loadgen.AccuracyOnly,
		Data:      d,
		Endpoints: []string{url + "/v1"},
		OutputDir: out,
		Settings:  quick,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep.Total != n || rep.Stream {
		t.Errorf("total %d stream %v, want %d false (qwen3-vl has use_token_latencies 0)", rep.Total, rep.Stream, n)
	}
	if rep.Stats.Completed != n || rep.Stats.Failed != 0 {
		t.Errorf("stats %+v, want %d completed, 0 failed", rep.Stats, n)
	}
	// The n samples, and the preflight's one probe request before them.
	if got := srv.Stats().Requests["/v1/chat/completions"]; got != n+1 {
		t.Errorf("fake saw %d chat requests, want %d (%d samples and the preflight probe)", got, n+1, n)
	}
	entries, err := mllog.ReadAccuracy(filepath.Join(out, "mlperf_log_accuracy.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for _, e := range entries {
		seen[e.QSLIndex]++
	}
	for i := 0; i < n; i++ {
		if seen[i] != 1 {
			t.Errorf("sample %d logged %d times, want once", i, seen[i])
		}
	}
	// The fake answered every sample with its ground truth, so the
	// reference metrics are perfect.
	res, err := eval.Evaluate(entries, d.Truth())
	if err != nil {
		t.Fatal(err)
	}
	if res.CategoryF1 != 1 || res.BrandScore != 1 || res.IsSecondhandF1 != 1 || len(res.Invalid) != 0 {
		t.Errorf("evaluation %+v, want perfect scores", res)
	}
	conf, err := os.ReadFile(rep.UserConf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conf), "qwen3-vl-235b-a22b.Offline.min_duration = 200") {
		t.Errorf("user.conf does not carry the --setting override:\n%s", conf)
	}
	detail, err := os.ReadFile(filepath.Join(out, "mlperf_log_detail.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(detail), `"key": "effective_min_duration_ms", "value": 200`) {
		t.Errorf("detail log does not show the min_duration override")
	}
}

func TestQ3VLOfflinePerformanceValid(t *testing.T) {
	loadgentest.Require(t)
	d, _ := q3vlFixture(t, 20)
	// At most 8 answers per 10 ms (800/s), so the ~440 samples quick's
	// target_qps asks for outlast its 200 ms min_duration however fast the
	// machine: an instant fake (5,000+/s without -race) ends the run early,
	// and LoadGen rightly calls that INVALID.
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
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !rep.Summary.Valid {
		t.Errorf("result %q, want VALID; metrics %v", rep.Summary.Result, rep.Summary.Metrics)
	}
	if rep.Stats.Issued == 0 || rep.Stats.Issued != rep.Stats.Completed {
		t.Errorf("issued %d completed %d", rep.Stats.Issued, rep.Stats.Completed)
	}
}

// TestFailuresCompleteEverySampleOnce injects every fault mode and checks
// that LoadGen still sees each sample exactly once and the run reports the
// failures.
func TestFailuresCompleteEverySampleOnce(t *testing.T) {
	loadgentest.Require(t)
	const n = 30
	d, _ := q3vlFixture(t, n)
	for _, mode := range []string{fake.FailStatus, fake.FailReset, fake.FailGarbage, fake.FailCut, fake.FailStall} {
		t.Run(mode, func(t *testing.T) {
			// A reset comes before any answer, so the pool sends the
			// sample again, up to three times: at 0.3 a sample fails only
			// when four draws in a row reset, which 30 samples often never
			// do (the test then saw no failure, 1 run in 12). Every
			// attempt resets instead.
			rate := 0.3
			if mode == fake.FailReset {
				rate = 1
			}
			url, srv := startFake(t, fake.Config{Answers: fakeAnswers(d), Accuracy: 1, FailRate: rate, FailMode: mode, Seed: 3})
			out := t.TempDir()
			// Only stalls need a timeout to end; elsewhere a short one
			// would turn slow answers on a loaded machine into failures
			// the fake did not inject.
			timeout := time.Duration(0)
			if mode == fake.FailStall {
				timeout = 4 * time.Second
			}
			rep, err := Run(context.Background(), Options{
				Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
				Scenario:  loadgen.Offline,
				Mode:      loadgen.AccuracyOnly,
				Data:      d,
				Endpoints: []string{url},
				// Faults are injected at random: the probe would take a draw.
				SkipPreflight: true,
				OutputDir:     out,
				Settings:      quick,
				Timeout:       timeout,
			})
			if !errors.Is(err, ErrFailures) {
				t.Fatalf("Run error %v, want ErrFailures", err)
			}
			faults := int64(srv.Stats().Faults[mode])
			if faults == 0 {
				t.Fatalf("the fake injected no %s fault", mode)
			}
			// Every fault fails its sample unless it dropped a reused
			// connection before any response byte, which the pool absorbs
			// by sending the request once more on a new one (Stats.Retries;
			// then the fake decides afresh). Without retries, failures
			// equal faults.
			if st := rep.Stats; st.Failed > faults || st.Failed+st.Retries < faults {
				t.Errorf("%d failures counted (%d retries), fake injected %d", st.Failed, st.Retries, faults)
			}
			entries, err := mllog.ReadAccuracy(filepath.Join(out, "mlperf_log_accuracy.json"))
			if err != nil {
				t.Fatal(err)
			}
			count := make([]int, n)
			empty := 0
			for _, e := range entries {
				count[e.QSLIndex]++
				if len(e.Data) == 0 {
					empty++
				}
			}
			if diff := cmp.Diff(ones(n), count); diff != "" {
				t.Errorf("samples not logged exactly once (-want +got):\n%s", diff)
			}
			if int64(empty) != rep.Stats.Failed {
				t.Errorf("%d empty responses, want one per failed sample (%d; %d faults)", empty, rep.Stats.Failed, faults)
			}
			for _, f := range rep.Stats.FirstFailures {
				if f.Index < 0 || f.Index >= n || f.Reason == "" {
					t.Errorf("failure record %+v lacks a sample index or reason", f)
				}
			}
		})
	}
}

func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func TestBadUserConfIsAnErrorBeforeTheTest(t *testing.T) {
	d, _ := q3vlFixture(t, 5)
	conf := filepath.Join(t.TempDir(), "user.conf")
	if err := os.WriteFile(conf, []byte("*.Offline.target_qps = fast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Options{
		Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
		Scenario:  loadgen.Offline,
		Data:      d,
		Endpoints: []string{"http://127.0.0.1:9"},
		OutputDir: t.TempDir(),
		UserConf:  conf,
	})
	if err == nil || !strings.Contains(err.Error(), "user.conf") {
		t.Fatalf("error %v, want one naming user.conf", err)
	}
	_, err = Run(context.Background(), Options{
		Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
		Data:      d,
		Endpoints: []string{"http://127.0.0.1:9"},
		OutputDir: t.TempDir(),
		Settings:  []string{"target qps=3"},
	})
	if err == nil || !strings.Contains(err.Error(), "--setting") {
		t.Fatalf("error %v, want one naming --setting", err)
	}
}

// TestBadUserConfNamesTheUsersLine: a malformed line of --user-conf is
// reported at the user's file and its own line number, not at the generated
// user.conf (another name, and one line further down past its header); a bad
// --setting value is reported as that --setting.
func TestBadUserConfNamesTheUsersLine(t *testing.T) {
	d, _ := q3vlFixture(t, 5)
	conf := filepath.Join(t.TempDir(), "my.conf")
	text := "# my settings\n*.Offline.min_duration = 1000\n*.Offline.target_qps = fast\n"
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	_, err := Run(context.Background(), Options{
		Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
		Scenario:  loadgen.Offline,
		Data:      d,
		Endpoints: []string{"http://127.0.0.1:9"},
		OutputDir: out,
		UserConf:  conf,
	})
	if err == nil || !strings.Contains(err.Error(), conf+":3:") {
		t.Fatalf("error %v, want one naming %s:3", err, conf)
	}
	if strings.Contains(err.Error(), filepath.Join(out, "user.conf")) {
		t.Errorf("error %v names the generated user.conf", err)
	}
	_, err = Run(context.Background(), Options{
		Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
		Scenario:  loadgen.Offline,
		Data:      d,
		Endpoints: []string{"http://127.0.0.1:9"},
		OutputDir: out,
		Settings:  []string{"min_duration=1000", "target_qps=fast"},
	})
	if err == nil || !strings.Contains(err.Error(), `--setting "target_qps=fast"`) {
		t.Fatalf("error %v, want one naming --setting \"target_qps=fast\"", err)
	}
	if strings.Contains(err.Error(), filepath.Join(out, "user.conf")) {
		t.Errorf("error %v names the generated user.conf", err)
	}
}

// TestUserConfNeverEmpty: with no --user-conf and no --setting the user.conf
// LoadGen reads (and the results tree files) is still non-empty, since the
// submission checker rejects an empty one, and it parses.
func TestUserConfNeverEmpty(t *testing.T) {
	loadgentest.Require(t)
	b, err := composeUserConf("", nil, nil, "llama3_1-8b", "Server")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Fatal("empty user.conf")
	}
	path := filepath.Join(t.TempDir(), "user.conf")
	os.WriteFile(path, b, 0o644)
	if _, err := loadgen.SettingsFromConfig("llama3_1-8b", loadgen.Server, loadgen.PerformanceOnly, path); err != nil {
		t.Errorf("LoadGen rejects the composed user.conf %q: %v", b, err)
	}
}
