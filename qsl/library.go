// Package qsl holds the query sample libraries: the benchmark datasets and
// the in-memory store of ready-to-send request bodies that LoadGen loads and
// unloads.
package qsl

import (
	"fmt"
	"sync"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// Builder turns dataset samples into complete request bodies. Build is
// called with the indices LoadGen asks to load and must call emit once per
// index with that sample's body. Taking a batch lets a dataset read its
// storage in order (a parquet row group once, not once per row).
type Builder interface {
	Build(indices []int, emit func(index int, body []byte)) error
}

// BuilderFunc adapts a per-sample function to a Builder.
type BuilderFunc func(index int) ([]byte, error)

// Build calls f for each index in turn.
func (f BuilderFunc) Build(indices []int, emit func(int, []byte)) error {
	for _, i := range indices {
		b, err := f(i)
		if err != nil {
			return err
		}
		emit(i, b)
	}
	return nil
}

// Library is a loadgen.QSL whose loaded samples are request bodies built
// once, at load time, so the hot path only writes bytes to a socket.
type Library struct {
	name    string
	total   int
	perf    int
	builder Builder

	mu     sync.RWMutex
	bodies [][]byte // indexed by sample index; nil when not loaded
	loaded int
	bytes  int64
}

var _ loadgen.QSL = (*Library)(nil)

// NewLibrary returns a Library of total samples, of which perf are loaded at
// once in performance runs. perf is clamped to total.
func NewLibrary(name string, total, perf int, b Builder) (*Library, error) {
	if total <= 0 {
		return nil, fmt.Errorf("qsl %s: total sample count must be positive, got %d", name, total)
	}
	if perf <= 0 || perf > total {
		perf = total
	}
	return &Library{name: name, total: total, perf: perf, builder: b, bodies: make([][]byte, total)}, nil
}

// Name implements loadgen.QSL.
func (l *Library) Name() string { return l.name }

// TotalSampleCount implements loadgen.QSL.
func (l *Library) TotalSampleCount() int { return l.total }

// PerformanceSampleCount implements loadgen.QSL.
func (l *Library) PerformanceSampleCount() int { return l.perf }

// LoadSamplesToRam builds the bodies of the given samples.
func (l *Library) LoadSamplesToRam(indices []int) error {
	for _, i := range indices {
		if i < 0 || i >= l.total {
			return fmt.Errorf("qsl %s: sample index %d out of range [0,%d)", l.name, i, l.total)
		}
	}
	var emitErr error
	err := l.builder.Build(indices, func(i int, body []byte) {
		if i < 0 || i >= l.total {
			emitErr = fmt.Errorf("qsl %s: builder emitted index %d out of range", l.name, i)
			return
		}
		l.mu.Lock()
		if l.bodies[i] == nil {
			l.loaded++
		} else {
			l.bytes -= int64(len(l.bodies[i]))
		}
		l.bodies[i] = body
		l.bytes += int64(len(body))
		l.mu.Unlock()
	})
	if err != nil {
		return fmt.Errorf("qsl %s: loading samples: %w", l.name, err)
	}
	return emitErr
}

// UnloadSamplesFromRam drops the bodies of the given samples.
func (l *Library) UnloadSamplesFromRam(indices []int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, i := range indices {
		if i < 0 || i >= l.total || l.bodies[i] == nil {
			continue
		}
		l.bytes -= int64(len(l.bodies[i]))
		l.bodies[i] = nil
		l.loaded--
	}
	return nil
}

// Body returns the request body of a loaded sample, or nil if it is not
// loaded. The slice must not be modified.
func (l *Library) Body(index int) []byte {
	if index < 0 || index >= l.total {
		return nil
	}
	l.mu.RLock()
	b := l.bodies[index]
	l.mu.RUnlock()
	return b
}

// Loaded reports how many samples are loaded and their total body bytes.
func (l *Library) Loaded() (samples int, bytes int64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.loaded, l.bytes
}
