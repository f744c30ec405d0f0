package sut

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// TestVectorConnWritesPieces: a vectorConn writes a vectoredBody's pieces
// as they are, leaving the LimitedReader and the body drained as a copy
// would (net/http then reads the body for extra bytes and checks the
// count), and copies any other reader like a plain connection.
func TestVectorConnWritesPieces(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	received := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			received <- nil
			return
		}
		b, _ := io.ReadAll(c)
		received <- b
	}()
	c, err := dialVectored(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	vc, ok := c.(vectorConn)
	if !ok {
		t.Fatalf("dialVectored returned a %T, want a vectorConn", c)
	}
	prefix, rest := []byte(strings.Repeat("p", 1800)), []byte(strings.Repeat("r", 150_000))
	body := &vectoredBody{net.Buffers{prefix, rest}}
	lr := &io.LimitedReader{R: body, N: int64(len(prefix) + len(rest))}
	n, err := vc.ReadFrom(lr)
	if err != nil || n != int64(len(prefix)+len(rest)) || lr.N != 0 {
		t.Fatalf("ReadFrom = %d, %v with %d left to write; want %d, nil, 0", n, err, lr.N, len(prefix)+len(rest))
	}
	if k, err := body.Read(make([]byte, 1)); k != 0 || err != io.EOF {
		t.Errorf("the body is not drained after ReadFrom: Read = %d, %v", k, err)
	}
	// Any other reader is copied, up to the limit.
	n, err = vc.ReadFrom(&io.LimitedReader{R: strings.NewReader("tail and more"), N: 4})
	if err != nil || n != 4 {
		t.Fatalf("ReadFrom of a plain reader = %d, %v; want 4, nil", n, err)
	}
	vc.Close()
	want := string(prefix) + string(rest) + "tail"
	if got := <-received; string(got) != want {
		t.Errorf("the server received %d bytes that differ from the %d written", len(got), len(want))
	}
}

// TestLargeBodiesEveryPath: bodies too large to join (vectored) and small
// ones (joined), with and without the shared prefix, arrive whole over
// plain HTTP, HTTPS (where TLS copies the body into its records) and an
// HTTP proxy.
func TestLargeBodiesEveryPath(t *testing.T) {
	bodies := prefixedBodies{prefix: bytes.Repeat([]byte("p"), 1800)}
	for _, size := range []int{10, maxJoinedBody - 1800, maxJoinedBody, 70_000, 150_000, 300_000} {
		bodies.rests = append(bodies.rests, bytes.Repeat([]byte{'a' + byte(len(bodies.rests))}, size))
	}
	var mu sync.Mutex
	var got []string
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil || r.ContentLength != int64(len(b)) {
			t.Errorf("read %d bytes (%v) of a body of Content-Length %d", len(b), err, r.ContentLength)
		}
		mu.Lock()
		got = append(got, string(b))
		mu.Unlock()
		io.WriteString(w, sglangOK)
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(handler)
	defer tlsSrv.Close()
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.Out.URL = pr.In.URL }})
	defer proxy.Close()
	proxyURL, _ := url.Parse(proxy.URL)

	for name, setup := range map[string]func(*http.Transport) string{
		"http": func(*http.Transport) string { return plain.URL },
		"https": func(tr *http.Transport) string {
			tr.TLSClientConfig = tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig
			return tlsSrv.URL
		},
		"proxy": func(tr *http.Transport) string { tr.Proxy = http.ProxyURL(proxyURL); return plain.URL },
	} {
		t.Run(name, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			tr := newTransport(2, 1)
			ep := setup(tr)
			p, rec := newPool(t, Config{Endpoints: []string{ep}, API: sglang.Protocol, Bodies: bodies, Concurrency: 2, Transport: tr})
			p.IssueQuery(samples(len(bodies.rests)))
			p.Close()
			_, finals, dups := rec.snapshot()
			if st := p.Stats(); st.Failed != 0 || len(finals) != len(bodies.rests) || len(dups) != 0 {
				t.Fatalf("stats %+v, %d completions, dups %v", st, len(finals), dups)
			}
			mu.Lock()
			defer mu.Unlock()
			want := map[string]bool{}
			for i := range bodies.rests {
				want[bodies.whole(i)] = true
			}
			for _, b := range got {
				if !want[b] {
					t.Errorf("the server received a %d-byte body that is no prefix+rest", len(b))
				}
				delete(want, b)
			}
			if len(want) != 0 {
				t.Errorf("%d bodies never arrived whole", len(want))
			}
		})
	}
}
