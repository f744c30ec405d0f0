// Package pyrandom is CPython's random module as far as DashInfer-VLM's
// benchmark script uses it: random.seed(int) and random.randint(a, b)
// (Mersenne Twister MT19937 seeded by init_by_array, integers drawn by
// _randbelow_with_getrandbits). mlperf-go bench draws DashInfer's output
// lengths and image counts with it, so its --response-mean/--image-nums
// flags give the same per-request numbers as benchmark_openai_api.py.
// testdata/gen_golden.py proves it against the interpreter.
package pyrandom

import "math/bits"

const (
	n         = 624
	m         = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Rand is one random.Random state. The zero value is not seeded; use New.
type Rand struct {
	mt  [n]uint32
	mti int
}

// New returns the state random.seed(seed) leaves, for a non-negative seed
// (CPython seeds with abs(seed), split into 32-bit words, low word first).
func New(seed uint64) *Rand {
	key := []uint32{uint32(seed)}
	if hi := uint32(seed >> 32); hi != 0 {
		key = append(key, hi)
	}
	r := &Rand{}
	r.initByArray(key)
	return r
}

func (r *Rand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < n; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = n
}

// initByArray is MT19937's init_by_array, as _randommodule.c calls it.
func (r *Rand) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	for k := max(n, len(key)); k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// Uint32 is genrand_uint32: the next 32 random bits.
func (r *Rand) Uint32() uint32 {
	if r.mti >= n {
		for k := 0; k < n; k++ {
			y := (r.mt[k] & upperMask) | (r.mt[(k+1)%n] & lowerMask)
			v := r.mt[(k+m)%n] ^ (y >> 1)
			if y&1 != 0 {
				v ^= matrixA
			}
			r.mt[k] = v
		}
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// getrandbits is random.getrandbits(k) for 0 < k <= 32.
func (r *Rand) getrandbits(k int) uint32 { return r.Uint32() >> (32 - k) }

// below is _randbelow_with_getrandbits(n) for 0 < n < 2^32: draws of
// n.bit_length() bits until one is below n (so n = 1 still draws).
func (r *Rand) below(limit uint32) uint32 {
	k := bits.Len32(limit)
	v := r.getrandbits(k)
	for v >= limit {
		v = r.getrandbits(k)
	}
	return v
}

// Randint is random.randint(a, b): an integer in [a, b], a <= b, with b-a
// below 2^32-1.
func (r *Rand) Randint(a, b int) int {
	return a + int(r.below(uint32(b-a+1)))
}
