package tokencheck

import "testing"

// TestEndsWithRepeatedEOS replays run_verification.py's eos_check on
// single samples: index 0 is never looked at, one trailing EOS passes.
func TestEndsWithRepeatedEOS(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		toks []int32
		want bool
	}{
		{nil, false}, {[]int32{2}, false}, {[]int32{2, 2}, false}, {[]int32{5, 2}, false},
		{[]int32{5, 2, 2}, true}, {[]int32{2, 2, 2}, true}, {[]int32{5, 2, 2, 7}, false}, {[]int32{5, 7, 2}, false},
	} {
		if got := EndsWithRepeatedEOS(tc.toks, 2); got != tc.want {
			t.Errorf("EndsWithRepeatedEOS(%v, 2) = %v, want %v", tc.toks, got, tc.want)
		}
	}
}

// TestEndsWithRepeatedEOSSet: with several end-of-sequence IDs (Llama
// 3.1's), any of them counts, mixed or not.
func TestEndsWithRepeatedEOSSet(t *testing.T) {
	t.Parallel()
	eos := []int32{7, 8}
	for _, tc := range []struct {
		toks []int32
		want bool
	}{
		{[]int32{5, 7, 8}, true}, {[]int32{5, 8, 8}, true}, {[]int32{5, 7}, false},
		{[]int32{7, 8}, false}, {[]int32{5, 7, 2}, false}, {[]int32{5, 2, 2}, false},
	} {
		if got := EndsWithRepeatedEOS(tc.toks, eos...); got != tc.want {
			t.Errorf("EndsWithRepeatedEOS(%v, %v) = %v, want %v", tc.toks, eos, got, tc.want)
		}
	}
}
