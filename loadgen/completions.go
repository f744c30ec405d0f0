//go:build cgo

package loadgen

/*
#cgo noescape mlpg_complete
#cgo nocallback mlpg_complete
#include <stdlib.h>
#include "mlpg_shim.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Completions reach LoadGen from one OS thread per test. LoadGen buffers
// its log records per OS thread, so a FirstTokenComplete and a
// QuerySamplesComplete of one sample made on two threads can be logged out
// of order (wrong token_data in the accuracy log, or a crash in LoadGen's
// log thread). The Completer appends each response, its bytes copied, to a
// completionQueue and returns; one goroutine locked to its OS thread takes
// everything queued at once and hands it to LoadGen in one cgo call
// (mlpg_complete), in queue order.

// completionQueue is one test's queue. Producers are serialised by mu, so
// records keep the order of the Completer calls. It never drops a record
// and never blocks a producer on LoadGen.
type completionQueue struct {
	mu     sync.Mutex
	recs   []C.mlpg_completion
	data   []byte // the records' response bytes, back to back
	closed bool
	// wake holds one token when the deliverer has work or must stop.
	wake chan struct{}
	done chan struct{} // closed when the deliverer returned
	// failed is told, on the delivering goroutine, that LoadGen threw.
	failed func(error)
}

// newCompletionQueue starts the test's delivering goroutine.
func newCompletionQueue(failed func(error)) *completionQueue {
	q := &completionQueue{
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
		failed: failed,
	}
	go q.run()
	return q
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

// unlock releases the producer lock and wakes the deliverer.
func (q *completionQueue) unlock() {
	q.mu.Unlock()
	q.signal()
}

func (q *completionQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default: // a wake is already pending
	}
}

// close refuses every later producer, lets the deliverer hand over what is
// queued and waits for it to return.
func (q *completionQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
	<-q.done
}

// run is the deliverer. It swaps the queue's buffers for its own empty ones
// under mu, so producers append to fresh memory while the batch is in C.
func (q *completionQueue) run() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(q.done)
	var recs []C.mlpg_completion
	var data []byte
	for range q.wake {
		q.mu.Lock()
		recs, q.recs = q.recs, recs[:0]
		data, q.data = q.data, data[:0]
		closed := q.closed
		q.mu.Unlock()
		if len(recs) > 0 {
			q.deliver(recs, data)
		}
		if closed {
			return
		}
	}
}

// deliver makes one cgo call for a batch. The records and bytes are Go
// memory without Go pointers, which C may read during the call; LoadGen
// copies what it keeps.
func (q *completionQueue) deliver(recs []C.mlpg_completion, data []byte) {
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
