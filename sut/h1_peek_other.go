//go:build unix && !linux

package sut

import "syscall"

// peekFD is recv(2) with MSG_PEEK|MSG_DONTWAIT.
func peekFD(fd uintptr, p []byte) (int, error) {
	n, _, err := syscall.Recvfrom(int(fd), p, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	return n, err
}
