package eval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// The fixture in testdata/ was made by gen_fixture.py (300 synthetic samples
// with Unicode brands, stripped/padded categories, invalid responses of many
// kinds, 2 missing and 2 duplicated samples); reference_output.json holds what
// the reference evaluation.py itself printed for it (run_reference.py, with
// numpy 2.4.6, rapidfuzz 3.14.6, scikit-learn 1.9.1, pydantic 2.14.3,
// os.cpu_count() = 4, seed 12345).

type referenceOutput struct {
	Rows           [][]any `json:"rows"`
	Table          string  `json:"table"`
	UnparsableLine string  `json:"unparsable_line"`
	AccuracyTxt    string  `json:"accuracy_txt"`
}

func loadFixture(t testing.TB) ([]mllog.AccuracyEntry, []Truth, referenceOutput) {
	t.Helper()
	var rows []struct {
		Category     string   `json:"ground_truth_category"`
		Brand        string   `json:"ground_truth_brand"`
		IsSecondhand bool     `json:"ground_truth_is_secondhand"`
		Categories   []string `json:"potential_product_categories"`
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "dataset.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	truth := make([]Truth, len(rows))
	for i, r := range rows {
		truth[i] = Truth{Category: r.Category, Brand: r.Brand, IsSecondhand: r.IsSecondhand, Categories: r.Categories}
	}
	entries, err := mllog.ReadAccuracy(filepath.Join("testdata", "mlperf_log_accuracy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceOutput
	raw, err = os.ReadFile(filepath.Join("testdata", "reference_output.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	return entries, truth, ref
}

func TestEvaluateMatchesReference(t *testing.T) {
	entries, truth, ref := loadFixture(t)
	// As the reference ran: 4 CPUs, its own (v6.0) evaluator.
	res, err := Options{Seed: 12345, Workers: 4, Round: round.V60}.Evaluate(entries, truth)
	if err != nil {
		t.Fatal(err)
	}
	num := func(r, c int) float64 { return ref.Rows[r][c].(float64) }
	type metrics struct {
		CategoryF1, BrandScore, IsSecondhandF1 float64
		RandomCategoryF1, RandomIsSecondhandF1 float64
	}
	// Exact float equality: every operation is reproduced in the same order.
	want := metrics{num(0, 1), num(0, 2), num(0, 3), num(1, 1), num(1, 3)}
	got := metrics{res.CategoryF1, res.BrandScore, res.IsSecondhandF1, res.RandomCategoryF1, res.RandomIsSecondhandF1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metrics differ from the reference (-reference +got):\n%s", diff)
	}
	// The random brand row cannot match: the reference draws from
	// list(set(brands)), ordered by Python's per-process string hashes.
	if res.RandomBrandScore < 0 || res.RandomBrandScore > 1 {
		t.Errorf("RandomBrandScore = %v, want within [0, 1]", res.RandomBrandScore)
	}
	if got, want := res.Table()[:len(ref.UnparsableLine)], ref.UnparsableLine; got != want {
		t.Errorf("unparsable line = %q, want %q", got, want)
	}
	if res.Unparsable != len(res.Invalid) {
		t.Errorf("Unparsable = %d but %d Invalid listed", res.Unparsable, len(res.Invalid))
	}
	cov := struct {
		Samples, DatasetSize int
		Missing, Duplicated  []int
	}{res.Samples, res.DatasetSize, res.Missing, res.Duplicated}
	wantCov := struct {
		Samples, DatasetSize int
		Missing, Duplicated  []int
	}{301, 300, []int{5, 17}, []int{42, 99}}
	if diff := cmp.Diff(wantCov, cov); diff != "" {
		t.Errorf("coverage mismatch (-want +got):\n%s", diff)
	}
	txt, err := AccuracyTxt(res.CategoryF1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ref.AccuracyTxt, txt); diff != "" {
		t.Errorf("accuracy.txt differs from the reference's (-reference +got):\n%s", diff)
	}
}

// TestTableMatchesReference renders the reference's own numbers and compares
// with tabulate's fancy_grid output.
func TestTableMatchesReference(t *testing.T) {
	_, _, ref := loadFixture(t)
	num := func(r, c int) float64 { return ref.Rows[r][c].(float64) }
	res := Result{
		Unparsable: 35,
		CategoryF1: num(0, 1), BrandScore: num(0, 2), IsSecondhandF1: num(0, 3),
		RandomCategoryF1: num(1, 1), RandomBrandScore: num(1, 2), RandomIsSecondhandF1: num(1, 3),
	}
	if diff := cmp.Diff(ref.UnparsableLine+"\n"+ref.Table, res.Table()); diff != "" {
		t.Errorf("Table differs from the reference (-reference +got):\n%s", diff)
	}
}

func BenchmarkEvaluate48k(b *testing.B) {
	entries, truth, _ := loadFixture(b)
	// Scale the fixture to a full qwen3-vl log: 48,289 entries over 300 samples.
	big := make([]mllog.AccuracyEntry, 48289)
	for i := range big {
		big[i] = entries[i%len(entries)]
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(big, truth); err != nil {
			b.Fatal(err)
		}
	}
}
