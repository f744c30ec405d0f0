//go:build linux && race

package sut

import "syscall"

// With the race detector, the socket is read and written through package
// syscall's Read and Write, which tell the detector about the buffers and
// about the ordering that I/O implies (raw system calls would hide both
// and produce false reports). The logic around them is the same.

// readFD is read(2) on a non-blocking socket.
func readFD(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Read(int(fd), p)
	return max(n, 0), errno(err)
}

// writevFD writes the request's first non-empty piece (partial writes
// are resumed by the caller).
func writevFD(fd uintptr, req *pieces) (int, syscall.Errno) {
	for _, b := range req {
		if len(b) > 0 {
			n, err := syscall.Write(int(fd), b)
			return max(n, 0), errno(err)
		}
	}
	return 0, 0
}

// peekFD is recv(2) with MSG_PEEK|MSG_DONTWAIT.
func peekFD(fd uintptr, p []byte) (int, error) {
	n, _, err := syscall.Recvfrom(int(fd), p, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	return n, err
}

func errno(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EIO
}
