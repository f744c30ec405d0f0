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
		alive = peekSaysAlive(n, err)
		return true
	})
	return alive && err == nil
}

// peekSaysAlive reads a non-blocking one-byte peek of an idle connection:
// nothing to read yet (EAGAIN) is the only healthy answer; a zero-byte
// read is the server's close, and bytes are a reply nobody asked for.
func peekSaysAlive(n int, err error) bool {
	return n <= 0 && (err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || err == syscall.EINTR)
}
