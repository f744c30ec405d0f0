//go:build cgo

package loadgen

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testQSL is an in-memory QSL of n samples.
type testQSL struct {
	n, perf int
	mu      sync.Mutex
	loaded  map[int]bool
	loadErr error
}

func newTestQSL(n, perf int) *testQSL { return &testQSL{n: n, perf: perf, loaded: map[int]bool{}} }

func (q *testQSL) Name() string                { return "testQSL" }
func (q *testQSL) TotalSampleCount() int       { return q.n }
func (q *testQSL) PerformanceSampleCount() int { return q.perf }
func (q *testQSL) LoadSamplesToRam(idx []int) error {
	if q.loadErr != nil {
		return q.loadErr
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, i := range idx {
		if i < 0 || i >= q.n {
			return fmt.Errorf("index %d out of range", i)
		}
		q.loaded[i] = true
	}
	return nil
}
func (q *testQSL) UnloadSamplesFromRam(idx []int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, i := range idx {
		delete(q.loaded, i)
	}
	return nil
}

// payload is the deterministic response of QSL sample i.
func payload(i int) []byte { return []byte(fmt.Sprintf("sample-%d", i)) }

// echoSUT completes every sample from a goroutine with payload(index), as a
// real SUT would. With tokens it reports the first token before completing.
type echoSUT struct {
	c      Completer
	tokens bool
	// delay is slept once per IssueQuery before completing (an Offline
	// "inference" long enough to meet min_duration).
	delay  time.Duration
	wg     sync.WaitGroup
	issued atomic.Int64
	errMu  sync.Mutex
	errs   []error
}

func (s *echoSUT) Name() string { return "echoSUT" }
func (s *echoSUT) IssueQuery(qs []QuerySample) {
	s.issued.Add(int64(len(qs)))
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		time.Sleep(s.delay)
		rs := make([]Response, len(qs))
		for i, q := range qs {
			rs[i] = Response{ID: q.ID, Data: payload(q.Index), NTokens: 3}
		}
		if s.tokens {
			ft := make([]Response, len(qs))
			for i, q := range qs {
				ft[i] = Response{ID: q.ID, Data: []byte{byte(q.Index)}}
			}
			s.record(s.c.FirstTokenComplete(ft))
		}
		s.record(s.c.QuerySamplesComplete(rs))
	}()
}
func (s *echoSUT) FlushQueries() {}

func (s *echoSUT) record(err error) {
	if err != nil {
		s.errMu.Lock()
		s.errs = append(s.errs, err)
		s.errMu.Unlock()
	}
}

func (s *echoSUT) check(t *testing.T) {
	t.Helper()
	s.wg.Wait()
	for _, err := range s.errs {
		t.Errorf("completer: %v", err)
	}
}

func quickSettings(sc Scenario, mode Mode) TestSettings {
	s := DefaultTestSettings()
	s.Scenario, s.Mode = sc, mode
	s.MinDurationMs = 250
	// Enough queries for LoadGen's early-stopping estimate even when a
	// loaded machine slows each round trip: SingleStream's p90 needs 64
	// queries, MultiStream's p99 662.
	s.MinQueryCount = 100
	if sc == MultiStream {
		s.MinQueryCount = 700
	}
	s.SingleStreamExpectedLatencyNs = 10000
	s.MultiStreamExpectedLatencyNs = 10000
	s.MultiStreamSamplesPerQuery = 4
	s.ServerTargetQPS = 3000
	// Generous latency bounds: the tests share two cores with other work,
	// and VALID must not depend on scheduling luck.
	s.ServerTargetLatencyNs = 2e9
	s.ServerTTFTLatencyNs = 2e9
	s.ServerTPOTLatencyNs = 2e9
	s.OfflineExpectedQPS = 1000
	return s
}

func quickLog(t *testing.T) LogSettings {
	l := DefaultLogSettings()
	l.OutDir = t.TempDir()
	l.EnableTrace = false
	return l
}

func readLog(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "mlperf_log_"+name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// detailValue returns the value of a :::MLLOG key in the detail log.
func detailValue(t *testing.T, detail, key string) string {
	t.Helper()
	for _, line := range strings.Split(detail, "\n") {
		i := strings.Index(line, "{")
		if !strings.HasPrefix(line, ":::MLLOG") || i < 0 {
			continue
		}
		var rec struct {
			Key   string          `json:"key"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal([]byte(line[i:]), &rec); err != nil {
			t.Fatalf("detail log line %q: %v", line, err)
		}
		if rec.Key == key {
			return string(rec.Value)
		}
	}
	t.Fatalf("detail log has no %q", key)
	return ""
}

// detailErrors returns the detail log lines LoadGen flagged as errors.
func detailErrors(detail string) []string {
	var errs []string
	for _, line := range strings.Split(detail, "\n") {
		if strings.Contains(line, `"is_error": true`) {
			errs = append(errs, line)
		}
	}
	return errs
}

type accEntry struct {
	SeqID int    `json:"seq_id"`
	QSL   int    `json:"qsl_idx"`
	Data  string `json:"data"`
	// TokData is the first token's bytes (use_token_latencies outside
	// Offline only).
	TokData string `json:"token_data"`
	Tok     int64  `json:"token_count"`
}

func readAccuracy(t *testing.T, dir string) []accEntry {
	t.Helper()
	var es []accEntry
	if err := json.Unmarshal([]byte(readLog(t, dir, "accuracy.json")), &es); err != nil {
		t.Fatalf("accuracy log: %v", err)
	}
	return es
}

func summaryInt(t *testing.T, summary, label string) int {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(label) + `\s*:\s*(\d+)`).FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("summary has no %q:\n%s", label, summary)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func TestOfflineAccuracyLogsEverySampleOnce(t *testing.T) {
	const n = 50
	qsl := newTestQSL(n, n)
	sut := &echoSUT{c: Native()}
	log := quickLog(t)
	if err := StartTest(sut, qsl, quickSettings(Offline, AccuracyOnly), log, "no-audit.config"); err != nil {
		t.Fatal(err)
	}
	sut.check(t)
	es := readAccuracy(t, log.OutDir)
	seen := map[int]int{}
	for _, e := range es {
		seen[e.QSL]++
		if want := strings.ToUpper(hex.EncodeToString(payload(e.QSL))); e.Data != want {
			t.Errorf("qsl_idx %d: data %s, want %s", e.QSL, e.Data, want)
		}
	}
	for i := 0; i < n; i++ {
		if seen[i] != 1 {
			t.Errorf("qsl_idx %d logged %d times, want 1", i, seen[i])
		}
	}
	if len(es) != n {
		t.Errorf("%d accuracy entries, want %d", len(es), n)
	}
}

func TestStartTestRefusesConcurrentTest(t *testing.T) {
	if !testMu.TryLock() {
		t.Fatal("a test is running")
	}
	defer testMu.Unlock()
	err := StartTest(&echoSUT{c: Native()}, newTestQSL(4, 4), quickSettings(Offline, PerformanceOnly), quickLog(t), "")
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("err = %v, want ErrBusy", err)
	}
}

// TestMain checks after all tests that every cgo.Handle was deleted.
func TestMain(m *testing.M) {
	code := m.Run()
	if n := liveHandles.Load(); n != 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d cgo handles leaked\n", n)
		code = 1
	}
	os.Exit(code)
}

func TestScenariosAndModes(t *testing.T) {
	const n = 48 // a multiple of MultiStream's 4 samples per query
	for _, sc := range []Scenario{SingleStream, MultiStream, Server, Offline} {
		for _, mode := range []Mode{AccuracyOnly, PerformanceOnly} {
			t.Run(sc.String()+"/"+mode.String(), func(t *testing.T) {
				sut := &echoSUT{c: Native()}
				if sc == Offline && mode == PerformanceOnly {
					sut.delay = 300 * time.Millisecond
				}
				log := quickLog(t)
				if err := StartTest(sut, newTestQSL(n, n), quickSettings(sc, mode), log, ""); err != nil {
					t.Fatal(err)
				}
				sut.check(t)
				detail := readLog(t, log.OutDir, "detail.txt")
				if got := detailValue(t, detail, "effective_scenario"); got != strconv.Quote(sc.String()) {
					t.Errorf("effective_scenario = %s, want %q", got, sc)
				}
				if errs := detailErrors(detail); len(errs) != 0 {
					t.Errorf("LoadGen logged errors:\n%s", strings.Join(errs, "\n"))
				}
				// LoadGen 6.0 always logs loadgen_version and the file hashes.
				if v := detailValue(t, detail, "loadgen_version"); !strings.Contains(v, ".") {
					t.Errorf("loadgen_version = %s", v)
				}
				if v := detailValue(t, detail, "loadgen_file_sha1"); !strings.Contains(v, "loadgen.cc") {
					t.Errorf("loadgen_file_sha1 = %.200s", v)
				}
				if mode == AccuracyOnly {
					es := readAccuracy(t, log.OutDir)
					count := map[int]int{}
					for _, e := range es {
						count[e.QSL]++
						if want := strings.ToUpper(hex.EncodeToString(payload(e.QSL))); e.Data != want {
							t.Errorf("qsl_idx %d: data %s, want %s", e.QSL, e.Data, want)
						}
					}
					for i := 0; i < n; i++ {
						if count[i] != 1 {
							t.Errorf("qsl_idx %d has %d accuracy entries, want 1", i, count[i])
						}
					}
					if len(es) != n || int(sut.issued.Load()) != n {
						t.Errorf("%d accuracy entries, %d samples issued; want %d", len(es), sut.issued.Load(), n)
					}
					return
				}
				summary := readLog(t, log.OutDir, "summary.txt")
				if !strings.Contains(summary, "Result is : VALID") {
					t.Errorf("summary:\n%s", summary)
				}
				queries, _ := strconv.Atoi(detailValue(t, detail, "result_query_count"))
				spq, _ := strconv.Atoi(detailValue(t, detail, "effective_samples_per_query"))
				if got := int(sut.issued.Load()); got != queries*spq || got == 0 {
					t.Errorf("SUT saw %d samples, LoadGen counts %d queries x %d samples", got, queries, spq)
				}
			})
		}
	}
}

func TestTokenLatencies(t *testing.T) {
	for _, sc := range []Scenario{Server, SingleStream, Offline} {
		t.Run(sc.String(), func(t *testing.T) {
			sut := &echoSUT{c: Native(), tokens: sc != Offline}
			if sc == Offline {
				sut.delay = 300 * time.Millisecond
			}
			s := quickSettings(sc, PerformanceOnly)
			s.UseTokenLatencies = true
			log := quickLog(t)
			if err := StartTest(sut, newTestQSL(16, 16), s, log, ""); err != nil {
				t.Fatal(err)
			}
			sut.check(t)
			summary := readLog(t, log.OutDir, "summary.txt")
			detail := readLog(t, log.OutDir, "detail.txt")
			if errs := detailErrors(detail); len(errs) != 0 {
				t.Errorf("LoadGen logged errors:\n%s", strings.Join(errs, "\n"))
			}
			if !strings.Contains(summary, "Result is : VALID") {
				t.Errorf("not VALID:\n%s", summary)
			}
			// Token throughput: "Tokens per second" (Offline), "Completed
			// tokens per second" (Server), "TPS w/ loadgen overhead" (SS).
			want := []string{`(?i)(tokens per second|TPS w/ loadgen overhead)\s*:\s*[0-9.]+`}
			if sc != Offline {
				want = append(want,
					`99\.00 percentile first token latency \(ns\)\s*:\s*\d+`,
					`99\.00 percentile time to output token \(ns\)\s*:\s*\d+`)
			}
			for _, w := range want {
				if !regexp.MustCompile(w).MatchString(summary) {
					t.Errorf("summary lacks %s:\n%s", w, summary)
				}
			}
		})
	}
}

// TestCompletingWithoutFirstToken: LoadGen reads past its token-latency
// array when a sample completes before its first token (logging.cc); the
// bridge reports the first token itself and says so.
func TestCompletingWithoutFirstToken(t *testing.T) {
	sut := &echoSUT{c: Native()} // never calls FirstTokenComplete
	s := quickSettings(Server, PerformanceOnly)
	s.UseTokenLatencies = true
	s.MinDurationMs = 50
	if err := StartTest(sut, newTestQSL(8, 8), s, quickLog(t), ""); err != nil {
		t.Fatal(err)
	}
	sut.wg.Wait()
	if len(sut.errs) == 0 || !strings.Contains(sut.errs[0].Error(), "without FirstTokenComplete") {
		t.Errorf("errors = %v, want one about the missing first token", sut.errs)
	}
}

// misuseSUT completes each batch, then tries the misuses the Completer must
// refuse.
type misuseSUT struct {
	c           Completer
	wg          sync.WaitGroup
	mu          sync.Mutex
	dupErr      []error
	unknownErr  []error
	firstIssued []QuerySample
}

func (s *misuseSUT) Name() string { return "misuseSUT" }
func (s *misuseSUT) IssueQuery(qs []QuerySample) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		rs := make([]Response, len(qs))
		for i, q := range qs {
			rs[i] = Response{ID: q.ID, Data: payload(q.Index)}
		}
		if err := s.c.QuerySamplesComplete(rs); err != nil {
			panic(err)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.firstIssued == nil {
			s.firstIssued = qs
		}
		s.dupErr = append(s.dupErr, s.c.QuerySamplesComplete(rs[:1]))
		// Right tag, but no LoadGen sample lives at address 8.
		s.unknownErr = append(s.unknownErr, s.c.QuerySamplesComplete([]Response{{ID: qs[0].ID&^idPtrMask | 8}}))
	}()
}
func (s *misuseSUT) FlushQueries() {}

func TestCompleterRefusesUnknownAndDuplicateIDs(t *testing.T) {
	sut := &misuseSUT{c: Native()}
	s := quickSettings(SingleStream, PerformanceOnly)
	s.MinDurationMs = 20
	log := quickLog(t)
	if err := StartTest(sut, newTestQSL(8, 8), s, log, ""); err != nil {
		t.Fatal(err)
	}
	sut.wg.Wait()
	if len(sut.dupErr) == 0 {
		t.Fatal("SUT saw no queries")
	}
	for i := range sut.dupErr {
		if sut.dupErr[i] == nil || !strings.Contains(sut.dupErr[i].Error(), "already completed") {
			t.Fatalf("duplicate completion: err = %v", sut.dupErr[i])
		}
		if sut.unknownErr[i] == nil {
			t.Fatalf("unknown ID: no error")
		}
	}
	if errs := detailErrors(readLog(t, log.OutDir, "detail.txt")); len(errs) != 0 {
		t.Errorf("a bad ID reached LoadGen:\n%s", strings.Join(errs, "\n"))
	}
	// After the test: no test is running.
	if err := Native().QuerySamplesComplete([]Response{{ID: sut.firstIssued[0].ID}}); !errors.Is(err, ErrNoTest) {
		t.Errorf("after the test: err = %v, want ErrNoTest", err)
	}
	// An ID of a previous test is refused by the next test even if LoadGen
	// reuses the address.
	stale := sut.firstIssued[0].ID
	sut2 := &staleSUT{c: Native(), stale: stale}
	if err := StartTest(sut2, newTestQSL(8, 8), s, quickLog(t), ""); err != nil {
		t.Fatal(err)
	}
	sut2.wg.Wait()
	if sut2.err == nil || !strings.Contains(sut2.err.Error(), "not from this test") {
		t.Errorf("stale ID: err = %v", sut2.err)
	}
}

// staleSUT tries to complete an ID from an earlier test first.
type staleSUT struct {
	c     Completer
	stale uint64
	wg    sync.WaitGroup
	once  sync.Once
	err   error
}

func (s *staleSUT) Name() string { return "staleSUT" }
func (s *staleSUT) IssueQuery(qs []QuerySample) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.once.Do(func() { s.err = s.c.QuerySamplesComplete([]Response{{ID: s.stale}}) })
		rs := make([]Response, len(qs))
		for i, q := range qs {
			rs[i] = Response{ID: q.ID}
		}
		if err := s.c.QuerySamplesComplete(rs); err != nil {
			panic(err)
		}
	}()
}
func (s *staleSUT) FlushQueries() {}

// panicSUT panics in IssueQuery after a few good queries.
type panicSUT struct {
	echoSUT
	calls atomic.Int64
}

func (s *panicSUT) IssueQuery(qs []QuerySample) {
	if s.calls.Add(1) == 5 {
		panic("boom in IssueQuery")
	}
	s.echoSUT.IssueQuery(qs)
}

func TestPanickingSUTAbortsTheTest(t *testing.T) {
	for _, sc := range []Scenario{SingleStream, Server, Offline} {
		t.Run(sc.String(), func(t *testing.T) {
			sut := &panicSUT{echoSUT: echoSUT{c: Native()}}
			s := quickSettings(sc, PerformanceOnly)
			s.MinDurationMs = 100
			if sc == Offline {
				sut.calls.Store(4) // Offline issues once: panic on the first call
			}
			log := quickLog(t)
			err := StartTest(sut, newTestQSL(8, 8), s, log, "")
			if !errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), "boom in IssueQuery") {
				t.Fatalf("err = %v, want ErrAborted with the panic", err)
			}
			sut.wg.Wait()
			// LoadGen finished and wrote complete logs.
			if summary := readLog(t, log.OutDir, "summary.txt"); !strings.Contains(summary, "Result is") {
				t.Errorf("summary incomplete:\n%s", summary)
			}
		})
	}
	// The process and LoadGen are still usable.
	sut := &echoSUT{c: Native()}
	if err := StartTest(sut, newTestQSL(8, 8), quickSettings(SingleStream, AccuracyOnly), quickLog(t), ""); err != nil {
		t.Fatalf("test after a panic: %v", err)
	}
	sut.check(t)
}

func TestQSLLoadErrorAbortsTheTest(t *testing.T) {
	qsl := newTestQSL(8, 8)
	qsl.loadErr = errors.New("disk on fire")
	sut := &echoSUT{c: Native()}
	err := StartTest(sut, qsl, quickSettings(Offline, AccuracyOnly), quickLog(t), "")
	if !errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("err = %v", err)
	}
	if sut.issued.Load() != 0 {
		t.Errorf("SUT got %d samples after the QSL failed", sut.issued.Load())
	}
}

// blackHoleSUT never completes anything.
type blackHoleSUT struct{ issued chan struct{} }

func (s *blackHoleSUT) Name() string { return "blackHole" }
func (s *blackHoleSUT) IssueQuery(qs []QuerySample) {
	select {
	case s.issued <- struct{}{}:
	default:
	}
}
func (s *blackHoleSUT) FlushQueries() {}

func TestContextCancelAbortsAStuckTest(t *testing.T) {
	for _, sc := range []Scenario{Offline, SingleStream} {
		t.Run(sc.String(), func(t *testing.T) {
			sut := &blackHoleSUT{issued: make(chan struct{}, 1)}
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				<-sut.issued
				cancel(errors.New("operator pressed ^C"))
			}()
			err := StartTestContext(ctx, sut, newTestQSL(8, 8), quickSettings(sc, PerformanceOnly), quickLog(t), "")
			if !errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), "operator pressed ^C") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestSettingsValidation(t *testing.T) {
	s := quickSettings(Offline, FindPeakPerformance)
	if err := StartTest(&echoSUT{c: Native()}, newTestQSL(4, 4), s, quickLog(t), ""); err == nil {
		t.Error("FindPeakPerformance outside Server accepted")
	}
	l := quickLog(t)
	l.OutDir = filepath.Join(l.OutDir, "missing")
	if err := StartTest(&echoSUT{c: Native()}, newTestQSL(4, 4), quickSettings(Offline, AccuracyOnly), l, ""); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing log dir: err = %v", err)
	}
	if err := StartTest(&echoSUT{c: Native()}, newTestQSL(4, 8), quickSettings(Offline, AccuracyOnly), quickLog(t), ""); err == nil {
		t.Error("performance count > total accepted")
	}
}

func TestDefaultTestSettingsMatchLibrary(t *testing.T) {
	if diff := cmp.Diff(libraryDefaultTestSettings(), DefaultTestSettings()); diff != "" {
		t.Errorf("DefaultTestSettings differs from mlperf::TestSettings (-library +Go):\n%s", diff)
	}
}
