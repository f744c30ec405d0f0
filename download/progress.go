package download

import (
	"sync/atomic"
	"time"
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
