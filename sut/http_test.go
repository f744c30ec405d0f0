package sut

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// rawServer is a TCP server whose replies are written byte for byte by
// reply, so the tests control framing, keep-alive and misbehaviour exactly.
// reply gets the connection's request number (0, 1, ...) and the parsed
// request, writes what it wants and reports whether to keep reading
// requests on the connection.
type rawServer struct {
	ln    net.Listener
	conns atomic.Int64
	reqs  atomic.Int64
	mu    sync.Mutex
	got   []*http.Request
	wg    sync.WaitGroup
}

func newRawServer(t *testing.T, reply func(n int, req *http.Request, body []byte, w *bufio.Writer) bool) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Add(1)
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer c.Close()
				br, bw := bufio.NewReader(c), bufio.NewWriter(c)
				for n := 0; ; n++ {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					body, err := io.ReadAll(req.Body)
					if err != nil {
						return
					}
					s.reqs.Add(1)
					s.mu.Lock()
					s.got = append(s.got, req)
					s.mu.Unlock()
					keep := reply(n, req, body, bw)
					if bw.Flush() != nil || !keep {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *rawServer) url() string { return "http://" + s.ln.Addr().String() }

const sglangOK = `{"output_ids":[5,6],"meta_info":{}}`

// TestFraming sends each response framing the pool must read: the result
// must be the same, and connections reused when the framing allows (the
// pool reads every body to its end).
func TestFraming(t *testing.T) {
	chunked := func(s string, sizes ...int) string {
		var b strings.Builder
		for _, n := range sizes {
			fmt.Fprintf(&b, "%x\r\n%s\r\n", n, s[:n])
			s = s[n:]
		}
		fmt.Fprintf(&b, "%x;ext=1\r\n%s\r\n0\r\nX-Trailer: t\r\n\r\n", len(s), s)
		return b.String()
	}
	for _, tc := range []struct {
		name     string
		resp     string
		wantConn int64 // connections for 6 sequential requests
	}{
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(sglangOK)) + "\r\n\r\n" + sglangOK, 1},
		{"header case and spaces", "HTTP/1.1 200 OK\r\ncontent-LENGTH:   " + strconv.Itoa(len(sglangOK)) + "  \r\nX-A: b\r\n\r\n" + sglangOK, 1},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(sglangOK, 1, 10, 3), 1},
		{"chunked wins over length", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(sglangOK, 7), 1},
		{"continue first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(sglangOK)) + "\r\n\r\n" + sglangOK, 1},
		{"connection close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(sglangOK)) + "\r\n\r\n" + sglangOK, 6},
		{"http/1.0", "HTTP/1.0 200 OK\r\nContent-Length: " + strconv.Itoa(len(sglangOK)) + "\r\n\r\n" + sglangOK, 6},
		{"http/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: " + strconv.Itoa(len(sglangOK)) + "\r\n\r\n" + sglangOK, 1},
		{"read to close", "HTTP/1.1 200 OK\r\n\r\n" + sglangOK, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			close := tc.wantConn > 1
			srv := newRawServer(t, func(_ int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
				w.WriteString(tc.resp)
				return !close
			})
			p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1})
			const n = 6
			qs := samples(n)
			for i := range qs {
				qs[i].Index = 0
			}
			p.IssueQuery(qs)
			p.Close()
			_, finals, dups := rec.snapshot()
			if st := p.Stats(); st.Failed != 0 || len(finals) != n || len(dups) != 0 {
				t.Fatalf("stats %+v, %d completions, dups %v", st, len(finals), dups)
			}
			for _, r := range finals {
				if r.NTokens != 2 || len(r.Data) != 8 {
					t.Errorf("response %+v", r)
				}
			}
			if got := srv.conns.Load(); got != tc.wantConn {
				t.Errorf("%d connections for %d requests, want %d", got, n, tc.wantConn)
			}
		})
	}
}

// TestRequestHead checks what the server receives: method, path, Host,
// headers (no Accept-Encoding: compression is off) and the exact body.
func TestRequestHead(t *testing.T) {
	srv := newRawServer(t, func(_ int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len("data: [DONE]\n\n"), "data: [DONE]\n\n")
		return true
	})
	body := []byte(`{"model":"m","stream":true}`)
	p, _ := newPool(t, Config{Endpoints: []string{srv.url() + "/v1"}, API: openaichat.Protocol, Stream: true, APIKey: "sk-1", Bodies: sliceBodies{body}})
	p.IssueQuery(samples(1))
	p.Close()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.got) != 1 {
		t.Fatalf("%d requests", len(srv.got))
	}
	r := srv.got[0]
	got := map[string]string{
		"method": r.Method, "uri": r.RequestURI, "proto": r.Proto, "host": r.Host,
		"content-type": r.Header.Get("Content-Type"), "accept": r.Header.Get("Accept"),
		"authorization": r.Header.Get("Authorization"), "length": strconv.FormatInt(r.ContentLength, 10),
		"user-agent": r.Header.Get("User-Agent"), "accept-encoding": r.Header.Get("Accept-Encoding"),
	}
	want := map[string]string{
		"method": "POST", "uri": "/v1/chat/completions", "proto": "HTTP/1.1", "host": srv.ln.Addr().String(),
		"content-type": "application/json", "accept": "text/event-stream",
		"authorization": "Bearer sk-1", "length": strconv.Itoa(len(body)),
		"user-agent": "mlperf-go", "accept-encoding": "",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("request (-want +got):\n%s", d)
	}
}

// TestMalformed: every broken framing fails its sample with the right
// reason (and, where given, a message naming the problem).
func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, resp, reason, msg string
	}{
		{"bad status line", "HTTP/2 200 OK\r\n\r\n", ReasonTransport, ""},
		{"status not a number", "HTTP/1.1 2x0 OK\r\n\r\n", ReasonTransport, ""},
		{"header without colon", "HTTP/1.1 200 OK\r\nbroken\r\n\r\n", ReasonTransport, ""},
		{"bad content-length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", ReasonTransport, ""},
		{"conflicting content-lengths", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}", ReasonTransport, ""},
		{"unknown transfer-encoding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", ReasonTransport, `unsupported transfer encoding: "gzip"`},
		{"gzip, chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", ReasonTransport, `unsupported transfer encoding: "gzip, chunked"`},
		// RFC 9112 6.1: Transfer-Encoding in an HTTP/1.0 message is
		// faulty framing; net/http reads such a body to the close, so the
		// chunk sizes are part of it and it is not JSON.
		{"http/1.0 with transfer-encoding", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(sglangOK), sglangOK), ReasonMalformed, "malformed JSON"},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", ReasonTransport, ""},
		{"chunk longer than its size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n", ReasonTransport, ""},
		{"body cut short", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + sglangOK, ReasonTransport, ""},
		{"chunked cut short", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"out", ReasonTransport, ""},
		{"headers cut short", "HTTP/1.1 200 OK\r\nContent-Le", ReasonTransport, ""},
		{"nothing", "", ReasonTransport, ""},
		{"status 503", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy", ReasonHTTPStatus, "503 Service Unavailable from http://"},
		{"redirect", "HTTP/1.1 307 Temporary Redirect\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n", ReasonHTTPStatus, "307"},
		{"not JSON", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbusy", ReasonMalformed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRawServer(t, func(n int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
				if n > 0 {
					return false
				}
				w.WriteString(tc.resp)
				return false // close after the reply: truncations become EOF
			})
			// Retries off: a 503 would be sent again (TestRetryStatus);
			// nothing else here may be.
			p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1, Retries: NoRetries})
			p.IssueQuery(samples(1))
			p.Close()
			_, finals, _ := rec.snapshot()
			st := p.Stats()
			if len(finals) != 1 || st.Failed != 1 || st.FailuresByReason[tc.reason] != 1 {
				t.Fatalf("want one %s failure; stats %+v", tc.reason, st)
			}
			msg := st.FirstFailures[0].Message
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q, want it to mention %q", msg, tc.msg)
			}
			if got := srv.reqs.Load(); got != 1 {
				t.Errorf("server saw %d requests, want 1 (nothing is retried on a new connection)", got)
			}
		})
	}
}

// TestStaleConnection: a server that closes a keep-alive connection
// while it is idle must not fail the next sample: the close is noticed
// before the request is written (or the request is retried, see send),
// and it goes out on a fresh connection.
func TestStaleConnection(t *testing.T) {
	for _, idle := range []time.Duration{0, 1200 * time.Millisecond} {
		t.Run(fmt.Sprintf("idle=%v", idle), func(t *testing.T) {
			srv := newRawServer(t, func(_ int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
				fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(sglangOK), sglangOK)
				return false // close without saying so: the client believes it can reuse it
			})
			p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1})
			qs := samples(3)
			for i := range qs {
				qs[i].Index = 0
				p.IssueQuery(qs[i : i+1])
				waitFor(t, "completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == i+1 })
				time.Sleep(idle + 20*time.Millisecond) // let the server's close arrive
			}
			p.Close()
			if st := p.Stats(); st.Failed != 0 {
				t.Fatalf("stats %+v", st)
			}
			if got := srv.reqs.Load(); got != 3 {
				t.Errorf("server saw %d requests, want 3 (no duplicates)", got)
			}
		})
	}
}

// answerOK writes sglangOK as a complete keep-alive response.
func answerOK(w *bufio.Writer) {
	fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(sglangOK), sglangOK)
}

// TestRetryOnReusedConnection: a request that a server reads on a reused
// keep-alive connection and then drops without a byte of answer (what a
// keep-alive timeout racing the request looks like from the client) is
// sent once more on a new connection, succeeds and is counted. A request
// dropped on a new connection too (a server that died with it in flight)
// is sent again up to Retries times, then fails.
func TestRetryOnReusedConnection(t *testing.T) {
	for _, tc := range []struct {
		name string
		// drop says whether the server drops request n of its connection
		// (n counts from 0) or the k-th request it sees overall.
		drop         func(n int, k int64) bool
		wantReqs     int64
		wantFailed   int64
		wantRetries  int64
		wantFailures map[string]int64
	}{
		{"second attempt succeeds", func(n int, _ int64) bool { return n == 1 }, 4, 0, 1, map[string]int64{}},
		// Samples 2 and 3 are dropped on every connection: each is sent
		// 1 + DefaultRetries times, then fails.
		{"every later attempt fails", func(_ int, k int64) bool { return k > 1 }, 1 + 2*(1+DefaultRetries), 2, 2 * DefaultRetries, map[string]int64{ReasonTransport: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen atomic.Int64
			srv := newRawServer(t, func(n int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
				if tc.drop(n, seen.Add(1)) {
					return false // read, then dropped without a byte
				}
				answerOK(w)
				return true
			})
			p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1})
			qs := samples(3)
			for i := range qs {
				qs[i].Index = 0
				p.IssueQuery(qs[i : i+1])
				waitFor(t, "completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == i+1 })
			}
			p.Close()
			_, finals, dups := rec.snapshot()
			st := p.Stats()
			if len(finals) != 3 || len(dups) != 0 || st.Failed != tc.wantFailed || st.Retries != tc.wantRetries {
				t.Errorf("%d completions, dups %v, stats %+v; want %d failed, %d retries", len(finals), dups, st, tc.wantFailed, tc.wantRetries)
			}
			if d := cmp.Diff(tc.wantFailures, st.FailuresByReason); d != "" {
				t.Errorf("failures (-want +got):\n%s", d)
			}
			if got := srv.reqs.Load(); got != tc.wantReqs {
				t.Errorf("server saw %d requests, want %d", got, tc.wantReqs)
			}
		})
	}
}

// TestIdleTimeoutServer runs samples against a server whose keep-alive
// timeout closes connections just as the pool reuses them: whatever the
// race does (net/http drops the closed connection, retries a request it
// could not write, or the pool retries one written into the close), every
// sample succeeds and the server answers each exactly once.
func TestIdleTimeoutServer(t *testing.T) {
	const idle = 20 * time.Millisecond
	var handled atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		handled.Add(1)
		io.WriteString(w, sglangOK)
	}))
	srv.Config.IdleTimeout = idle
	srv.Start()
	t.Cleanup(srv.Close)
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 4})
	const n = 60
	qs := samples(n)
	for i := range qs {
		qs[i].Index = 0
		p.IssueQuery(qs[i : i+1])
		// Around the idle timeout, so reuse and close race.
		time.Sleep(idle - 3*time.Millisecond + time.Duration(i%7)*time.Millisecond)
	}
	p.Close()
	_, finals, dups := rec.snapshot()
	st := p.Stats()
	if len(finals) != n || len(dups) != 0 || st.Failed != 0 {
		t.Fatalf("%d completions, dups %v, stats %+v", len(finals), dups, st)
	}
	if got := handled.Load(); got != n {
		t.Errorf("server answered %d requests, want %d", got, n)
	}
	t.Logf("%d retries", st.Retries)
}

// TestEarlyStatus: a server that refuses a large body with 413 before
// reading it; the pool reports the status, not the write error that
// follows when the server closes.
func TestEarlyStatus(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > 1<<20 {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, sglangOK)
	})
	big := append(append([]byte(`{"pad":"`), bytes.Repeat([]byte("x"), 16<<20)...), `"}`...)
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Bodies: sliceBodies{big, []byte(`{}`)}, Concurrency: 1})
	p.IssueQuery(samples(2))
	p.Close()
	_, finals, _ := rec.snapshot()
	st := p.Stats()
	if len(finals) != 2 || st.Failed != 1 || st.FailuresByReason[ReasonHTTPStatus] != 1 {
		t.Fatalf("stats %+v, want the large sample failed with its status", st)
	}
	if f := st.FirstFailures[0]; f.Index != 0 || !strings.Contains(f.Message, "413") || !strings.Contains(f.Message, "too large") {
		t.Errorf("failure %+v, want the 413 and its body", f)
	}
}

// TestHTTPS: the pool's transport over TLS (the test server's root added).
func TestHTTPS(t *testing.T) {
	var tlsReqs atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil && r.URL.Path == "/generate" {
			tlsReqs.Add(1)
		}
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, sglangOK)
	}))
	t.Cleanup(srv.Close)
	tr := newTransport(4, 1)
	tr.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 4, Transport: tr})
	qs := samples(20)
	for i := range qs {
		qs[i].Index = 0
	}
	p.IssueQuery(qs)
	p.Close()
	_, finals, _ := rec.snapshot()
	if st := p.Stats(); len(finals) != 20 || st.Failed != 0 || tlsReqs.Load() != 20 {
		t.Errorf("%d completions, %d over TLS, stats %+v", len(finals), tlsReqs.Load(), st)
	}
}

// TestProxy: the pool's transport through an HTTP forward proxy on
// loopback. (From the environment, HTTP_PROXY never applies to loopback
// endpoints, so the test sets the transport's Proxy.)
func TestProxy(t *testing.T) {
	target := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, sglangOK)
	})
	var mu sync.Mutex
	var proxied []string
	fwd := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.Out.URL = pr.In.URL // a proxy request carries the absolute URL
	}}
	proxy := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		proxied = append(proxied, r.RequestURI)
		mu.Unlock()
		fwd.ServeHTTP(w, r)
	})
	proxyURL, err := url.Parse(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	tr := newTransport(2, 1)
	tr.Proxy = http.ProxyURL(proxyURL)
	p, rec := newPool(t, Config{Endpoints: []string{target.URL}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 2, Transport: tr})
	qs := samples(6)
	for i := range qs {
		qs[i].Index = 0
	}
	p.IssueQuery(qs)
	p.Close()
	_, finals, _ := rec.snapshot()
	if st := p.Stats(); len(finals) != 6 || st.Failed != 0 {
		t.Fatalf("%d completions, stats %+v", len(finals), st)
	}
	mu.Lock()
	defer mu.Unlock()
	want := target.URL + "/generate"
	if len(proxied) != 6 || proxied[0] != want {
		t.Errorf("the proxy saw %q, want 6 requests for %s", proxied, want)
	}
}

// TestCustomTransport runs the fault table through a transport given in
// Config.Transport.
func TestCustomTransport(t *testing.T) {
	srv := serve(t, faultServer(t))
	const n = 2 * faultKinds
	bodies := make(sliceBodies, n)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"i":%d}`, i))
	}
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: openaichat.Protocol, Bodies: bodies, Timeout: time.Second,
		MaxFailureRecords: n, Transport: &http.Transport{}})
	p.IssueQuery(samples(n))
	p.Close()
	_, finals, dups := rec.snapshot()
	if len(finals) != n || len(dups) != 0 {
		t.Fatalf("%d completions, dups %v", len(finals), dups)
	}
	want := map[string]int64{}
	for i := range n {
		if r := wantReason(i%faultKinds, false); r != "" {
			want[r]++
		}
	}
	if d := cmp.Diff(want, p.Stats().FailuresByReason); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
}

// TestTransportSettings pins the pool's transport: idle connections for
// every request in flight, no compression, the proxy from the
// environment, explicit timeouts, and retries on a keep-alive-free clone.
func TestTransportSettings(t *testing.T) {
	client, fresh := newClients(nil, 64, 3)
	tr := client.Transport.(*http.Transport)
	got := map[string]any{
		"MaxIdleConns": tr.MaxIdleConns, "MaxIdleConnsPerHost": tr.MaxIdleConnsPerHost,
		"DisableCompression": tr.DisableCompression, "Proxy": tr.Proxy != nil, "DisableKeepAlives": tr.DisableKeepAlives,
		"TLSHandshakeTimeout": tr.TLSHandshakeTimeout, "IdleConnTimeout": tr.IdleConnTimeout,
		"retry DisableKeepAlives":   fresh.Transport.(*http.Transport).DisableKeepAlives,
		"retry MaxIdleConnsPerHost": fresh.Transport.(*http.Transport).MaxIdleConnsPerHost,
	}
	want := map[string]any{
		"MaxIdleConns": 192, "MaxIdleConnsPerHost": 64,
		"DisableCompression": true, "Proxy": true, "DisableKeepAlives": false,
		"TLSHandshakeTimeout": tlsHandshakeTimeout, "IdleConnTimeout": idleConnTimeout,
		"retry DisableKeepAlives": true, "retry MaxIdleConnsPerHost": 64,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("transport (-want +got):\n%s", d)
	}
	if client.CheckRedirect == nil || fresh.CheckRedirect == nil {
		t.Error("redirects are followed")
	}
}
