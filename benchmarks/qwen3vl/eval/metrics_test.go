package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

func TestHierarchicalF1(t *testing.T) {
	type pair struct{ pred, truth string }
	tests := []struct {
		name  string
		pairs []pair
		want  float64
	}{
		// ∩=2, |pred|=3, |true|=3 → hP = hR = 2/3 → F1 = 2/3.
		{"last level wrong", []pair{{"A > B > C", "A > B > D"}}, 2.0 / 3},
		// Prefix stops at the first mismatch: ∩=1 (C matches but is past it) → 1/3.
		{"mismatch in the middle", []pair{{"A > X > C", "A > B > C"}}, 1.0 / 3},
		// Micro average: (∩2,p2,t3) + (∩0,p1,t1) → hP = 2/3, hR = 2/4;
		// F1 = 2·(1/3)/(7/6) = 4/7.
		{"micro over samples", []pair{{"A > B", "A > B > C"}, {"X", "A"}}, 4.0 / 7},
		// Levels are stripped: "A >  B " splits into "A", " B " → "A", "B".
		{"levels stripped", []pair{{"A >  B ", "A > B"}}, 1},
		// Python strip() also removes U+001C..U+001F and U+3000.
		{"python whitespace", []pair{{"\x1cA\u3000 > B", "A > B"}}, 1},
		// "" is one empty level: ∩0 → hP = hR = 0 → 0.
		{"empty prediction", []pair{{"", "A > B"}}, 0},
		// Case-sensitive; "A>B" is one level.
		{"case and separator", []pair{{"a > B", "A > B"}, {"A>B", "A > B"}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h hierCounts
			for _, p := range tc.pairs {
				h.add(p.pred, p.truth)
			}
			if got := h.f1(); math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("f1 = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSecondhandF1(t *testing.T) {
	type pair struct{ pred, truth bool }
	tests := []struct {
		name  string
		pairs []pair
		want  float64
	}{
		// TP=2 FP=1 FN=1 → 2·2/(2·2+1+1) = 2/3.
		{"mixed", []pair{{true, true}, {true, false}, {false, true}, {false, false}, {true, true}}, 2.0 / 3},
		// No positive anywhere: sklearn's zero_division → 0.
		{"all negative", []pair{{false, false}, {false, false}}, 0},
		{"all positive and right", []pair{{true, true}}, 1},
		// TP=0, FN=1 → 0/1.
		{"missed positive", []pair{{false, true}}, 0},
	}
	for _, tc := range tests {
		var b binCounts
		for _, p := range tc.pairs {
			b.add(p.pred, p.truth)
		}
		if got := b.f1(); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: f1 = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFuzzRatio(t *testing.T) {
	a19 := strings.Repeat("a", 19)
	tests := []struct {
		name string
		a, b string
		// want follows from ratio = (1 - (|a|+|b|-2·LCS)/(|a|+|b|))·100 over code points.
		want float64
	}{
		{"equal", "adidas", "adidas", 100},
		{"both empty", "", "", 100},
		{"one empty", "acme", "", 0},
		// LCS("adidas","adodas") = 5, 12 code points → dist 2.
		{"typo", "adidas", "adodas", indelRatio(2, 12)},
		// Deletion: LCS 13 of 14+13 → dist 1.
		{"deletion", "giorgio armani", "giorgio armni", indelRatio(1, 27)},
		// Exactly 90 (dist 2 of 20), which the reference does not count (> 90).
		{"boundary", "abcdefghij", "abcdefghik", 90},
		// An emoji is one code point: LCS 19 of 20+20 → 95. (Over UTF-8 bytes
		// it would be 1-5/43, over UTF-16 units 1-3/41.)
		{"emoji", a19 + "😀", a19 + "x", indelRatio(2, 40)},
		// é precomposed is one code point: LCS 5 of 6+6.
		{"accent", "nestlé", "nestle", indelRatio(2, 12)},
		// CJK: LCS("北京牌","北京") = 2 of 5 → dist 1.
		{"cjk", "北京牌", "北京", indelRatio(1, 5)},
		// Transposition costs two Indel operations each way: LCS("ab","ba") = 1.
		{"swap", "ab", "ba", 50},
	}
	var buf []int
	for _, tc := range tests {
		got := fuzzRatio(tc.a, tc.b, &buf)
		if got != tc.want {
			t.Errorf("%s: fuzzRatio(%q, %q) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
		if back := fuzzRatio(tc.b, tc.a, &buf); back != got {
			t.Errorf("%s: not symmetric: %v vs %v", tc.name, got, back)
		}
	}
}

// indelRatio evaluates rapidfuzz's formula at run time in float64, as
// rapidfuzz does ((1.0 - dist/lensum) * 100); a Go constant expression
// would be computed exactly and round differently.
func indelRatio(dist, lensum int) float64 {
	d, n := float64(dist), float64(lensum)
	return (1 - d/n) * 100
}

func TestBrandScore(t *testing.T) {
	tests := []struct {
		pred, truth string
		match       bool
	}{
		{"ADIDAS", "adidas", true},          // lower-cased
		{"  Acme\t", "\x1cAcme\x1f", true},  // Python strip on both
		{"adodas", "adidas", false},         // 83.3
		{"abcdefghik", "abcdefghij", false}, // exactly 90 is not > 90
		{"giorgio armni", "Giorgio Armani", true},
		// Python lowers İ to "i̇" (two code points): 1 - 1/17 → 94.1, still a match;
		{"istanbul", "İSTANBUL", true},
		// ΟΔΥΣΣΕΑΣ lowers to οδυσσεας (final ς); "οδυσσεασ" then differs in one
		// code point: LCS 7 of 16 → 87.5, no match.
		{"οδυσσεασ", "ΟΔΥΣΣΕΑΣ", false},
		{"οδυσσεας", "ΟΔΥΣΣΕΑΣ", true},
		{"", "", true}, // both empty score 100
	}
	for _, tc := range tests {
		var c brandCounts
		c.add(tc.pred, tc.truth)
		if got := c.match == 1; got != tc.match {
			t.Errorf("brand %q vs truth %q: match = %v, want %v", tc.pred, tc.truth, got, tc.match)
		}
	}
}

func TestPyFloatRepr(t *testing.T) {
	// Expected strings are Python 3's repr() of the same doubles.
	tests := []struct {
		x    float64
		want string
	}{
		{0.1, "0.1"},
		{1e-05, "1e-05"},
		{0.7903, "0.7903"},
		{1.0 / 3, "0.3333333333333333"},
		{2.0 / 3, "0.6666666666666666"},
		{1.0, "1.0"},
		{0.0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{100, "100.0"},
		{123456789.0, "123456789.0"},
		{1e15, "1000000000000000.0"},
		{1234567890123456.7, "1234567890123456.8"},
		{1e16, "1e+16"},
		{12345678901234567.0, "1.2345678901234568e+16"},
		{0.0001, "0.0001"},
		{1.5e-7, "1.5e-07"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{5e-324, "5e-324"},
		{Target(false), "0.782397"},
		{Target(true), "0.7799219999999999"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
	}
	for _, tc := range tests {
		if got := pyfloat.JSON(tc.x); got != tc.want {
			t.Errorf("pyfloat.JSON(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

func TestAccuracyTxt(t *testing.T) {
	// sha256("{\"f1\": 0.7903}") and sha256("[\n]\n"), from sha256sum.
	got, err := AccuracyTxt(0.7903, strings.NewReader("[\n]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Results\n\n{\"f1\": 0.7903}\n\nhash=" + sha256Hex(t, `{"f1": 0.7903}`) +
		"\nhash=" + sha256Hex(t, "[\n]\n") + "\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AccuracyTxt mismatch (-want +got):\n%s", diff)
	}
	if line := AccuracyLine(1e-05); line != `{"f1": 1e-05}` {
		t.Errorf("AccuracyLine(1e-05) = %s", line)
	}
}

func TestEvaluateSmall(t *testing.T) {
	truth := []Truth{
		{Category: "A > B", Brand: "Acme", IsSecondhand: true, Categories: []string{"A > B"}},
		{Category: "A > B > C", Brand: "Zed", IsSecondhand: false, Categories: []string{"A > B > C"}},
	}
	entries := []mllog.AccuracyEntry{
		{SeqID: 0, QSLIndex: 0, Data: []byte(`{"category": "A > B", "brand": "ACME", "is_secondhand": true}`)},
		{SeqID: 1, QSLIndex: 1, Data: []byte("```json\n{}\n```")},
	}
	res, err := Evaluate(entries, truth)
	if err != nil {
		t.Fatal(err)
	}
	// Valid: ∩2 p2 t2. Invalid → three pad levels: ∩0 p3 t3. hP = hR = 2/5 → 0.4.
	// Brand: 1 of 2 (the pad never matches "Zed"). The single-candidate random
	// categories are always right → 1.
	if math.Abs(res.CategoryF1-0.4) > 1e-15 || res.BrandScore != 0.5 || res.RandomCategoryF1 != 1 {
		t.Errorf("got CategoryF1 %v BrandScore %v RandomCategoryF1 %v, want 0.4 0.5 1", res.CategoryF1, res.BrandScore, res.RandomCategoryF1)
	}
	if res.Unparsable != 1 || res.Invalid[0].QSLIndex != 1 || res.Invalid[0].Entry != 1 {
		t.Errorf("Invalid = %+v, want one for entry 1 / qsl 1", res.Invalid)
	}
	if !res.Complete() || res.MeetsTarget() {
		t.Errorf("Complete %v MeetsTarget %v, want true false", res.Complete(), res.MeetsTarget())
	}
	for _, s := range []string{"FAIL", "0.4", "each logged once"} {
		if !strings.Contains(res.Summary(), s) {
			t.Errorf("Summary %q lacks %q", res.Summary(), s)
		}
	}
}

func TestEvaluateErrors(t *testing.T) {
	truth := []Truth{{Category: "A", Brand: "b", Categories: []string{"A"}}, {Category: "A", Brand: "b"}}
	ok := []byte(`{"category":"A","brand":"b","is_secondhand":false}`)
	tests := []struct {
		name    string
		entries []mllog.AccuracyEntry
		opts    Options
		wantSub string
	}{
		{"empty log", nil, DefaultOptions(), "no entries"},
		{"index outside", []mllog.AccuracyEntry{{SeqID: 9, QSLIndex: 2, Data: ok}}, DefaultOptions(), "log entry 0 (seq_id 9): qsl_idx 2 is outside the dataset of 2"},
		{"bad utf-8", []mllog.AccuracyEntry{{QSLIndex: 0, Data: []byte{'"', 0xff}}}, DefaultOptions(), "not valid UTF-8"},
		{"no candidates", []mllog.AccuracyEntry{{QSLIndex: 0, Data: ok}, {QSLIndex: 1, Data: ok}}, DefaultOptions(), "dataset sample 1 (log entry 1) has no potential_product_categories"},
		{"workers", []mllog.AccuracyEntry{{QSLIndex: 0, Data: ok}}, Options{Seed: 1}, "Workers = 0"},
	}
	for _, tc := range tests {
		_, err := tc.opts.Evaluate(tc.entries, truth)
		if err == nil || !strings.Contains(err.Error(), tc.wantSub) {
			t.Errorf("%s: error = %v, want it to contain %q", tc.name, err, tc.wantSub)
		}
	}
}
