//go:build linux && !race

package sut

import (
	"syscall"
	"unsafe"
)

// readFD is read(2) on a non-blocking socket, as a raw system call.
func readFD(fd uintptr, p []byte) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(n), e
}

// writevFD is writev(2) of the request's non-empty pieces on a
// non-blocking socket, as a raw system call.
func writevFD(fd uintptr, req *pieces) (int, syscall.Errno) {
	var iov [len(pieces{})]syscall.Iovec
	n := 0
	for _, b := range req {
		if len(b) > 0 {
			iov[n].Base = &b[0]
			iov[n].SetLen(len(b))
			n++
		}
	}
	w, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(n))
	return int(w), e
}

// peekFD is recv(2) with MSG_PEEK|MSG_DONTWAIT, as a raw system call: it
// never blocks, and through the ordinary system-call entry it would wake
// sysmon from its idle sleep on every reused connection (see rawReader).
func peekFD(fd uintptr, p []byte) (int, error) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)),
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(n), nil
}
