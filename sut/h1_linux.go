//go:build linux

package sut

import (
	"io"
	"net"
	"syscall"
)

// connReader returns the reader responses are read from: on Linux TCP
// connections one that reads with raw system calls (see rawReader).
func connReader(nc net.Conn) io.Reader {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nc
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nc
	}
	r := &rawReader{nc: tc, rc: rc}
	r.readFn, r.peekFn = r.readReady, r.peekReady
	return r
}

// rawReader reads a non-blocking socket with raw read(2) calls, waiting in
// the runtime's poller (deadlines included) only when nothing is ready.
// An ordinary read goes through the runtime's system-call entry, which
// wakes sysmon from its idle sleep whenever the process was idle, and an
// endpoint-bound harness goes idle between most responses: sysmon then
// polls every 20 µs instead of backing off. A read of a ready socket never
// blocks, so the raw call needs no such bookkeeping.
type rawReader struct {
	nc *net.TCPConn
	rc syscall.RawConn
	// The call in progress: its buffer and results. The callbacks are
	// method values made once per connection, where a closure per call
	// would be an allocation per request.
	p              []byte
	n              int
	errno          syscall.Errno
	live           bool
	one            [1]byte
	readFn, peekFn func(fd uintptr) bool
}

// Read implements io.Reader.
func (r *rawReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p, r.n, r.errno = p, 0, 0
	err := r.rc.Read(r.readFn)
	n, e := r.n, r.errno
	r.p = nil
	switch {
	case err != nil:
		return 0, err
	case e != 0:
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: r.nc.LocalAddr(), Addr: r.nc.RemoteAddr(), Err: e}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (r *rawReader) readReady(fd uintptr) bool {
	for {
		m, e := readFD(fd, r.p)
		switch e {
		case 0:
			r.n = m
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait until readable
		default:
			r.errno = e
		}
		return true
	}
}

// alive is connAlive for this connection, without allocating.
func (r *rawReader) alive() bool {
	r.live = false
	err := r.rc.Read(r.peekFn)
	return err == nil && r.live
}

func (r *rawReader) peekReady(fd uintptr) bool {
	n, err := peekFD(fd, r.one[:])
	r.live = peekSaysAlive(n, err)
	return true
}

// writeRequest writes the request's pieces to nc. On Linux TCP connections it
// issues writev itself, as a raw system call on the non-blocking socket:
// copying a 60 KB body into a loopback socket takes longer than the
// runtime's 20 µs system-call threshold, so through the ordinary path
// sysmon would take the worker's P away on most writes and hand it to
// another thread (a futex wake-up and a context switch per request), and
// the system-call entry wakes sysmon (see rawReader). The raw call cannot
// block: a full socket buffer returns EAGAIN and the ordinary poller wait
// follows.
func writeRequest(nc net.Conn, req *pieces) error {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return writeRequestGeneric(nc, req)
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for req.size() > 0 {
			w, e := writevFD(fd, req)
			switch e {
			case 0:
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait until the socket is writable
			default:
				werr = e
				return true
			}
			req.advance(w)
		}
		return true
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return &net.OpError{Op: "write", Net: "tcp", Source: nc.LocalAddr(), Addr: nc.RemoteAddr(), Err: werr}
	}
	return nil
}
