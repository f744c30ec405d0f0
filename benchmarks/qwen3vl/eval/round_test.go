package eval

import (
	"runtime"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// TestRoundScorers: hand-made logs where the v6.0 evaluator and v6.1's
// shopify_category_f1 part, because v6.1 strips a category path whole
// before splitting it on " > ". Each log is the case plus one perfect
// answer; the want values are what each round's own Python printed for the
// same log (evaluation.py's category functions; endpoints' scoring.py
// functions run as ShopifyCategoryF1Scorer.score calls them).
func TestRoundScorers(t *testing.T) {
	resp := func(cat string) string {
		return `{"category": "` + cat + `", "brand": "b", "is_secondhand": false}`
	}
	for _, tc := range []struct {
		name, truth, response string
		v60, v61              float64
	}{
		// "A > B > " splits into A, B, "" (v6.0: 3 levels, 2 right) but
		// stripped into "A > B >", A and "B >" (v6.1: 2 levels, 1 right).
		{"trailing separator in the answer", "A > B", resp("A > B > "), 0.888888888888889, 0.75},
		// " > A": "", A (v6.0: 2 levels) against "> A" (v6.1: 1 level).
		{"leading separator in the answer", "A", resp(" > A"), 0.5714285714285715, 0.6666666666666666},
		{"trailing separator in the truth", "A > B > ", resp("A > B"), 0.888888888888889, 0.75},
		// The padding of an invalid answer has the truth's levels: 2 in
		// v6.0, 1 once " > X" is stripped to "> X".
		{"invalid answer, truth with a leading separator", " > X", "not json", 0.5, 0.6666666666666666},
		// Where the rounds agree: spaces around levels, or around the
		// whole answer, are stripped by both.
		{"spaces around levels only", " A >  B ", resp("A > B"), 1, 1},
		{"whitespace around the whole answer", "A > B", resp(`\u3000A > B\n`), 1, 1},
	} {
		truth := []Truth{
			{Category: tc.truth, Brand: "b", Categories: []string{tc.truth}},
			{Category: "C > D", Brand: "b", Categories: []string{"C > D"}},
		}
		entries := []mllog.AccuracyEntry{
			{QSLIndex: 0, Data: []byte(tc.response)},
			{SeqID: 1, QSLIndex: 1, Data: []byte(resp("C > D"))},
		}
		for _, r := range []struct {
			round string
			want  float64
		}{{round.V60, tc.v60}, {round.V61, tc.v61}, {"", tc.v61}} {
			res, err := Options{Seed: 1, Workers: 4, Round: r.round}.Evaluate(entries, truth)
			if err != nil {
				t.Fatalf("%s, round %q: %v", tc.name, r.round, err)
			}
			if res.CategoryF1 != r.want {
				t.Errorf("%s, round %q: CategoryF1 = %v, want %v", tc.name, r.round, res.CategoryF1, r.want)
			}
		}
	}
	if _, err := (Options{Seed: 1, Workers: 4, Round: "v5.1"}).Evaluate([]mllog.AccuracyEntry{{Data: []byte("{}")}}, []Truth{{Category: "A", Categories: []string{"A"}}}); err == nil || !strings.Contains(err.Error(), `round "v5.1"`) {
		t.Errorf("unknown round: error %v", err)
	}
}

// TestRoundV61OnFixture: endpoints' scorer, run on the reference fixture,
// printed the same category F1 as evaluation.py (0.5690923957481603): its
// padded categories only have spaces around levels, which both strip.
func TestRoundV61OnFixture(t *testing.T) {
	entries, truth, ref := loadFixture(t)
	res, err := Options{Seed: 12345, Workers: 4, Round: round.V61}.Evaluate(entries, truth)
	if err != nil {
		t.Fatal(err)
	}
	if want := ref.Rows[0][1].(float64); res.CategoryF1 != want || want != 0.5690923957481603 {
		t.Errorf("v6.1 CategoryF1 = %v, want %v (endpoints' output)", res.CategoryF1, want)
	}
}

// TestDefaultWorkers: the default is min(os.cpu_count(), 4) as Python counts
// CPUs: online CPUs, or PYTHON_CPU_COUNT.
func TestDefaultWorkers(t *testing.T) {
	for _, tc := range []struct {
		list string
		n    int
		ok   bool
	}{
		{"0-3\n", 4, true}, {"0", 1, true}, {"0-3,5,7-8", 7, true}, {"0,2-2", 2, true},
		{"", 0, false}, {"0-x", 0, false}, {"3-1", 0, false}, {"-1", 0, false},
	} {
		if n, ok := countCPUList(tc.list); n != tc.n || ok != tc.ok {
			t.Errorf("countCPUList(%q) = %d, %v; want %d, %v", tc.list, n, ok, tc.n, tc.ok)
		}
	}
	t.Setenv("PYTHON_CPU_COUNT", "3")
	if DefaultWorkers() != 3 || DefaultOptions().Workers != 3 {
		t.Errorf("PYTHON_CPU_COUNT=3: DefaultWorkers %d, DefaultOptions().Workers %d; want 3", DefaultWorkers(), DefaultOptions().Workers)
	}
	t.Setenv("PYTHON_CPU_COUNT", "64")
	if DefaultWorkers() != 4 {
		t.Errorf("PYTHON_CPU_COUNT=64: DefaultWorkers = %d, want 4 (_MAX_JOBS)", DefaultWorkers())
	}
	t.Setenv("PYTHON_CPU_COUNT", "default")
	if n := pyCPUCount(); n < runtime.NumCPU() {
		t.Errorf("pyCPUCount = %d, fewer than the %d CPUs this process may use", n, runtime.NumCPU())
	}
	if DefaultWorkers() != min(pyCPUCount(), 4) {
		t.Errorf("DefaultWorkers = %d, want min(%d, 4)", DefaultWorkers(), pyCPUCount())
	}
}

// TestWorkersChangeFills: the worker count cuts the log into the chunks
// that seed the random fills, so 2 and 4 workers fill invalid answers'
// is_secondhand differently: why the default must be the reference's.
func TestWorkersChangeFills(t *testing.T) {
	entries, truth, _ := loadFixture(t)
	r2, err := Options{Seed: 12345, Workers: 2, Round: round.V60}.Evaluate(entries, truth)
	if err != nil {
		t.Fatal(err)
	}
	r4, err := Options{Seed: 12345, Workers: 4, Round: round.V60}.Evaluate(entries, truth)
	if err != nil {
		t.Fatal(err)
	}
	if r2.IsSecondhandF1 == r4.IsSecondhandF1 && r2.RandomCategoryF1 == r4.RandomCategoryF1 {
		t.Errorf("2 and 4 workers gave the same random draws (is_secondhand F1 %v, random category F1 %v)", r2.IsSecondhandF1, r2.RandomCategoryF1)
	}
	if r2.CategoryF1 != r4.CategoryF1 {
		t.Errorf("the category F1 must not depend on workers: %v and %v", r2.CategoryF1, r4.CategoryF1)
	}
}

// FuzzCountCPUList: any text gives a count of at least one CPU or is refused.
func FuzzCountCPUList(f *testing.F) {
	for _, s := range []string{"0-3\n", "0,2-5", "", "1-", "9-3", "0-9999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := countCPUList(s); ok && n < 1 {
			t.Fatalf("countCPUList(%q) = %d, ok", s, n)
		}
	})
}
