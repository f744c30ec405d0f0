package progress

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

func TestBar(t *testing.T) {
	for _, c := range []struct {
		done, total int64
		want        string
	}{
		{0, 100, "[>                       ]"},
		{25, 100, "[======>                 ]"},
		{99, 100, "[=======================>]"},
		{100, 100, "[========================]"},
		{101, 100, ""}, // outgrown: no bar rather than a false one
		{5, 0, ""},     // total unknown
	} {
		if got := Bar(c.done, c.total); got != c.want {
			t.Errorf("Bar(%d, %d) = %q, want %q", c.done, c.total, got, c.want)
		}
	}
}

func TestETA(t *testing.T) {
	for _, c := range []struct {
		n    int64
		rate float64
		want string
	}{
		{0, 0, "0s"}, {-3, 1, "0s"}, {10, 0, "?"}, {75, 2.5, "30s"}, {1, 3, "0s"}, {200, 1, "3m20s"},
	} {
		if got := ETA(c.n, c.rate); got != c.want {
			t.Errorf("ETA(%d, %v) = %q, want %q", c.n, c.rate, got, c.want)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for Show's goroutine.
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

// TestShowPlainLines: where the output is not a terminal, each tick is a
// line of its own (no carriage returns or escapes), empty lines are
// skipped, and stop adds nothing, final or not.
func TestShowPlainLines(t *testing.T) {
	var w lockedBuffer
	var mu sync.Mutex
	calls := 0
	stop := Show(&w, 5*time.Millisecond, func() string {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return "" // nothing to say yet
		}
		return "tick"
	})
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(w.String(), "tick\n") < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	stop(true)
	out := w.String()
	if strings.Count(out, "tick\n") < 3 || strings.ContainsAny(out, "\r\x1b") || strings.Trim(strings.ReplaceAll(out, "tick\n", ""), "") != "" {
		t.Errorf("plain output %q: want only whole lines \"tick\"", out)
	}
	after := w.String()
	time.Sleep(20 * time.Millisecond)
	if w.String() != after {
		t.Errorf("Show kept writing after stop: %q", w.String())
	}
	Show(nil, time.Millisecond, func() string { return "x" })(false) // nil writer: nothing, no panic
}

// TestShowOnTerminal: on a pseudo-terminal the line is redrawn in place
// (\r ... \x1b[K); stop(true) leaves the last state on its own line and
// stop(false) clears it.
func TestShowOnTerminal(t *testing.T) {
	for _, final := range []bool{true, false} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal here: %v", err)
		}
		var out lockedBuffer
		read := make(chan struct{})
		go func() {
			defer close(read)
			io.Copy(&out, ptmx) // ends with EIO once tty is closed
		}()
		stop := Show(tty, time.Hour, func() string { return "state" })
		time.Sleep(2 * Redraw) // at least one redraw: a terminal ignores the interval
		stop(final)
		tty.Close()
		<-read
		ptmx.Close()
		got := out.String()
		if !strings.HasPrefix(got, "\rstate\x1b[K") {
			t.Errorf("final=%v: output %q does not start with a redraw in place", final, got)
		}
		if want := map[bool]string{true: "\rstate\x1b[K\r\n", false: "\r\x1b[K"}[final]; !strings.HasSuffix(got, want) {
			t.Errorf("final=%v: output %q does not end with %q", final, got, want)
		}
	}
}
