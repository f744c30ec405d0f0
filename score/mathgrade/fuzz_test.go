package mathgrade

import "testing"

// FuzzDecide checks that the normalisers never panic and that an answer
// always grades right against itself (normalize_answer is deterministic).
func FuzzDecide(f *testing.F) {
	for _, s := range []string{"5", `\frac{1}{2}`, `\sqrt`, `\frac1`, "(1,2)", `\text{ a}\text{ b}`,
		"1,000", "7 3/4", "90^\\circ", "2 million", "\u0130", "k = 5", ".5"} {
		f.Add(s, "5")
	}
	f.Fuzz(func(t *testing.T, given, gt string) {
		NormalizeAnswer(given)
		normalize(given)
		Decide(given, gt)
		if v := Decide(gt, gt); v != Right {
			t.Fatalf("Decide(%q, itself) = %v", gt, v)
		}
	})
}
