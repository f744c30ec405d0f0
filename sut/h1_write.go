//go:build !linux

package sut

import (
	"io"
	"net"
)

// connReader returns the reader responses are read from.
func connReader(nc net.Conn) io.Reader { return nc }

// writeRequest writes the request's pieces to nc.
func writeRequest(nc net.Conn, req *pieces) error {
	return writeRequestGeneric(nc, req)
}
