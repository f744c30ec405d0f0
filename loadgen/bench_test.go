//go:build cgo

package loadgen

import (
	"testing"
)

// batchNullSUT completes every delivered batch inline, 1024 responses per
// Completer call.
type batchNullSUT struct {
	c   Completer
	buf []Response
	err error
}

func (s *batchNullSUT) Name() string { return "batchNullSUT" }
func (s *batchNullSUT) IssueQuery(qs []QuerySample) {
	for len(qs) > 0 {
		n := min(len(qs), 1024)
		s.buf = s.buf[:0]
		for _, q := range qs[:n] {
			s.buf = append(s.buf, Response{ID: q.ID})
		}
		if err := s.c.QuerySamplesComplete(s.buf); err != nil && s.err == nil {
			s.err = err
		}
		qs = qs[n:]
	}
}
func (s *batchNullSUT) FlushQueries() {}

// BenchmarkOfflineNullSUT runs one Offline test of b.N samples through the
// bridge: LoadGen's own per-sample work plus the bridge's (queue, ID
// tracking, one cgo call per batch of queued completions). ns/op is per
// sample.
func BenchmarkOfflineNullSUT(b *testing.B) {
	s := DefaultTestSettings()
	s.Scenario, s.Mode = Offline, PerformanceOnly
	s.MinDurationMs = 1000
	s.MinQueryCount = 1
	s.OfflineExpectedQPS = float64(max(b.N, 1))
	l := DefaultLogSettings()
	l.OutDir = b.TempDir()
	l.EnableTrace = false
	sut := &batchNullSUT{c: Native()}
	b.ResetTimer()
	if err := StartTest(sut, newTestQSL(1024, 1024), s, l, "no-audit.config"); err != nil {
		b.Fatal(err)
	}
	if sut.err != nil {
		b.Fatal(sut.err)
	}
}

// BenchmarkTrackerAddTake is the bridge's per-sample bookkeeping: record an
// issued ID, then take it back at completion, with 1024 outstanding.
func BenchmarkTrackerAddTake(b *testing.B) {
	tr := newTracker()
	const base = uint64(0x7f0000000000)
	for i := uint64(0); i < 1024; i++ {
		tr.add(base + 32*i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := base + 32*uint64(1024+i)
		tr.add(id)
		if _, ok := tr.take(id - 32*1024); !ok {
			b.Fatal("lost id")
		}
	}
}
