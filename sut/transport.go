package sut

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// Transport settings.
const (
	// connectTimeout matches task.py's httpx.Timeout(connect=5.0).
	connectTimeout = 5 * time.Second
	// tlsHandshakeTimeout is net/http's default for its DefaultTransport.
	tlsHandshakeTimeout = 10 * time.Second
	// idleConnTimeout closes keep-alive connections unused this long,
	// as net/http's DefaultTransport.
	idleConnTimeout = 90 * time.Second
)

// newTransport is the pool's one HTTP stack: a net/http Transport tuned for
// concurrency requests in flight over endpoints servers. http and https
// endpoints and proxies all take it.
func newTransport(concurrency, endpoints int) *http.Transport {
	return &http.Transport{
		// HTTP_PROXY, HTTPS_PROXY and NO_PROXY apply as for any Go
		// program (loopback addresses are never proxied).
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         dialVectored,
		TLSHandshakeTimeout: tlsHandshakeTimeout,
		// There is no ResponseHeaderTimeout: a non-streamed answer's
		// headers come only when generation ends, so the request's own
		// deadline (Config.Timeout) bounds the wait.
		//
		// Idle connections are kept for every possible in-flight request
		// so a burst never closes and re-dials sockets (which would
		// exhaust ephemeral ports under load).
		MaxIdleConns:        concurrency * endpoints,
		MaxIdleConnsPerHost: concurrency,
		IdleConnTimeout:     idleConnTimeout,
		// Inference servers do not compress; asking would only cost CPU
		// and make streams arrive in bursts.
		DisableCompression: true,
		// Small request bodies are written with their head through the
		// write buffer, large ones apart from it (see newRequest);
		// responses are read in large pieces.
		WriteBufferSize: writeBufferSize,
		ReadBufferSize:  64 << 10,
		// HTTP/1.1 only (a custom DialContext without ForceAttemptHTTP2
		// turns HTTP/2 off): one connection per request in flight, as the
		// reference clients use, so least-outstanding selection and the
		// server's own batching see every request apart.
	}
}

// newClients returns the client for requests and the one for retries:
// rt (or newTransport) and, when rt is an *http.Transport, a clone of it
// with keep-alives off, so a retry always gets a new connection rather than
// another idle one that may be just as stale.
func newClients(rt http.RoundTripper, concurrency, endpoints int) (*http.Client, *http.Client) {
	if rt == nil {
		rt = newTransport(concurrency, endpoints)
	}
	retry := rt
	if t, ok := rt.(*http.Transport); ok {
		t = t.Clone()
		t.DisableKeepAlives = true
		retry = t
	}
	// A redirect is answered as a status failure, not followed: an
	// endpoint URL that redirects is a setting to fix, and following it
	// would send every body twice.
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &http.Client{Transport: rt, CheckRedirect: noRedirect},
		&http.Client{Transport: retry, CheckRedirect: noRedirect}
}

// send posts one body (prefix then rest) of sample index to endpoint ep,
// with the sample's header when the bodies name one (HeaderBodies), on a
// new connection when fresh, and returns the response once its head has
// arrived, with the trace of what net/http did.
//
// A request whose reused keep-alive connection fails before any byte of a
// response arrives may be sent once more, on a new connection (see
// attemptTrace.retryable; do decides, within Config.Retries). That is the
// race of a server closing a connection it thinks idle (its keep-alive
// timeout) just as the pool writes a request on it. net/http notices most
// such closes before it reuses a connection, and itself retries a request
// it could not write at all (GetBody is set), but a POST that was written
// when the close arrived comes back as an error: net/http replays only
// idempotent requests (shouldRetryRequest in its transport.go). Sending it
// again is safe here because nothing of the sample has happened yet on our
// side: no response byte came back, so nothing was reported to LoadGen,
// which still waits for the sample and gets exactly one completion, from
// the retry. On the server's side a generation request changes no state;
// at worst a server that did read the request before dropping the
// connection computes one answer twice, which the count makes visible. A
// failure on a new connection is not retried that way (the server is
// refusing us, not timing us out, as net/http reasons too), and net/http's
// own retries, which only resend a request no byte of which was written,
// are counted here but not limited.
func (p *Pool) send(ctx context.Context, t *attemptTrace, ep, index int, prefix, body []byte, fresh bool) (*http.Response, error) {
	t.reset()
	req, err := p.newRequest(httptrace.WithClientTrace(ctx, t.hooks), ep, prefix, body)
	if err != nil {
		return nil, err
	}
	if p.heads != nil {
		if k, v := p.heads.Header(index); k != "" {
			req.Header.Set(k, v)
		}
	}
	client := p.client
	if fresh {
		client = p.fresh
	}
	resp, err := client.Do(req)
	if n := t.conns.Load(); n > 1 {
		for range n - 1 { // net/http sent it again itself
			p.book.retry(RetryConnection)
		}
	}
	return resp, err
}

// newRequest builds the POST of prefix+body to endpoint ep. A body that
// fits net/http's write buffer with the head is joined into one slice, a
// *bytes.Reader, which net/http knows to be in memory: it writes head and
// body in one write. A larger one goes as a vectoredBody over the library's
// own memory (see vectorConn). Either way GetBody is set, so net/http can
// rewind the body for its own retries.
func (p *Pool) newRequest(ctx context.Context, ep int, prefix, body []byte) (*http.Request, error) {
	n := len(prefix) + len(body)
	if n <= maxJoinedBody {
		whole := body
		if len(prefix) > 0 {
			whole = append(append(make([]byte, 0, n), prefix...), body...)
		}
		// NewRequest sets ContentLength and GetBody for a *bytes.Reader.
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.eps.urls[ep], bytes.NewReader(whole))
		return p.withHeaders(req, err, whole)
	}
	pieces := func() io.ReadCloser { return &vectoredBody{net.Buffers{prefix, body}} }
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.eps.urls[ep], pieces())
	if err == nil {
		req.ContentLength = int64(n)
		req.GetBody = func() (io.ReadCloser, error) { return pieces(), nil }
	}
	head := prefix
	if len(head) == 0 {
		head = body
	}
	return p.withHeaders(req, err, head)
}

// withHeaders sets the headers of every request to the endpoints. head is
// the body's beginning, from which a protocol whose bodies are not JSON
// (protocol.BodyTyper: a multipart body names its boundary) tells their
// Content-Type.
func (p *Pool) withHeaders(req *http.Request, err error, head []byte) (*http.Request, error) {
	if err != nil {
		return nil, err
	}
	contentType := "application/json"
	if t, ok := p.cfg.API.(protocol.BodyTyper); ok {
		contentType = t.ContentType(head)
	}
	req.Header = http.Header{
		"Content-Type": {contentType},
		"User-Agent":   {"mlperf-go"},
	}
	if p.cfg.Stream {
		req.Header["Accept"] = []string{"text/event-stream"}
	}
	if p.auth != "" {
		req.Header["Authorization"] = []string{p.auth}
	}
	return req, nil
}

// attemptTrace records what net/http did with one attempt: how many
// connections it was given (more than one when net/http retried it),
// whether the last had carried requests before, whether any response
// byte arrived, and when the request was written. The hooks run on
// net/http's goroutines.
//
// Each worker keeps one, reset for every attempt, so tracing allocates
// nothing per request. Every hook but WroteRequest runs before net/http
// returns the attempt's response; WroteRequest may come later when the
// server answers before reading the whole request, so it stamps only the
// first write after a reset and the pool stamps the answer's arrival
// instead when it finds none.
type attemptTrace struct {
	conns     atomic.Int32
	reused    atomic.Bool
	responded atomic.Bool
	wrote     atomic.Int64 // Pool.clk when the request was written; 0 before
	hooks     *httptrace.ClientTrace
}

func newAttemptTrace(clk clock) *attemptTrace {
	t := &attemptTrace{}
	t.hooks = &httptrace.ClientTrace{
		GotConn: func(i httptrace.GotConnInfo) {
			t.conns.Add(1)
			t.reused.Store(i.Reused)
		},
		GotFirstResponseByte: func() { t.responded.Store(true) },
		WroteRequest: func(i httptrace.WroteRequestInfo) {
			if i.Err == nil {
				t.wrote.CompareAndSwap(0, clk.now())
			}
		},
	}
	return t
}

// reset readies t for a new attempt.
func (t *attemptTrace) reset() {
	t.conns.Store(0)
	t.reused.Store(false)
	t.responded.Store(false)
	t.wrote.Store(0)
}

// retryable reports a failure send may retry: on a reused connection (the
// last one net/http gave the request), before any response byte.
func (t *attemptTrace) retryable() bool {
	return t.conns.Load() > 0 && t.reused.Load() && !t.responded.Load()
}

// writeBufferSize is the size of each connection's write buffer, and
// maxJoinedBody the largest body written through it with its head: a few
// kilobytes of token IDs are cheaper to copy than to write apart from the
// head, an image is not.
const (
	writeBufferSize = 32 << 10
	maxJoinedBody   = writeBufferSize - 4<<10 // room for the head
)

// Vectored bodies. A qwen3-vl request body is 60-150 KB (an image), held
// by the sample library in two pieces, the prefix all bodies share and the
// rest (qsl.Library.SharePrefix). Joined and handed to net/http, it was
// copied twice (into one slice, then into net/http's write buffer) and,
// when bigger than that buffer, once more through a 32 KiB buffer
// allocated per request, in several writes. Instead the transport's
// connections give the pieces to the kernel as they are, in one writev
// (net.Buffers), after net/http has written the head: no copy of the body
// is made on our side (measured side by side, five alternated runs: about
// 20% less harness CPU per qwen3-vl sample than joining it, 83-88 against
// 102-116 µs).

// vectoredBody is a request body in pieces. net/http sees a plain reader;
// a vectorConn recognises it and writes the pieces itself.
type vectoredBody struct{ pieces net.Buffers }

func (b *vectoredBody) Read(p []byte) (int, error) { return b.pieces.Read(p) }
func (b *vectoredBody) Close() error               { return nil }

// len returns the bytes left to read.
func (b *vectoredBody) len() int64 {
	var n int64
	for _, p := range b.pieces {
		n += int64(len(p))
	}
	return n
}

// vectorConn is a TCP connection whose ReadFrom writes a vectoredBody's
// pieces in one writev. net/http writes a request body through its
// connection's ReadFrom once the head is flushed (which it does first for a
// body it does not know to be in memory), wrapped in an io.LimitedReader of
// the Content-Length; anything else is copied as by net.TCPConn.
type vectorConn struct{ *net.TCPConn }

// ReadFrom implements io.ReaderFrom.
func (c vectorConn) ReadFrom(r io.Reader) (int64, error) {
	if lr, ok := r.(*io.LimitedReader); ok {
		if b, ok := lr.R.(*vectoredBody); ok && b.len() <= lr.N {
			n, err := b.pieces.WriteTo(c.TCPConn)
			lr.N -= n
			return n, err
		}
	}
	return c.TCPConn.ReadFrom(r)
}

// dialer opens the transport's connections.
var dialer = &net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}

// dialVectored dials as net/http's default transport does and makes TCP
// connections vectorConns. (Over TLS net/http writes through the TLS
// connection, which copies the body into its records in any case.)
func dialVectored(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := dialer.DialContext(ctx, network, addr)
	if tc, ok := c.(*net.TCPConn); ok {
		return vectorConn{tc}, nil
	}
	return c, err
}
