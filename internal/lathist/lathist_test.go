package lathist

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestBucketsCoverEveryValueOnce: consecutive buckets tile [0, MaxValue]
// without gaps or overlaps, and every bucket's values map back to it.
func TestBucketsCoverEveryValueOnce(t *testing.T) {
	t.Parallel()
	next := int64(0)
	for i := 0; i < nBuckets; i++ {
		lo, hi := bounds(i)
		if lo != next || hi < lo {
			t.Fatalf("bucket %d is [%d, %d], want it to start at %d", i, lo, hi, next)
		}
		for _, v := range []int64{lo, hi, lo + (hi-lo)/2} {
			if b := bucket(v); b != i {
				t.Fatalf("value %d is in bucket %d, want %d", v, b, i)
			}
		}
		if lo >= 2*sub && float64(hi-lo+1) > float64(lo)/sub {
			t.Fatalf("bucket %d [%d, %d] is wider than 1/%d of its values", i, lo, hi, sub)
		}
		next = hi + 1
	}
	if next-1 != MaxValue {
		t.Fatalf("last bucket ends at %d, want MaxValue %d", next-1, MaxValue)
	}
}

// TestQuantilesBoundExactOnes: each quantile is the exact order
// statistic or above it by at most 1/64, on long-tailed data.
func TestQuantilesBoundExactOnes(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	vals := make([]int64, 100_000)
	for i := range vals {
		// Log-normal around 50 ms with a heavy tail, plus exact small ones.
		v := int64(math.Exp(r.NormFloat64()*1.5 + 17.7))
		if i%100 == 0 {
			v = int64(i % 97)
		}
		vals[i] = v
		h.Record(v)
	}
	slices.Sort(vals)
	s := h.Snapshot()
	if s.Count != uint64(len(vals)) || s.Max != vals[len(vals)-1] {
		t.Fatalf("count %d max %d, want %d and %d", s.Count, s.Max, len(vals), vals[len(vals)-1])
	}
	for _, q := range []float64{0, 0.01, 0.5, 0.9, 0.99, 0.999, 1} {
		rank := max(int(math.Ceil(q*float64(len(vals)))), 1)
		exact := vals[rank-1]
		got := s.Quantile(q)
		if got < exact || float64(got-exact) > float64(exact)/sub+1 {
			t.Errorf("quantile %v = %d, exact %d: want at most 1/%d above it", q, got, exact, sub)
		}
	}
	var sum int64
	for _, v := range vals {
		sum += v
	}
	if m := s.Mean(); m != sum/int64(len(vals)) {
		t.Errorf("mean %d, want %d", m, sum/int64(len(vals)))
	}
}

func TestEdgesAndMerge(t *testing.T) {
	t.Parallel()
	var a, b Histogram
	if q := a.Snapshot().Quantile(0.5); q != 0 {
		t.Fatalf("empty quantile %d, want 0", q)
	}
	a.Record(-5)
	a.Record(MaxValue + 100)
	b.Record(1000)
	sa := a.Snapshot()
	if sa.Max != MaxValue || sa.Quantile(0) != 0 {
		t.Fatalf("clamping: max %d, min quantile %d", sa.Max, sa.Quantile(0))
	}
	sa.Merge(b.Snapshot())
	// The median is 1000's bucket's upper edge: [1000, 1007].
	if sa.Count != 3 || sa.Quantile(0.5) != 1007 {
		t.Fatalf("merged count %d median %d, want 3 and 1007", sa.Count, sa.Quantile(0.5))
	}
	a.Reset()
	if s := a.Snapshot(); s.Count != 0 || s.Max != 0 || s.Sum != 0 {
		t.Fatalf("after Reset: %+v", s.Summary())
	}
}

// TestConcurrentRecords: values recorded from many goroutines are all
// counted (run with -race).
func TestConcurrentRecords(t *testing.T) {
	t.Parallel()
	var h Histogram
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				h.Record(int64(g*1000 + i))
			}
		})
	}
	wg.Wait()
	s := h.Snapshot()
	if s.Count != 8000 || s.Max != 7999 {
		t.Fatalf("count %d max %d, want 8000 and 7999", s.Count, s.Max)
	}
}

func BenchmarkRecord(b *testing.B) {
	var h Histogram
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		v := int64(50_000_000)
		for pb.Next() {
			h.Record(v)
			v += 997
		}
	})
}
