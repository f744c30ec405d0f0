package qwen3vl

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/synth"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// benchDir writes a synthetic dataset of 400 samples (about 50 KB of
// image each) for one benchmark.
func benchDir(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if _, err := synth.Write(dir, 400, synth.Options{Seed: 11}); err != nil {
		b.Fatal(err)
	}
	return dir
}

func benchDataset(b *testing.B, dir string, workers int) *Dataset {
	b.Helper()
	d, err := Open([]string{dir}, Options{Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	return d
}

// BenchmarkLoad measures loading samples from parquet to ready request
// bodies with Builder (openai-go messages, json-marshalled in a minimal
// chat request), on one worker and on GOMAXPROCS workers. Bytes/s are of
// raw sample bytes.
func BenchmarkLoad(b *testing.B) {
	dir := benchDir(b)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("openai/workers=%d", workers), func(b *testing.B) {
			d := benchDataset(b, dir, workers)
			idx := make([]int, d.Len())
			var raw int64
			for i := range idx {
				idx[i] = i
				raw += d.RawSize(i)
			}
			builder := d.Builder(minimalEncode)
			b.SetBytes(raw)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := builder.Build(idx, func(int, []byte) {}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(idx))*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

// BenchmarkOpen measures opening (reading all text, checking every
// image header).
func BenchmarkOpen(b *testing.B) {
	dir := benchDir(b)
	b.ResetTimer()
	var n int
	for b.Loop() {
		d, err := Open([]string{dir}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n = d.Len()
		d.Close()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkMemory loads every sample into a Library and reports the
// bodies' bytes and the resident memory the load added, each over the
// samples' raw bytes (image + text). Base64 alone makes bodies 1.33x the
// images. The bodies are outside the Go heap (qsl keeps them in a
// slab.Arena), so the heap's growth would not show them.
func BenchmarkMemory(b *testing.B) {
	d := benchDataset(b, benchDir(b), 0)
	idx := make([]int, d.Len())
	var raw int64
	for i := range idx {
		idx[i] = i
		raw += d.RawSize(i)
	}
	b.Run("openai", func(b *testing.B) {
		builder := d.Builder(minimalEncode)
		var bodyRatio, rssRatio float64
		for b.Loop() {
			b.StopTimer()
			lib, err := qsl.NewLibrary("q3vl", d.Len(), 0, builder)
			if err != nil {
				b.Fatal(err)
			}
			before := settledRSS(b)
			b.StartTimer()
			if err := lib.LoadSamplesToRam(idx); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			after := settledRSS(b)
			_, bodies := lib.Loaded()
			bodyRatio = float64(bodies) / float64(raw)
			rssRatio = float64(after-before) / float64(raw)
			lib.Close()
			b.StartTimer()
		}
		b.ReportMetric(bodyRatio, "body/raw")
		b.ReportMetric(rssRatio, "rss/raw")
		b.ReportMetric(float64(raw)/float64(len(idx)), "raw-B/sample")
	})
}

// settledRSS returns the resident set size once garbage is collected
// and returned to the OS (Linux: /proc/self/statm).
func settledRSS(b *testing.B) int64 {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		b.Skip("no /proc/self/statm:", err)
	}
	f := strings.Fields(string(data))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}
