package slab

import "sync"

// Arena carves copies out of blocks of memory outside the Go heap (an
// anonymous mapping each, on Unix) and gives a block back once every copy
// carved from it is freed.
//
// Why outside the heap: the garbage collector lets the heap grow to twice
// what was live at its last collection (GOGC=100) before it collects
// again. With 3 GB of Qwen3-VL request bodies on the heap, a run's
// per-request garbage piled up unchecked towards another 3 GB (RSS grew
// 16 MiB/s while requests went out, with no collection in sight), and
// the garbage made while building the bodies lifted the peak as well.
// Bodies held here leave the collector's goal to what the harness itself
// keeps, a few tens of MB, so garbage is collected early and often, and
// cheaply: marking never visits the bodies.
//
// The price is that a copy lives until Free, not until it is unreachable.
// Memory given back is returned to the OS (its pages dropped) but stays
// mapped for later blocks and is never unmapped, so a copy read after it
// was freed reads zeros or a later copy's bytes, never faults.
//
// The zero value is ready to use, and so is an arena after Release. It is
// safe for concurrent use.
type Arena struct {
	mu     sync.Mutex
	cur    *block              // the block copies are carved from; nil before the first
	blocks map[*block]struct{} // blocks not yet given back
	mapped int64               // bytes of blocks not yet given back
}

// block is one mapping copies are carved from.
type block struct {
	mem  []byte // all of the mapping, at least the size asked for
	used int    // bytes carved, from the start
	live int    // copies carved and not yet freed
}

// Ref is what Free needs to know of a copy: its block. The zero Ref (a
// copy of nil or of nothing) frees nothing.
type Ref struct{ b *block }

// Copy returns a copy of p with no spare capacity (appending to it
// reallocates rather than overwriting a neighbour), or nil for nil, and
// the Ref to free it with. Copies larger than Size/8 get a block of their
// own. The copy is valid until it is freed or the arena released.
func (a *Arena) Copy(p []byte) ([]byte, Ref) {
	if p == nil {
		return nil, Ref{}
	}
	n := len(p)
	if n == 0 {
		return []byte{}, Ref{}
	}
	a.mu.Lock()
	var b *block
	if n > Size/8 {
		b = a.newBlock(n)
	} else {
		if a.cur == nil || len(a.cur.mem)-a.cur.used < n {
			a.cur = a.newBlock(Size)
		}
		b = a.cur
	}
	out := b.mem[b.used : b.used+n : b.used+n]
	b.used += n
	b.live++
	if b == a.cur && b.used == len(b.mem) {
		a.cur = nil // full: given back with its last copy
	}
	// Copied under the lock, so that Release never gives a block back
	// (for another arena to reuse) while a copy is being written into it.
	// The library's copies come one at a time anyway.
	copy(out, p)
	a.mu.Unlock()
	return out, Ref{b}
}

func (a *Arena) newBlock(n int) *block {
	b := &block{mem: mapBlock(n)}
	if a.blocks == nil {
		a.blocks = map[*block]struct{}{}
	}
	a.blocks[b] = struct{}{}
	a.mapped += int64(len(b.mem))
	return b
}

// Free frees the copy r names; each copy must be freed once. Its block is given back with its last
// copy; the block copies are being carved from starts again from its
// beginning instead. Freeing the zero Ref, or a copy of a released arena,
// does nothing.
func (a *Arena) Free(r Ref) {
	b := r.b
	if b == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.blocks[b]; !ok || b.live == 0 {
		return
	}
	b.live--
	switch {
	case b.live > 0:
	case b == a.cur:
		b.used = 0
	default:
		a.giveBack(b)
	}
}

func (a *Arena) giveBack(b *block) {
	delete(a.blocks, b)
	a.mapped -= int64(len(b.mem))
	unmapBlock(b.mem)
}

// Release gives every block back at once, freeing all copies.
func (a *Arena) Release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for b := range a.blocks {
		a.giveBack(b)
	}
	a.cur = nil
}

// Mapped returns the bytes of the blocks the arena holds: the copies not
// yet freed, the unused rest of their blocks (which, never written, is
// not resident on Unix) and the current block.
func (a *Arena) Mapped() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mapped
}
