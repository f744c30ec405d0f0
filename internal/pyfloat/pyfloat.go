// Package pyfloat reproduces the float64 arithmetic and printing of Python
// 3 and numpy 1.x that the reference evaluators' printed numbers depend on:
// np.mean's summation order, round() on a numpy float, Python's round and
// repr.
package pyfloat

import (
	"math"
	"strconv"
	"strings"
)

// bufSize is numpy's default ufunc buffer size (np.getbufsize()): a
// reduction over a 1-D float64 array runs its inner loop on blocks of this
// many elements and adds the block sums in order.
const bufSize = 8192

// Sum returns np.add.reduce(np.array(xs, dtype=float64)) of numpy 1.26:
// 0.0 plus, in order, the pairwise sum of each 8192-element block. It is not
// the naive left-to-right sum.
func Sum(xs []float64) float64 {
	acc := 0.0
	for len(xs) > 0 {
		n := min(len(xs), bufSize)
		acc += pairwise(xs[:n])
		xs = xs[n:]
	}
	return acc
}

// pairwise is numpy's pairwise_sum for float64 (loops_utils.h.src): below 8
// elements a plain loop; up to 128 eight interleaved accumulators combined
// as a tree, then the remainder; above that the halves (the first a
// multiple of 8 long) summed recursively.
func pairwise(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := 0.0
		for _, x := range a {
			res += x
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwise(a[:n2]) + pairwise(a[n2:])
	}
}

// Mean returns np.mean(xs) for float64 values: Sum(xs) / len(xs); NaN for
// no values (numpy warns and returns nan).
func Mean(xs []float64) float64 {
	return Sum(xs) / float64(len(xs))
}

// RoundNumpy returns round(x, decimals) for a numpy float64 x, which calls
// np.round: x * 10**decimals rounded to the nearest integer (ties to even),
// divided by 10**decimals. This is not Python's round(float, n), which
// rounds the exact decimal value: round(np.float64(2.675), 2) is 2.68 and
// round(2.675, 2) is 2.67.
func RoundNumpy(x float64, decimals int) float64 {
	f := math.Pow(10, float64(decimals))
	return math.RoundToEven(float64(x*f)) / f
}

// Round returns Python's round(x, ndigits) for a float: x rounded to the
// nearest multiple of 10**-ndigits by its exact decimal value, ties to even
// (CPython formats x with ndigits decimals and reads it back).
func Round(x float64, ndigits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', ndigits, 64), 64)
	return r
}

// Repr returns Python's repr(x) (and str(x), and numpy 1.x's repr of a
// float64): the shortest digits that read back as x, positional from 1e-4
// up to 1e16 with at least one digit after the point, scientific outside
// ("1e-05", "1.5e+16").
func Repr(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d[.ddd]e±XX
	mant, exp, _ := strings.Cut(e, "e")
	exp10, _ := strconv.Atoi(exp)
	if exp10 < -4 || exp10 >= 16 {
		sign := "+"
		if exp10 < 0 {
			sign, exp10 = "-", -exp10
		}
		return mant + "e" + sign + leftPad2(strconv.Itoa(exp10))
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

func leftPad2(s string) string {
	if len(s) < 2 {
		return "0" + s
	}
	return s
}

// JSON returns x as Python's json.dumps writes a float: Repr's digits, and
// NaN, Infinity and -Infinity for the values JSON has no number for.
func JSON(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	return Repr(x)
}
