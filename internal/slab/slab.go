// Package slab copies long-lived byte slices into shared blocks.
//
// Request bodies stay in memory for as long as their sample is loaded,
// tens of thousands of them. Allocated one by one, each body over 32 KB
// is rounded up to whole 8 KB pages by the Go heap (6% of resident memory
// for 60 KB chat bodies), and a body built by append carries up to a
// quarter of spare capacity. Copies are carved exactly, one after another,
// out of 4 MB blocks instead.
//
// Two kinds of block: an Allocator's are on the Go heap and freed by the
// garbage collector once none of their slices is referenced (copies that
// live and die together should come from the same Allocator: one
// long-lived copy keeps its whole block alive). An Arena's are outside the
// heap and freed when their copies are (Arena.Free): the sample library
// keeps its bodies there, so gigabytes of bodies do not set the
// collector's pace (see Arena).
package slab

import "sync"

// Size is the size of the blocks copies are carved from. Slices larger
// than Size/8 get an allocation of their own, so a block is never mostly
// wasted.
const Size = 4 << 20

// Allocator carves copies out of its own blocks. The zero value is ready
// to use; it is safe for concurrent use.
type Allocator struct {
	mu   sync.Mutex
	free []byte // the unused rest of the current block
}

// Copy returns a copy of b with no spare capacity (appending to it
// reallocates rather than overwriting a neighbour), or nil for nil.
func (a *Allocator) Copy(b []byte) []byte {
	if b == nil {
		return nil
	}
	n := len(b)
	if n > Size/8 {
		out := make([]byte, n)
		copy(out, b)
		return out
	}
	a.mu.Lock()
	if len(a.free) < n {
		a.free = make([]byte, Size)
	}
	out := a.free[:n:n]
	a.free = a.free[n:]
	a.mu.Unlock()
	copy(out, b)
	return out
}

var shared Allocator

// Copy copies b with a package-wide Allocator.
func Copy(b []byte) []byte { return shared.Copy(b) }
