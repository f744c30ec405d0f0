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

// capacitySUT completes at most perTick queued samples every tick, so its
// peak QPS is bounded and FindPeakPerformance converges.
type capacitySUT struct {
	c    Completer
	mu   sync.Mutex
	q    []QuerySample
	stop chan struct{}
	done chan struct{}
}

func newCapacitySUT(c Completer, tick time.Duration, perTick int) *capacitySUT {
	s := &capacitySUT{c: c, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
			s.mu.Lock()
			n := min(perTick, len(s.q))
			batch := append([]QuerySample(nil), s.q[:n]...)
			s.q = s.q[n:]
			s.mu.Unlock()
			if n == 0 {
				continue
			}
			rs := make([]Response, len(batch))
			for i, q := range batch {
				rs[i] = Response{ID: q.ID}
			}
			if err := s.c.QuerySamplesComplete(rs); err != nil {
				panic(err)
			}
		}
	}()
	return s
}

func (s *capacitySUT) Name() string { return "capacitySUT" }
func (s *capacitySUT) IssueQuery(qs []QuerySample) {
	s.mu.Lock()
	s.q = append(s.q, qs...)
	s.mu.Unlock()
}
func (s *capacitySUT) FlushQueries() {}
func (s *capacitySUT) close()        { close(s.stop); <-s.done }

func TestFindPeakPerformance(t *testing.T) {
	if testing.Short() {
		t.Skip("a dozen LoadGen runs")
	}
	sut := newCapacitySUT(Native(), 5*time.Millisecond, 2) // about 400 QPS
	defer sut.close()
	s := quickSettings(Server, FindPeakPerformance)
	s.ServerTargetQPS = 100         // the lower bound; must be VALID
	s.ServerTargetLatencyNs = 300e6 // generous: the machine is shared
	s.MinDurationMs = 150
	s.ServerFindPeakQPSDecimalsOfPrecision = 0
	s.ServerFindPeakQPSBoundaryStepSize = 1 // double until INVALID
	log := quickLog(t)
	if err := StartTest(sut, newTestQSL(16, 16), s, log, ""); err != nil {
		t.Fatal(err)
	}
	detail := readLog(t, log.OutDir, "detail.txt")
	m := regexp.MustCompile(`Found peak performance field: ([0-9.]+)`).FindStringSubmatch(detail)
	if m == nil {
		t.Fatalf("LoadGen found no peak; detail errors:\n%s", strings.Join(detailErrors(detail), "\n"))
	}
	peak, _ := strconv.ParseFloat(m[1], 64)
	// The SUT serves 400 samples/s; what LoadGen finds must lie between the
	// valid lower bound and a rate whose backlog breaks the bound at once.
	if peak < 100 || peak > 3200 {
		t.Errorf("peak target_qps %v, want within [100, 3200]", peak)
	}
	t.Logf("LoadGen's peak for a 400/s SUT: %v QPS", peak)
}
