package bench

import (
	"math"
	"slices"
	"strconv"
)

// Dist summarises one latency in milliseconds as vllm bench serve
// reports it (numpy's mean, median, population std and percentiles with
// linear interpolation). Empty data gives zeros, as numpy's "or 0" does
// there.
type Dist struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Std    float64 `json:"std"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// Percentiles are keyed "p50", "p99", "p99.9" ….
	Percentiles map[string]float64 `json:"percentiles"`
	// Count is how many values there were.
	Count int `json:"count"`
}

// summarize sorts v (in place) and summarises it at the percentiles ps.
func summarize(v []float64, ps []float64) Dist {
	d := Dist{Count: len(v), Percentiles: map[string]float64{}}
	if len(v) == 0 {
		for _, p := range ps {
			d.Percentiles[PercentileKey(p)] = 0
		}
		return d
	}
	slices.Sort(v)
	d.Mean = mean(v)
	var ss float64
	for _, x := range v {
		ss += (x - d.Mean) * (x - d.Mean)
	}
	d.Std = math.Sqrt(ss / float64(len(v)))
	d.Median = Percentile(v, 50)
	d.Min, d.Max = v[0], v[len(v)-1]
	for _, p := range ps {
		d.Percentiles[PercentileKey(p)] = Percentile(v, p)
	}
	return d
}

// mean is numpy's pairwise-free mean: the sum divided by the count (numpy
// sums pairwise in blocks of 8; over the few thousand values of a run the
// difference is in the last bits).
func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// PercentileKey names percentile p in results: "p99", "p99.9".
func PercentileKey(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// Percentile is numpy.percentile(sorted, p) with its default linear
// method: the value at virtual index p/100·(n-1), interpolated as numpy's
// _lerp does (from the upper neighbour when the fraction is at least a
// half). sorted must be sorted and non-empty.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	idx := (p / 100) * float64(n-1)
	lo := math.Floor(idx)
	if lo >= float64(n-1) {
		return sorted[n-1]
	}
	if lo < 0 {
		return sorted[0]
	}
	i := int(lo)
	t := idx - lo
	a, b := sorted[i], sorted[i+1]
	diff := b - a
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}
