//go:build cgo && !linux

package loadgen

import (
	"syscall"
	"unsafe"
)

// wakeByte is what wake writes; a global, so the raw system call gets an
// address the garbage collector never moves.
var wakeByte = [1]byte{1}

// wake writes one byte to the completion thread's wake pipe (non-blocking:
// EAGAIN means a wake is already pending). Raw: the call never blocks, so
// the runtime need not treat it as a blocking system call.
func (q *completionRing) wake() {
	syscall.RawSyscall(syscall.SYS_WRITE, q.wakeFd, uintptr(unsafe.Pointer(&wakeByte[0])), 1)
}
