//go:build amd64 && !purego

package jscan

import "golang.org/x/sys/cpu"

// specialBlock is the size of the smallest block specialBlocks searches.
const specialBlock = 16

// hasAVX2 lets specialBlocks take 64 bytes a round first.
var hasAVX2 = cpu.X86.HasAVX2

func specialBlocks(b []byte) int { return specialBlocksSIMD(b, hasAVX2) }

// specialBlocksSIMD is implemented in special_amd64.s; avx2 must be true
// only where the CPU has AVX2. Tests call it both ways.
//
//go:noescape
func specialBlocksSIMD(b []byte, avx2 bool) int
