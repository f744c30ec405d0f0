// Package golden reads the gzip-compressed JSON-lines golden files that
// score/testdata/gen_golden.py writes. Only tests import it.
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
		tb.Fatalf("%v (golden files are made by score/testdata/gen_golden.py)", err)
	}
	tb.Cleanup(func() { f.Close() })
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return z
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
