package slab

import (
	"bytes"
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident counts the resident pages of the whole pages under b.
func resident(t *testing.T, b []byte) int {
	t.Helper()
	page := os.Getpagesize()
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b))) &^ uintptr(page-1)
	end := uintptr(unsafe.Pointer(unsafe.SliceData(b))) + uintptr(len(b))
	vec := make([]byte, (int(end-start)+page-1)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, start, end-start, uintptr(unsafe.Pointer(unsafe.SliceData(vec)))); e != 0 {
		t.Fatal("mincore:", e)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestArenaReturnsPages: the blocks are outside the Go heap, resident
// only where written; a block given back has its pages returned to the OS
// and reads as zeros (never faults), and a later block reuses the mapping.
func TestArenaReturnsPages(t *testing.T) {
	var a Arena
	defer a.Release()
	page := os.Getpagesize()
	c, r := a.Copy(bytes.Repeat([]byte{9}, 10*page))
	if n := resident(t, r.b.mem); n < 10 || n > 12 {
		t.Errorf("%d pages resident after writing 10 of a %d-page block", n, len(r.b.mem)/page)
	}
	mem := r.b.mem
	a.Release()
	if n := resident(t, mem); n != 0 {
		t.Errorf("%d pages still resident after Release", n)
	}
	if c[0] != 0 || c[len(c)-1] != 0 {
		t.Errorf("a released copy reads %d..%d, want zeros", c[0], c[len(c)-1])
	}
	_, r2 := a.Copy([]byte("next"))
	if unsafe.SliceData(r2.b.mem) != unsafe.SliceData(mem) {
		t.Log("the next block did not reuse the given-back mapping (another test took it)")
	}
}
