package slab

import (
	"bytes"
	"sync"
	"testing"
)

// TestCopy: copies are exact, cannot overwrite each other, and large ones
// get their own allocation.
func TestCopy(t *testing.T) {
	a := Copy([]byte("first body"))
	b := Copy([]byte("second"))
	big := Copy(bytes.Repeat([]byte{7}, Size/8+1))
	for _, x := range [][]byte{a, b, big} {
		if cap(x) != len(x) {
			t.Errorf("len %d cap %d", len(x), cap(x))
		}
	}
	a = append(a, "!!!!!!!!"...) // must reallocate, not write into b
	if string(b) != "second" || string(a) != "first body!!!!!!!!" {
		t.Errorf("a %q b %q", a, b)
	}
	if len(big) != Size/8+1 || big[0] != 7 || big[len(big)-1] != 7 {
		t.Error("large copy differs")
	}
	if Copy(nil) != nil {
		t.Error("Copy(nil) is not nil")
	}
	if e := Copy([]byte{}); e == nil || len(e) != 0 {
		t.Errorf("Copy(empty) = %#v, want a non-nil empty slice", e)
	}
}

// TestCopyConcurrent fills several blocks from several goroutines; every
// copy must keep its own bytes.
func TestCopyConcurrent(t *testing.T) {
	const workers, each = 4, 300
	out := make([][][]byte, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				out[w] = append(out[w], Copy(bytes.Repeat([]byte{byte(w*each + i)}, 20000+i)))
			}
		})
	}
	wg.Wait()
	for w := range workers {
		for i, b := range out[w] {
			if !bytes.Equal(b, bytes.Repeat([]byte{byte(w*each + i)}, 20000+i)) {
				t.Fatalf("worker %d copy %d was overwritten", w, i)
			}
		}
	}
}
