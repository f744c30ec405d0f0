package download

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParseListing reads a listing the size of whisper-dataset.md5
// (18,719 lines), the largest MLCommons publishes for an inference set.
func BenchmarkParseListing(b *testing.B) {
	var sb strings.Builder
	for i := range 18719 {
		fmt.Fprintf(&sb, "%032x  dev-all/%d/%d/%d-%d-%04d.wav\n", i*2654435761, i%40, i%97, i%40, i%97, i)
	}
	listing := []byte(sb.String())
	b.SetBytes(int64(len(listing)))
	for b.Loop() {
		if _, err := ParseListing(listing); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetch downloads one 64 MiB LFS file from a loopback hub through
// its CDN redirect, hashing (sha256) and writing it: the harness's own cost
// per byte, without the network's.
func BenchmarkFetch(b *testing.B) {
	files := map[string]repoFile{"model.bin": {data: payload(64<<20, 5), lfs: true}}
	h := newFakeHub(b, "o/r", Model, rev, files)
	b.SetBytes(64 << 20)
	for b.Loop() {
		dir := b.TempDir()
		_, err := Fetch(context.Background(), dir, Request{Pins: []Pin{h.pin(RoleTokenizer, "model.bin")}}, Options{HF: h.env("")})
		if err != nil {
			b.Fatal(err)
		}
	}
}
