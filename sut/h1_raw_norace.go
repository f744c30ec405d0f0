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

// writevFD is writev(2) of head then body (either may be empty, not
// both) on a non-blocking socket, as a raw system call.
func writevFD(fd uintptr, head, body []byte) (int, syscall.Errno) {
	var iov [2]syscall.Iovec
	n := 0
	for _, b := range [2][]byte{head, body} {
		if len(b) > 0 {
			iov[n].Base = &b[0]
			iov[n].SetLen(len(b))
			n++
		}
	}
	w, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(n))
	return int(w), e
}
