//go:build !amd64 || purego

package jscan

// blockSearches has nothing to add here: specialBlocks is specialChunks,
// which TestSpecialBlocks checks anyway.
func blockSearches() []blockSearch { return nil }
