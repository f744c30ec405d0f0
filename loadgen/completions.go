//go:build cgo

package loadgen

/*
#cgo noescape mlpg_complete
#cgo nocallback mlpg_complete
#cgo nocallback mlpg_nudge
#include <stdlib.h>
#include "mlpg_shim.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Completions reach LoadGen from one OS thread per test. LoadGen buffers
// its log records per OS thread, so a FirstTokenComplete and a
// QuerySamplesComplete of one sample made on two threads can be logged out
// of order (wrong token_data in the accuracy log, or a crash in LoadGen's
// log thread). The Completer appends each response, its bytes copied, to the
// test's completionQueue and returns; the test's server goroutine, locked to
// its OS thread (serve in bridge.go), takes everything queued at once and
// hands it to LoadGen in one cgo call (mlpg_complete), in queue order. The
// same goroutine takes LoadGen's issued samples, so a SUT that completes
// inside IssueQuery needs no thread switch at all.

// completionQueue is one test's queue. Producers are serialised by mu, so
// records keep the order of the Completer calls. It never drops a record
// and never blocks a producer on LoadGen.
type completionQueue struct {
	mu     sync.Mutex
	recs   []C.mlpg_completion
	data   []byte // the records' response bytes, back to back
	closed bool
	// spare buffers, owned by the server between deliveries.
	spareRecs []C.mlpg_completion
	spareData []byte
	// sleeping is set by the server before it blocks in C (mlpg_take);
	// the producer that clears it wakes the server with mlpg_nudge.
	sleeping atomic.Bool
	// failed is told, on the server goroutine, that LoadGen threw.
	failed func(error)
}

// lock takes the producer lock; it reports false (and does not lock) once
// the queue is closed.
func (q *completionQueue) lock() bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	return true
}

// put appends one record, with mu held, copying data: the caller may reuse
// its slice once the Completer call returns.
func (q *completionQueue) put(kind uint64, id uint64, data []byte, nTokens int64) {
	q.recs = append(q.recs, C.mlpg_completion{
		id:       C.uint64_t(id),
		offset:   C.uint64_t(len(q.data)),
		size:     C.uint64_t(len(data)),
		n_tokens: C.int64_t(nTokens),
		kind:     C.uint64_t(kind),
	})
	q.data = append(q.data, data...)
}

// unlock releases the producer lock and wakes the server if it sleeps. The
// records are visible before sleeping is read, and the server sets
// sleeping before it looks at the queue a last time (both sequentially
// consistent), so either it sees the records or this sees it asleep.
func (q *completionQueue) unlock() {
	q.mu.Unlock()
	if q.sleeping.Load() && q.sleeping.CompareAndSwap(true, false) {
		C.mlpg_nudge()
	}
}

// close refuses every later producer; the server still delivers what is
// queued.
func (q *completionQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}

// empty reports whether nothing is queued.
func (q *completionQueue) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.recs) == 0
}

// deliver hands everything queued to LoadGen in one cgo call, on the
// server goroutine. It swaps the queue's buffers for its spare ones under
// mu, so producers append to other memory while the batch is in C. The
// records and bytes are Go memory without Go pointers, which C may read
// during the call; LoadGen copies what it keeps.
func (q *completionQueue) deliver() {
	q.mu.Lock()
	recs, data := q.recs, q.data
	q.recs, q.data = q.spareRecs[:0], q.spareData[:0]
	q.mu.Unlock()
	q.spareRecs, q.spareData = recs, data
	if len(recs) == 0 {
		return
	}
	var dp *C.uint8_t
	if len(data) > 0 {
		dp = (*C.uint8_t)(unsafe.Pointer(&data[0]))
	}
	var cerr *C.char
	failures := C.mlpg_complete(&recs[0], C.size_t(len(recs)), dp, &cerr)
	runtime.KeepAlive(data)
	if failures > 0 {
		err := cError("LoadGen complete call", cerr)
		q.failed(fmt.Errorf("%w (%d calls threw)", err, uint64(failures)))
	}
}

// completerFailAfter makes mlpg_complete throw after its n-th LoadGen call
// from now (test hook; 0: never).
func completerFailAfter(n uint64) { C.mlpg_complete_fail_after(C.uint64_t(n)) }

// traceDeliveries starts (or stops) recording the responses mlpg_complete
// delivers (test hook).
func traceDeliveries(on bool) { C.mlpg_complete_trace(cBool(on)) }

// deliveryTrace returns the responses delivered since traceDeliveries(true),
// in order: raw LoadGen IDs, with traceFirstToken set for first tokens; and
// the number of distinct OS threads that delivered them.
func deliveryTrace() (ids []uint64, threads int) {
	var nt C.size_t
	n := int(C.mlpg_complete_trace_take(nil, 0, &nt))
	for {
		buf := make([]uint64, n+1024)
		got := int(C.mlpg_complete_trace_take((*C.uint64_t)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &nt))
		if got <= len(buf) {
			return buf[:got], int(nt)
		}
		n = got
	}
}

// traceFirstToken marks a first token in deliveryTrace.
const traceFirstToken = uint64(1) << 63
