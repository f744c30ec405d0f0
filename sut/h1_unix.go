//go:build unix

package sut

import (
	"net"
	"syscall"
)

// connAlive reports whether an idle connection can still carry a request:
// false when the server has closed it (a zero-byte peek) or sent bytes
// nobody asked for. It never blocks.
func connAlive(nc net.Conn) bool {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	alive := true
	var buf [1]byte
	err = rc.Read(func(fd uintptr) bool {
		n, err := peekFD(fd, buf[:])
		alive = n <= 0 && (err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || err == syscall.EINTR)
		return true
	})
	return alive && err == nil
}
