package qwen3vl

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/eval"
)

// TestProductJSON pins the answer text: json.dumps separators, non-ASCII
// and HTML characters kept, quotes escaped.
func TestProductJSON(t *testing.T) {
	got := productJSON(`Polo "Navy" – Größe M & <co>`, "giorgio armani", true)
	want := `{"category": "Polo \"Navy\" – Größe M & <co>", "brand": "giorgio armani", "is_secondhand": true}`
	if got != want {
		t.Errorf("productJSON = %s, want %s", got, want)
	}
	if fakeDefaultAnswer != `{"category": "Uncategorized", "brand": "unbranded", "is_secondhand": false}` {
		t.Errorf("default answer %s", fakeDefaultAnswer)
	}
}

type product struct {
	Category     string `json:"category"`
	Brand        string `json:"brand"`
	IsSecondhand bool   `json:"is_secondhand"`
}

// TestFakeAnswerRightAndWrong: the right answer is the ground truth, and a
// wrong answer, one per other potential category (a deeper level of the
// true one when there is none), keeps no true field, so the evaluator
// scores it wrong on every field.
func TestFakeAnswerRightAndWrong(t *testing.T) {
	for i, tr := range []eval.Truth{
		{Category: "A > B", Brand: "x", Categories: []string{"A > B", "A > C", "D"}},
		{Category: "A > B", Brand: " ", IsSecondhand: true, Categories: []string{"A > B"}},
		{Category: "E", Brand: "Acme", Categories: nil},
	} {
		a := fakeAnswer(tr, fmt.Sprintf("key %d", i), "alt")
		if !cmp.Equal(a.Keys, []string{fmt.Sprintf("key %d", i), "alt"}) {
			t.Errorf("keys %q", a.Keys)
		}
		var right product
		if err := json.Unmarshal([]byte(a.Right), &right); err != nil || right != (product{tr.Category, tr.Brand, tr.IsSecondhand}) {
			t.Errorf("right answer %s (%v) is not the truth %+v", a.Right, err, tr)
		}
		others := max(len(tr.Categories)-1, 1)
		if len(a.Wrongs) != others {
			t.Errorf("%d wrong answers for %+v, want %d", len(a.Wrongs), tr, others)
		}
		for _, w := range a.Wrongs {
			var p product
			if err := json.Unmarshal([]byte(w), &p); err != nil {
				t.Fatalf("wrong answer %q is not JSON: %v", w, err)
			}
			if p.Category == tr.Category || p.Brand == tr.Brand || p.IsSecondhand == tr.IsSecondhand {
				t.Errorf("wrong answer %s keeps a true field of %+v", w, tr)
			}
		}
	}
}
