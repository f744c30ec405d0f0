package tokencheck

import (
	"slices"
	"testing"
)

// TestOutputChecks: the three warnings, in order, with the benchmark's
// texts after the counts; the EOS ID named only when there is one.
func TestOutputChecks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		eos     []int32
		eosWarn string
	}{
		{[]int32{2}, "1 samples end with two or more EOS tokens (2); TEST06's EOS check fails on such output"},
		{[]int32{2, 3}, "1 samples end with two or more EOS tokens; TEST06's EOS check fails on such output"},
	} {
		c := OutputChecks{MaxTokens: 3, EOS: tc.eos, OverMax: " (the cap)", Empty: "; why not"}
		for _, toks := range [][]int32{{5, 6, 7, 8}, {5, 2, 2}, {5, 2}, {}} {
			c.Sample(toks)
		}
		r := Report{Output: Stats{Empty: 2}}
		c.Warn(&r)
		want := []string{"1 samples have more than 3 output tokens (the cap)", "2 samples have an empty output; why not", tc.eosWarn}
		if !slices.Equal(r.Warnings, want) {
			t.Errorf("EOS %v: warnings %q, want %q", tc.eos, r.Warnings, want)
		}
	}
	var clean OutputChecks
	r := Report{}
	clean.Warn(&r)
	if len(r.Warnings) != 0 {
		t.Errorf("nothing counted, warnings %q", r.Warnings)
	}
}
