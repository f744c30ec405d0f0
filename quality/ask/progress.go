package ask

import (
	"fmt"
	"io"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/progress"
	"github.com/mlperf-go/mlperf-go/sut"
)

// progressSource is what progress reads: the pool's counters.
type progressSource interface{ Progress() sut.Progress }

// startProgress shows progress on w until the returned stop function is
// called: on a terminal a live bar, redrawn in place, left on its own line
// at the end; elsewhere (a batch log, a pipe) a plain line every `every`
// (default 10 s). A nil w shows nothing.
func startProgress(w io.Writer, every time.Duration, total int64, src progressSource) (stop func()) {
	start := time.Now()
	show := progress.Show(w, every, func() string { return renderBar(time.Since(start), total, src.Progress()) })
	return func() { show(true) }
}

// renderBar is one progress line, e.g.
//
//	[=========>              ]  412/1000  41.2%  20.6 answers/s  ETA 28s  0 failed  64 in flight
func renderBar(elapsed time.Duration, total int64, p sut.Progress) string {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.Completed) / elapsed.Seconds()
	}
	frac := 0.0
	if total > 0 {
		frac = min(float64(p.Completed)/float64(total), 1)
	}
	return fmt.Sprintf("%s %d/%d %5.1f%%  %.1f answers/s  ETA %s  %d failed  %d in flight",
		progress.Bar(min(p.Completed, total), total), p.Completed, total, 100*frac, rate, progress.ETA(total-p.Completed, rate), p.Failed, p.InFlight)
}
