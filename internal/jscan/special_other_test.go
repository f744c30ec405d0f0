//go:build !amd64 || purego

package jscan

func blockSearches() []blockSearch {
	return []blockSearch{{"specialBlocks", specialBlocks, specialBlock}}
}
