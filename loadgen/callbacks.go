//go:build cgo

package loadgen

// The C++ shim calls these from LoadGen's main thread, which waits for
// them: the QSL's load and unload. (Issued samples do not come through a
// callback: LoadGen's IssueQuery queues them in C++, and a goroutine of the
// bridge hands them to the SUT in batches; see StartTestContext in bridge.go.) A file with //export may only declare
// in its preamble, so the C side lives in shim/mlpg_shim.h. Every trampoline
// recovers: a panic must not unwind into C++, and it must not crash the
// process while LoadGen's logs are half-written. It aborts the test instead
// (see AbortTest), and StartTest returns the panic as its error.

/*
#include "mlpg_shim.h"
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unsafe"
)

func stateOf(h C.uintptr_t) *testState {
	return cgo.Handle(h).Value().(*testState)
}

//export mlpgGoLoadSamples
func mlpgGoLoadSamples(h C.uintptr_t, indices *C.uint64_t, n C.size_t) {
	st := stateOf(h)
	st.loaded.Store(true)
	defer st.recoverInto("QSL.LoadSamplesToRam")
	if st.aborted.Load() {
		return
	}
	if err := st.qsl.LoadSamplesToRam(toInts(indices, n)); err != nil {
		st.abort(fmt.Errorf("QSL.LoadSamplesToRam: %w", err))
	}
}

//export mlpgGoUnloadSamples
func mlpgGoUnloadSamples(h C.uintptr_t, indices *C.uint64_t, n C.size_t) {
	st := stateOf(h)
	defer st.recoverInto("QSL.UnloadSamplesFromRam")
	if err := st.qsl.UnloadSamplesFromRam(toInts(indices, n)); err != nil {
		st.abort(fmt.Errorf("QSL.UnloadSamplesFromRam: %w", err))
	}
}

func toInts(p *C.uint64_t, n C.size_t) []int {
	src := unsafe.Slice((*uint64)(unsafe.Pointer(p)), int(n))
	out := make([]int, len(src))
	for i, v := range src {
		out[i] = int(v)
	}
	return out
}
