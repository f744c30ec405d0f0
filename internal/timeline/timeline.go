// Package timeline records, once a second during a run, how many samples
// the harness has issued, completed and failed and how many are in flight,
// as JSON lines in timeline.jsonl beside LoadGen's logs. The report draws
// throughput over time and requests in flight from it; LoadGen's logs hold
// only the totals.
package timeline

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// File is the name of the timeline in a run's output directory.
const File = "timeline.jsonl"

// DefaultEvery is how often Start samples when given no interval.
const DefaultEvery = time.Second

// Counters are the harness's cumulative counters at one instant, as the
// worker pool reports them.
type Counters struct {
	// Issued samples were handed to the pool; Completed were reported to
	// LoadGen (successfully or not); Failed is the subset of Completed
	// that failed.
	Issued    int64 `json:"issued"`
	Completed int64 `json:"completed"`
	Failed    int64 `json:"failed"`
	// InFlight requests are on the wire; Queued wait for a free slot.
	InFlight int64 `json:"in_flight"`
	Queued   int64 `json:"queued"`
	// OutputTokens is the sum of output tokens of successful samples.
	OutputTokens int64 `json:"output_tokens"`
}

// Point is one line of the timeline: Counters at a time.
type Point struct {
	// UnixMs is the wall-clock time of the sample in milliseconds since
	// the Unix epoch (engine_metrics.jsonl uses the same clock, so the two
	// line up).
	UnixMs int64 `json:"unix_ms"`
	// Elapsed is the time since recording started, in seconds.
	Elapsed float64 `json:"elapsed_s"`
	Counters
}

// Recorder appends a Point to a file at a fixed interval. Create it with
// Start; Stop it once.
type Recorder struct {
	f      *os.File
	w      *bufio.Writer
	sample func() Counters
	start  time.Time
	done   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	err    error
}

// Start creates path (replacing an earlier timeline) and records a Point
// right away, then every interval (DefaultEvery if interval <= 0), until
// Stop, which records a last one. sample must be safe to call from another
// goroutine.
func Start(path string, every time.Duration, sample func() Counters) (*Recorder, error) {
	if every <= 0 {
		every = DefaultEvery
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("timeline: %w", err)
	}
	r := &Recorder{f: f, w: bufio.NewWriter(f), sample: sample, start: time.Now(), done: make(chan struct{})}
	r.record(r.start)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-r.done:
				return
			case now := <-t.C:
				r.record(now)
			}
		}
	}()
	return r, nil
}

func (r *Recorder) record(now time.Time) {
	p := Point{UnixMs: now.UnixMilli(), Elapsed: now.Sub(r.start).Seconds(), Counters: r.sample()}
	b, err := json.Marshal(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		_, err = r.w.Write(append(b, '\n'))
	}
	// Flushed every line: a run that crashes keeps its timeline so far.
	if err == nil {
		err = r.w.Flush()
	}
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("timeline: writing %s: %w", r.f.Name(), err)
	}
}

// Stop records a last Point, closes the file and returns the first error
// met while writing. It must be called exactly once.
func (r *Recorder) Stop() error {
	close(r.done)
	r.wg.Wait()
	r.record(time.Now())
	r.mu.Lock()
	defer r.mu.Unlock()
	return errors.Join(r.err, r.f.Close())
}

// Read reads a timeline file. A missing file is reported with an error
// satisfying errors.Is(err, fs.ErrNotExist); a malformed line is an error
// naming the file and line.
func Read(path string) ([]Point, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pts, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pts, nil
}

// Parse reads timeline lines from r; errors name the line (from 1). Blank
// lines are skipped.
func Parse(r io.Reader) ([]Point, error) {
	var pts []Point
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var p Point
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return pts, fmt.Errorf("line %d: not a timeline point: %w", n, err)
		}
		pts = append(pts, p)
	}
	return pts, sc.Err()
}
