package sut

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// headerBodies names a session header per sample.
type headerBodies struct{ staticBodies }

func (headerBodies) Header(index int) (string, string) {
	if index == 1 {
		return "", ""
	}
	return "X-Session-ID", "conv-" + string(rune('a'+index))
}

type staticBodies struct{ body []byte }

func (b staticBodies) Body(int) []byte { return b.body }

// recTracer records the calls a Tracer gets, per sample, and how many
// attempts it was told went to each endpoint.
type recTracer struct {
	mu     sync.Mutex
	events map[int][]string
	output map[int][]int
	sentTo map[int]int
}

func (r *recTracer) add(qs loadgen.QuerySample, what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events[qs.Index] = append(r.events[qs.Index], what)
}
func (r *recTracer) Sent(qs loadgen.QuerySample, endpoint int) {
	r.add(qs, "sent")
	r.mu.Lock()
	r.sentTo[endpoint]++
	r.mu.Unlock()
}
func (r *recTracer) Received(qs loadgen.QuerySample, n int, data []byte) {
	r.add(qs, "event")
	if len(data) == 0 {
		r.add(qs, "no data")
	}
	r.mu.Lock()
	r.output[qs.Index] = append(r.output[qs.Index], n)
	r.mu.Unlock()
}
func (r *recTracer) Finished(qs loadgen.QuerySample) { r.add(qs, "finished") }

type nopCompleter struct{}

func (nopCompleter) QuerySamplesComplete([]loadgen.Response) error { return nil }
func (nopCompleter) FirstTokenComplete([]loadgen.Response) error   { return nil }

// TestTracerAndHeader: the session header of HeaderBodies goes with each
// request (none when the name is empty), and a Tracer hears sent (with the
// endpoint the attempt goes to), each streamed event with its data and
// the output so far, and finished, in that order.
func TestTracerAndHeader(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	got := map[string]int{}
	served := map[string]int{}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		got[r.Header.Get("X-Session-ID")]++
		served[r.Host]++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`+"\n\n"+
			`data: {"choices":[{"index":0,"delta":{"content":"ab"}}]}`+"\n\n"+
			`data: {"choices":[{"index":0,"delta":{"content":"c"},"finish_reason":"stop"}]}`+"\n\n"+
			`data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`+"\n\n"+
			"data: [DONE]\n\n")
	})
	srv, other := httptest.NewServer(handler), httptest.NewServer(handler)
	defer srv.Close()
	defer other.Close()
	tr := &recTracer{events: map[int][]string{}, output: map[int][]int{}, sentTo: map[int]int{}}
	p, err := New(context.Background(), Config{
		Endpoints: []string{srv.URL, other.URL}, API: openaichat.Protocol, Stream: true, Concurrency: 2,
		Bodies: headerBodies{staticBodies{[]byte(`{}`)}}, Completer: nopCompleter{}, Tracer: tr,
	})
	if err != nil {
		t.Fatal(err)
	}
	p.IssueQuery([]loadgen.QuerySample{{ID: 1, Index: 0}, {ID: 2, Index: 1}, {ID: 3, Index: 2}})
	p.Close()
	if st := p.Stats(); st.Failed != 0 || st.Completed != 3 {
		t.Fatalf("stats %+v", st)
	}
	want := map[string]int{"conv-a": 1, "": 1, "conv-c": 1}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("requests with X-Session-ID %q: %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
	for i, u := range []string{srv.URL, other.URL} {
		if host := strings.TrimPrefix(u, "http://"); tr.sentTo[i] != served[host] {
			t.Errorf("the tracer heard of %d attempts at endpoint %d, which served %d", tr.sentTo[i], i, served[host])
		}
	}
	for i := range 3 {
		ev := tr.events[i]
		if len(ev) != 6 || ev[0] != "sent" || ev[5] != "finished" {
			t.Errorf("sample %d: tracer calls %v, want sent, 4 events, finished", i, ev)
		}
		if o := tr.output[i]; len(o) != 4 || o[0] != 0 || o[1] != 2 || o[2] != 3 || o[3] != 3 {
			t.Errorf("sample %d: output bytes per event %v, want [0 2 3 3]", i, o)
		}
	}
}
