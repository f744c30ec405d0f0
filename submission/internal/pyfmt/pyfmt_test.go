package pyfmt

import (
	"math"
	"testing"
)

func TestPyRepr(t *testing.T) {
	// Expected strings are Python 3's repr() of the same floats. Products are
	// computed at run time (variables), as Python computes them; Go would fold
	// constant expressions exactly.
	tenth, fifth, ref := 0.1, 0.2, 38.7792
	tests := []struct {
		in   float64
		want string
	}{
		{60.698, "60.698"}, {61, "61.0"}, {1150.38, "1150.38"}, {tenth + fifth, "0.30000000000000004"},
		{1e16, "1e+16"}, {1.5e-5, "1.5e-05"}, {0.0001, "0.0001"}, {123456789012345.6, "123456789012345.6"},
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {-2.5, "-2.5"}, {math.Inf(1), "inf"}, {math.NaN(), "nan"},
		{ref * 0.99, "38.391408000000006"}, // the checker's rouge1 target, as Python prints it
	}
	for _, tc := range tests {
		if got := Float(tc.in); got != tc.want {
			t.Errorf("pyRepr(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
