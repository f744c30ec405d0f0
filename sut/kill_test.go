package sut

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
)

// killableProxy forwards TCP connections to a backend until Kill, which
// drops the listener and every connection at once with a reset, as the
// kernel does for a process killed with SIGKILL.
type killableProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []*net.TCPConn
	dead  bool
}

func newKillableProxy(t *testing.T, backend string) *killableProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &killableProxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", backend)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			if p.dead {
				p.mu.Unlock()
				c.Close()
				b.Close()
				continue
			}
			p.conns = append(p.conns, c.(*net.TCPConn), b.(*net.TCPConn))
			p.mu.Unlock()
			go func() { io.Copy(b, c); b.Close() }() //nolint:errcheck // a relay
			go func() { io.Copy(c, b); c.Close() }() //nolint:errcheck // a relay
		}
	}()
	t.Cleanup(p.Kill)
	return p
}

func (p *killableProxy) URL() string { return "http://" + p.ln.Addr().String() }

// Kill resets every connection and stops listening.
func (p *killableProxy) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead {
		return
	}
	p.dead = true
	p.ln.Close()
	for _, c := range p.conns {
		c.SetLinger(0) //nolint:errcheck // best effort: a reset, not a FIN
		c.Close()
	}
}

// TestEngineKilledWithRequestsInFlight: two endpoints, many requests in
// flight at each, and one engine dies half a second in. Every sample it
// held goes to the healthy one, no sample fails or completes twice, and the
// failure limit (the CLI's default) never stops the run.
func TestEngineKilledWithRequestsInFlight(t *testing.T) {
	t.Parallel()
	const model, n = "m", 200
	start := func() string {
		srv, err := fake.New(fake.Config{Model: model, TTFT: 500 * time.Millisecond, MaxConcurrency: 16, OutputTokens: 4})
		if err != nil {
			t.Fatal(err)
		}
		url, err := srv.Start("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		return url
	}
	victim := start()
	proxy := newKillableProxy(t, victim[len("http://"):])
	healthy := start()
	limit, err := ParseFailureLimit(DefaultMaxFailures)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"model":"m","prompt":[1,2,3],"max_tokens":4,"return_token_ids":true}`)
	p, rec := newPool(t, Config{Endpoints: []string{proxy.URL(), healthy}, API: openaicompletions.Protocol,
		Bodies: sliceBodies{body}, Concurrency: n, MaxFailures: limit})
	qs := samples(n)
	for i := range qs {
		qs[i].Index = 0
	}
	p.IssueQuery(qs)
	waitFor(t, "requests in flight at both endpoints", func() bool { return p.Progress().InFlight >= 32 })
	time.Sleep(100 * time.Millisecond) // the victim has requests mid-generation
	proxy.Kill()
	waitFor(t, "every completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == n })
	p.Close()
	_, finals, dups := rec.snapshot()
	st := p.Stats()
	if len(finals) != n || len(dups) != 0 {
		t.Fatalf("%d completions of %d, duplicates %v", len(finals), n, dups)
	}
	if st.Failed != 0 || st.Stopped != "" {
		t.Errorf("stats %+v: want no failed sample and no stop", st)
	}
	if st.RetriesByCause[RetryConnection] == 0 {
		t.Errorf("stats %+v: the samples the dead engine held were not counted as retried", st)
	}
	for id, r := range finals {
		if len(r.Data) == 0 {
			t.Errorf("sample %d completed empty", id)
		}
	}
}
