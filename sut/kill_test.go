package sut

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
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
// flight at each, and one engine dies while it answers. Every sample it
// held goes to the healthy one, no sample fails or completes twice, and the
// failure limit (the CLI's default) never stops the run. Streamed, the
// samples it held had reported their first token: their answers were cut
// mid-stream and start over on the healthy engine (the final response is
// the new answer whole; the first token's time stays the first report's).
// The drop is recorded: the dead endpoint, when, and that it never came
// back.
func TestEngineKilledWithRequestsInFlight(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			t.Parallel()
			testEngineKilled(t, stream)
		})
	}
}

func testEngineKilled(t *testing.T, stream bool) {
	const model, n = "m", 120
	start := func() string {
		// Answers take 0.5 s to their first token and 0.1 s each after:
		// long enough to be cut between the two.
		srv, err := fake.New(fake.Config{Model: model, TTFT: 500 * time.Millisecond, TPOT: 100 * time.Millisecond, MaxConcurrency: 32, OutputTokens: 4})
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
	if stream {
		body = []byte(`{"model":"m","prompt":[1,2,3],"max_tokens":4,"return_token_ids":true,"stream":true,"stream_options":{"include_usage":true}}`)
	}
	p, rec := newPool(t, Config{Endpoints: []string{proxy.URL(), healthy}, API: openaicompletions.Protocol,
		Bodies: sliceBodies{body}, Concurrency: n, MaxFailures: limit, Stream: stream})
	qs := samples(n)
	for i := range qs {
		qs[i].Index = 0
	}
	p.IssueQuery(qs)
	if stream {
		// First tokens reported from both endpoints: the victim's
		// answers are mid-stream.
		waitFor(t, "first tokens", func() bool { f, _, _ := rec.snapshot(); return len(f) >= 48 })
	} else {
		waitFor(t, "requests in flight at both endpoints", func() bool { return p.Progress().InFlight >= 32 })
		time.Sleep(100 * time.Millisecond) // the victim has requests mid-generation
	}
	proxy.Kill()
	waitFor(t, "every completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == n })
	p.Close()
	firsts, finals, dups := rec.snapshot()
	st := p.Stats()
	if len(finals) != n || len(dups) != 0 {
		t.Fatalf("%d completions of %d, duplicates %v", len(finals), n, dups)
	}
	if st.Failed != 0 || st.Stopped != "" {
		t.Errorf("stats %+v: want no failed sample and no stop", st)
	}
	retried := st.RetriesByCause[RetryConnection] + st.RetriesByCause[RetryCutAnswer]
	if retried == 0 || (stream && st.RetriesByCause[RetryCutAnswer] == 0) {
		t.Errorf("stats %+v: the samples the dead engine held were not counted as retried", st)
	}
	for id, r := range finals {
		if len(r.Data) != 4*4 || r.NTokens != 4 {
			t.Errorf("sample %d completed with %d bytes, %d tokens: want the whole answer, 4 token IDs", id, len(r.Data), r.NTokens)
		}
		if _, ok := firsts[id]; stream && !ok {
			t.Errorf("sample %d: no first token reported", id)
		}
	}
	if len(st.EndpointDrops) != 1 || st.EndpointDrops[0].Endpoint != proxy.URL()+"/v1/completions" || !st.EndpointDrops[0].Back.IsZero() || st.EndpointDrops[0].At.IsZero() {
		t.Errorf("endpoint drops %+v: want one, of %s, not back", st.EndpointDrops, proxy.URL())
	}
}

// TestEveryEndpointDownStopsTheRun: once every endpoint has refused
// connections for EndpointsDownAfter, the pool stops the run (Abort, with
// ErrEndpointsDown), and every later sample completes at once as
// cancelled; with it off, samples go on failing one by one.
func TestEveryEndpointDownStopsTheRun(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	body := []byte(`{"model":"m","prompt":[1,2,3],"max_tokens":4}`)
	aborts := make(chan error, 4)
	p, rec := newPool(t, Config{Endpoints: []string{dead, dead}, API: openaicompletions.Protocol, Bodies: sliceBodies{body},
		Concurrency: 4, EndpointsDownAfter: 50 * time.Millisecond, Abort: func(err error) { aborts <- err }})
	// Samples arrive one at a time, as a Server schedule issues them,
	// until the pool gives up.
	var abort error
	for i := 0; abort == nil; i++ {
		if i == 1000 {
			t.Fatal("1000 samples failed and the pool did not stop the run")
		}
		p.IssueQuery([]loadgen.QuerySample{{ID: uint64(i + 1), Index: 0}})
		select {
		case abort = <-aborts:
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !errors.Is(abort, ErrEndpointsDown) || !strings.Contains(abort.Error(), "connection refused") {
		t.Errorf("abort: %v", abort)
	}
	p.IssueQuery([]loadgen.QuerySample{{ID: 5000, Index: 0}})
	waitFor(t, "the last sample", func() bool { _, f, _ := rec.snapshot(); return f[5000].ID == 5000 })
	st := p.Stats()
	if st.Stopped != abort.Error() || !errors.Is(st.StopCause, ErrEndpointsDown) || st.FailuresByReason[ReasonCanceled] == 0 {
		t.Errorf("stats %+v", st)
	}
	if len(st.EndpointDrops) != 2 {
		t.Errorf("endpoint drops %+v: want both endpoints' first", st.EndpointDrops)
	}
	select {
	case err := <-aborts:
		t.Errorf("a second abort: %v", err)
	default:
	}
}
