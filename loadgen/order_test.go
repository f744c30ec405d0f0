//go:build cgo

package loadgen

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
//
// With pairs > 1, sample k's first token goes to first-token worker
// k%pairs and its completion to completion worker (k+1)%pairs, each
// worker on an OS thread of its own, so calls from several threads
// interleave.
type splitThreadSUT struct {
	c       Completer
	pairs   int
	first   func(index int) []byte // first-token bytes
	data    func(index int) []byte // response bytes
	toFirst []chan []QuerySample
	toFinal []chan []QuerySample
	n       atomic.Int64 // samples issued
	wg      sync.WaitGroup
	finalWG sync.WaitGroup
	tids    chan int // each worker's OS thread ID
	errMu   sync.Mutex
	errs    []error
}

func newSplitThreadSUT(c Completer, pairs int) *splitThreadSUT {
	s := &splitThreadSUT{c: c, pairs: pairs, first: firstToken, data: payload, tids: make(chan int, 2*pairs)}
	for k := 0; k < pairs; k++ {
		s.toFirst = append(s.toFirst, make(chan []QuerySample, 4096))
		s.toFinal = append(s.toFinal, make(chan []QuerySample, 4096))
	}
	for k := 0; k < pairs; k++ {
		next := s.toFinal[(k+1)%pairs]
		s.wg.Add(1)
		go s.worker(s.toFirst[k], &s.wg, func(qs []QuerySample) {
			ft := make([]Response, len(qs))
			for i, q := range qs {
				ft[i] = Response{ID: q.ID, Data: s.first(q.Index)}
			}
			s.record(s.c.FirstTokenComplete(ft))
			next <- qs
		})
		s.finalWG.Add(1)
		go s.worker(s.toFinal[k], &s.finalWG, func(qs []QuerySample) {
			rs := make([]Response, len(qs))
			for i, q := range qs {
				rs[i] = Response{ID: q.ID, Data: s.data(q.Index), NTokens: 5}
			}
			s.record(s.c.QuerySamplesComplete(rs))
		})
	}
	return s
}

// worker runs f for each batch from in on an OS thread of its own.
func (s *splitThreadSUT) worker(in chan []QuerySample, wg *sync.WaitGroup, f func([]QuerySample)) {
	defer wg.Done()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s.tids <- gettid()
	for qs := range in {
		f(qs)
	}
}

func (s *splitThreadSUT) Name() string { return "splitThreadSUT" }
func (s *splitThreadSUT) IssueQuery(qs []QuerySample) {
	// One sample per hand-off: the most interleaving.
	for i := range qs {
		k := s.n.Add(1)
		s.toFirst[int(k)%s.pairs] <- qs[i : i+1]
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
	for _, c := range s.toFirst {
		close(c)
	}
	s.wg.Wait()
	for _, c := range s.toFinal {
		close(c)
	}
	s.finalWG.Wait()
	close(s.tids)
	seen := map[int]bool{}
	for tid := range s.tids {
		if seen[tid] {
			t.Errorf("two workers ran on OS thread %d", tid)
		}
		seen[tid] = true
	}
	for _, err := range s.errs {
		t.Errorf("completer: %v", err)
	}
}

// checkAccuracyLog checks that the accuracy log has n entries, each with
// the bytes sut sent for its sample (and its first token's, if tokens).
func checkAccuracyLog(t *testing.T, dir string, n int, sut *splitThreadSUT, tokens bool) {
	t.Helper()
	es := readAccuracy(t, dir)
	if len(es) != n {
		t.Errorf("%d accuracy entries, want %d", len(es), n)
	}
	bad := 0
	for _, e := range es {
		wantTok := ""
		if tokens {
			wantTok = strings.ToUpper(hex.EncodeToString(sut.first(e.QSL)))
		}
		wantData := strings.ToUpper(hex.EncodeToString(sut.data(e.QSL)))
		wantCount := int64(0) // LoadGen logs token_count only with token latencies
		if tokens {
			wantCount = 5
		}
		if e.TokData != wantTok || e.Data != wantData || e.Tok != wantCount {
			if bad++; bad <= 5 {
				t.Errorf("seq_id %d qsl_idx %d: token_data %q data %q token_count %d; want %q %q %d",
					e.SeqID, e.QSL, e.TokData, e.Data, e.Tok, wantTok, wantData, wantCount)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d accuracy entries wrong", bad, len(es))
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
			sut := newSplitThreadSUT(Native(), 1)
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
			checkAccuracyLog(t, log.OutDir, n, sut, true)
		})
	}
}

// TestCompletionOrderAcrossThreads checks the order completions reach
// LoadGen in, from the shim's own record: with first tokens and completions
// coming from eight OS threads at once, every sample's first token reaches
// LoadGen before its completion, each exactly once, all from one OS thread.
func TestCompletionOrderAcrossThreads(t *testing.T) {
	traceDeliveries(true)
	defer traceDeliveries(false)
	s := quickSettings(Server, PerformanceOnly)
	s.UseTokenLatencies = true
	s.ServerTargetQPS = 10000
	s.MinQueryCount = 1000
	sut := newSplitThreadSUT(Native(), 4)
	log := quickLog(t)
	err := StartTest(sut, newTestQSL(64, 64), s, log, "no-audit.config")
	sut.close(t)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkDeliveryTrace(t); n != int(sut.n.Load()) {
		t.Errorf("%d samples delivered, %d issued", n, sut.n.Load())
	}
	if errs := detailErrors(readLog(t, log.OutDir, "detail.txt")); len(errs) != 0 {
		t.Errorf("LoadGen logged %d errors, first:\n%s", len(errs), errs[0])
	}
	if summary := readLog(t, log.OutDir, "summary.txt"); !strings.Contains(summary, "Result is : VALID") {
		t.Errorf("summary:\n%s", summary)
	}
}

// checkDeliveryTrace checks the shim's record of the responses delivered
// since traceDeliveries(true): all from one OS thread, and every sample's
// first token exactly once, before its completion, exactly once. It
// returns the number of samples delivered.
func checkDeliveryTrace(t *testing.T) int {
	t.Helper()
	trace, threads := deliveryTrace()
	if threads != 1 {
		t.Errorf("completions reached LoadGen from %d OS threads, want 1", threads)
	}
	type seen struct{ first, final, firstAt, finalAt int }
	byID := map[uint64]*seen{}
	for i, e := range trace {
		id := e &^ traceFirstToken
		x := byID[id]
		if x == nil {
			x = &seen{}
			byID[id] = x
		}
		if e&traceFirstToken != 0 {
			x.first++
			x.firstAt = i
		} else {
			x.final++
			x.finalAt = i
		}
	}
	bad := 0
	for id, x := range byID {
		if x.first != 1 || x.final != 1 || x.firstAt > x.finalAt {
			if bad++; bad <= 5 {
				t.Errorf("id %#x: %d first tokens (last at %d), %d completions (last at %d)", id, x.first, x.firstAt, x.final, x.finalAt)
			}
		}
	}
	return len(byID)
}

// sizedPayload is payload(i) repeated 1 to 16 times (10 to about 180
// bytes), and every 97th response 64 KiB: the bytes of one batch are
// packed back to back, so a wrong offset or length shows.
func sizedPayload(i int) []byte {
	if i%97 == 0 {
		return bytes.Repeat(payload(i), 1<<16/len(payload(i)))
	}
	return bytes.Repeat(payload(i), 1+i%16)
}

// TestResponseBytesLandIntact sends responses of many sizes from several
// OS threads at once (Server, with first tokens) and all in one call
// (Offline): every response's bytes land intact in the accuracy log.
func TestResponseBytesLandIntact(t *testing.T) {
	const n = 500
	for _, tc := range []struct {
		sc     Scenario
		tokens bool
	}{{Offline, false}, {Server, true}} {
		t.Run(tc.sc.String(), func(t *testing.T) {
			s := quickSettings(tc.sc, AccuracyOnly)
			s.UseTokenLatencies = tc.tokens
			s.ServerTargetQPS = 20000
			sut := newSplitThreadSUT(Native(), 2)
			sut.data = sizedPayload
			log := quickLog(t)
			var err error
			if tc.tokens {
				err = StartTest(sut, newTestQSL(n, n), s, log, "no-audit.config")
				sut.close(t)
			} else {
				// Offline: the whole run in one QuerySamplesComplete call.
				bulk := &bulkSUT{c: Native(), data: sizedPayload}
				err = StartTest(bulk, newTestQSL(n, n), s, log, "no-audit.config")
				bulk.wg.Wait()
				if bulk.err != nil {
					t.Error(bulk.err)
				}
				sut.close(t)
			}
			if err != nil {
				t.Fatal(err)
			}
			if errs := detailErrors(readLog(t, log.OutDir, "detail.txt")); len(errs) != 0 {
				t.Errorf("LoadGen logged %d errors, first:\n%s", len(errs), errs[0])
			}
			checkAccuracyLog(t, log.OutDir, n, sut, tc.tokens)
		})
	}
}

// bulkSUT completes each IssueQuery batch in one call from a goroutine.
type bulkSUT struct {
	c    Completer
	data func(int) []byte
	wg   sync.WaitGroup
	err  error
}

func (s *bulkSUT) Name() string { return "bulkSUT" }
func (s *bulkSUT) IssueQuery(qs []QuerySample) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		rs := make([]Response, len(qs))
		for i, q := range qs {
			rs[i] = Response{ID: q.ID, Data: s.data(q.Index), NTokens: 5}
		}
		if err := s.c.QuerySamplesComplete(rs); err != nil {
			s.err = err
		}
	}()
}
func (s *bulkSUT) FlushQueries() {}

// abortingSUT reports every sample's first token, completes the samples
// with an even index, and aborts the test once it has withheld abortAfter
// completions, while its completions may still be queued.
type abortingSUT struct {
	c          Completer
	abortAfter int64
	withheld   atomic.Int64
	once       sync.Once
	wg         sync.WaitGroup
	mu         sync.Mutex
	errs       []error
}

func (s *abortingSUT) Name() string { return "abortingSUT" }
func (s *abortingSUT) IssueQuery(qs []QuerySample) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ft := make([]Response, len(qs))
		var rs []Response
		for i, q := range qs {
			ft[i] = Response{ID: q.ID, Data: firstToken(q.Index)}
			if q.Index%2 == 0 {
				rs = append(rs, Response{ID: q.ID, Data: payload(q.Index), NTokens: 5})
			}
		}
		s.record(s.c.FirstTokenComplete(ft))
		if s.withheld.Add(int64(len(qs)-len(rs))) >= s.abortAfter {
			s.once.Do(func() { go AbortTest(errors.New("operator gave up")) })
		}
		s.record(s.c.QuerySamplesComplete(rs))
	}()
}
func (s *abortingSUT) FlushQueries() {}

func (s *abortingSUT) record(err error) {
	if err != nil {
		s.mu.Lock()
		s.errs = append(s.errs, err)
		s.mu.Unlock()
	}
}

// TestAbortDrainsTheQueue aborts a token-latency test while completions
// are queued: the drain's empty completions go behind the first tokens
// already queued, from the same OS thread, LoadGen finishes without an
// error, and the server goroutine returns (the next test starts its own).
func TestAbortDrainsTheQueue(t *testing.T) {
	for _, tc := range []struct {
		sc         Scenario
		abortAfter int64
	}{{Server, 20}, {SingleStream, 1}} {
		t.Run(tc.sc.String(), func(t *testing.T) {
			traceDeliveries(true)
			defer traceDeliveries(false)
			s := quickSettings(tc.sc, PerformanceOnly)
			s.UseTokenLatencies = true
			sut := &abortingSUT{c: Native(), abortAfter: tc.abortAfter}
			log := quickLog(t)
			err := StartTest(sut, newTestQSL(16, 16), s, log, "")
			sut.wg.Wait()
			if !errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), "operator gave up") {
				t.Fatalf("err = %v, want ErrAborted with the cause", err)
			}
			detail := readLog(t, log.OutDir, "detail.txt")
			queries, _ := strconv.Atoi(detailValue(t, detail, "result_query_count"))
			if n := checkDeliveryTrace(t); n != queries || n == 0 {
				t.Errorf("%d samples delivered, LoadGen counts %d queries", n, queries)
			}
			// The drain completes with empty responses, which LoadGen
			// flags for their zero token count; an order error would say
			// "before it's first token", a double completion "twice".
			for _, e := range detailErrors(detail) {
				if strings.Contains(e, "first token") || strings.Contains(e, "twice") {
					t.Errorf("LoadGen: %s", e)
				}
			}
			if summary := readLog(t, log.OutDir, "summary.txt"); !strings.Contains(summary, "Result is") {
				t.Errorf("summary incomplete:\n%s", summary)
			}
			for _, err := range sut.errs {
				if !errors.Is(err, ErrAborted) && !errors.Is(err, ErrNoTest) {
					t.Errorf("completer: %v", err)
				}
			}
		})
	}
	sut := newSplitThreadSUT(Native(), 1)
	s := quickSettings(SingleStream, AccuracyOnly)
	s.UseTokenLatencies = true
	log := quickLog(t)
	err := StartTest(sut, newTestQSL(32, 32), s, log, "")
	sut.close(t)
	if err != nil {
		t.Fatalf("test after the aborts: %v", err)
	}
	checkAccuracyLog(t, log.OutDir, 32, sut, true)
}

// failingSUT arms the completion failure hook on its first query.
type failingSUT struct {
	echoSUT
	once sync.Once
}

func (s *failingSUT) IssueQuery(qs []QuerySample) {
	s.once.Do(func() { completerFailAfter(3) })
	s.echoSUT.IssueQuery(qs)
}

// TestCompletionThreadExceptionAbortsTheTest: a C++ exception in a LoadGen
// complete call is caught in the shim and aborts the test with its message.
func TestCompletionThreadExceptionAbortsTheTest(t *testing.T) {
	sut := &failingSUT{echoSUT: echoSUT{c: Native(), tokens: true}}
	s := quickSettings(SingleStream, PerformanceOnly)
	s.UseTokenLatencies = true
	log := quickLog(t)
	err := StartTest(sut, newTestQSL(8, 8), s, log, "")
	sut.wg.Wait()
	if !errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), "injected completion failure") {
		t.Fatalf("err = %v, want ErrAborted with the exception", err)
	}
	if summary := readLog(t, log.OutDir, "summary.txt"); !strings.Contains(summary, "Result is") {
		t.Errorf("summary incomplete:\n%s", summary)
	}
}

// inlineSUT reports each sample's first token and completes it inside
// IssueQuery, on the bridge's server goroutine, as a C++ null SUT would.
type inlineSUT struct {
	c    Completer
	errs []error
}

func (s *inlineSUT) Name() string { return "inlineSUT" }
func (s *inlineSUT) IssueQuery(qs []QuerySample) {
	ft := make([]Response, len(qs))
	rs := make([]Response, len(qs))
	for i, q := range qs {
		ft[i] = Response{ID: q.ID, Data: firstToken(q.Index)}
		rs[i] = Response{ID: q.ID, Data: payload(q.Index), NTokens: 5}
	}
	if err := s.c.FirstTokenComplete(ft); err != nil {
		s.errs = append(s.errs, err)
	}
	if err := s.c.QuerySamplesComplete(rs); err != nil {
		s.errs = append(s.errs, err)
	}
}
func (s *inlineSUT) FlushQueries() {}

// TestInlineCompletions: completions made inside IssueQuery (no other
// goroutine to wake the server) reach LoadGen in order, from one thread,
// with their bytes, in every scenario.
func TestInlineCompletions(t *testing.T) {
	const n = 64
	for _, sc := range []Scenario{SingleStream, MultiStream, Server} {
		t.Run(sc.String(), func(t *testing.T) {
			traceDeliveries(true)
			defer traceDeliveries(false)
			s := quickSettings(sc, AccuracyOnly)
			s.UseTokenLatencies = true
			sut := &inlineSUT{c: Native()}
			log := quickLog(t)
			if err := StartTest(sut, newTestQSL(n, n), s, log, "no-audit.config"); err != nil {
				t.Fatal(err)
			}
			for _, err := range sut.errs {
				t.Errorf("completer: %v", err)
			}
			trace, threads := deliveryTrace()
			if threads != 1 || len(trace) != 2*n {
				t.Errorf("%d responses from %d OS threads, want %d from 1", len(trace), threads, 2*n)
			}
			if errs := detailErrors(readLog(t, log.OutDir, "detail.txt")); len(errs) != 0 {
				t.Errorf("LoadGen logged %d errors, first:\n%s", len(errs), errs[0])
			}
			es := readAccuracy(t, log.OutDir)
			if len(es) != n {
				t.Errorf("%d accuracy entries, want %d", len(es), n)
			}
			for _, e := range es {
				wantTok := strings.ToUpper(hex.EncodeToString(firstToken(e.QSL)))
				wantData := strings.ToUpper(hex.EncodeToString(payload(e.QSL)))
				if e.TokData != wantTok || e.Data != wantData {
					t.Errorf("qsl_idx %d: token_data %q data %q, want %q %q", e.QSL, e.TokData, e.Data, wantTok, wantData)
				}
			}
		})
	}
}
