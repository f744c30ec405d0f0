package eval

import "math/bits"

// This file re-implements the parts of NumPy's random module the reference
// evaluator draws from (numpy.random.default_rng: SeedSequence → PCG64 →
// Generator.integers / Generator.choice without p), so that a seed gives the
// same draws as the reference. Only what evaluation.py calls is here.

// SeedSequence constants (numpy/random/bit_generator.pyx).
const (
	ssInitA    = 0x43b0d7e5
	ssMultA    = 0x931e8875
	ssInitB    = 0x8b51f9dd
	ssMultB    = 0x58f38ded
	ssMixMultL = 0xca01f9dd
	ssMixMultR = 0x4973f715
	ssXShift   = 16
	ssPoolSize = 4
)

// seedSequenceState returns SeedSequence(entropy=seed).generate_state(n32)
// as 32-bit words, for a non-negative integer seed and no spawn key.
func seedSequenceState(seed uint64, n32 int) []uint32 {
	// _int_to_uint32_array: little-endian 32-bit words, [0] for zero.
	var entropy []uint32
	if seed == 0 {
		entropy = []uint32{0}
	}
	for s := seed; s > 0; s >>= 32 {
		entropy = append(entropy, uint32(s))
	}
	hashConst := uint32(ssInitA)
	hashmix := func(v uint32) uint32 {
		v ^= hashConst
		hashConst *= ssMultA
		v *= hashConst
		v ^= v >> ssXShift
		return v
	}
	mix := func(x, y uint32) uint32 {
		r := ssMixMultL*x - ssMixMultR*y
		r ^= r >> ssXShift
		return r
	}
	var pool [ssPoolSize]uint32
	for i := range pool {
		if i < len(entropy) {
			pool[i] = hashmix(entropy[i])
		} else {
			pool[i] = hashmix(0)
		}
	}
	for src := range pool {
		for dst := range pool {
			if src != dst {
				pool[dst] = mix(pool[dst], hashmix(pool[src]))
			}
		}
	}
	for src := ssPoolSize; src < len(entropy); src++ {
		for dst := range pool {
			pool[dst] = mix(pool[dst], hashmix(entropy[src]))
		}
	}
	out := make([]uint32, n32)
	hc := uint32(ssInitB)
	for i := range out {
		v := pool[i%ssPoolSize]
		v ^= hc
		hc *= ssMultB
		v *= hc
		v ^= v >> ssXShift
		out[i] = v
	}
	return out
}

// pcg64 is NumPy's PCG64 bit generator (128-bit LCG, XSL-RR output) with its
// 32-bit half-word buffer (pcg64_next32 hands out the low half first).
type pcg64 struct {
	hi, lo       uint64 // state
	incHi, incLo uint64
	hasU32       bool
	u32          uint32
}

const (
	pcgMultHi = 0x2360ED051FC65DA4
	pcgMultLo = 0x4385DF649FCCF645
)

// newNumpyRNG is numpy.random.default_rng(seed).
func newNumpyRNG(seed uint64) *pcg64 {
	w := seedSequenceState(seed, 8) // generate_state(4, np.uint64)
	u64 := func(i int) uint64 { return uint64(w[2*i]) | uint64(w[2*i+1])<<32 }
	// pcg64_set_seed: state seed = val[0]<<64 | val[1], inc = val[2]<<64 | val[3].
	initHi, initLo := u64(0), u64(1)
	seqHi, seqLo := u64(2), u64(3)
	r := &pcg64{}
	// pcg_setseq_128_srandom_r.
	r.incHi = seqHi<<1 | seqLo>>63
	r.incLo = seqLo<<1 | 1
	r.step()
	var c uint64
	r.lo, c = bits.Add64(r.lo, initLo, 0)
	r.hi, _ = bits.Add64(r.hi, initHi, c)
	r.step()
	return r
}

func (r *pcg64) step() {
	// state = state*mult + inc (mod 2^128)
	hi, lo := bits.Mul64(r.lo, pcgMultLo)
	hi += r.hi*pcgMultLo + r.lo*pcgMultHi
	var c uint64
	r.lo, c = bits.Add64(lo, r.incLo, 0)
	r.hi, _ = bits.Add64(hi, r.incHi, c)
}

// next64 is pcg64_next64: step, then XSL-RR of the new state.
func (r *pcg64) next64() uint64 {
	r.step()
	return bits.RotateLeft64(r.hi^r.lo, -int(r.hi>>58))
}

// next32 is pcg64_next32.
func (r *pcg64) next32() uint32 {
	if r.hasU32 {
		r.hasU32 = false
		return r.u32
	}
	n := r.next64()
	r.hasU32, r.u32 = true, uint32(n>>32)
	return uint32(n)
}

// bounded is random_bounded_uint64 / _fill for 0 ≤ rng ≤ 2^32-1: a value in
// [0, rng]. rng 0 draws nothing; 2^32-1 is one raw 32-bit word; otherwise
// Lemire's method on 32-bit words.
func (r *pcg64) bounded(rng uint32) uint32 {
	switch rng {
	case 0:
		return 0
	case 0xFFFFFFFF:
		return r.next32()
	}
	excl := rng + 1
	m := uint64(r.next32()) * uint64(excl)
	left := uint32(m)
	if left < excl {
		threshold := (0xFFFFFFFF - rng) % excl
		for left < threshold {
			m = uint64(r.next32()) * uint64(excl)
			left = uint32(m)
		}
	}
	return uint32(m >> 32)
}

// index is Generator.choice(a) for a population of n (1 ≤ n ≤ 2^32), uniform
// and with replacement: Generator.integers(0, n).
func (r *pcg64) index(n int) int { return int(r.bounded(uint32(n - 1))) }

// seed32 is Generator.integers(0, 2**32): a raw 32-bit word.
func (r *pcg64) seed32() uint64 { return uint64(r.bounded(0xFFFFFFFF)) }
