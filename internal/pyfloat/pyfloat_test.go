package pyfloat

import (
	"math"
	"strconv"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
)

// lcgValues is gen_golden.py's lcg_values: exact int ratios in [0, 1].
func lcgValues(seed uint64, n int) []float64 {
	state := seed
	out := make([]float64, n)
	for i := range out {
		state = state*6364136223846793005 + 1442695040888963407
		p, q := (state>>33)%1001, (state>>13)%1000+1
		out[i] = float64(min(p, q)) / float64(q)
	}
	return out
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestMeanGolden checks np.mean's summation quirk: pairwise sums over
// 8192-element blocks, bit for bit, for sizes around every boundary.
func TestMeanGolden(t *testing.T) {
	t.Parallel()
	type row struct {
		Seed     uint64
		N        int
		Sum      string
		NaiveSum string `json:"naive_sum"`
		Mean     string
		Round4   string
	}
	differs := 0
	golden.JSONL(t, "testdata/mean.jsonl.gz", func(n int, r row) {
		xs := lcgValues(r.Seed, r.N)
		naive := 0.0
		for _, x := range xs {
			naive += x
		}
		if got := Repr(naive); got != r.NaiveSum {
			t.Errorf("line %d: naive sum %s, Python sum() %s", n, got, r.NaiveSum)
		}
		if naive != parse(t, r.Sum) {
			differs++
		}
		if got, want := Sum(xs), parse(t, r.Sum); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("line %d (n=%d): Sum %s, numpy %s", n, r.N, Repr(got), r.Sum)
		}
		m := Mean(xs)
		if got := Repr(m); got != r.Mean {
			t.Errorf("line %d (n=%d): Mean %s, numpy %s", n, r.N, got, r.Mean)
		}
		if got := Repr(RoundNumpy(float64(m*100), 4)); got != r.Round4 {
			t.Errorf("line %d (n=%d): round(mean*100, 4) %s, numpy %s", n, r.N, got, r.Round4)
		}
	})
	if differs == 0 {
		t.Error("no golden case where the naive sum differs from numpy's: the quirk is untested")
	}
}

// TestRoundGolden checks round() on a numpy float64 (np.round's
// scale-rint-unscale), Python's round on a float, and repr.
func TestRoundGolden(t *testing.T) {
	t.Parallel()
	type row struct {
		X         string
		Numpy4    string
		StrNumpy4 string `json:"str_numpy4"`
		Python1   string
		Python4   string
	}
	differ := 0
	golden.JSONL(t, "testdata/round.jsonl.gz", func(n int, r row) {
		x := parse(t, r.X)
		if got := Repr(x); got != r.X {
			t.Errorf("line %d: Repr %s, Python %s", n, got, r.X)
		}
		np4 := RoundNumpy(x, 4)
		if got := Repr(np4); got != r.Numpy4 || got != r.StrNumpy4 {
			t.Errorf("line %d: RoundNumpy(%s, 4) = %s, numpy %s (str %s)", n, r.X, got, r.Numpy4, r.StrNumpy4)
		}
		if got := Repr(Round(x, 1)); got != r.Python1 {
			t.Errorf("line %d: Round(%s, 1) = %s, Python %s", n, r.X, got, r.Python1)
		}
		if got := Repr(Round(x, 4)); got != r.Python4 {
			t.Errorf("line %d: Round(%s, 4) = %s, Python %s", n, r.X, got, r.Python4)
		}
		if r.Numpy4 != r.Python4 {
			differ++
		}
	})
	if differ == 0 {
		t.Error("no golden case where numpy's round differs from Python's: the quirk is untested")
	}
	t.Logf("%d cases where round(np.float64(x), 4) != round(x, 4)", differ)
}

func TestMeanEmptyIsNaN(t *testing.T) {
	t.Parallel()
	if m := Mean(nil); !math.IsNaN(m) || Repr(m) != "nan" {
		t.Errorf("Mean(nil) = %v (%s), want nan as np.mean([]) gives", m, Repr(m))
	}
}

// TestJSON: json.dumps's spellings of the non-finite floats, Repr's digits
// otherwise.
func TestJSON(t *testing.T) {
	t.Parallel()
	for x, want := range map[float64]string{math.NaN(): "NaN", math.Inf(1): "Infinity", math.Inf(-1): "-Infinity", 0.7903: "0.7903", 1e-05: "1e-05", 1e16: "1e+16", 2: "2.0"} {
		if got := JSON(x); got != want {
			t.Errorf("JSON(%v) = %q, want %q", x, got, want)
		}
	}
}
