// Package progress draws the live progress lines of long jobs (a run, an
// evaluation's questions, a dataset download): a bar redrawn in place on a
// terminal, a plain line every so often in a batch log or a pipe.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// Redraw is how often a live line is redrawn on a terminal: often enough
// to look alive, rarely enough to cost nothing.
const Redraw = 500 * time.Millisecond

// DefaultEvery is how often a plain line is written where the output is
// not a terminal and the caller names no interval.
const DefaultEvery = 10 * time.Second

// barWidth is the number of cells of the bar itself.
const barWidth = 24

// Bar is the bar for done of total, e.g. "[=========>              ]";
// "" when total is unknown (0) or outgrown, where a bar would lie.
func Bar(done, total int64) string {
	if total <= 0 || done > total {
		return ""
	}
	filled := int(float64(done) / float64(total) * barWidth)
	var b strings.Builder
	b.WriteByte('[')
	for i := range barWidth {
		switch {
		case i < filled:
			b.WriteByte('=')
		case i == filled && done < total:
			b.WriteByte('>')
		default:
			b.WriteByte(' ')
		}
	}
	b.WriteByte(']')
	return b.String()
}

// ETA is the time left for n more units at rate units per second: "0s"
// when nothing is left, "?" before the rate is known.
func ETA(n int64, rate float64) string {
	switch {
	case n <= 0:
		return "0s"
	case rate <= 0:
		return "?"
	}
	return time.Duration(float64(n) / rate * float64(time.Second)).Round(time.Second).String()
}

// IsTerminal reports whether w is a terminal, where a line redrawn in
// place beats a stream of lines.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Show writes line() to w until stop is called: on a terminal redrawn in
// place every Redraw, elsewhere as a line of its own every `every`
// (DefaultEvery when 0 or less). An empty line is skipped (nothing to say
// yet). stop(final) on a terminal leaves the last state on its own line
// when final, and clears the line otherwise; a batch log already has its
// lines. A nil w shows nothing.
func Show(w io.Writer, every time.Duration, line func() string) (stop func(final bool)) {
	if w == nil {
		return func(bool) {}
	}
	tty := IsTerminal(w)
	if tty {
		every = Redraw
	} else if every <= 0 {
		every = DefaultEvery
	}
	done, finished := make(chan bool), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case final := <-done:
				switch {
				case tty && final:
					// \r returns to the line's start and \x1b[K clears what
					// a longer earlier line left behind.
					fmt.Fprintf(w, "\r%s\x1b[K\n", line())
				case tty:
					fmt.Fprint(w, "\r\x1b[K")
				}
				return
			case <-t.C:
				s := line()
				switch {
				case s == "":
				case tty:
					fmt.Fprintf(w, "\r%s\x1b[K", s)
				default:
					fmt.Fprintln(w, s)
				}
			}
		}
	}()
	return func(final bool) { done <- final; <-finished }
}
