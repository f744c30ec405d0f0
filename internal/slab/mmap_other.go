//go:build !unix

package slab

// mapBlock returns n bytes from the Go heap: without mmap, an Arena's
// blocks are ordinary allocations the collector frees once unreferenced.
func mapBlock(n int) []byte { return make([]byte, n) }

// unmapBlock leaves m to the collector.
func unmapBlock([]byte) {}
