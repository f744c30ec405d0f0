//go:build amd64 && !purego

package jscan

// specialBlock is the size of the smallest block specialBlocks searches.
const specialBlock = 16

// specialBlocks is implemented in special_amd64.s.
//
//go:noescape
func specialBlocks(b []byte) int
