package ask

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/mlperf-go/mlperf-go/sut"
)

// barRedraw is how often the live bar is redrawn on a terminal.
const barRedraw = 500 * time.Millisecond

// barWidth is the number of cells of the bar itself.
const barWidth = 24

// progressSource is what progress reads: the pool's counters.
type progressSource interface{ Progress() sut.Progress }

// startProgress shows progress on w until the returned stop function is
// called: on a terminal a live bar, redrawn in place, left on its own line
// at the end; elsewhere (a batch log, a pipe) a plain line every `every`
// (default 10 s). A nil w shows nothing.
func startProgress(w io.Writer, every time.Duration, total int64, src progressSource) (stop func()) {
	if w == nil {
		return func() {}
	}
	tty := isTerminal(w)
	if tty {
		every = barRedraw
	} else if every <= 0 {
		every = 10 * time.Second
	}
	start := time.Now()
	draw := func(final bool) {
		line := renderBar(time.Since(start), total, src.Progress())
		switch {
		case tty && final:
			fmt.Fprintf(w, "\r%s\x1b[K\n", line)
		case tty:
			fmt.Fprintf(w, "\r%s\x1b[K", line)
		default:
			fmt.Fprintln(w, line)
		}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				if tty {
					draw(true)
				}
				return
			case <-t.C:
				draw(false)
			}
		}
	}()
	return func() { close(done); <-finished }
}

// renderBar is one progress line, e.g.
//
//	[=========>              ]  412/1000  41.2%  20.6 answers/s  ETA 28s  0 failed  64 in flight
func renderBar(elapsed time.Duration, total int64, p sut.Progress) string {
	var b strings.Builder
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.Completed) / elapsed.Seconds()
	}
	frac := 0.0
	if total > 0 {
		frac = min(float64(p.Completed)/float64(total), 1)
	}
	filled := int(frac * barWidth)
	b.WriteByte('[')
	for i := range barWidth {
		switch {
		case i < filled:
			b.WriteByte('=')
		case i == filled && frac < 1:
			b.WriteByte('>')
		default:
			b.WriteByte(' ')
		}
	}
	fmt.Fprintf(&b, "] %d/%d %5.1f%%  %.1f answers/s  ETA %s  %d failed  %d in flight",
		p.Completed, total, 100*frac, rate, eta(total-p.Completed, rate), p.Failed, p.InFlight)
	return b.String()
}

// eta is the time left for n answers at rate, "?" before any came.
func eta(n int64, rate float64) string {
	switch {
	case n <= 0:
		return "0s"
	case rate <= 0:
		return "?"
	}
	return time.Duration(float64(n) / rate * float64(time.Second)).Round(time.Second).String()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
