package ask

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/sut"
)

func TestRenderBar(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		elapsed time.Duration
		total   int64
		p       sut.Progress
		want    string
	}{
		{10 * time.Second, 100, sut.Progress{Completed: 25, Failed: 1, InFlight: 4},
			"[======>                 ] 25/100  25.0%  2.5 answers/s  ETA 30s  1 failed  4 in flight"},
		{0, 100, sut.Progress{}, "[>                       ] 0/100   0.0%  0.0 answers/s  ETA ?  0 failed  0 in flight"},
		{time.Second, 10, sut.Progress{Completed: 10}, "[========================] 10/10 100.0%  10.0 answers/s  ETA 0s  0 failed  0 in flight"},
	} {
		if got := renderBar(c.elapsed, c.total, c.p); got != c.want {
			t.Errorf("renderBar(%v, %d, %+v)\n got %q\nwant %q", c.elapsed, c.total, c.p, got, c.want)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for the progress goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type fixedProgress sut.Progress

func (f fixedProgress) Progress() sut.Progress { return sut.Progress(f) }

// TestProgressLines: off a terminal, progress is a plain line every
// interval, never a redrawn bar.
func TestProgressLines(t *testing.T) {
	t.Parallel()
	var w lockedBuffer
	stop := startProgress(&w, time.Millisecond, 8, fixedProgress{Completed: 4})
	for !strings.Contains(w.String(), "\n") {
		time.Sleep(time.Millisecond)
	}
	stop() // returns once the goroutine is gone: nothing is written after it
	if !strings.Contains(w.String(), "4/8  50.0%") || strings.Contains(w.String(), "\r") {
		t.Errorf("progress lines %q", w.String())
	}
	startProgress(nil, time.Millisecond, 8, fixedProgress{})() // nil writer: nothing, no panic
}
