package bench

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

// TestDistMatchesNumpy: Percentile and the median are numpy's to the bit
// (testdata/percentiles.json, written by numpy itself with
// testdata/gen_percentiles.py); the mean and std agree to 1e-12 relative
// (numpy sums pairwise).
func TestDistMatchesNumpy(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/percentiles.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Numpy string
		Cases []struct {
			Values            []float64
			Mean, Median, Std float64
			Percentiles       map[string]float64
		}
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	for i, c := range g.Cases {
		sorted := slices.Clone(c.Values)
		slices.Sort(sorted)
		for k, want := range c.Percentiles {
			p, _ := strconv.ParseFloat(k, 64)
			if got := Percentile(sorted, p); got != want {
				t.Errorf("case %d: p%s = %v, numpy %s says %v", i, k, got, g.Numpy, want)
			}
		}
		d := summarize(slices.Clone(c.Values), []float64{99})
		if d.Median != c.Median {
			t.Errorf("case %d: median %v, numpy %v", i, d.Median, c.Median)
		}
		for _, x := range [][2]float64{{d.Mean, c.Mean}, {d.Std, c.Std}} {
			if math.Abs(x[0]-x[1]) > 1e-12*math.Max(1, math.Abs(x[1])) {
				t.Errorf("case %d: %v, numpy %v", i, x[0], x[1])
			}
		}
	}
}
