package sut

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"
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
		Proxy: http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{
			Timeout:   connectTimeout,
			KeepAlive: 30 * time.Second,
		}).DialContext,
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
		// Bodies are tens of kilobytes (qwen3-vl images): fewer, larger
		// writes.
		WriteBufferSize: 64 << 10,
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

// send posts one body (prefix then rest) to endpoint ep, on a new
// connection when fresh, and returns the response once its head has
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
func (p *Pool) send(ctx context.Context, ep int, prefix, body []byte, fresh bool) (*http.Response, *attemptTrace, error) {
	t := &attemptTrace{}
	if len(prefix) > 0 {
		t.whole = joinBody(prefix, body)
		body = *t.whole
	}
	req, err := p.newRequest(httptrace.WithClientTrace(ctx, t.hooks()), ep, body)
	if err != nil {
		return nil, t, err
	}
	client := p.client
	if fresh {
		client = p.fresh
	}
	resp, err := client.Do(req)
	if n := t.conns.Load(); n > 1 {
		for range n - 1 { // net/http sent it again itself
			p.countRetry(RetryConnection)
		}
	}
	return resp, t, err
}

// newRequest builds the POST of body to endpoint ep. A *bytes.Reader is a
// body net/http knows to be in memory: it writes the head and the body
// through one buffer instead of flushing the head on its own, and sets
// GetBody so it can rewind the body for its own retries.
func (p *Pool) newRequest(ctx context.Context, ep int, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.urls[ep], bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = http.Header{
		"Content-Type": {"application/json"},
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
// whether the last had carried requests before, and whether any response
// byte arrived. The hooks run on net/http's goroutines.
type attemptTrace struct {
	conns     atomic.Int32
	reused    atomic.Bool
	responded atomic.Bool
	// wrote counts the writes of the request net/http finished (one per
	// connection it was given, when all went their course), and whole is
	// the joined body they read (nil when the body was not joined).
	wrote atomic.Int32
	whole *[]byte
}

func (t *attemptTrace) hooks() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GotConn: func(i httptrace.GotConnInfo) {
			t.conns.Add(1)
			t.reused.Store(i.Reused)
		},
		WroteRequest:         func(httptrace.WroteRequestInfo) { t.wrote.Add(1) },
		GotFirstResponseByte: func() { t.responded.Store(true) },
	}
}

// retryable reports a failure send may retry: on a reused connection (the
// last one net/http gave the request), before any response byte.
func (t *attemptTrace) retryable() bool {
	return t.conns.Load() > 0 && t.reused.Load() && !t.responded.Load()
}

// Joined bodies. A body with a shared prefix (qsl.Library.SharePrefix) is
// sent as one contiguous buffer: net/http then writes head and body in one
// system call, where reading the two parts in turn cost it a separate write
// of the head, a 32 KiB copy buffer per request and several more writes
// (measured: about 40% more harness CPU per qwen3-vl sample). The buffers
// are reused, since a fresh one of tens of kilobytes per request costs
// more to allocate and collect than the copy itself.
var wholeBodies = sync.Pool{New: func() any { return new([]byte) }}

// joinBody returns prefix+body in a buffer from wholeBodies.
func joinBody(prefix, body []byte) *[]byte {
	b := wholeBodies.Get().(*[]byte)
	*b = append(append((*b)[:0], prefix...), body...)
	return b
}

// releaseBody returns the joined body to wholeBodies once nothing can read
// it any more: the caller is done with the response, so net/http starts no
// further write of this request, and every write it started (one per
// connection it got, GotConn) has ended (WroteRequest). A request whose
// write may still be going on, such as one answered early by the server,
// keeps its buffer; the collector takes it.
func (t *attemptTrace) releaseBody() {
	if t.whole == nil || t.wrote.Load() != t.conns.Load() {
		return
	}
	if cap(*t.whole) > maxPooledBody {
		return
	}
	wholeBodies.Put(t.whole)
	t.whole = nil
}

// maxPooledBody bounds the buffers wholeBodies keeps: a rare huge body is
// not held for the rest of the run.
const maxPooledBody = 4 << 20
