package qsl

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// prefixedBody is sample i's body in these tests: most begin with
// testPrefix, every fourth does not, and sample 0 is only the prefix.
func prefixedBody(i int) []byte {
	switch {
	case i == 0:
		return []byte(testPrefix)
	case i%4 == 3:
		return []byte(fmt.Sprintf(`{"other":%d}`, i))
	}
	return []byte(fmt.Sprintf(`%s"sample %d %s"}`, testPrefix, i, bytes.Repeat([]byte{'x'}, i*100)))
}

const testPrefix = `{"messages":[{"role":"system","content":"shared"},{"role":"user","content":`

// reusingBuilder emits every body from one buffer it then overwrites, from
// several goroutines at once (each with its own buffer): the library must
// copy.
type reusingBuilder struct {
	workers int
	body    func(int) []byte
}

func (r reusingBuilder) Build(idx []int, emit func(int, []byte)) error {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range r.workers {
		wg.Go(func() {
			var buf []byte
			for k := w; k < len(idx); k += r.workers {
				buf = append(buf[:0], r.body(idx[k])...)
				mu.Lock()
				emit(idx[k], buf)
				mu.Unlock()
				clear(buf)
			}
		})
	}
	wg.Wait()
	return nil
}

func loadAll(t *testing.T, lib *Library, n int) []int {
	t.Helper()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if err := lib.LoadSamplesToRam(idx); err != nil {
		t.Fatal(err)
	}
	return idx
}

// TestLibrarySharePrefix: bodies that begin with the shared prefix are
// kept without it and come back whole, in two pieces from Parts and in one
// from Body; others are kept whole. The builder's buffers are reused, so
// everything the library returns is its own copy.
func TestLibrarySharePrefix(t *testing.T) {
	const n = 40
	for _, share := range []bool{false, true} {
		t.Run(fmt.Sprintf("share=%v", share), func(t *testing.T) {
			lib, err := NewLibrary("t", n, n, reusingBuilder{workers: 4, body: prefixedBody})
			if err != nil {
				t.Fatal(err)
			}
			if share {
				if err := lib.SharePrefix([]byte(testPrefix)); err != nil {
					t.Fatal(err)
				}
			}
			idx := loadAll(t, lib, n)
			var held int64
			if share {
				held = int64(len(testPrefix))
			}
			for i := range n {
				want := prefixedBody(i)
				if got := lib.Body(i); !bytes.Equal(got, want) {
					t.Fatalf("sample %d: Body = %q, want %q", i, got, want)
				}
				pre, rest := lib.Parts(i)
				if got := append(bytes.Clone(pre), rest...); !bytes.Equal(got, want) {
					t.Fatalf("sample %d: Parts = %q + %q, want %q", i, pre, rest, want)
				}
				wantShared := share && i%4 != 3
				if (pre != nil) != wantShared {
					t.Errorf("sample %d: prefix %q, want shared=%v", i, pre, wantShared)
				}
				if rest == nil {
					t.Errorf("sample %d: loaded but rest is nil", i)
				}
				if cap(rest) != len(rest) {
					t.Errorf("sample %d: spare capacity %d would let an append overwrite a neighbour", i, cap(rest)-len(rest))
				}
				held += int64(len(rest))
			}
			if k, bytes := lib.Loaded(); k != n || bytes != held {
				t.Errorf("Loaded() = %d samples, %d bytes; want %d, %d", k, bytes, n, held)
			}
			if err := lib.SharePrefix([]byte("late")); err == nil {
				t.Error("SharePrefix after loading succeeded")
			}
			// Reloading replaces; unloading everything leaves nothing held.
			if err := lib.LoadSamplesToRam(idx[:10]); err != nil {
				t.Fatal(err)
			}
			if k, bytes := lib.Loaded(); k != n || bytes != held {
				t.Errorf("after reloading 10: Loaded() = %d, %d; want %d, %d", k, bytes, n, held)
			}
			if err := lib.UnloadSamplesFromRam(idx[:20]); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if loaded := lib.Body(i) != nil; loaded != (i >= 20) {
					t.Fatalf("sample %d: loaded=%v after unloading 0-19", i, loaded)
				}
				if pre, rest := lib.Parts(i); (rest != nil) != (i >= 20) || (rest == nil && pre != nil) {
					t.Fatalf("sample %d: Parts = %q, %q after unloading 0-19", i, pre, rest)
				}
			}
			if err := lib.UnloadSamplesFromRam(idx); err != nil {
				t.Fatal(err)
			}
			if k, bytes := lib.Loaded(); k != 0 || bytes != 0 {
				t.Errorf("after unloading all: Loaded() = %d, %d", k, bytes)
			}
		})
	}
}

func TestLibraryErrors(t *testing.T) {
	lib, err := NewLibrary("t", 3, 3, BuilderFunc(func(i int) ([]byte, error) {
		if i == 2 {
			return nil, fmt.Errorf("sample %d is broken", i)
		}
		return prefixedBody(i), nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		idx  []int
		want string
	}{
		{[]int{3}, "qsl t: sample index 3 out of range [0,3)"},
		{[]int{-1}, "qsl t: sample index -1 out of range [0,3)"},
		{[]int{0, 2}, "qsl t: loading samples: sample 2 is broken"},
	} {
		err := lib.LoadSamplesToRam(tc.idx)
		if diff := cmp.Diff(tc.want, fmt.Sprint(err)); diff != "" {
			t.Errorf("LoadSamplesToRam(%v) error (-want +got):\n%s", tc.idx, diff)
		}
	}
	for _, i := range []int{-1, 3} {
		if pre, rest := lib.Parts(i); pre != nil || rest != nil || lib.Body(i) != nil {
			t.Errorf("sample %d out of range: Parts = %q, %q", i, pre, rest)
		}
	}
}

// bigBody is sample i's body in the memory tests: 100 KB, so 40 samples
// fill a few arena blocks.
func bigBody(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 100<<10) }

// TestLibraryFreesBodies: the bodies' memory goes with their samples
// (unloading them all gives every block back but the one being filled),
// and Close frees the rest, after which nothing is loaded and loading
// fails. Body returns a copy that outlives the library.
func TestLibraryFreesBodies(t *testing.T) {
	t.Parallel()
	const n = 40
	lib, err := NewLibrary("t", n, n, reusingBuilder{workers: 3, body: bigBody})
	if err != nil {
		t.Fatal(err)
	}
	idx := loadAll(t, lib, n)
	if got, want := lib.store.Mapped(), int64(n*100<<10); got < want {
		t.Fatalf("arena maps %d bytes for %d bytes of bodies", got, want)
	}
	kept := lib.Body(7)
	if err := lib.UnloadSamplesFromRam(idx); err != nil {
		t.Fatal(err)
	}
	if got := lib.store.Mapped(); got > 4<<20 {
		t.Errorf("arena maps %d bytes with every sample unloaded, want at most the current block", got)
	}
	loadAll(t, lib, n) // the emptied block is carved again
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	if err := lib.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if got := lib.store.Mapped(); got != 0 {
		t.Errorf("arena maps %d bytes after Close", got)
	}
	if k, b := lib.Loaded(); k != 0 || b != 0 {
		t.Errorf("Loaded() = %d, %d after Close", k, b)
	}
	if pre, rest := lib.Parts(3); pre != nil || rest != nil {
		t.Errorf("Parts(3) = %q, %q after Close", pre, rest)
	}
	if err := lib.LoadSamplesToRam([]int{1}); err == nil || err.Error() != "qsl t: loading samples: the library is closed" {
		t.Errorf("LoadSamplesToRam after Close: %v", err)
	}
	if !bytes.Equal(kept, bigBody(7)) {
		t.Error("a body Body returned changed when the library was closed")
	}
}

// TestLibraryCleanup: a library dropped without Close frees its bodies
// once the collector finds it unreachable.
func TestLibraryCleanup(t *testing.T) {
	t.Parallel()
	lib, err := NewLibrary("t", 10, 10, reusingBuilder{workers: 1, body: bigBody})
	if err != nil {
		t.Fatal(err)
	}
	loadAll(t, lib, 10)
	store := lib.store
	lib = nil
	// Cleanups run on a goroutine of their own after a collection.
	for i := 0; store.Mapped() != 0; i++ {
		if i == 1000 {
			t.Fatalf("arena still maps %d bytes after 1000 collections", store.Mapped())
		}
		runtime.GC()
		runtime.Gosched()
	}
}
