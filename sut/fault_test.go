package sut

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// Fault kinds, chosen by sample index modulo faultKinds.
const (
	faultNone = iota
	faultStatus500
	faultHang
	faultReset
	faultGarbage
	faultTruncated
	faultServerError
	faultMidBodyReset
	faultKinds
)

// faultServer speaks the chat wire format; the body {"i": N, "stream": b}
// selects the fault.
func faultServer(t testing.TB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			I      int  `json:"i"`
			Stream bool `json:"stream"`
		}
		if err := json.Unmarshal(b, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		okJSON := `{"choices":[{"message":{"content":"ok"}}],"usage":{"completion_tokens":2}}`
		okChunk := `data: {"choices":[{"delta":{"content":"ok"}}],"usage":null}` + "\n\n"
		switch req.I % faultKinds {
		case faultNone:
			if req.Stream {
				io.WriteString(w, okChunk+`data: {"choices":[],"usage":{"completion_tokens":2}}`+"\n\ndata: [DONE]\n\n")
			} else {
				io.WriteString(w, okJSON)
			}
		case faultStatus500:
			http.Error(w, `{"error":"engine dead"}`, http.StatusInternalServerError)
		case faultHang:
			<-r.Context().Done()
		case faultReset:
			hijackClose(t, w)
		case faultGarbage:
			io.WriteString(w, "<html>not json{")
		case faultTruncated:
			if req.Stream { // ends cleanly, but without [DONE]
				io.WriteString(w, okChunk)
			} else {
				io.WriteString(w, `{"choices":[{"message":{"content":"o`)
			}
		case faultServerError:
			if req.Stream {
				io.WriteString(w, okChunk+`data: {"error":{"message":"boom","type":"InternalServerError","code":500}}`+"\n\ndata: [DONE]\n\n")
			} else {
				io.WriteString(w, `{"error":{"message":"boom","type":"BadRequestError","code":400}}`)
			}
		case faultMidBodyReset:
			if req.Stream {
				io.WriteString(w, okChunk)
				w.(http.Flusher).Flush()
			} else {
				w.Header().Set("Content-Length", "1000")
				io.WriteString(w, okJSON[:20])
				w.(http.Flusher).Flush()
			}
			hijackClose(t, w)
		}
	}
}

func hijackClose(t testing.TB, w http.ResponseWriter) {
	t.Helper()
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	conn.Close()
}

// wantReason is the failure reason a fault produces ("" for success).
func wantReason(kind int, stream bool) string {
	switch kind {
	case faultStatus500:
		return ReasonHTTPStatus
	case faultHang:
		return ReasonTimeout
	case faultReset, faultMidBodyReset:
		return ReasonTransport
	case faultGarbage:
		return ReasonMalformed
	case faultTruncated:
		if stream {
			return ReasonTruncated
		}
		return ReasonMalformed
	case faultServerError:
		return ReasonServerError
	}
	return ""
}

func TestPoolFaults(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			const n = 4 * faultKinds
			const notLoaded = 3 // the last samples have no body
			bodies := make(sliceBodies, n)
			for i := range n - notLoaded {
				bodies[i] = []byte(fmt.Sprintf(`{"i":%d,"stream":%v}`, i, stream))
			}
			srv := serve(t, faultServer(t))
			p, rec := newPool(t, Config{
				Endpoints: []string{srv.URL}, API: openaichat.Protocol, Stream: stream, Bodies: bodies,
				Timeout: time.Second, MaxFailureRecords: n, // generous: the machine may be loaded
			})
			p.IssueQuery(samples(n))
			p.Close()
			firsts, finals, dups := rec.snapshot()
			if len(dups) > 0 {
				t.Fatalf("duplicate/misordered completions: %v", dups)
			}
			wantBy := map[string]int64{}
			wantFail := map[int]string{}
			for i := range n {
				r := wantReason(i%faultKinds, stream)
				if i >= n-notLoaded {
					r = ReasonNotLoaded
				}
				if r != "" {
					wantBy[r]++
					wantFail[i] = r
				}
			}
			st := p.Stats()
			if d := cmp.Diff(wantBy, st.FailuresByReason); d != "" {
				t.Errorf("failures by reason (-want +got):\n%s\nfirst failures: %+v", d, st.FirstFailures)
			}
			gotFail := map[int]string{}
			for _, f := range st.FirstFailures {
				gotFail[f.Index] = f.Reason
				if f.ID != uint64(1000+f.Index) || f.Message == "" {
					t.Errorf("failure record %+v", f)
				}
			}
			if d := cmp.Diff(wantFail, gotFail); d != "" {
				t.Errorf("failed indices (-want +got):\n%s", d)
			}
			if st.Issued != n || st.Completed != n || st.Failed != int64(len(wantFail)) {
				t.Errorf("stats %+v", st)
			}
			for i, qs := range samples(n) {
				got, ok := finals[qs.ID]
				if !ok {
					t.Errorf("sample %d never completed", i)
					continue
				}
				if _, failed := wantFail[i]; failed {
					if len(got.Data) != 0 || got.NTokens != 0 {
						t.Errorf("failed sample %d completed with %+v, want empty", i, got)
					}
				} else if string(got.Data) != "ok" || got.NTokens != 2 {
					t.Errorf("sample %d: %+v", i, got)
				}
				if _, ok := firsts[qs.ID]; ok != stream {
					t.Errorf("sample %d: first token reported=%v, want %v", i, ok, stream)
				}
			}
		})
	}
}

func TestPoolServerDown(t *testing.T) {
	srv := serve(t, faultServer(t))
	url := srv.URL
	srv.Close()
	bodies := sliceBodies{[]byte(`{"i":0}`), []byte(`{"i":0}`)}
	p, rec := newPool(t, Config{Endpoints: []string{url}, API: openaichat.Protocol, Stream: true, Bodies: bodies})
	p.IssueQuery(samples(2))
	p.Close()
	firsts, finals, _ := rec.snapshot()
	if len(finals) != 2 || len(firsts) != 2 {
		t.Fatalf("finals %d firsts %d, want 2 and 2", len(finals), len(firsts))
	}
	if got := p.Stats().FailuresByReason[ReasonTransport]; got != 2 {
		t.Errorf("transport failures = %d, want 2 (%+v)", got, p.Stats())
	}
}

// hangServer holds every request until its context ends.
func hangServer(started *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// The server notices a closed connection only once the body
		// has been read.
		io.ReadAll(r.Body)
		started.Add(1)
		<-r.Context().Done()
	}
}

func TestPoolCancel(t *testing.T) {
	var started atomic.Int64
	srv := serve(t, hangServer(&started))
	ctx, cancel := context.WithCancel(context.Background())
	rec := newRecorder()
	bodies := make(sliceBodies, 20)
	for i := range bodies {
		bodies[i] = []byte(`{}`)
	}
	p, err := New(ctx, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Bodies: bodies, Completer: rec, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.IssueQuery(samples(10)) // 4 in flight, 6 queued
	waitFor(t, "4 requests in flight", func() bool { return started.Load() == 4 && p.Progress().InFlight == 4 })
	if pr := p.Progress(); pr.Queued != 6 {
		t.Errorf("progress %+v, want 6 queued", pr)
	}
	cancel()
	waitFor(t, "all cancelled", func() bool { _, f, _ := rec.snapshot(); return len(f) == 10 })
	p.IssueQuery(samples(20)[10:]) // after cancellation: fail at once
	waitFor(t, "late samples cancelled", func() bool { _, f, _ := rec.snapshot(); return len(f) == 20 })
	if got := p.Stats().FailuresByReason[ReasonCanceled]; got != 20 {
		t.Errorf("cancelled = %d, want 20: %+v", got, p.Stats())
	}
}

func TestPoolCloseTimeoutAndReuse(t *testing.T) {
	var started atomic.Int64
	srv := serve(t, hangServer(&started))
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: openaichat.Protocol, Stream: true,
		Bodies: sliceBodies{[]byte(`{}`), []byte(`{}`)}, CloseTimeout: 100 * time.Millisecond})
	p.IssueQuery(samples(2))
	waitFor(t, "in flight", func() bool { return started.Load() == 2 })
	p.Close() // returns after CloseTimeout, cancelling what is in flight
	p.Close() // second call is a no-op
	p.IssueQuery([]loadgen.QuerySample{{ID: 7, Index: 0}})
	firsts, finals, dups := rec.snapshot()
	if len(finals) != 3 || len(firsts) != 3 || len(dups) != 0 {
		t.Fatalf("finals %d firsts %d dups %v", len(finals), len(firsts), dups)
	}
	st := p.Stats()
	if st.FailuresByReason[ReasonCanceled] != 2 || st.FailuresByReason[ReasonClosed] != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestPoolLeastOutstanding holds every request so the pool's view of
// outstanding requests is exact: 9 concurrent requests over 3 endpoints
// must split 3/3/3, and a tenth, issued when one endpoint has a free slot,
// must go there.
func TestPoolLeastOutstanding(t *testing.T) {
	var mu sync.Mutex
	counts := map[string]int{}
	release := make(chan struct{})
	var started atomic.Int64
	var urls []string
	for e := range 3 {
		name := strconv.Itoa(e)
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			counts[name]++
			mu.Unlock()
			started.Add(1)
			if r.Header.Get("X-Free") == "" {
				<-release
			}
			io.WriteString(w, `{"output_ids":[1],"meta_info":{}}`)
		})
		urls = append(urls, srv.URL)
	}
	bodies := make(sliceBodies, 12)
	for i := range bodies {
		bodies[i] = []byte(`{}`)
	}
	p, rec := newPool(t, Config{Endpoints: urls, API: sglang.Protocol, Bodies: bodies, Concurrency: 12})
	p.IssueQuery(samples(9))
	waitFor(t, "9 started", func() bool { return started.Load() == 9 })
	mu.Lock()
	if d := cmp.Diff(map[string]int{"0": 3, "1": 3, "2": 3}, counts); d != "" {
		t.Errorf("distribution (-want +got):\n%s", d)
	}
	mu.Unlock()
	close(release)
	p.Close()
	if _, f, _ := rec.snapshot(); len(f) != 9 || p.Stats().Failed != 0 {
		t.Errorf("completions %d, stats %+v", len(f), p.Stats())
	}
}

func TestPoolManySamplesRace(t *testing.T) {
	const n = 3000
	bodies := make(sliceBodies, n)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"i":%d,"stream":%v}`, i*faultKinds, i%2 == 0))
	}
	srv1 := serve(t, faultServer(t))
	srv2 := serve(t, faultServer(t))
	for _, stream := range []bool{false, true} {
		p, rec := newPool(t, Config{Endpoints: []string{srv1.URL, srv2.URL}, API: openaichat.Protocol, Stream: stream, Bodies: bodies, Concurrency: 64})
		var wg sync.WaitGroup
		qs := samples(n)
		for k := 0; k < n; k += 100 { // many IssueQuery callers at once
			wg.Add(1)
			go func(part []loadgen.QuerySample) {
				defer wg.Done()
				p.IssueQuery(part)
				_ = p.Progress()
			}(qs[k : k+100])
		}
		wg.Wait()
		p.Close()
		firsts, finals, dups := rec.snapshot()
		if len(finals) != n || len(dups) != 0 {
			t.Fatalf("stream=%v: %d completions, dups %v", stream, len(finals), dups)
		}
		if stream && len(firsts) != n {
			t.Errorf("firsts %d", len(firsts))
		}
		// Streamed bodies alternate stream on/off; a JSON reply read as a
		// stream is truncated and vice versa: those must fail, the rest not.
		if st := p.Stats(); st.Failed != n/2 {
			t.Errorf("stream=%v: failed %d, want %d (%v)", stream, st.Failed, n/2, st.FailuresByReason)
		}
		rec.mu.Lock()
		t.Logf("stream=%v: %d completer calls, largest batch %d", stream, rec.calls, rec.maxBatch)
		rec.mu.Unlock()
	}
}

func TestEndpointURL(t *testing.T) {
	for _, tc := range []struct {
		base string
		api  protocol.Protocol
		want string
	}{
		{"http://h:8000", openaichat.Protocol, "http://h:8000/v1/chat/completions"},
		{"http://h:8000/v1", openaichat.Protocol, "http://h:8000/v1/chat/completions"},
		{"http://h:8000/v1/", openaicompletions.Protocol, "http://h:8000/v1/completions"},
		{"http://h:8000/v1/completions", openaicompletions.Protocol, "http://h:8000/v1/completions"},
		{"https://h/proxy/v1", openaichat.Protocol, "https://h/proxy/v1/chat/completions"},
		{"http://h:30000/", sglang.Protocol, "http://h:30000/generate"},
		{"http://h:30000/v1", sglang.Protocol, "http://h:30000/generate"},
		{" http://h:30000/generate ", sglang.Protocol, "http://h:30000/generate"},
	} {
		got, err := endpointURL(tc.base, tc.api)
		if err != nil || got != tc.want {
			t.Errorf("endpointURL(%q, %s) = %q, %v; want %q", tc.base, tc.api.Name(), got, err, tc.want)
		}
	}
	for _, bad := range []string{"h:8000", "ftp://h", "http://", "::", "http://user:pw@h:8000", "user:pw@h:8000"} {
		if _, err := endpointURL(bad, openaichat.Protocol); err == nil {
			t.Errorf("endpointURL(%q) accepted", bad)
		}
	}
}

func TestAPIKeyHeader(t *testing.T) {
	auth := make(chan string, 1)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		auth <- r.Header.Get("Authorization")
		io.WriteString(w, `{"output_ids":[],"meta_info":{}}`)
	})
	p, _ := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, APIKey: "sk-test", Bodies: sliceBodies{[]byte(`{}`)}})
	p.IssueQuery(samples(1))
	if got := <-auth; got != "Bearer sk-test" {
		t.Errorf("Authorization = %q", got)
	}
}
