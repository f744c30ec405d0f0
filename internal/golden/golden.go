// Package golden reads the gzip-compressed golden files that the
// testdata/gen_*golden.py scripts write (score/testdata/gen_golden.py's
// JSON lines, the benchmarks' evaluation goldens). Only tests import it.
package golden

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"testing"
)

// Open returns a reader of the decompressed file path, closed when tb ends.
func Open(tb testing.TB, path string) io.Reader {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("%v (golden files are made by the gen_*golden.py script in their testdata folder)", err)
	}
	tb.Cleanup(func() { f.Close() })
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return z
}

// Unzip writes the decompressed gzip file path to dst and returns dst.
func Unzip(tb testing.TB, path, dst string) string {
	tb.Helper()
	b, err := io.ReadAll(Open(tb, path))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// Lines calls fn with each line of the gzip file path (without its "\n")
// and its 1-based number.
func Lines(tb testing.TB, path string, fn func(n int, line []byte)) {
	tb.Helper()
	s := bufio.NewScanner(Open(tb, path))
	s.Buffer(nil, 1<<28)
	n := 0
	for s.Scan() {
		n++
		fn(n, s.Bytes())
	}
	if err := s.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if n == 0 {
		tb.Fatalf("%s: no lines", path)
	}
}

// JSONL decodes each line of the gzip file path into a fresh T and calls fn
// with it and its line number.
func JSONL[T any](tb testing.TB, path string, fn func(n int, row T)) {
	tb.Helper()
	Lines(tb, path, func(n int, line []byte) {
		var row T
		if err := json.Unmarshal(line, &row); err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
		fn(n, row)
	})
}
