//go:build cgo && linux

package loadgen

import (
	"syscall"
	"unsafe"
)

// futexWakePrivate is FUTEX_WAKE | FUTEX_PRIVATE_FLAG (linux/futex.h).
const futexWakePrivate = 1 | 128

// wake wakes the completion thread blocked in FUTEX_WAIT on r.sleeping
// (Completer::Sleep in the shim). Raw: the call never blocks, so the
// runtime need not hand off the P or wake sysmon as it does for a cgo or
// blocking system call.
func (q *completionRing) wake() {
	syscall.RawSyscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(&q.r.sleeping)), futexWakePrivate, 1, 0, 0, 0)
}
