package openaichat

import (
	"math"
	"testing"
)

// TestMsgspecFloat: msgspec.json.encode (0.20.0) of each value.
func TestMsgspecFloat(t *testing.T) {
	t.Parallel()
	tenth, fifth := 0.1, 0.2 // variables: constants would add exactly
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {0.7, "0.7"}, {1e-7, "1e-7"},
		{1e16, "1e16"}, {1e17, "1e17"}, {123456789012345678, "1.2345678901234568e17"},
		{1.5e300, "1.5e300"}, {tenth + fifth, "0.30000000000000004"}, {1e22, "1e22"},
		{5e-324, "5e-324"}, {1e-5, "0.00001"}, {1e-4, "0.0001"}, {1e-6, "1e-6"},
		{1.5e-6, "1.5e-6"}, {123, "123.0"}, {1e15, "1000000000000000.0"},
		{9.99e15, "9990000000000000.0"}, {2.5e20, "2.5e20"}, {1.25e-7, "1.25e-7"}, {-2.5, "-2.5"},
		{math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"},
	} {
		if got := string(AppendMsgspecFloat(nil, tc.in)); got != tc.want {
			t.Errorf("AppendMsgspecFloat(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
