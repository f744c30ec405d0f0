package sut

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// endlessChat streams chat chunks of 64 KB of text forever (until the
// client goes), as a broken server might.
func endlessChat(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	chunk := `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 64<<10) + `"},"finish_reason":null}]}` + "\n\n"
	for r.Context().Err() == nil {
		if _, err := fmt.Fprint(w, chunk); err != nil {
			return
		}
		fl.Flush()
	}
}

// TestMemoryBudgetBoundsEndlessStreams: 16 endless streams at once, each
// allowed 64 MiB on its own, hold no more than the pool's 16 MiB budget
// together: they fail as too large once it is spent, each completed once.
func TestMemoryBudgetBoundsEndlessStreams(t *testing.T) {
	t.Parallel()
	const n, budget = 16, 16 << 20
	srv := serve(t, endlessChat)
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: openaichat.Protocol, Stream: true, Bodies: sliceBodies{[]byte(`{}`)},
		Concurrency: n, MaxBufferedBytes: budget, Timeout: 30 * time.Second})
	qs := samples(n)
	for i := range qs {
		qs[i].Index = 0
	}
	p.IssueQuery(qs)
	waitFor(t, "every completion", func() bool { _, f, _ := rec.snapshot(); return len(f) == n })
	p.Close()
	_, finals, dups := rec.snapshot()
	st := p.Stats()
	if len(finals) != n || len(dups) != 0 || st.FailuresByReason[ReasonTooLarge] != n {
		t.Fatalf("%d completions, dups %v, stats %+v: want every stream failed as too large", len(finals), dups, st)
	}
	if peak := p.mem.peak.Load(); peak > budget || peak < budget/2 {
		t.Errorf("the responses held %d bytes at most, want within (%d, %d]", peak, budget/2, budget)
	}
	if used := p.mem.used.Load(); used != 0 {
		t.Errorf("%d bytes still counted as held after every response ended", used)
	}
}

// BenchmarkEndlessStreams reports the process's peak RSS while 64 endless
// streams run against a 256 MiB budget: without a budget the process grew
// by about 150 MB per stream (64 MiB of output each, and its buffer).
func BenchmarkEndlessStreams(b *testing.B) {
	srv := serve(b, endlessChat)
	for range b.N {
		p, rec := newPool(b, Config{Endpoints: []string{srv.URL}, API: openaichat.Protocol, Stream: true, Bodies: sliceBodies{[]byte(`{}`)},
			Concurrency: 64, Timeout: time.Minute, MaxBufferedBytes: 256 << 20})
		qs := samples(64)
		for i := range qs {
			qs[i].Index = 0
		}
		p.IssueQuery(qs)
		for deadline := time.Now().Add(2 * time.Minute); ; {
			if _, f, _ := rec.snapshot(); len(f) == 64 {
				break
			}
			if time.Now().After(deadline) {
				b.Fatal("the streams did not end within 2 minutes")
			}
			time.Sleep(10 * time.Millisecond)
		}
		p.Close()
		b.ReportMetric(float64(p.mem.peak.Load())/(1<<20), "held-MiB")
	}
	b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
}

// peakRSSMiB is the process's peak resident set (VmHWM), 0 where /proc
// has none.
func peakRSSMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
