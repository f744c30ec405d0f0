package run

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/mlperf-go/mlperf-go/sut"
)

// failureLog writes sut.Failures as JSON lines. The pool calls write one
// failure at a time; the file is created even when nothing fails, so an
// empty file says so. Each line goes to the file as it is written, not
// through a buffer: an interrupted Server run leaves Run behind, still
// playing LoadGen's schedule (Abortable), and the process exits without
// close, which left the file empty while results.json counted the
// cancelled samples. Failures are few, so a write each costs nothing.
type failureLog struct {
	mu     sync.Mutex
	f      *os.File
	err    error // the first write error
	n      int64
	closed bool
}

func newFailureLog(path string) (*failureLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("creating the failure list: %w", err)
	}
	return &failureLog{f: f}, nil
}

// write appends one failure; the first error is kept for close.
func (l *failureLog) write(f sut.Failure) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil || l.closed {
		return
	}
	b, err := json.Marshal(f)
	if err == nil {
		b = append(b, '\n')
		_, err = l.f.Write(b)
	}
	if err != nil {
		l.err = fmt.Errorf("writing %s: %w", l.f.Name(), err)
		return
	}
	l.n++
}

// close flushes and closes the file, returning the first error.
func (l *failureLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.err
	}
	l.closed = true
	if err := l.f.Close(); err != nil && l.err == nil {
		l.err = fmt.Errorf("closing %s: %w", l.f.Name(), err)
	}
	return l.err
}
