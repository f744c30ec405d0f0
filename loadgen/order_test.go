//go:build cgo

package loadgen

import (
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// firstToken is the deterministic first-token payload of QSL sample i,
// distinct from payload(i) so the accuracy log shows which one landed where.
func firstToken(i int) []byte { return []byte(fmt.Sprintf("ft%d", i)) }

// splitThreadSUT reports each sample's first token on one OS thread and
// completes it on another, the first strictly before the second (the
// completing goroutine receives the sample only after FirstTokenComplete
// returned). LoadGen buffers its log records per OS thread, so a bridge
// that calls LoadGen on the caller's thread lets LoadGen's log thread see
// the completion before the first token: wrong token_data in the accuracy
// log, or a read past LoadGen's token record array (SIGSEGV).
type splitThreadSUT struct {
	c       Completer
	toFirst chan []QuerySample
	toFinal chan []QuerySample
	wg      sync.WaitGroup
	tids    [2]chan int // each worker's OS thread ID
	errMu   sync.Mutex
	errs    []error
}

func newSplitThreadSUT(c Completer) *splitThreadSUT {
	s := &splitThreadSUT{
		c:       c,
		toFirst: make(chan []QuerySample, 1024),
		toFinal: make(chan []QuerySample, 1024),
		tids:    [2]chan int{make(chan int, 1), make(chan int, 1)},
	}
	s.wg.Add(2)
	go s.worker(0, s.toFirst, func(qs []QuerySample) {
		ft := make([]Response, len(qs))
		for i, q := range qs {
			ft[i] = Response{ID: q.ID, Data: firstToken(q.Index)}
		}
		s.record(s.c.FirstTokenComplete(ft))
		s.toFinal <- qs
	})
	go s.worker(1, s.toFinal, func(qs []QuerySample) {
		rs := make([]Response, len(qs))
		for i, q := range qs {
			rs[i] = Response{ID: q.ID, Data: payload(q.Index), NTokens: 5}
		}
		s.record(s.c.QuerySamplesComplete(rs))
	})
	return s
}

// worker runs on an OS thread of its own until in is closed.
func (s *splitThreadSUT) worker(n int, in chan []QuerySample, f func([]QuerySample)) {
	defer s.wg.Done()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s.tids[n] <- gettid()
	for qs := range in {
		f(qs)
	}
	if n == 0 {
		close(s.toFinal)
	}
}

func (s *splitThreadSUT) Name() string { return "splitThreadSUT" }
func (s *splitThreadSUT) IssueQuery(qs []QuerySample) {
	// One sample per hand-off: the most interleaving.
	for i := range qs {
		s.toFirst <- qs[i : i+1]
	}
}
func (s *splitThreadSUT) FlushQueries() {}

func (s *splitThreadSUT) record(err error) {
	if err != nil {
		s.errMu.Lock()
		s.errs = append(s.errs, err)
		s.errMu.Unlock()
	}
}

// close stops the workers and checks they ran on different OS threads.
func (s *splitThreadSUT) close(t *testing.T) {
	t.Helper()
	close(s.toFirst)
	s.wg.Wait()
	if a, b := <-s.tids[0], <-s.tids[1]; a == b {
		t.Fatalf("both workers ran on OS thread %d", a)
	}
	for _, err := range s.errs {
		t.Errorf("completer: %v", err)
	}
}

// TestFirstTokenAndCompletionFromDifferentThreads is the regression test for
// completions reaching LoadGen out of order: each sample's first token and
// completion come from two goroutines locked to different OS threads, and
// every accuracy-log entry must carry exactly the first-token bytes and the
// response bytes that were sent for it.
func TestFirstTokenAndCompletionFromDifferentThreads(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, sc := range []Scenario{Server, SingleStream} {
		t.Run(sc.String(), func(t *testing.T) {
			s := quickSettings(sc, AccuracyOnly)
			s.UseTokenLatencies = true
			s.ServerTargetQPS = 20000
			sut := newSplitThreadSUT(Native())
			log := quickLog(t)
			err := StartTest(sut, newTestQSL(n, n), s, log, "no-audit.config")
			sut.close(t)
			if err != nil {
				t.Fatal(err)
			}
			if errs := detailErrors(readLog(t, log.OutDir, "detail.txt")); len(errs) != 0 {
				t.Errorf("LoadGen logged %d errors, first:\n%s", len(errs), errs[0])
			}
			es := readAccuracy(t, log.OutDir)
			if len(es) != n {
				t.Errorf("%d accuracy entries, want %d", len(es), n)
			}
			bad := 0
			for _, e := range es {
				wantTok := strings.ToUpper(hex.EncodeToString(firstToken(e.QSL)))
				wantData := strings.ToUpper(hex.EncodeToString(payload(e.QSL)))
				if e.TokData != wantTok || e.Data != wantData || e.Tok != 5 {
					if bad++; bad <= 5 {
						t.Errorf("seq_id %d qsl_idx %d: token_data %q data %q token_count %d; want %q %q 5",
							e.SeqID, e.QSL, e.TokData, e.Data, e.Tok, wantTok, wantData)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d accuracy entries wrong", bad, len(es))
			}
		})
	}
}
