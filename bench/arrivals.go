package bench

import (
	"math"
	"math/rand/v2"
	"time"
)

// arrivals returns when each of n conversations may start, from the run's
// start. A fixed Interval starts one every Interval (DashInfer's
// --frequency: conversation i at i/frequency). A Rate draws gaps from a
// gamma distribution of shape Burstiness and mean 1/Rate, then scales the
// times so the last lands at n/Rate, as vllm bench serve's get_request
// does; infinite burstiness gives constant gaps. No Rate: all at once.
func arrivals(l Load, n int, seed uint64) []time.Duration {
	out := make([]time.Duration, n)
	switch {
	case l.Interval > 0:
		for i := range out {
			out[i] = time.Duration(i) * l.Interval
		}
	case l.Rate > 0 && !math.IsInf(l.Rate, 1):
		b := l.Burstiness
		if b == 0 {
			b = 1
		}
		r := rand.New(rand.NewPCG(seed, 0xa77))
		t := make([]float64, n)
		var sum float64
		for i := range t {
			if math.IsInf(b, 1) {
				sum += 1 / l.Rate
			} else {
				sum += gamma(r, b) / (l.Rate * b)
			}
			t[i] = sum
		}
		scale := 1.0
		if sum > 0 {
			scale = float64(n) / l.Rate / sum
		}
		for i := range out {
			out[i] = time.Duration(t[i] * scale * float64(time.Second))
		}
	}
	return out
}

// gamma draws from Gamma(shape, 1) by Marsaglia and Tsang's method (with
// the usual boost for shape < 1).
func gamma(r *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return gamma(r, shape+1) * math.Pow(r.Float64(), 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
