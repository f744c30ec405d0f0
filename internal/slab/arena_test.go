package slab

import (
	"bytes"
	"sync"
	"testing"
)

// TestArenaCopy: copies are exact, have no spare capacity, cannot
// overwrite each other; nil stays nil and empty stays empty, with nothing
// to free.
func TestArenaCopy(t *testing.T) {
	t.Parallel()
	var a Arena
	defer a.Release()
	x, rx := a.Copy([]byte("first body"))
	y, _ := a.Copy([]byte("second"))
	big, rbig := a.Copy(bytes.Repeat([]byte{7}, Size/8+1))
	for _, c := range [][]byte{x, y, big} {
		if cap(c) != len(c) {
			t.Errorf("len %d cap %d", len(c), cap(c))
		}
	}
	x = append(x, "!!!!!!!!"...) // must reallocate, not write into y
	if string(y) != "second" || string(x) != "first body!!!!!!!!" {
		t.Errorf("x %q y %q", x, y)
	}
	if len(big) != Size/8+1 || big[0] != 7 || big[len(big)-1] != 7 {
		t.Error("large copy differs")
	}
	if rx.b == rbig.b {
		t.Error("a large copy shares a block with a small one")
	}
	if c, r := a.Copy(nil); c != nil || r != (Ref{}) {
		t.Errorf("Copy(nil) = %v, %v", c, r)
	}
	if c, r := a.Copy([]byte{}); c == nil || len(c) != 0 || r != (Ref{}) {
		t.Errorf("Copy(empty) = %#v, %v; want a non-nil empty slice and the zero Ref", c, r)
	}
	a.Free(Ref{}) // frees nothing
}

// TestArenaGivesBack: a block is given back with its last copy (and only
// then), a large copy's block with it, and Release gives back the rest;
// freeing after Release does nothing.
func TestArenaGivesBack(t *testing.T) {
	t.Parallel()
	var a Arena
	const each = Size / 16
	p := bytes.Repeat([]byte{1}, each)
	var refs []Ref
	for range 16 + 4 { // one full block and a quarter of the next
		_, r := a.Copy(p)
		refs = append(refs, r)
	}
	_, large := a.Copy(make([]byte, Size+1))
	if got, min := a.Mapped(), int64(2*Size+Size+1); got < min {
		t.Fatalf("Mapped() = %d, want at least %d", got, min)
	}
	for _, r := range refs[:15] {
		a.Free(r)
	}
	if got := a.Mapped(); got < 3*Size {
		t.Errorf("Mapped() = %d after freeing 15 of a block's 16 copies: the block went too soon", got)
	}
	a.Free(refs[15])
	if got := a.Mapped(); got >= 2*Size+Size+1+4096 || got < Size+Size+1 {
		t.Errorf("Mapped() = %d after freeing a full block's copies, want one block and the large copy's", got)
	}
	a.Free(large)
	if got := a.Mapped(); got != Size {
		t.Errorf("Mapped() = %d after freeing the large copy, want the current block's %d", got, Size)
	}
	// The current block, emptied, is carved again from its start.
	for _, r := range refs[16:] {
		a.Free(r)
	}
	c, r := a.Copy([]byte("again"))
	if got := a.Mapped(); got != Size || r.b.used != len(c) {
		t.Errorf("Mapped() = %d, used %d: the emptied current block was not reused", got, r.b.used)
	}
	a.Release()
	if got := a.Mapped(); got != 0 {
		t.Errorf("Mapped() = %d after Release", got)
	}
	a.Free(r) // after Release: nothing
	if got := a.Mapped(); got != 0 {
		t.Errorf("Mapped() = %d after a Free following Release", got)
	}
}

// TestArenaConcurrent fills and frees blocks from several goroutines;
// every copy keeps its own bytes until freed.
func TestArenaConcurrent(t *testing.T) {
	t.Parallel()
	var a Arena
	defer a.Release()
	const workers, each = 4, 300
	type kept struct {
		b []byte
		r Ref
	}
	out := make([][]kept, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				b, r := a.Copy(bytes.Repeat([]byte{byte(w*each + i)}, 20000+i))
				out[w] = append(out[w], kept{b, r})
				if i%3 == 0 { // free some as others are carved
					a.Free(out[w][i/2].r)
					out[w][i/2].b = nil
				}
			}
		})
	}
	wg.Wait()
	for w := range workers {
		for i, k := range out[w] {
			if k.b != nil && !bytes.Equal(k.b, bytes.Repeat([]byte{byte(w*each + i)}, 20000+i)) {
				t.Fatalf("worker %d copy %d was overwritten", w, i)
			}
		}
	}
}
