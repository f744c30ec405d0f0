package pack

import (
	"bytes"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

func FuzzTruncatedLog(f *testing.F) {
	f.Add(4096)
	f.Add(10000)
	f.Fuzz(func(t *testing.T, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		orig := []byte(logtest.FakeAccLog(n))
		cut, ok := truncatedLog(orig)
		if ok != (n >= viewableSize) {
			t.Fatalf("n=%d ok=%v", n, ok)
		}
		if ok && (len(cut) != 2*viewableSize+7 || !bytes.HasPrefix(cut, orig[:viewableSize]) || !bytes.HasSuffix(cut, orig[n-viewableSize:])) {
			t.Fatalf("n=%d: bad cut of %d bytes", n, len(cut))
		}
	})
}
