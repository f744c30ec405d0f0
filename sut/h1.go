package sut

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// A minimal HTTP/1.1 client for the hot path. net/http's Transport runs two
// goroutines per connection and hands every request between the caller,
// the write loop and the read loop; at thousands of requests per second
// those hand-offs (scheduler wake-ups, futex calls) cost several times
// more CPU than the request itself. Here each pool worker owns its
// keep-alive connections and writes the request and reads the response on
// its own goroutine: one park per request, while waiting for the answer.
//
// It speaks exactly what the pool needs: POST with a Content-Length body,
// responses with Content-Length, chunked or close-delimited bodies,
// keep-alive and Connection: close, 1xx responses skipped. TLS and proxies
// are left to net/http (Pool uses it for https:// endpoints and when an
// HTTP proxy applies).

// maxHeaderBytes bounds a response's status line and headers, as
// net/http's default MaxResponseHeaderBytes does (its default is 10 MB;
// inference servers send a few hundred bytes).
const maxHeaderBytes = 1 << 20

// h1Target is one endpoint: where to dial and the request head up to the
// Content-Length value.
type h1Target struct {
	addr string
	head []byte
}

// newH1Target prepares the fixed part of every request to rawURL.
func newH1Target(rawURL string, stream bool, auth string) (h1Target, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return h1Target{}, err
	}
	host := u.Host
	addr := host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
		host = u.Hostname()
		if bytes.ContainsRune([]byte(host), ':') {
			host = "[" + host + "]"
		}
	}
	var h []byte
	h = append(h, "POST "...)
	h = append(h, u.RequestURI()...)
	h = append(h, " HTTP/1.1\r\nHost: "...)
	h = append(h, host...)
	h = append(h, "\r\nUser-Agent: mlperf-go\r\nContent-Type: application/json\r\n"...)
	if stream {
		h = append(h, "Accept: text/event-stream\r\n"...)
	}
	if auth != "" {
		h = append(h, "Authorization: "...)
		h = append(h, auth...)
		h = append(h, "\r\n"...)
	}
	h = append(h, "Content-Length: "...)
	return h1Target{addr: addr, head: h}, nil
}

// h1Conn is one keep-alive connection, owned by one worker at a time.
type h1Conn struct {
	nc       net.Conn
	br       *bufio.Reader
	used     bool      // has carried a request before
	lastUsed time.Time // when the last response ended
	body     h1Body
	peek     func() bool // connAlive without allocating, where the reader has it
}

// h1Response is a parsed status line and the headers the pool uses.
type h1Response struct {
	status      int
	statusLine  string // kept only for non-200 statuses
	contentType string // kept only for streams
	keepAlive   bool
}

// errStale marks a failure to write a request on a reused connection: the
// server had closed it while idle and nothing reached it, so the request is
// sent again on a fresh connection.
type errStale struct{ err error }

func (e *errStale) Error() string { return e.err.Error() }
func (e *errStale) Unwrap() error { return e.err }

// roundTrip writes one request on c and reads the response head. hdr is
// scratch space for the request head; it is returned grown.
func (c *h1Conn) roundTrip(t *h1Target, prefix, body []byte, hdr []byte, stream bool) (h1Response, []byte, error) {
	hdr = append(hdr[:0], t.head...)
	hdr = strconv.AppendInt(hdr, int64(len(prefix)+len(body)), 10)
	hdr = append(hdr, "\r\n\r\n"...)
	if err := writeRequest(c.nc, &pieces{hdr, prefix, body}); err != nil {
		if c.used && isConnReset(err) {
			return h1Response{}, hdr, &errStale{err}
		}
		return h1Response{}, hdr, err
	}
	for {
		r, _, err := c.readHead(stream)
		if err != nil {
			// The request was written, so the server may have received it
			// and started generating: like net/http for a POST, do not send
			// it again (a duplicate would be extra load and would hide the
			// failure). Idle closes are caught before the write (connAlive).
			return r, hdr, err
		}
		if r.status >= 100 && r.status < 200 && r.status != 101 {
			continue // 100 Continue, 103 Early Hints: the real response follows
		}
		return r, hdr, nil
	}
}

// pieces are a request as written: the head, the body's shared prefix
// (often empty) and the rest of the body.
type pieces [3][]byte

// size is what remains to be written.
func (p *pieces) size() int { return len(p[0]) + len(p[1]) + len(p[2]) }

// advance drops the first n bytes written.
func (p *pieces) advance(n int) {
	for i := range p {
		k := min(n, len(p[i]))
		p[i], n = p[i][k:], n-k
	}
}

// writeRequestGeneric writes the pieces with one writev where the
// connection supports it.
func writeRequestGeneric(nc net.Conn, req *pieces) error {
	bufs := net.Buffers{req[0], req[1], req[2]}
	_, err := bufs.WriteTo(nc)
	return err
}

// isConnReset reports an error a server's close of an idle connection
// causes.
func isConnReset(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// readLine returns the next header line without its CRLF; the slice is
// valid until the next read.
func (c *h1Conn) readLine(budget *int) ([]byte, error) {
	line, err := c.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return nil, errors.New("malformed HTTP response: header line too long")
	}
	if err != nil {
		if errors.Is(err, io.EOF) && len(line) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if *budget -= len(line); *budget < 0 {
		return nil, fmt.Errorf("malformed HTTP response: headers longer than %d bytes", maxHeaderBytes)
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// readHead reads a status line and headers and prepares c.body. fresh is
// true when the failure came before any byte of the response.
func (c *h1Conn) readHead(stream bool) (r h1Response, fresh bool, err error) {
	budget := maxHeaderBytes
	if c.br.Buffered() == 0 {
		// Nothing of the response yet: Peek fails without consuming
		// only when the server sent nothing at all.
		if _, err := c.br.Peek(1); err != nil {
			return r, true, err
		}
	}
	line, err := c.readLine(&budget)
	if err != nil {
		return r, false, err
	}
	// HTTP/1.x SSS reason
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' ||
		(line[7] != '0' && line[7] != '1') || (len(line) > 12 && line[12] != ' ') {
		return r, false, fmt.Errorf("malformed HTTP response: status line %q", clip(string(line), 100))
	}
	for _, d := range line[9:12] {
		if d < '0' || d > '9' {
			return r, false, fmt.Errorf("malformed HTTP response: status line %q", clip(string(line), 100))
		}
		r.status = r.status*10 + int(d-'0')
	}
	if r.status != 200 {
		r.statusLine = string(bytes.TrimSpace(line[9:]))
	}
	http11 := line[7] == '1'
	r.keepAlive = http11
	length, chunked := int64(-1), false
	for {
		line, err := c.readLine(&budget)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return r, false, err
		}
		if len(line) == 0 {
			break
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return r, false, fmt.Errorf("malformed HTTP response: header line %q", clip(string(line), 100))
		}
		name, value := line[:colon], bytes.TrimSpace(line[colon+1:])
		switch {
		case asciiEqualFold(name, "content-length"):
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil || n < 0 || (length >= 0 && n != length) {
				return r, false, fmt.Errorf("malformed HTTP response: Content-Length %q", clip(string(value), 40))
			}
			length = n
		case asciiEqualFold(name, "transfer-encoding"):
			// Only "chunked" (possibly after identity) is valid for a
			// response to us; anything else is read to the close.
			chunked = hasToken(value, "chunked")
			if !chunked && !asciiEqualFold(value, "identity") {
				return r, false, fmt.Errorf("unsupported Transfer-Encoding %q", clip(string(value), 40))
			}
		case asciiEqualFold(name, "connection"):
			if hasToken(value, "close") {
				r.keepAlive = false
			} else if !http11 && hasToken(value, "keep-alive") {
				r.keepAlive = true
			}
		case stream && asciiEqualFold(name, "content-type"):
			r.contentType = string(value)
		}
	}
	c.body = h1Body{br: c.br}
	switch {
	case r.status == 204 || r.status == 304 || (r.status >= 100 && r.status < 200):
		c.body.done = true
	case chunked: // wins over Content-Length (RFC 9112 6.3)
		c.body.chunked = true
	case length >= 0:
		c.body.remain = length
		c.body.done = length == 0
	default:
		c.body.toEOF = true
		r.keepAlive = false
	}
	return r, false, nil
}

// asciiEqualFold compares b with the lower-case ASCII string s, ignoring
// case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// hasToken reports whether the comma-separated header value lists tok
// (lower case), ignoring case.
func hasToken(v []byte, tok string) bool {
	for len(v) > 0 {
		var part []byte
		part, v, _ = bytes.Cut(v, []byte(","))
		if asciiEqualFold(bytes.TrimSpace(part), tok) {
			return true
		}
	}
	return false
}

// h1Body reads one response body from the connection's reader.
type h1Body struct {
	br      *bufio.Reader
	remain  int64 // bytes left in the body (Content-Length) or in the chunk
	chunked bool
	inChunk bool // a chunk's data has started: its CRLF is still to come
	toEOF   bool // close-delimited
	done    bool // the body has been read to its end
	err     error
}

// Read implements io.Reader.
func (b *h1Body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.done {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if b.toEOF {
		n, err := b.br.Read(p)
		if errors.Is(err, io.EOF) {
			b.done = true
		} else if err != nil {
			b.err = err
		}
		return n, err
	}
	if b.chunked && b.remain == 0 {
		if err := b.nextChunk(); err != nil {
			if !errors.Is(err, io.EOF) {
				b.err = err
			}
			return 0, err
		}
	}
	if int64(len(p)) > b.remain {
		p = p[:b.remain]
	}
	n, err := b.br.Read(p)
	b.remain -= int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		b.err = err
		return n, err
	}
	if !b.chunked && b.remain == 0 {
		b.done = true
	}
	return n, nil
}

// nextChunk reads up to the next chunk's data; io.EOF means the last
// chunk and the trailers have been read.
func (b *h1Body) nextChunk() error {
	if b.inChunk {
		line, err := b.line()
		if err != nil {
			return err
		}
		if len(line) != 0 {
			return errors.New("malformed chunked body: data longer than its chunk size")
		}
		b.inChunk = false
	}
	line, err := b.line()
	if err != nil {
		return err
	}
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i] // chunk extensions are ignored
	}
	line = bytes.TrimSpace(line)
	size, err := strconv.ParseUint(string(line), 16, 62)
	if err != nil || len(line) == 0 {
		return fmt.Errorf("malformed chunked body: chunk size %q", clip(string(line), 40))
	}
	if size == 0 {
		for { // trailers, up to the blank line
			line, err := b.line()
			if err != nil {
				return err
			}
			if len(line) == 0 {
				b.done = true
				return io.EOF
			}
		}
	}
	b.remain, b.inChunk = int64(size), true
	return nil
}

// line reads one CRLF-terminated line of chunk framing.
func (b *h1Body) line() ([]byte, error) {
	line, err := b.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return nil, errors.New("malformed chunked body: framing line too long")
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// drain reads what is left of the body, up to limit bytes, and reports
// whether it reached the end (so the connection can carry another
// request).
func (b *h1Body) drain(limit int64) bool {
	if b.done {
		return true
	}
	if b.toEOF {
		return false
	}
	_, err := io.Copy(io.Discard, io.LimitReader(b, limit))
	return err == nil && b.done
}

// dial opens a connection to t.
func (p *Pool) dial(ctx context.Context, t *h1Target) (*h1Conn, error) {
	d := net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}
	nc, err := d.DialContext(ctx, "tcp", t.addr)
	if err != nil {
		return nil, err
	}
	r := connReader(nc)
	c := &h1Conn{nc: nc, br: bufio.NewReaderSize(r, 32<<10)}
	if a, ok := r.(interface{ alive() bool }); ok {
		c.peek = a.alive
	}
	p.connMu.Lock()
	p.conns[c] = struct{}{}
	p.connMu.Unlock()
	return c, nil
}

// alive reports whether the idle connection c can still carry a request
// (see connAlive).
func (c *h1Conn) alive() bool {
	if c.peek != nil {
		return c.peek()
	}
	return connAlive(c.nc)
}

// closeConn closes c and forgets it.
func (p *Pool) closeConn(c *h1Conn) {
	p.connMu.Lock()
	delete(p.conns, c)
	p.connMu.Unlock()
	c.nc.Close()
}

// interruptConns makes every connection's pending and future I/O fail at
// once (on cancellation); the workers then close them.
func (p *Pool) interruptConns() {
	p.connMu.Lock()
	defer p.connMu.Unlock()
	for c := range p.conns {
		_ = c.nc.SetDeadline(time.Unix(1, 0))
	}
}

// lengthHint is the body's length when known up front, else -1.
func (b *h1Body) lengthHint() int64 {
	if b.chunked || b.toEOF {
		return -1
	}
	return b.remain
}
