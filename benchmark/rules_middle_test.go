package benchmark

import "testing"

func TestBoundsMiddle(t *testing.T) {
	r := &Rules{
		Accuracy: map[string][]Bound{"": {{Metric: "ROUGE1", Value: 40}, {Metric: "GEN_LEN", Value: 90}}},
		Upper:    []Bound{{Metric: "GEN_LEN", Value: 110}},
	}
	if got := r.BoundsMiddle("GEN_LEN"); got != 100 {
		t.Errorf("GEN_LEN middle = %v, want 100", got)
	}
	if got := r.BoundsMiddle("ROUGE1"); got != 0 {
		t.Errorf("ROUGE1, with no upper bound: %v, want 0", got)
	}
}
