package mmlu

import (
	"slices"
	"strings"
	"testing"
)

func questions(sizes map[string]int) []Question {
	var qs []Question
	for _, s := range Subjects() {
		for range sizes[s] {
			qs = append(qs, Question{Subject: s, Index: len(qs)})
		}
	}
	return qs
}

func countBySubject(qs []Question) map[string]int {
	m := map[string]int{}
	for _, q := range qs {
		m[q.Subject]++
	}
	return m
}

// TestSubsetIsStratified: each subject gets its share of the subset
// (largest remainders for what is left over), the draw is the seed's, and
// the questions keep their order.
func TestSubsetIsStratified(t *testing.T) {
	t.Parallel()
	qs := questions(map[string]int{"anatomy": 50, "virology": 30, "sociology": 20})
	for _, c := range []struct {
		n    int
		want map[string]int
	}{
		{10, map[string]int{"anatomy": 5, "virology": 3, "sociology": 2}},
		// shares 3.5, 2.1, 1.4: floors 3+2+1, the one left to anatomy (.5)
		{7, map[string]int{"anatomy": 4, "virology": 2, "sociology": 1}},
		// shares 0.5, 0.3, 0.2: anatomy's remainder is the largest
		{1, map[string]int{"anatomy": 1}},
		// shares 1, 0.6, 0.4: virology's .6 beats sociology's .4
		{2, map[string]int{"anatomy": 1, "virology": 1}},
	} {
		got := Subset(qs, c.n, 1)
		if len(got) != c.n {
			t.Errorf("Subset(%d) has %d questions", c.n, len(got))
		}
		for s, n := range countBySubject(got) {
			if c.want[s] != n {
				t.Errorf("Subset(%d): %d of %s, want %d", c.n, n, s, c.want[s])
			}
		}
		if !slices.IsSortedFunc(got, func(a, b Question) int { return a.Index - b.Index }) {
			t.Errorf("Subset(%d) is out of order", c.n)
		}
	}
	// Remainders tie: the subject that sorts first gets the question.
	if got := countBySubject(Subset(questions(map[string]int{"virology": 10, "anatomy": 10}), 1, 0)); got["anatomy"] != 1 {
		t.Errorf("a tie went to %v, want anatomy", got)
	}
	ids := func(qs []Question) string {
		var b strings.Builder
		for _, q := range qs {
			b.WriteString(string(rune('0' + q.Index%10)))
		}
		return b.String()
	}
	a, b, c := Subset(qs, 10, 7), Subset(qs, 10, 7), Subset(qs, 10, 8)
	if ids(a) != ids(b) {
		t.Errorf("the same seed drew %s and %s", ids(a), ids(b))
	}
	if slices.EqualFunc(a, c, func(x, y Question) bool { return x.Index == y.Index }) {
		t.Errorf("seeds 7 and 8 drew the same questions")
	}
	if len(Subset(qs, 0, 1)) != 100 || len(Subset(qs, 100, 1)) != 100 || len(Subset(qs, 1000, 1)) != 100 {
		t.Errorf("a subset of 0 or at least all questions is not all of them")
	}
}

func TestFilter(t *testing.T) {
	t.Parallel()
	qs := questions(map[string]int{"anatomy": 2, "virology": 3})
	got, err := Filter(qs, []string{"virology"})
	if err != nil || len(got) != 3 || got[0].Subject != "virology" {
		t.Errorf("Filter(virology) = %v, %v", got, err)
	}
	if _, err := Filter(qs, []string{"astrology"}); err == nil || !strings.Contains(err.Error(), "not one of MMLU's 57") {
		t.Errorf("Filter(astrology): %v", err)
	}
	if _, err := Filter(qs, []string{"sociology"}); err == nil || !strings.Contains(err.Error(), "no question") {
		t.Errorf("Filter(sociology): %v", err)
	}
}
