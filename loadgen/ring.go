//go:build cgo

package loadgen

/*
#include <stdlib.h>
#include "mlpg_shim.h"
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Completions reach LoadGen from one native thread per test (see
// mlpg_cring in shim/mlpg_shim.h for the why). The Completer writes each
// response into a ring in C memory and the thread delivers the ring in
// order. A cgo call per Completer call would wake the Go runtime's sysmon
// thread every time (entersyscall); writing C memory needs no call, and
// waking the thread is one raw system call (ring_wake_*.go), made only when
// it sleeps.

// Ring sizes of each test: records, and arena bytes for response data.
// Tests shrink them to exercise back-pressure.
var (
	ringRecords = 8192
	ringBytes   = 4 << 20
)

// completionRing is the Go (producer) side of one test's ring. Producers
// are serialised by mu, so records keep the order of the Completer calls.
type completionRing struct {
	mu       sync.Mutex
	r        *C.mlpg_cring
	recs     []C.mlpg_completion // over r.recs
	data     []byte              // over r.data
	mask     uint64
	dataCap  uint64
	head     uint64 // records written; published to r.head by publish
	dataHead uint64 // arena bytes used (monotonic)
	closed   bool
	wakeFd   uintptr
}

// Counters for tests: producers that found the ring or arena full, and
// responses whose bytes went to malloc'd memory.
var ringWaits, ringMallocs atomic.Int64

func newCompletionRing(r *C.mlpg_cring) *completionRing {
	return &completionRing{
		r:       r,
		recs:    unsafe.Slice(r.recs, int(r.cap)),
		data:    unsafe.Slice((*byte)(unsafe.Pointer(r.data)), int(r.data_cap)),
		mask:    uint64(r.cap) - 1,
		dataCap: uint64(r.data_cap),
		wakeFd:  uintptr(r.wake_fd),
	}
}

func (q *completionRing) tail() uint64 {
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(&q.r.tail)))
}

func (q *completionRing) dataTail() uint64 {
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(&q.r.data_tail)))
}

// lock takes the producer lock; it reports false (and does not lock) once
// the ring is closed.
func (q *completionRing) lock() bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	return true
}

// unlock publishes what was written, releases the producer lock and
// wakes the thread if it sleeps.
func (q *completionRing) unlock() {
	q.publish()
	q.mu.Unlock()
	q.wakeIfAsleep()
}

// close refuses every later producer. The thread still delivers what was
// published (mlpg_completer_stop).
func (q *completionRing) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}

// publish makes the records written so far visible to the thread.
func (q *completionRing) publish() {
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&q.r.head)), q.head)
}

// wakeIfAsleep wakes the thread if it announced it sleeps. It must follow
// a publish: the store of head and the load of sleeping here are both
// sequentially consistent, as are the thread's store of sleeping and its
// load of head before it blocks, so either the thread sees the new head or
// this sees it asleep. Whoever swaps sleeping from 1 to 0 wakes it.
func (q *completionRing) wakeIfAsleep() {
	sleeping := (*uint32)(unsafe.Pointer(&q.r.sleeping))
	if atomic.LoadUint32(sleeping) != 0 && atomic.CompareAndSwapUint32(sleeping, 1, 0) {
		q.wake()
	}
}

// waitFor waits, with mu held, while full reports true: the thread is
// behind. Records already written are published first so it can catch up.
// Nothing is ever dropped.
func (q *completionRing) waitFor(full func() bool) {
	ringWaits.Add(1)
	q.publish()
	q.wakeIfAsleep()
	for i := 0; full(); i++ {
		if i < 64 {
			runtime.Gosched()
		} else {
			time.Sleep(20 * time.Microsecond)
		}
	}
}

// put writes one record, with mu held; data is copied into the arena (or,
// if larger than half of it, into malloc'd memory the thread frees).
func (q *completionRing) put(kind uint64, id uint64, data []byte, nTokens int64) {
	if q.head-q.tail() > q.mask {
		q.waitFor(func() bool { return q.head-q.tail() > q.mask })
	}
	var where uint64
	n := uint64(len(data))
	if n > q.dataCap/2 {
		// Rare (a response of megabytes): one cgo call.
		p := C.malloc(C.size_t(n))
		copy(unsafe.Slice((*byte)(p), n), data)
		where = uint64(uintptr(p))
		kind |= C.MLPG_MALLOCED
		ringMallocs.Add(1)
	} else if n > 0 {
		pos := q.dataHead
		off := pos % q.dataCap
		if off+n > q.dataCap {
			// Contiguous bytes only: skip the arena's end. n <= cap/2
			// then implies n < off, so an empty arena always has room.
			pos += q.dataCap - off
			off = 0
		}
		if pos+n-q.dataTail() > q.dataCap {
			q.waitFor(func() bool { return pos+n-q.dataTail() > q.dataCap })
		}
		copy(q.data[off:off+n], data)
		where = off
		q.dataHead = pos + n
	}
	q.recs[q.head&q.mask] = C.mlpg_completion{
		id:       C.uint64_t(id),
		data:     C.uint64_t(where),
		size:     C.uint64_t(n),
		n_tokens: C.int64_t(nTokens),
		kind:     C.uint64_t(kind),
		data_end: C.uint64_t(q.dataHead),
	}
	q.head++
}

// completerFailAfter makes the completion thread throw after its n-th
// LoadGen call from now (test hook; 0: never).
func completerFailAfter(n uint64) { C.mlpg_completer_fail_after(C.uint64_t(n)) }

// traceDeliveries starts (or stops) recording the responses the completion
// thread delivers (test hook).
func traceDeliveries(on bool) { C.mlpg_completer_trace(cBool(on)) }

// deliveryTrace returns the responses delivered since traceDeliveries(true),
// in order: raw LoadGen IDs, with traceFirstToken set for first tokens.
func deliveryTrace() []uint64 {
	n := int(C.mlpg_completer_trace_take(nil, 0))
	for {
		buf := make([]uint64, n+1024)
		got := int(C.mlpg_completer_trace_take((*C.uint64_t)(unsafe.Pointer(&buf[0])), C.size_t(len(buf))))
		if got <= len(buf) {
			return buf[:got]
		}
		n = got
	}
}

// traceFirstToken marks a first token in deliveryTrace.
const traceFirstToken = uint64(1) << 63
