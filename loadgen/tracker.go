package loadgen

import (
	"runtime"
	"sync"
)

// LoadGen's response IDs are raw pointers to its per-sample metadata: passing
// an unknown or already-completed ID to QuerySamplesComplete makes LoadGen
// write through a dangling pointer. The tracker records every ID issued in the
// running test so the Completer can refuse bad IDs before they reach C++.
//
// IDs handed to Go carry a per-test tag in their top bits (user-space
// pointers fit in 47 bits on amd64 and 48 on arm64), so a straggler
// completing an ID of a previous test is refused even when LoadGen reuses the
// same address in the next test.

const (
	idTagShift  = 52
	idPtrMask   = uint64(1)<<idTagShift - 1
	trackShards = 64 // power of two; spreads contention across SUT goroutines
)

// Per-ID state bits.
const (
	stFirstToken uint8 = 1 << iota // FirstTokenComplete was forwarded
	stFTBusy                       // a FirstTokenComplete call is in flight
)

type trackShard struct {
	mu     sync.Mutex
	ids    map[uint64]uint8
	closed bool
	_      [40]byte // keep shards on separate cache lines
}

// tracker is the set of outstanding LoadGen response IDs of one test.
type tracker struct {
	shards [trackShards]trackShard
}

func newTracker() *tracker {
	t := &tracker{}
	for i := range t.shards {
		t.shards[i].ids = make(map[uint64]uint8)
	}
	return t
}

func (t *tracker) shard(id uint64) *trackShard {
	// IDs are 32-byte-strided pointers: hash so neighbours spread.
	h := (id >> 5) * 0x9E3779B97F4A7C15
	return &t.shards[h>>(64-6)]
}

// add records an issued ID. It returns false when the tracker is closed
// (the test is being drained); the caller then completes the ID itself.
func (t *tracker) add(id uint64) bool {
	s := t.shard(id)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return false
	}
	s.ids[id] = 0
	s.mu.Unlock()
	return true
}

// take removes id for completion and returns its state. ok is false for an
// unknown or already-completed ID. It waits out a FirstTokenComplete for the
// same ID still in flight, so LoadGen never sees the sample complete before
// its first token.
func (t *tracker) take(id uint64) (state uint8, ok bool) {
	s := t.shard(id)
	for {
		s.mu.Lock()
		st, ok := s.ids[id]
		if !ok {
			s.mu.Unlock()
			return 0, false
		}
		if st&stFTBusy == 0 {
			delete(s.ids, id)
			s.mu.Unlock()
			return st, true
		}
		s.mu.Unlock()
		runtime.Gosched()
	}
}

// beginFirstToken marks id's first token as reported and in flight. ok is
// false for an unknown ID, dup is true when its first token was already
// reported.
func (t *tracker) beginFirstToken(id uint64) (ok, dup bool) {
	s := t.shard(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.ids[id]
	if !ok {
		return false, false
	}
	if st&stFirstToken != 0 {
		return true, true
	}
	s.ids[id] = st | stFirstToken | stFTBusy
	return true, false
}

// endFirstToken clears the in-flight mark set by beginFirstToken.
func (t *tracker) endFirstToken(id uint64) {
	s := t.shard(id)
	s.mu.Lock()
	if st, ok := s.ids[id]; ok {
		s.ids[id] = st &^ stFTBusy
	}
	s.mu.Unlock()
}

// drain closes the tracker and returns every outstanding ID with its state.
// Callers must hold the test's exclusive completion lock so that no
// FirstTokenComplete is in flight.
func (t *tracker) drain() (ids []uint64, states []uint8) {
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		s.closed = true
		for id, st := range s.ids {
			ids = append(ids, id)
			states = append(states, st)
		}
		clear(s.ids)
		s.mu.Unlock()
	}
	return ids, states
}

// outstanding counts the IDs not yet completed.
func (t *tracker) outstanding() int {
	n := 0
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		n += len(s.ids)
		s.mu.Unlock()
	}
	return n
}
