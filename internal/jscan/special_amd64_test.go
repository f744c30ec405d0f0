//go:build amd64 && !purego

package jscan

// blockSearches returns specialBlocks's SSE2 rounds alone and, where the
// CPU has AVX2, with the AVX2 rounds first.
func blockSearches() []blockSearch {
	s := []blockSearch{{"specialBlocks/SSE2", func(b []byte) int { return specialBlocksSIMD(b, false) }, specialBlock}}
	if hasAVX2 {
		s = append(s, blockSearch{"specialBlocks/AVX2", func(b []byte) int { return specialBlocksSIMD(b, true) }, specialBlock})
	}
	return s
}
