//go:build cgo

package loadgen

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestIssueQueryThreads runs a Server test whose queries LoadGen issues on
// two Go-lent threads (server_num_issue_query_threads). LoadGen supports
// that only in the first test of a process, so the test re-runs this test
// binary with only itself selected.
func TestIssueQueryThreads(t *testing.T) {
	if os.Getenv("MLPG_ISSUE_THREADS_CHILD") == "1" {
		issueQueryThreadsChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestIssueQueryThreads$", "-test.v")
	cmd.Env = append(os.Environ(), "MLPG_ISSUE_THREADS_CHILD=1", "MLPG_LOGDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestIssueQueryThreads") {
		t.Fatalf("child: %v\n%s", err, out)
	}

	// In this process a test has already run: both entry points refuse.
	if testsFinished.Load() > 0 {
		s := quickSettings(Server, PerformanceOnly)
		s.ServerNumIssueQueryThreads = 2
		if err := StartTest(&echoSUT{c: Native()}, newTestQSL(8, 8), s, quickLog(t), ""); err == nil {
			t.Error("StartTest with issue threads accepted after a finished test")
		}
		if err := RegisterIssueQueryThread(); err == nil {
			t.Error("RegisterIssueQueryThread accepted after a finished test")
		}
	}
}

func issueQueryThreadsChild(t *testing.T) {
	t.Helper()
	const threads = 2
	var wg sync.WaitGroup
	errs := make(chan error, threads)
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- RegisterIssueQueryThread()
		}()
	}
	time.Sleep(100 * time.Millisecond) // let the threads register
	s := quickSettings(Server, PerformanceOnly)
	s.ServerNumIssueQueryThreads = threads
	log := DefaultLogSettings()
	log.OutDir = os.Getenv("MLPG_LOGDIR")
	log.EnableTrace = false
	sut := &echoSUT{c: Native()}
	if err := StartTest(sut, newTestQSL(16, 16), s, log, ""); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	sut.check(t)
	detail := readLog(t, log.OutDir, "detail.txt")
	if n := strings.Count(detail, "Registered IssueQueryThread"); n != threads {
		t.Errorf("%d issue threads registered, want %d", n, threads)
	}
	if errs := detailErrors(detail); len(errs) != 0 {
		t.Errorf("LoadGen logged errors:\n%s", strings.Join(errs, "\n"))
	}
	if summary := readLog(t, log.OutDir, "summary.txt"); !strings.Contains(summary, "Result is : VALID") {
		t.Errorf("summary:\n%s", summary)
	}
}

// rateGateSUT holds every sample of a run until LoadGen's FlushQueries,
// then completes them all: at once if the run's arrival rate was within
// capacity, after overload otherwise. Its verdict does not depend on timing
// luck (only on the arrival rate LoadGen schedules), so FindPeakPerformance
// converges even on a loaded machine.
type rateGateSUT struct {
	c        Completer
	capacity float64 // samples per second
	overload time.Duration
	mu       sync.Mutex
	held     []QuerySample
	first    time.Time
	last     time.Time
	errs     []error
}

func (s *rateGateSUT) Name() string { return "rateGateSUT" }
func (s *rateGateSUT) IssueQuery(qs []QuerySample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if len(s.held) == 0 {
		s.first = now
	}
	s.last = now
	s.held = append(s.held, qs...)
}
func (s *rateGateSUT) FlushQueries() {
	s.mu.Lock()
	held := s.held
	s.held = nil
	span := s.last.Sub(s.first).Seconds()
	s.mu.Unlock()
	if len(held) == 0 {
		return
	}
	rate := float64(len(held)-1) / max(span, 1e-9)
	complete := func() {
		rs := make([]Response, len(held))
		for i, q := range held {
			rs[i] = Response{ID: q.ID}
		}
		if err := s.c.QuerySamplesComplete(rs); err != nil {
			s.mu.Lock()
			s.errs = append(s.errs, err)
			s.mu.Unlock()
		}
	}
	if rate <= s.capacity {
		complete()
		return
	}
	time.AfterFunc(s.overload, complete)
}

func TestFindPeakPerformance(t *testing.T) {
	if testing.Short() {
		t.Skip("a dozen LoadGen runs")
	}
	sut := &rateGateSUT{c: Native(), capacity: 150, overload: 700 * time.Millisecond}
	s := quickSettings(Server, FindPeakPerformance)
	// The lower bound, well under capacity so that a run stalled by a busy
	// machine (whose catch-up burst raises the measured rate) stays VALID.
	s.ServerTargetQPS = 60
	// Within capacity every latency is at most the run's length (about
	// 200 ms) plus scheduling delays; over it every latency exceeds 700 ms.
	s.ServerTargetLatencyNs = 600e6
	s.MinDurationMs = 150
	s.MinQueryCount = 10 // runs of about 150 ms: held samples stay under the bound
	s.ServerFindPeakQPSDecimalsOfPrecision = 0
	s.ServerFindPeakQPSBoundaryStepSize = 1 // double until INVALID
	log := quickLog(t)
	if err := StartTest(sut, newTestQSL(16, 16), s, log, ""); err != nil {
		t.Fatal(err)
	}
	for _, err := range sut.errs {
		t.Error(err)
	}
	detail := readLog(t, log.OutDir, "detail.txt")
	m := regexp.MustCompile(`Found peak performance field: ([0-9.]+)`).FindStringSubmatch(detail)
	if m == nil {
		t.Fatalf("LoadGen found no peak; detail errors:\n%s", strings.Join(detailErrors(detail), "\n"))
	}
	peak, _ := strconv.ParseFloat(m[1], 64)
	// LoadGen doubles 60 -> 120 (under capacity) -> 240 (over), then
	// bisects [120, 240). The measured rate of a short Poisson run scatters
	// around the target, so the peak lies somewhere in [60, 240).
	if peak < 60 || peak >= 240 {
		t.Errorf("peak target_qps %v, want within [60, 240)", peak)
	}
	t.Logf("LoadGen's peak for a SUT that accepts %v samples/s: %v QPS", sut.capacity, peak)
}
