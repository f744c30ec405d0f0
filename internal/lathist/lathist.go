// Package lathist records latency distributions in fixed-size histograms
// that many goroutines fill at once without a lock or an allocation: one
// atomic add per value. The harness keeps one per part of a sample's time
// (issue to request written, written to first token, …) and the fake
// endpoint one per part of its own, so every run can say where a slow tail
// came from at a cost of nanoseconds per sample.
//
// Buckets are log-linear, as in HdrHistogram: values below 128 ns are
// exact, and above that every power of two is cut into 64 buckets, so a
// recorded value is known to within 1/64 (1.6%) of itself. Values from
// 0 to MaxValue (about 78 hours) fit; larger ones count as MaxValue.
package lathist

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

const (
	// subBits: 2^subBits buckets per power of two.
	subBits = 6
	sub     = 1 << subBits
	// maxExp is the largest bucket shift; it bounds values to MaxValue.
	maxExp = 41
	// nBuckets covers [0, 2*sub) exactly, then sub buckets per shift.
	nBuckets = (maxExp + 2) * sub
)

// MaxValue is the largest value told apart, in nanoseconds (2^48 - 1,
// about 78 hours); larger values are recorded as MaxValue.
const MaxValue = int64(1)<<(maxExp+subBits+1) - 1

// bucket returns the bucket of v (0 <= v <= MaxValue).
func bucket(v int64) int {
	e := max(bits.Len64(uint64(v))-(subBits+1), 0)
	return e*sub + int(v>>e)
}

// bounds returns the smallest and largest value of bucket i.
func bounds(i int) (lo, hi int64) {
	e := max(i/sub-1, 0)
	lo = int64(i-e*sub) << e
	return lo, lo + int64(1)<<e - 1
}

// Histogram is a latency distribution in nanoseconds. The zero value is
// empty and ready; it must not be copied once used. Record may be called
// from any number of goroutines at once.
type Histogram struct {
	counts [nBuckets]atomic.Uint64
	sum    atomic.Uint64 // wraps after 584 years of recorded time
	max    atomic.Int64
}

// Record adds one value; negative values count as 0.
func (h *Histogram) Record(ns int64) {
	ns = min(max(ns, 0), MaxValue)
	h.counts[bucket(ns)].Add(1)
	h.sum.Add(uint64(ns))
	for {
		m := h.max.Load()
		if ns <= m || h.max.CompareAndSwap(m, ns) {
			return
		}
	}
}

// RecordDuration adds one duration.
func (h *Histogram) RecordDuration(d time.Duration) { h.Record(int64(d)) }

// Reset empties the histogram. Values recorded while it runs may be lost
// or kept.
func (h *Histogram) Reset() {
	for i := range h.counts {
		h.counts[i].Store(0)
	}
	h.sum.Store(0)
	h.max.Store(0)
}

// Snapshot copies the histogram. Values recorded meanwhile may be in it or
// not, each wholly (count, sum and max are read apart, so a snapshot taken
// during recording may be off by those few values).
func (h *Histogram) Snapshot() *Snapshot {
	s := &Snapshot{Sum: h.sum.Load(), Max: h.max.Load()}
	for i := range h.counts {
		if c := h.counts[i].Load(); c > 0 {
			s.Counts[i] = c
			s.Count += c
		}
	}
	return s
}

// Snapshot is a histogram at one moment, for reading and merging.
type Snapshot struct {
	Counts [nBuckets]uint64
	// Count is the number of values, Sum their total and Max the largest.
	Count, Sum uint64
	Max        int64
}

// Merge adds o's values to s.
func (s *Snapshot) Merge(o *Snapshot) {
	for i, c := range o.Counts {
		s.Counts[i] += c
	}
	s.Count += o.Count
	s.Sum += o.Sum
	s.Max = max(s.Max, o.Max)
}

// Quantile returns the value at quantile q in [0, 1]: the largest value of
// the bucket holding the ceil(q*Count)-th smallest value (the first when
// q is 0), capped at Max, so it is an upper bound within 1.6%. 0 when
// empty.
func (s *Snapshot) Quantile(q float64) int64 {
	if s.Count == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(s.Count)))
	rank = min(max(rank, 1), s.Count)
	var seen uint64
	for i, c := range s.Counts {
		seen += c
		if seen >= rank {
			_, hi := bounds(i)
			return min(hi, s.Max)
		}
	}
	return s.Max
}

// Mean returns the mean value, 0 when empty.
func (s *Snapshot) Mean() int64 {
	if s.Count == 0 {
		return 0
	}
	return int64(s.Sum / s.Count)
}

// Summary is a distribution's figures in nanoseconds, as results.json and
// the fake's stats route show them.
type Summary struct {
	Count int64 `json:"count"`
	Mean  int64 `json:"mean_ns"`
	P50   int64 `json:"p50_ns"`
	P90   int64 `json:"p90_ns"`
	P99   int64 `json:"p99_ns"`
	P999  int64 `json:"p99_9_ns"`
	Max   int64 `json:"max_ns"`
}

// Summary returns s's count, mean, percentiles (Quantile) and maximum.
func (s *Snapshot) Summary() Summary {
	return Summary{
		Count: int64(s.Count),
		Mean:  s.Mean(),
		P50:   s.Quantile(0.50),
		P90:   s.Quantile(0.90),
		P99:   s.Quantile(0.99),
		P999:  s.Quantile(0.999),
		Max:   s.Max,
	}
}
