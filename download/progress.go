package download

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/progress"
)

// Progress counts a download's bytes and files as it runs; the command reads
// Snapshot to draw one bar for all the parallel transfers. The zero value is
// ready; it is safe for concurrent use.
type Progress struct {
	total, done, fetched atomic.Int64
	files, filesDone     atomic.Int64
	start                atomic.Int64 // unix ns of the first byte counted
}

// Snapshot is one reading of a Progress.
type Snapshot struct {
	// Total is the bytes the files being fetched hold (files of unknown
	// size count once their size is known); Done the bytes in place:
	// fetched, resumed from .part files or found complete and verified.
	Total, Done int64
	// Fetched is the bytes received over the network in this run.
	Fetched int64
	// Files and FilesDone count the files.
	Files, FilesDone int64
	// Elapsed is the time since the first byte was counted.
	Elapsed time.Duration
}

// Snapshot reads p.
func (p *Progress) Snapshot() Snapshot {
	s := Snapshot{Total: p.total.Load(), Done: p.done.Load(), Fetched: p.fetched.Load(), Files: p.files.Load(), FilesDone: p.filesDone.Load()}
	if st := p.start.Load(); st != 0 {
		s.Elapsed = time.Duration(time.Now().UnixNano() - st)
	}
	return s
}

// Rate is the mean network rate so far, in bytes/s.
func (s Snapshot) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Fetched) / s.Elapsed.Seconds()
}

func (p *Progress) started() { p.start.CompareAndSwap(0, time.Now().UnixNano()) }

func (p *Progress) addTotal(n int64) { p.total.Add(n) }

// addDone counts n bytes put in place (negative when a restart throws away
// bytes counted before).
func (p *Progress) addDone(n int64) { p.done.Add(n) }

func (p *Progress) addFetched(n int64) {
	p.started()
	p.fetched.Add(n)
}

func (p *Progress) addFiles(n int64) { p.files.Add(n) }

func (p *Progress) fileDone() { p.filesDone.Add(1) }

// Line is the progress line of a download, e.g.
//
//	[=========>              ] 3.8 GiB/9.5 GiB  40.1%  48.3 MiB/s  ETA 2m1s  7/22 files
func (s Snapshot) Line() string {
	var b strings.Builder
	rate := s.Rate()
	if bar := progress.Bar(s.Done, s.Total); bar != "" {
		fmt.Fprintf(&b, "%s %s/%s %5.1f%%  %s/s  ETA %s", bar, FormatBytes(s.Done), FormatBytes(s.Total),
			100*float64(s.Done)/float64(s.Total), FormatBytes(int64(rate)), progress.ETA(s.Total-s.Done, rate))
	} else {
		fmt.Fprintf(&b, "%s  %s/s", FormatBytes(s.Done), FormatBytes(int64(rate)))
	}
	fmt.Fprintf(&b, "  %d/%d files", s.FilesDone, s.Files)
	return b.String()
}
