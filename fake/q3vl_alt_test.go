package fake

import "testing"

// TestAltUserTexts: a sample's other user texts (round v6.1's) get the very
// answer its UserText gets, right or wrong.
func TestAltUserTexts(t *testing.T) {
	truths := []Q3VLTruth{
		{UserText: "a60", AltUserTexts: []string{"a61"}, Category: "A > B", Brand: "x", Categories: []string{"A > B", "C"}},
		{UserText: "b60", AltUserTexts: []string{"b61"}, Category: "C", Brand: "y", Categories: []string{"A > B", "C"}},
	}
	for _, acc := range []float64{0, 1} {
		m := buildQ3VL(truths, acc, 3)
		for _, k := range [][2]string{{"a60", "a61"}, {"b60", "b61"}} {
			if m[k[0]] == nil || m[k[0]] != m[k[1]] || m[k[0]].correct != (acc == 1) {
				t.Errorf("accuracy %v: answers for %q and %q differ or are wrong: %+v %+v", acc, k[0], k[1], m[k[0]], m[k[1]])
			}
		}
	}
}
