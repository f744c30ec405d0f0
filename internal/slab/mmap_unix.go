//go:build unix

package slab

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// mappings keeps the blocks given back, pages dropped, for later blocks:
// they are never unmapped (see Arena).
var mappings struct {
	sync.Mutex
	free [][]byte
}

// mapBlock returns a mapping of at least n bytes (whole pages): a block
// given back earlier, the first large enough (Size-byte blocks reuse only
// Size-byte ones, so a large mapping is not spent on them), or a new
// anonymous mapping. A new mapping's pages are resident only once written.
func mapBlock(n int) []byte {
	page := os.Getpagesize()
	n = (n + page - 1) / page * page
	mappings.Lock()
	for i, m := range mappings.free {
		if len(m) == n || (n != Size && len(m) > n) {
			last := len(mappings.free) - 1
			mappings.free[i] = mappings.free[last]
			mappings.free[last] = nil
			mappings.free = mappings.free[:last]
			mappings.Unlock()
			return m
		}
	}
	mappings.Unlock()
	m, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		// As the Go heap does when the OS refuses memory.
		panic(fmt.Sprintf("slab: mapping %d bytes for request bodies: %v (out of memory?)", n, err))
	}
	return m
}

// unmapBlock drops m's pages, returning them to the OS, and keeps m for
// later blocks.
func unmapBlock(m []byte) {
	// MADV_DONTNEED on a private anonymous mapping cannot fail on a
	// mapping this package made; its pages then read as zeros.
	_ = unix.Madvise(m, unix.MADV_DONTNEED)
	mappings.Lock()
	mappings.free = append(mappings.free, m)
	mappings.Unlock()
}
