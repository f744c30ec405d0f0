package sut

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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

// TestH1Framing sends each response framing the client must read: the
// result must be the same, and connections reused when the framing
// allows.
func TestH1Framing(t *testing.T) {
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
			p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: APISGLang, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1})
			if p.targets == nil {
				t.Fatal("the pool does not use its own client for a plain http endpoint")
			}
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

// TestH1RequestHead checks what the server receives: method, path, Host,
// headers and the exact body.
func TestH1RequestHead(t *testing.T) {
	srv := newRawServer(t, func(_ int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len("data: [DONE]\n\n"), "data: [DONE]\n\n")
		return true
	})
	body := []byte(`{"model":"m","stream":true}`)
	p, _ := newPool(t, Config{Endpoints: []string{srv.url() + "/v1"}, API: APIChat, Stream: true, APIKey: "sk-1", Bodies: sliceBodies{body}})
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
	}
	want := map[string]string{
		"method": "POST", "uri": "/v1/chat/completions", "proto": "HTTP/1.1", "host": srv.ln.Addr().String(),
		"content-type": "application/json", "accept": "text/event-stream",
		"authorization": "Bearer sk-1", "length": strconv.Itoa(len(body)),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("request (-want +got):\n%s", d)
	}
}

// TestH1Malformed: every broken framing fails its sample with the right
// reason, and the pool recovers on a fresh connection for the next one.
func TestH1Malformed(t *testing.T) {
	for _, tc := range []struct {
		name, resp, reason string
	}{
		{"bad status line", "HTTP/2 200 OK\r\n\r\n", ReasonTransport},
		{"status not a number", "HTTP/1.1 2x0 OK\r\n\r\n", ReasonTransport},
		{"header without colon", "HTTP/1.1 200 OK\r\nbroken\r\n\r\n", ReasonTransport},
		{"bad content-length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", ReasonTransport},
		{"conflicting content-lengths", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}", ReasonTransport},
		{"unknown transfer-encoding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", ReasonTransport},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", ReasonTransport},
		{"chunk longer than its size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n", ReasonTransport},
		{"body cut short", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + sglangOK, ReasonTransport},
		{"chunked cut short", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"out", ReasonTransport},
		{"headers cut short", "HTTP/1.1 200 OK\r\nContent-Le", ReasonTransport},
		{"nothing", "", ReasonTransport},
		{"status 503", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy", ReasonHTTPStatus},
		{"not JSON", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbusy", ReasonMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRawServer(t, func(n int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
				if n > 0 {
					return false
				}
				w.WriteString(tc.resp)
				return false // close after the reply: truncations become EOF
			})
			p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: APISGLang, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1})
			p.IssueQuery(samples(1))
			p.Close()
			_, finals, _ := rec.snapshot()
			st := p.Stats()
			if len(finals) != 1 || st.Failed != 1 || st.FailuresByReason[tc.reason] != 1 {
				t.Fatalf("want one %s failure; stats %+v", tc.reason, st)
			}
			t.Logf("%s: %s", tc.reason, st.FirstFailures[0].Message)
		})
	}
}

// TestH1StaleConnection: a server that closes a keep-alive connection
// while it is idle must not fail the next sample: the close is noticed
// before the request is written, and it goes out on a fresh connection.
func TestH1StaleConnection(t *testing.T) {
	for _, idle := range []time.Duration{0, 1200 * time.Millisecond} {
		t.Run(fmt.Sprintf("idle=%v", idle), func(t *testing.T) {
			srv := newRawServer(t, func(_ int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
				fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(sglangOK), sglangOK)
				return false // close without saying so: the client believes it can reuse it
			})
			p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: APISGLang, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1})
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

// TestH1NetHTTPFallback runs the fault table through net/http (a custom
// Transport), the path https endpoints and proxies take.
func TestH1NetHTTPFallback(t *testing.T) {
	srv := serve(t, faultServer(t))
	const n = 2 * faultKinds
	bodies := make(sliceBodies, n)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"i":%d}`, i))
	}
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: APIChat, Bodies: bodies, Timeout: time.Second,
		MaxFailureRecords: n, Transport: &http.Transport{}})
	if p.targets != nil {
		t.Fatal("a custom Transport must be used")
	}
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

// TestH1Targets: plain http uses the pool's client, https endpoints
// net/http.
func TestH1Targets(t *testing.T) {
	ts, err := h1Targets([]string{"http://h:1/generate", "http://[::1]/generate"}, false, "")
	if err != nil || len(ts) != 2 {
		t.Fatalf("h1Targets = %v, %v", ts, err)
	}
	if ts[0].addr != "h:1" || ts[1].addr != "[::1]:80" || !strings.Contains(string(ts[1].head), "Host: [::1]\r\n") {
		t.Errorf("targets %+v / %q", ts, ts[1].head)
	}
	if ts, err := h1Targets([]string{"http://h:1/x", "https://h/x"}, false, ""); err != nil || ts != nil {
		t.Errorf("https endpoint: %v, %v; want net/http", ts, err)
	}
	// (HTTP_PROXY cannot be tested here: net/http reads the environment
	// once per process.)
}

// FuzzH1Response reads arbitrary bytes as a response: never a panic, and
// when both this client and net/http accept a response, they agree on
// status and body.
func FuzzH1Response(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1;x=y\r\n}\r\n0\r\n\r\n",
		"HTTP/1.0 404 Not Found\r\n\r\nnope",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &h1Conn{br: bufio.NewReaderSize(strings.NewReader(string(data)), 4096)}
		var r h1Response
		var err error
		for {
			r, _, err = c.readHead(false)
			if err != nil || r.status < 100 || r.status >= 200 || r.status == 101 {
				break
			}
		}
		if err != nil {
			return
		}
		body, err := io.ReadAll(io.LimitReader(&c.body, 1<<20))
		if err != nil {
			return
		}
		std, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(data))), nil)
		if err != nil || std.StatusCode != r.status || std.StatusCode != 200 {
			return
		}
		stdBody, err := io.ReadAll(io.LimitReader(std.Body, 1<<20))
		if err != nil {
			return
		}
		if string(stdBody) != string(body) {
			t.Errorf("body %q, net/http %q", body, stdBody)
		}
	})
}

// TestH1NoReplayAfterWrite: a request the server received on a reused
// connection and then dropped without answering is a failure, not sent
// again: the server may have started generating, so a replay would be
// duplicate load and would hide the failure (net/http does not replay a
// written POST either).
func TestH1NoReplayAfterWrite(t *testing.T) {
	srv := newRawServer(t, func(n int, _ *http.Request, _ []byte, w *bufio.Writer) bool {
		if n == 1 {
			return false // the second request on a connection: read, then dropped
		}
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(sglangOK), sglangOK)
		return true
	})
	p, rec := newPool(t, Config{Endpoints: []string{srv.url()}, API: APISGLang, Bodies: sliceBodies{[]byte(`{}`)}, Concurrency: 1})
	qs := samples(3)
	for i := range qs {
		qs[i].Index = 0
		p.IssueQuery(qs[i : i+1])
		waitFor(t, "completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == i+1 })
	}
	p.Close()
	if st := p.Stats(); st.Failed != 1 {
		t.Errorf("stats %+v, want exactly the dropped request failed", st)
	}
	if got := srv.reqs.Load(); got != 3 {
		t.Errorf("server saw %d requests, want 3 (the dropped one not sent again)", got)
	}
}
