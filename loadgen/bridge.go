//go:build cgo

package loadgen

/*
#cgo CFLAGS: -I${SRCDIR}/shim
#cgo noescape mlpg_take
#cgo nocallback mlpg_take
#include <stdlib.h>
#include "mlpg_shim.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/cgo"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Layout checks: QuerySample is handed over from C++ by a plain copy.
var _ [unsafe.Sizeof(QuerySample{}) - unsafe.Sizeof(C.mlpg_query_sample{})]struct{}
var _ [unsafe.Sizeof(C.mlpg_query_sample{}) - unsafe.Sizeof(QuerySample{})]struct{}
var _ [unsafe.Offsetof(QuerySample{}.Index) - unsafe.Offsetof(C.mlpg_query_sample{}.index)]struct{}

// testState is everything the callbacks of one running test need.
type testState struct {
	sut SUT
	qsl QSL
	// tag is this test's ID tag (see tracker.go), already shifted.
	tag     uint64
	tracker *tracker
	// needsFirstToken: use_token_latencies outside Offline, where LoadGen
	// requires FirstTokenComplete before QuerySamplesComplete.
	needsFirstToken bool
	// completions carries every completion to the test's server
	// goroutine, whose OS thread is the only one that calls LoadGen's
	// complete functions (completions.go).
	completions *completionQueue
	// completeMu is held shared by every Completer call (tracker update plus
	// enqueueing) and exclusively by abort, so a drain never enqueues a
	// sample's completion ahead of a FirstTokenComplete still being
	// enqueued.
	completeMu sync.RWMutex
	aborted    atomic.Bool
	loaded     atomic.Bool // LoadGen called LoadSamplesToRam: the test ran

	errMu sync.Mutex
	err   error
}

var (
	// testMu allows one test per process: LoadGen's state is global.
	testMu sync.Mutex
	// current is the running test, nil between tests.
	current atomic.Pointer[testState]
	// testGen numbers tests to tag response IDs.
	testGen uint64
	// testsFinished counts tests that returned; LoadGen's issue-query
	// threads only work before the first one ends.
	testsFinished atomic.Int64
	// liveHandles counts cgo.Handles not yet deleted (leak tests).
	liveHandles atomic.Int64
)

// ErrBusy is returned by StartTest while another test runs in the process.
var ErrBusy = errors.New("loadgen: a test is already running in this process (LoadGen is global; run tests one after another)")

// ErrNoTest is returned by the Completer when no test is running.
var ErrNoTest = errors.New("loadgen: no LoadGen test is running")

// ErrAborted wraps the cause of a test that AbortTest or a failing callback
// ended early. Its LoadGen logs are complete but its results are not valid.
var ErrAborted = errors.New("loadgen: test aborted")

func newHandle(v any) cgo.Handle {
	liveHandles.Add(1)
	return cgo.NewHandle(v)
}

func deleteHandle(h cgo.Handle) {
	h.Delete()
	liveHandles.Add(-1)
}

func (st *testState) setErr(err error) {
	st.errMu.Lock()
	if st.err == nil {
		st.err = err
	}
	st.errMu.Unlock()
}

func (st *testState) firstErr() error {
	st.errMu.Lock()
	defer st.errMu.Unlock()
	return st.err
}

func cError(prefix string, cerr *C.char) error {
	if cerr == nil {
		return fmt.Errorf("loadgen: %s failed", prefix)
	}
	defer C.free(unsafe.Pointer(cerr))
	return fmt.Errorf("loadgen: %s: C++ exception: %s", prefix, C.GoString(cerr))
}

// StartTest runs one LoadGen test with sut and qsl and blocks until it ends.
// LoadGen writes its logs (mlperf_log_summary.txt, mlperf_log_detail.txt,
// mlperf_log_accuracy.json, and the trace if enabled) into
// logSettings.OutDir, which must exist. auditConfigPath is the compliance
// audit.config LoadGen applies if the file exists ("" means "audit.config",
// LoadGen's default, relative to the working directory).
//
// LoadGen's IssueQuery only queues the samples in C++ and returns; a
// goroutine of the bridge hands them to sut.IssueQuery in batches (see SUT).
// The SUT completes samples through Native(). StartTest returns an error if
// another test is running, if LoadGen threw, or if the test was aborted (a
// callback panicked, the QSL failed to load, or AbortTest was called); the
// error wraps ErrAborted in the last case. It never reports whether the
// result is VALID: read the summary log for that.
func StartTest(sut SUT, qsl QSL, settings TestSettings, logSettings LogSettings, auditConfigPath string) error {
	return StartTestContext(context.Background(), sut, qsl, settings, logSettings, auditConfigPath)
}

// StartTestContext is StartTest that aborts the test (see AbortTest) when ctx
// is done.
func StartTestContext(ctx context.Context, sut SUT, qsl QSL, settings TestSettings, logSettings LogSettings, auditConfigPath string) error {
	if err := checkStart(sut, qsl, settings, logSettings); err != nil {
		return err
	}
	if auditConfigPath == "" {
		auditConfigPath = AuditConfigFile
	}
	if !testMu.TryLock() {
		return ErrBusy
	}
	defer testMu.Unlock()
	consts, err := askConstants(sut, qsl)
	if err != nil {
		return err
	}

	st := newTestState(sut, qsl, settings)
	h := newHandle(st)
	defer func() {
		current.Store(nil)
		deleteHandle(h)
		testsFinished.Add(1)
	}()
	current.Store(st)

	var qerr *C.char
	if C.mlpg_queue_reset(&qerr) != C.MLPG_OK {
		return cError("issue queue", qerr)
	}
	serverDone := make(chan struct{})
	go func() {
		defer close(serverDone)
		st.serve()
	}()

	stop := context.AfterFunc(ctx, func() { AbortTest(context.Cause(ctx)) })
	defer stop()
	rc, cerr := runNativeTest(h, consts, settings, logSettings, auditConfigPath)
	// LoadGen has every sample back: refuse later completions, and stop
	// the server once it has delivered what is queued.
	st.completions.close()
	C.mlpg_queue_stop()
	<-serverDone
	return st.outcome(rc, cerr, logSettings.OutDir)
}

// checkStart refuses, before anything is locked or called, a test that
// cannot run: no SUT or QSL, bad settings, issue threads after a first
// test, or a log directory that is not one.
func checkStart(sut SUT, qsl QSL, settings TestSettings, logSettings LogSettings) error {
	if sut == nil || qsl == nil {
		return errors.New("loadgen: StartTest needs a SUT and a QSL")
	}
	if err := settings.validate(); err != nil {
		return err
	}
	if err := logSettings.validate(); err != nil {
		return err
	}
	if settings.ServerNumIssueQueryThreads > 0 && testsFinished.Load() > 0 {
		return errors.New("loadgen: server_num_issue_query_threads > 0 works only in the first test of a process (LoadGen never re-arms its issue threads); run this test in a new process")
	}
	if fi, err := os.Stat(logSettings.OutDir); err != nil {
		return fmt.Errorf("loadgen: log directory: %w", err)
	} else if !fi.IsDir() {
		return fmt.Errorf("loadgen: log directory %s is not a directory", logSettings.OutDir)
	}
	return nil
}

// testConstants are what LoadGen reads from the SUT and the QSL as
// constants of the whole test.
type testConstants struct {
	sutName, qslName string
	total, perf      int
}

// askConstants asks the Go objects for the test's constants before any C
// call, so a panic there is an ordinary error, and checks the counts.
func askConstants(sut SUT, qsl QSL) (testConstants, error) {
	var c testConstants
	if err := callSafely("SUT/QSL setup", func() {
		c.sutName, c.qslName = sut.Name(), qsl.Name()
		c.total, c.perf = qsl.TotalSampleCount(), qsl.PerformanceSampleCount()
	}); err != nil {
		return testConstants{}, err
	}
	if c.total <= 0 || c.perf <= 0 || c.perf > c.total {
		return testConstants{}, fmt.Errorf("loadgen: QSL %q reports %d samples and a performance sample count of %d; want 0 < performance count <= total", c.qslName, c.total, c.perf)
	}
	return c, nil
}

// newTestState is the state of the next test, with a fresh ID tag.
func newTestState(sut SUT, qsl QSL, settings TestSettings) *testState {
	testGen++
	st := &testState{
		sut:             sut,
		qsl:             qsl,
		tag:             (testGen%(1<<(64-idTagShift)-1) + 1) << idTagShift,
		tracker:         newTracker(),
		needsFirstToken: settings.UseTokenLatencies && settings.Scenario != Offline,
	}
	// A LoadGen complete call that threw aborts the test, on the server
	// goroutine (abort never waits for it).
	st.completions = &completionQueue{failed: st.abort}
	return st
}

// runNativeTest runs LoadGen's StartTest, blocking until the test ends.
// The C copies of the names and settings live only for the call: LoadGen
// copies what it keeps.
func runNativeTest(h cgo.Handle, c testConstants, settings TestSettings, logSettings LogSettings, auditConfigPath string) (C.int, *C.char) {
	cs := settings.toC()
	cl, free := logSettings.toC()
	defer free()
	cSut, cQsl, cAudit := C.CString(c.sutName), C.CString(c.qslName), C.CString(auditConfigPath)
	defer C.free(unsafe.Pointer(cSut))
	defer C.free(unsafe.Pointer(cQsl))
	defer C.free(unsafe.Pointer(cAudit))

	var cerr *C.char
	rc := C.mlpg_start_test(cSut, C.uintptr_t(h), cQsl,
		C.uint64_t(c.total), C.uint64_t(c.perf), &cs, &cl, cAudit, &cerr)
	return rc, cerr
}

// outcome is the test's error, once LoadGen returned rc (and cerr) and
// the server stopped: LoadGen's own failure, then an abort's cause, then a
// test that never ran or left samples incomplete.
func (st *testState) outcome(rc C.int, cerr *C.char, outDir string) error {
	switch rc {
	case C.MLPG_OK:
	case C.MLPG_ERR_BUSY:
		if cerr != nil {
			C.free(unsafe.Pointer(cerr))
		}
		return ErrBusy
	default:
		return cError("StartTest", cerr)
	}
	if err := st.firstErr(); err != nil {
		return fmt.Errorf("%w: %w", ErrAborted, err)
	}
	if !st.loaded.Load() {
		return fmt.Errorf("loadgen: LoadGen returned without running the test: could it create its log files in %s?", outDir)
	}
	if n := st.tracker.outstanding(); n != 0 {
		return fmt.Errorf("loadgen: test ended with %d samples never completed", n)
	}
	return nil
}

// callSafely runs f and turns a panic into an error.
func callSafely(what string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("loadgen: %s panicked: %v", what, r)
		}
	}()
	f()
	return nil
}

// AbortTest ends the running test early with cause (which StartTest returns
// wrapped in ErrAborted). It is safe to call from any goroutine, at any time,
// more than once; without a running test it does nothing.
//
// LoadGen cannot stop a running test (mlperf::AbortTest only stops its log
// thread, after which StartTest would wait forever), so the bridge drains
// instead: every outstanding sample and every sample issued from now on is
// completed at once with an empty response, without calling the SUT. LoadGen
// then finishes its schedule and writes complete logs. Offline, SingleStream
// and MultiStream finish almost at once; Server still waits for its
// scheduled arrivals up to min_duration.
func AbortTest(cause error) {
	st := current.Load()
	if st == nil {
		return
	}
	if cause == nil {
		cause = errors.New("AbortTest called")
	}
	st.abort(cause)
}

func (st *testState) abort(cause error) {
	st.setErr(cause)
	if !st.aborted.CompareAndSwap(false, true) {
		return
	}
	st.completeMu.Lock()
	defer st.completeMu.Unlock()
	ids, states := st.tracker.drain()
	st.completeEmpty(ids, states)
}

// completeEmpty completes raw LoadGen IDs with empty responses, reporting a
// first token first where LoadGen needs one and states (nil: none yet)
// has none. It goes through the queue like every completion, so it stays
// behind first tokens already enqueued for the same samples.
func (st *testState) completeEmpty(ids []uint64, states []uint8) {
	if len(ids) == 0 {
		return
	}
	if !st.completions.lock() {
		st.setErr(fmt.Errorf("loadgen: %d samples left to complete after the test ended", len(ids)))
		return
	}
	defer st.completions.unlock()
	if st.needsFirstToken {
		for i, id := range ids {
			if states == nil || states[i]&stFirstToken == 0 {
				st.completions.put(C.MLPG_FIRST_TOKEN, id, nil, 0)
			}
		}
	}
	for _, id := range ids {
		st.completions.put(C.MLPG_COMPLETE, id, nil, 0)
	}
}

// serve is the test's server goroutine, locked to its OS thread for the
// whole test: it moves issued samples from the C++ queue to the SUT and
// hands every completion to LoadGen (completions.go), until the test ends.
// It sleeps in C (mlpg_take) when there is nothing to do; LoadGen's issue
// threads and Completer calls wake it. One cgo call takes every queued
// sample, so at high rates a call carries the queries of many IssueQuery
// calls. A panic in the SUT aborts the test; the server keeps draining.
func (st *testState) serve() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	q := st.completions
	scratch := make([]QuerySample, 256)
	for {
		// Completions first: a SUT that completes inside IssueQuery has
		// them queued now.
		q.deliver()
		q.sleeping.Store(true)
		block := q.empty()
		if !block {
			q.sleeping.Store(false)
		}
		var flushes C.uint64_t
		var stopped C.int
		n := int64(C.mlpg_take((*C.mlpg_query_sample)(unsafe.Pointer(&scratch[0])), C.size_t(len(scratch)), &flushes, cBool(block), &stopped))
		q.sleeping.Store(false)
		if n == math.MinInt64 {
			// The queue's mutex threw: nothing more can be taken, so let
			// LoadGen finish on its own; completions still go through.
			st.abort(errors.New("loadgen: issue queue lock failed"))
			st.deliverUntilClosed()
			return
		}
		if n < 0 {
			scratch = make([]QuerySample, -n)
			continue
		}
		if n > 0 {
			st.deliver(scratch[:n])
		}
		for i := C.uint64_t(0); i < flushes; i++ {
			st.flush()
		}
		if stopped != 0 && n == 0 && flushes == 0 {
			q.deliver() // the queue is closed: this is the last of it
			return
		}
	}
}

// deliverUntilClosed hands completions to LoadGen until the test ends,
// without taking issued samples.
func (st *testState) deliverUntilClosed() {
	q := st.completions
	for {
		q.deliver()
		q.mu.Lock()
		closed := q.closed
		q.mu.Unlock()
		if closed {
			q.deliver()
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func (st *testState) deliver(samples []QuerySample) {
	defer st.recoverInto("SUT.IssueQuery")
	st.issue(samples)
}

func (st *testState) flush() {
	defer st.recoverInto("SUT.FlushQueries")
	if !st.aborted.Load() {
		st.sut.FlushQueries()
	}
}

// recoverInto turns a panic in SUT or QSL code called by the bridge into an
// aborted test.
func (st *testState) recoverInto(what string) {
	if r := recover(); r != nil {
		st.abort(fmt.Errorf("%s panicked: %v\n%s", what, r, debug.Stack()))
	}
}

// issue hands a batch from LoadGen to the SUT in a slice the SUT owns. src
// is the server's scratch buffer and is copied before anything else.
func (st *testState) issue(src []QuerySample) {
	if st.aborted.Load() {
		ids := make([]uint64, len(src))
		for i := range src {
			ids[i] = src[i].ID
		}
		st.completeEmpty(ids, nil)
		return
	}
	qs := make([]QuerySample, len(src))
	copy(qs, src)
	var refused []uint64
	n := 0
	for i := range qs {
		id := qs[i].ID
		if id&^idPtrMask != 0 {
			// Cannot tag it; never happens with 47/48-bit user addresses.
			st.completeEmpty([]uint64{id}, nil)
			st.abort(fmt.Errorf("LoadGen response id %#x does not fit in %d bits", id, idTagShift))
			continue
		}
		if !st.tracker.add(id) {
			refused = append(refused, id)
			continue
		}
		qs[n] = QuerySample{ID: id | st.tag, Index: qs[i].Index}
		n++
	}
	if len(refused) > 0 {
		st.completeEmpty(refused, nil)
	}
	if n == 0 {
		return
	}
	st.sut.IssueQuery(qs[:n])
}

// Native returns the Completer that reports to the official LoadGen for the
// test running in this process. It is safe for concurrent use; calls made
// while no test runs return ErrNoTest.
//
// Ordering: LoadGen sees the responses in the order the calls were made.
// Every call copies its responses into a queue and returns without waiting
// for LoadGen; one goroutine per test, locked to its OS thread, makes every
// mlperf::FirstTokenComplete and mlperf::QuerySamplesComplete call, in
// queue order, one cgo call for everything queued at once. So a
// FirstTokenComplete call that returned before a QuerySamplesComplete call
// started reaches LoadGen first, whichever goroutines or OS threads made
// them. (LoadGen buffers its log records per
// OS thread; calls for one sample from two threads could otherwise be
// logged out of order: wrong token_data in the accuracy log, or a crash in
// LoadGen's log thread.) LoadGen timestamps a response when that thread
// delivers it, normally microseconds after the call. The queue is unbounded:
// a call never waits for LoadGen, and nothing is dropped.
func Native() Completer { return nativeCompleter{} }

type nativeCompleter struct{}

const stackBatch = 16

// accepted is a response the tracker accepted: its index in the caller's
// slice and its raw LoadGen ID.
type accepted struct {
	i  int
	id uint64
}

// QuerySamplesComplete enqueues responses for mlperf::QuerySamplesComplete
// (see Native for the ordering). IDs that are not outstanding in the
// running test are left out and reported in the returned error; the others
// are always completed. When LoadGen needs a first token
// (use_token_latencies outside Offline) and the SUT never reported one, it
// is reported just before the completion (TTFT then equals the sample's
// latency) and the error says so.
func (nativeCompleter) QuerySamplesComplete(responses []Response) error {
	if len(responses) == 0 {
		return nil
	}
	st := current.Load()
	if st == nil {
		return ErrNoTest
	}
	st.completeMu.RLock()
	defer st.completeMu.RUnlock()

	var accBuf [stackBatch]accepted
	acc := accBuf[:0]
	var bad badIDs
	var noFT []uint64
	for i := range responses {
		r := &responses[i]
		id, ok := st.untag(r.ID)
		if !ok {
			bad.add(r.ID, "not from this test")
			continue
		}
		state, ok := st.tracker.take(id)
		if !ok {
			bad.add(r.ID, "unknown or already completed")
			continue
		}
		if st.needsFirstToken && state&stFirstToken == 0 {
			noFT = append(noFT, id)
		}
		acc = append(acc, accepted{i, id})
	}
	var err error
	if len(acc) > 0 {
		if !st.completions.lock() {
			return ErrNoTest // unreachable: LoadGen waits for accepted IDs
		}
		for _, id := range noFT {
			st.completions.put(C.MLPG_FIRST_TOKEN, id, nil, 0)
		}
		for _, a := range acc {
			r := &responses[a.i]
			st.completions.put(C.MLPG_COMPLETE, a.id, r.Data, r.NTokens)
		}
		st.completions.unlock()
	}
	if len(noFT) > 0 {
		err = fmt.Errorf("loadgen: %d samples completed without FirstTokenComplete; their first token was reported at completion time", len(noFT))
	}
	return errors.Join(err, bad.err(st, "QuerySamplesComplete"))
}

// FirstTokenComplete enqueues responses for mlperf::FirstTokenComplete
// (see Native for the ordering). Unknown IDs and IDs whose first token was
// already reported are left out and reported in the returned error.
func (nativeCompleter) FirstTokenComplete(responses []Response) error {
	if len(responses) == 0 {
		return nil
	}
	st := current.Load()
	if st == nil {
		return ErrNoTest
	}
	st.completeMu.RLock()
	defer st.completeMu.RUnlock()

	var accBuf [stackBatch]accepted
	acc := accBuf[:0]
	var bad badIDs
	for i := range responses {
		r := &responses[i]
		id, ok := st.untag(r.ID)
		if !ok {
			bad.add(r.ID, "not from this test")
			continue
		}
		ok, dup := st.tracker.beginFirstToken(id)
		if !ok {
			bad.add(r.ID, "unknown or already completed")
			continue
		}
		if dup {
			bad.add(r.ID, "first token already reported")
			continue
		}
		acc = append(acc, accepted{i, id})
	}
	var err error
	if len(acc) > 0 {
		// A completion of the same sample waits in tracker.take until
		// endFirstToken, so it is enqueued after this.
		if st.completions.lock() {
			for _, a := range acc {
				r := &responses[a.i]
				st.completions.put(C.MLPG_FIRST_TOKEN, a.id, r.Data, r.NTokens)
			}
			st.completions.unlock()
		} else {
			err = ErrNoTest // unreachable: LoadGen waits for accepted IDs
		}
		for _, a := range acc {
			st.tracker.endFirstToken(a.id)
		}
	}
	return errors.Join(err, bad.err(st, "FirstTokenComplete"))
}

// untag checks an ID's test tag and strips it.
func (st *testState) untag(id uint64) (uint64, bool) {
	if id&^idPtrMask != st.tag {
		return 0, false
	}
	return id & idPtrMask, true
}

// badIDs collects refused IDs for one error.
type badIDs struct {
	n     int
	first []string
}

func (b *badIDs) add(id uint64, why string) {
	b.n++
	if len(b.first) < 5 {
		b.first = append(b.first, fmt.Sprintf("%#x (%s)", id, why))
	}
}

func (b *badIDs) err(st *testState, what string) error {
	if b.n == 0 {
		return nil
	}
	msg := fmt.Sprintf("loadgen: %s: refused %d response IDs, not passed to LoadGen: %s", what, b.n, strings.Join(b.first, ", "))
	if b.n > len(b.first) {
		msg += ", ..."
	}
	if st.aborted.Load() {
		return fmt.Errorf("%s: %w (its samples were completed by the abort)", msg, ErrAborted)
	}
	return errors.New(msg)
}

// RegisterIssueQueryThread lends the calling goroutine's OS thread to
// LoadGen as an issue thread (server_num_issue_query_threads) and blocks
// until the test ends. Start one goroutine per thread before StartTest;
// LoadGen waits up to 10 s for them. LoadGen supports this only in the first
// test of a process.
func RegisterIssueQueryThread() error {
	if testsFinished.Load() > 0 {
		return errors.New("loadgen: issue-query threads work only in the first test of a process")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cerr *C.char
	if C.mlpg_register_issue_query_thread(&cerr) != C.MLPG_OK {
		return cError("RegisterIssueQueryThread", cerr)
	}
	return nil
}

func (l *LogSettings) toC() (C.mlpg_log_settings, func()) {
	var c C.mlpg_log_settings
	c.outdir = C.CString(l.OutDir)
	c.prefix = C.CString(l.Prefix)
	c.suffix = C.CString(l.Suffix)
	c.prefix_with_datetime = cBool(l.PrefixWithDatetime)
	c.copy_detail_to_stdout = cBool(l.CopyDetailToStdout)
	c.copy_summary_to_stdout = cBool(l.CopySummaryToStdout)
	c.log_mode = C.int32_t(l.Mode)
	c.log_mode_async_poll_interval_ms = C.uint64_t(l.AsyncPollIntervalMs)
	c.enable_trace = cBool(l.EnableTrace)
	return c, func() {
		C.free(unsafe.Pointer(c.outdir))
		C.free(unsafe.Pointer(c.prefix))
		C.free(unsafe.Pointer(c.suffix))
	}
}

func cBool(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}

// libraryDefaultTestSettings reads mlperf::TestSettings' defaults from the
// linked library (tests compare DefaultTestSettings with it).
func libraryDefaultTestSettings() TestSettings {
	var c C.mlpg_test_settings
	var cerr *C.char
	if C.mlpg_settings_default(&c, &cerr) != C.MLPG_OK {
		panic(cError("TestSettings defaults", cerr))
	}
	return settingsFromC(&c)
}
