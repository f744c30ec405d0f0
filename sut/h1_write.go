//go:build !linux

package sut

import (
	"io"
	"net"
)

// connReader returns the reader responses are read from.
func connReader(nc net.Conn) io.Reader { return nc }

// writeRequest writes head then body to nc.
func writeRequest(nc net.Conn, head, body []byte) error {
	return writeRequestGeneric(nc, head, body)
}
