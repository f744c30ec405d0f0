//go:build cgo

package loadgen

import (
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
	s.MinDurationMs = 200
	s.MinQueryCount = 20
	s.SingleStreamExpectedLatencyNs = 100000
	s.MultiStreamExpectedLatencyNs = 200000
	s.MultiStreamSamplesPerQuery = 4
	s.ServerTargetQPS = 500
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

type accEntry struct {
	SeqID int    `json:"seq_id"`
	QSL   int    `json:"qsl_idx"`
	Data  string `json:"data"`
	Tok   int64  `json:"token_count"`
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
