// Package qsl is the generic query sample library: the in-memory store of
// ready-to-send request bodies that LoadGen loads and unloads, each body kept
// exactly once and a prefix every body shares kept once for all. The
// datasets the bodies come from live with their benchmarks (benchmarks/…),
// which hand the library a Builder.
package qsl

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/mlperf-go/mlperf-go/internal/slab"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// Builder turns dataset samples into complete request bodies. Build is
// called with the indices LoadGen asks to load and must call emit once per
// index with that sample's body. The library copies the body, so the
// builder may reuse its memory once emit returns. Taking a batch lets a
// dataset read its storage in order (a parquet row group once, not once
// per row).
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
//
// The bodies are kept outside the Go heap (slab.Arena), freed when their
// samples are unloaded and all at once by Close: gigabytes of bodies on
// the heap would let the garbage collector leave as much garbage again
// uncollected (it collects when the heap has doubled), and resident
// memory would climb by the harness's per-request garbage for the whole
// run. A Library that is never closed frees its bodies once it is
// unreachable.
type Library struct {
	name    string
	total   int
	perf    int
	builder Builder

	prefix []byte      // see SharePrefix
	store  *slab.Arena // the bodies' memory; its own allocation for the cleanup

	mu     sync.RWMutex
	bodies []stored // indexed by sample index; b nil when not loaded
	loaded int
	bytes  int64 // bytes held for loaded bodies, without the shared prefix
	closed bool
}

// stored is a loaded body: all of it, or what follows the shared prefix.
type stored struct {
	b      []byte
	ref    slab.Ref // frees b
	shared bool     // b follows Library.prefix
}

var errClosed = errors.New("the library is closed")

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
	l := &Library{name: name, total: total, perf: perf, builder: b, bodies: make([]stored, total), store: new(slab.Arena)}
	// A backstop for a library dropped without Close. Nothing of l may
	// be reachable from the arena, or l would never be unreachable.
	runtime.AddCleanup(l, (*slab.Arena).Release, l.store)
	return l, nil
}

// SharePrefix makes the library keep prefix once instead of in every body
// that begins with it: a chat request's model and system prompt are 1.8 KB
// of each 64 KB Qwen3-VL body, the same in all of them. Such bodies are
// stored without it; Parts returns the two pieces, and the pool writes
// them back to back. Bodies that do not begin with prefix are stored
// whole, so a wrong prefix costs memory, never correctness. It must be
// called before any sample is loaded.
func (l *Library) SharePrefix(prefix []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.loaded > 0 {
		return fmt.Errorf("qsl %s: SharePrefix after %d samples were loaded", l.name, l.loaded)
	}
	l.prefix = bytes.Clone(prefix) // small and kept until the library goes: on the heap
	return nil
}

// Name implements loadgen.QSL.
func (l *Library) Name() string { return l.name }

// TotalSampleCount implements loadgen.QSL.
func (l *Library) TotalSampleCount() int { return l.total }

// PerformanceSampleCount implements loadgen.QSL.
func (l *Library) PerformanceSampleCount() int { return l.perf }

// LoadSamplesToRam builds the bodies of the given samples.
func (l *Library) LoadSamplesToRam(indices []int) error {
	l.mu.RLock()
	closed := l.closed
	l.mu.RUnlock()
	if closed {
		return fmt.Errorf("qsl %s: loading samples: %w", l.name, errClosed)
	}
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
		// The library keeps a compact copy in blocks of its own, so the
		// builder may reuse body and the bodies keep no other memory
		// alive.
		var e stored
		if len(l.prefix) > 0 && bytes.HasPrefix(body, l.prefix) {
			e.b, e.ref = l.store.Copy(body[len(l.prefix):])
			e.shared = true
		} else {
			e.b, e.ref = l.store.Copy(body)
		}
		if e.b == nil {
			e.b = []byte{} // loaded, though empty
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.closed { // closed while loading
			l.store.Free(e.ref)
			emitErr = fmt.Errorf("qsl %s: loading samples: %w", l.name, errClosed)
			return
		}
		old := l.bodies[i]
		if old.b == nil {
			l.loaded++
		} else {
			l.bytes -= int64(len(old.b))
			l.store.Free(old.ref)
		}
		l.bodies[i] = e
		l.bytes += int64(len(e.b))
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
		if i < 0 || i >= l.total || l.bodies[i].b == nil {
			continue
		}
		l.bytes -= int64(len(l.bodies[i].b))
		l.store.Free(l.bodies[i].ref)
		l.bodies[i] = stored{}
		l.loaded--
	}
	return nil
}

// Close unloads every sample and frees the bodies' memory at once; loading
// afterwards fails. It is safe to call more than once. Slices Parts
// returned must no longer be used (they read zeros or other bodies).
func (l *Library) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	clear(l.bodies)
	l.loaded, l.bytes = 0, 0
	l.store.Release()
	return nil
}

// Body returns a copy of the whole request body of a loaded sample, or nil
// if it is not loaded. It is for tools and tests; the pool uses Parts,
// which copies nothing.
func (l *Library) Body(index int) []byte {
	pre, rest := l.Parts(index)
	if rest == nil {
		return nil
	}
	return append(append(make([]byte, 0, len(pre)+len(rest)), pre...), rest...)
}

// Parts returns a loaded sample's request body as the shared prefix (nil
// when the body does not begin with it) and the rest, or nil, nil when the
// sample is not loaded. The slices must not be modified, and are valid
// until the sample is unloaded or the library closed: LoadGen unloads a
// sample only once its queries are complete.
func (l *Library) Parts(index int) (prefix, rest []byte) {
	if index < 0 || index >= l.total {
		return nil, nil
	}
	l.mu.RLock()
	e := l.bodies[index]
	l.mu.RUnlock()
	if e.shared {
		return l.prefix, e.b
	}
	return nil, e.b
}

// Loaded reports how many samples are loaded and the bytes their bodies
// hold (the shared prefix counted once).
func (l *Library) Loaded() (samples int, bytes int64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.loaded > 0 {
		return l.loaded, l.bytes + int64(len(l.prefix)) // the prefix, held once
	}
	return l.loaded, l.bytes
}
