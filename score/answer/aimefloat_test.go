package answer

import "testing"

// TestEvaluateAIMEFloat: a float ground truth is int()ed as CPython does,
// truncating toward zero (int(42.9) == 42, int(-0.5) == 0); an infinity is
// the OverflowError that stops the reference.
func TestEvaluateAIMEFloat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		parsed int
		gt     string
		want   bool
	}{{42, "42.0", true}, {42, "42.9", true}, {43, "42.9", false}, {0, "-0.5", true}, {-1, "-1.5", true},
		{100000000000000000, "1e+17", true}, {7, "7.000000000000001", true}} {
		got, err := EvaluateAIMEFloat(c.parsed, c.gt)
		if err != nil || got != c.want {
			t.Errorf("EvaluateAIMEFloat(%d, %q) = %v, %v; want %v", c.parsed, c.gt, got, err, c.want)
		}
	}
	if _, err := EvaluateAIMEFloat(1, "inf"); err == nil {
		t.Error("int(inf) raises OverflowError; EvaluateAIMEFloat returned no error")
	}
}
