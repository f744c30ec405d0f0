//go:build !amd64 || purego

package jscan

const specialBlock = 1

func specialBlocks(b []byte) int { return specialChunks(b) }
