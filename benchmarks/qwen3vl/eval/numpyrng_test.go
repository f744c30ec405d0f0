package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The expected values in this file were printed by NumPy 2.4.6
// (numpy.random.SeedSequence / default_rng), the library the reference
// evaluator uses; they are not outputs of this package.

func TestSeedSequenceMatchesNumPy(t *testing.T) {
	tests := []struct {
		seed uint64
		want []uint32
	}{
		// np.random.SeedSequence(12345).generate_state(8)
		{12345, []uint32{0xa03d837c, 0xb5ae6482, 0xfa1f7a2f, 0xbbe2996f, 0x37158f94, 0x64e39a9f, 0xa013fd73, 0x3ebb0f96}},
		// np.random.SeedSequence(2**40+5).generate_state(8): two entropy words.
		{1<<40 + 5, []uint32{0xe08a170b, 0xdae41755, 0x7ecdcb2c, 0x8415abe8, 0x4b9118d0, 0x2525c5b4, 0x3392bed3, 0x42c2793f}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, seedSequenceState(tc.seed, 8)); diff != "" {
			t.Errorf("seedSequenceState(%d) mismatch (-numpy +got):\n%s", tc.seed, diff)
		}
	}
}

func TestPCG64MatchesNumPy(t *testing.T) {
	// default_rng(12345).bit_generator.random_raw(3)
	r := newNumpyRNG(12345)
	want := []uint64{0x3a32b18db2ffc19d, 0x51171315c9e4c4de, 0xcc2024823444efd9}
	var got []uint64
	for range want {
		got = append(got, r.next64())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("random_raw mismatch (-numpy +got):\n%s", diff)
	}

	seeds := func(seed uint64, n int) []uint64 {
		r := newNumpyRNG(seed)
		var out []uint64
		for range n {
			out = append(out, r.seed32())
		}
		return out
	}
	// default_rng(12345).integers(0, 2**32, size=5), as the reference draws chunk seeds.
	if diff := cmp.Diff([]uint64{3003105693, 976400781, 3387213022, 1360466709, 876933081}, seeds(12345, 5)); diff != "" {
		t.Errorf("integers(0, 2**32) seed 12345 mismatch (-numpy +got):\n%s", diff)
	}
	if diff := cmp.Diff([]uint64{3653403231, 2735729615, 2195314465}, seeds(0, 3)); diff != "" {
		t.Errorf("integers(0, 2**32) seed 0 mismatch (-numpy +got):\n%s", diff)
	}
}

func TestChoiceMatchesNumPy(t *testing.T) {
	// r = default_rng(99); r.integers(0,3,size=10), r.integers(0,1,size=3),
	// r.integers(0, 2**31+5, size=4)
	r := newNumpyRNG(99)
	var got []int
	for range 10 {
		got = append(got, r.index(3))
	}
	for range 3 {
		got = append(got, r.index(1))
	}
	for range 4 {
		got = append(got, r.index(1<<31+5))
	}
	want := []int{2, 1, 2, 1, 0, 1, 2, 2, 2, 1, 0, 0, 0, 673642110, 1220379521, 1395730116, 615869798}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("integers mismatch (-numpy +got):\n%s", diff)
	}

	// The reference's per-sample call sequence for an unparsable response:
	// r = default_rng(3456789012)
	// [r.choice([True,False],size=1).tolist()[0], r.choice(['a','b','c']),
	//  r.choice(['only']), r.choice([True,False]), r.choice(['x0'..'x6']),
	//  r.choice([True,False])] == [True, 'b', 'only', True, 'x3', False]
	r = newNumpyRNG(3456789012)
	tf := []bool{true, false}
	abc := []string{"a", "b", "c"}
	x := []string{"x0", "x1", "x2", "x3", "x4", "x5", "x6"}
	type draw struct {
		B1 bool
		S1 string
		S2 string
		B2 bool
		S3 string
		B3 bool
	}
	gotDraw := draw{tf[r.index(2)], abc[r.index(3)], []string{"only"}[r.index(1)], tf[r.index(2)], x[r.index(7)], tf[r.index(2)]}
	if diff := cmp.Diff(draw{true, "b", "only", true, "x3", false}, gotDraw); diff != "" {
		t.Errorf("choice sequence mismatch (-numpy +got):\n%s", diff)
	}
}
