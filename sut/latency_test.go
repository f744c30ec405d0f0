package sut

import (
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/lathist"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// slowSGLang answers every request with a two-event SGLang stream (or, not
// streaming, one body): the first token after ttft, the rest after rest
// more.
func slowSGLang(ttft, rest time.Duration, stream bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		rc := http.NewResponseController(w)
		if !stream {
			time.Sleep(ttft + rest)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(sglangOK))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		rc.Flush() // headers at once, as uvicorn sends them
		time.Sleep(ttft)
		w.Write([]byte("data: {\"text\":\"a\",\"output_ids\":[5],\"meta_info\":{\"finish_reason\":null}}\n\n"))
		rc.Flush()
		time.Sleep(rest)
		w.Write([]byte("data: {\"text\":\"ab\",\"output_ids\":[5,6],\"meta_info\":{\"finish_reason\":{\"type\":\"stop\"}}}\n\ndata: [DONE]\n\n"))
	}
}

func sglangBodies(t *testing.T, n int, stream bool) sliceBodies {
	t.Helper()
	body, err := sglang.Encode([]int32{1, 2, 3}, gptossParams(), stream)
	if err != nil {
		t.Fatal(err)
	}
	bodies := make(sliceBodies, n)
	for i := range bodies {
		bodies[i] = body
	}
	return bodies
}

// TestLatencyBreakdownStream: the server's time to the first token and to
// the end is the endpoint's, not the harness's; each sample is counted once
// in every part; and the parts add up, sample by sample, to the pool's TTFT
// and latency.
func TestLatencyBreakdownStream(t *testing.T) {
	t.Parallel()
	const n = 12
	const ttft, rest = 30 * time.Millisecond, 20 * time.Millisecond
	srv := serve(t, slowSGLang(ttft, rest, true))
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Stream: true, Bodies: sglangBodies(t, n, true), Concurrency: n})
	p.IssueQuery(samples(n))
	waitFor(t, "completions", func() bool { _, f, _ := rec.snapshot(); return len(f) == n })
	b := p.Latency()
	for _, part := range Parts() {
		if c := b.Parts[part].Count; c != n {
			t.Errorf("%s counted %d samples, want %d", part.Info().Name, c, n)
		}
	}
	// The server's waits are the endpoint's: no first token can be read
	// sooner than ttft after the request was written, nor the last byte
	// sooner than ttft+rest (a reader scheduled late may read both events
	// at once, so only the sum is bounded). With the sums below, which
	// make the harness's parts the rest of each sample's time, this is
	// what keeps the server's time out of the harness's.
	if got := b.Parts[PartEndpointFirst].Max; got < int64(ttft) {
		t.Errorf("endpoint first-token max %v, want at least the server's %v", time.Duration(got), ttft)
	}
	if got := b.Parts[PartEndpointFirst].Mean + b.Parts[PartEndpointRest].Mean; got < int64(ttft+rest) {
		t.Errorf("endpoint mean %v, want at least the server's %v", time.Duration(got), ttft+rest)
	}
	if got := b.Parts[PartEndpointFirst].P50; got < int64(ttft) {
		t.Errorf("endpoint first-token median %v, want at least the server's %v", time.Duration(got), ttft)
	}
	sumMean := func(parts ...Part) (s int64) {
		for _, x := range parts {
			s += b.Parts[x].Mean
		}
		return s
	}
	// Means add exactly (up to integer division) when the parts do per sample.
	near := func(what string, a, b int64) {
		if d := a - b; d < -4 || d > 4 {
			t.Errorf("%s: %d vs %d ns: the parts do not add up", what, a, b)
		}
	}
	// Every sample had a free worker when it was issued (n workers):
	// none waited for the concurrency limit.
	if got := b.Parts[PartSlot].Max; got != 0 {
		t.Errorf("longest wait for a free worker %v with a worker per sample, want 0", time.Duration(got))
	}
	near("ttft", b.Parts[PartTTFT].Mean, sumMean(PartSlot, PartQueue, PartSend, PartEndpointFirst, PartReportFirst))
	near("harness first", b.Parts[PartHarnessFirst].Mean, sumMean(PartQueue, PartSend, PartReportFirst))
	near("harness completion", b.Parts[PartHarnessLast].Mean, sumMean(PartQueue, PartSend, PartReportLast))
	near("latency", b.Parts[PartLatency].Mean, sumMean(PartSlot, PartQueue, PartSend, PartEndpointFirst, PartEndpointRest, PartReportLast))
}

// TestLatencyBreakdownPlain: plain responses have no first-token parts,
// and waiting while every worker serves another sample is the concurrency
// limit's (slot_wait), not the harness's queue time: an Offline run, whose
// samples are all issued at once, must not read as a slow harness. The
// pool's clock moves only when the server answers (by slow each time), so
// the parts are exact, whatever this machine's speed.
func TestLatencyBreakdownPlain(t *testing.T) {
	t.Parallel()
	const n = 3
	const slow = 100 * time.Millisecond
	clk := &manualClock{now: time.Unix(0, 0)}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		clk.advance(slow)
		slowSGLang(0, 0, false)(w, r)
	})
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Bodies: sglangBodies(t, n, false), Concurrency: 1, Clock: clk})
	p.IssueQuery(samples(n))
	waitFor(t, "completions", func() bool { _, f, _ := rec.snapshot(); return len(f) == n })
	b := p.Latency()
	for _, part := range []Part{PartEndpointFirst, PartReportFirst, PartHarnessFirst, PartTTFT} {
		if c := b.Parts[part].Count; c != 0 {
			t.Errorf("%s counted %d plain samples, want 0", part.Info().Name, c)
		}
	}
	for _, part := range []Part{PartSlot, PartQueue, PartSend, PartEndpointRest, PartReportLast, PartHarnessLast, PartLatency} {
		if c := b.Parts[part].Count; c != n {
			t.Errorf("%s counted %d samples, want %d", part.Info().Name, c, n)
		}
	}
	// One worker: the last sample waited for the two before it, and the
	// worker took each next sample as soon as it was done with the last.
	if got := b.Parts[PartSlot].Max; got != int64(2*slow) {
		t.Errorf("longest wait for a free worker %v, want two answers' %v", time.Duration(got), 2*slow)
	}
	if got := b.Parts[PartQueue].Max; got != 0 {
		t.Errorf("longest queue time %v, want none: the worker's hand-off takes no time the clock counts", time.Duration(got))
	}
	if got, want := b.Parts[PartHarnessLast].Max, b.Parts[PartSlot].Max; got >= want {
		t.Errorf("harness-added latency %v holds the wait for a free worker (%v)", time.Duration(got), time.Duration(want))
	}
	// Each answer took slow from the worker's taking it, split between
	// sending and the endpoint as the request's write and the server's
	// reading of it fall.
	if got := b.Parts[PartSend].Mean + b.Parts[PartEndpointRest].Mean; got < int64(slow)-1 || got > int64(slow)+1 {
		t.Errorf("mean send + endpoint time %v, want the server's %v", time.Duration(got), slow)
	}
}

// manualClock is a Clock that moves only when the test says.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestLatencyFailuresUncounted: failed samples leave the breakdown alone.
func TestLatencyFailuresUncounted(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusBadRequest) })
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Stream: true, Bodies: sglangBodies(t, 2, true)})
	p.IssueQuery(samples(2))
	waitFor(t, "completions", func() bool { _, f, _ := rec.snapshot(); return len(f) == 2 })
	for _, part := range Parts() {
		if s := p.Latency().Parts[part]; s != (lathist.Summary{}) {
			t.Errorf("%s: %+v after failures only, want nothing", part.Info().Name, s)
		}
	}
}
