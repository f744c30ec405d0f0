package jscan

import (
	"bytes"
	"encoding/binary"
)

// specialBlocks returns the index in b of the first byte that is '"',
// '\\' or below 0x20, searching whole blocks only: when no block holds
// one it returns the length of the blocks searched (len(b) rounded down
// to a multiple of specialBlock), and the caller looks at the few bytes
// left. On amd64 (special_amd64.s) the blocks are 64 bytes compared with
// AVX2 where the CPU has it, then 32 and 16 with SSE2, which every amd64
// CPU has; elsewhere, or built with -tags purego, specialChunks searches
// all of b.
//
// Str uses it for long runs, which in practice means the base64 image in
// a Qwen3-VL chat request: one pass that finds the closing quote and
// checks for backslashes and control characters together.

// specialChunks is specialBlocks in portable Go, whose blocks are single
// bytes (it searches all of b). It takes b in chunks of specialChunk
// bytes: in each, the standard library's vectorised bytes.IndexByte finds
// the first quote and the first backslash before it, and controlIndex
// checks the bytes before those. The chunks bound the work a call does
// past the byte it stops at, so a long string with many escapes, one call
// each, still costs time in proportion to its length.
func specialChunks(b []byte) int {
	for i := 0; i < len(b); i += specialChunk {
		c := b[i:min(i+specialChunk, len(b))]
		end := len(c)
		if k := bytes.IndexByte(c, '"'); k >= 0 {
			end = k
		}
		if k := bytes.IndexByte(c[:end], '\\'); k >= 0 {
			end = k
		}
		if k := controlIndex(c[:end]); k >= 0 {
			end = k
		}
		if end < len(c) {
			return i + end
		}
	}
	return len(b)
}

const specialChunk = 1024

// controlIndex returns the index of the first byte of b below 0x20, or -1.
// Words are tested four at a time with the "has a byte less than n" trick
// from "Bit Twiddling Hacks" ((x - n*ones) &^ x & high: exact for whether
// any byte is below n, n <= 128), and a hit is then located byte by byte.
func controlIndex(b []byte) int {
	const ones = 0x0101010101010101
	i := 0
	for ; i+32 <= len(b); i += 32 {
		w := b[i : i+32 : i+32]
		x0, x1 := binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:])
		x2, x3 := binary.LittleEndian.Uint64(w[16:]), binary.LittleEndian.Uint64(w[24:])
		if ((x0-ones*0x20)&^x0|(x1-ones*0x20)&^x1|(x2-ones*0x20)&^x2|(x3-ones*0x20)&^x3)&highBits != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return i
		}
	}
	return -1
}

// specialMask has the top bit of byte k set if byte k of x (little
// endian) is '"', '\\' or below 0x20, and is zero if no byte is. Bytes
// above the first special one may be flagged spuriously (a borrow), so
// only the lowest flagged byte, always a true one, is used: trailing
// zeros / 8 is the index of the first special byte. (The "has a zero
// byte" and "has a byte less than n" tricks from "Bit Twiddling Hacks".)
func specialMask(x uint64) uint64 {
	const ones = 0x0101010101010101
	q, bs := x^(ones*'"'), x^(ones*'\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (x-ones*0x20)&^x) & highBits
}

const highBits = 0x8080808080808080
