package benchmark_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/download/downloadtest"
)

// TestDownloadPins: every benchmark and variant pins its dataset and its
// tokenizer for v6.1, or for v6.0 where it is a v6.0 benchmark only
// (llama2-70b-99) (the variants that share a dataset share the pin);
// qwen3-vl's Interactive set exists from v6.1 only.
func TestDownloadPins(t *testing.T) {
	datasets := map[string]string{}
	// noTokenizer are benchmarks whose evaluator reads no tokens:
	// qwen3.6-27b's compares parsed tool calls (endpoints' BFCLv4Scorer).
	noTokenizer := map[string]bool{"qwen3.6-27b": true}
	for _, name := range Names() {
		b, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		round := "v6.1"
		if b.Submission.Rounds[round] == nil {
			round = "v6.0"
		}
		pins, err := b.DownloadPins(round)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		roles := map[string]download.Pin{}
		for _, p := range pins {
			if err := p.Validate(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			roles[p.Role] = p
		}
		if _, ok := roles[download.RoleDataset]; !ok {
			t.Errorf("%s pins no dataset", name)
		}
		tok, ok := roles[download.RoleTokenizer]
		switch {
		case noTokenizer[name] && ok:
			t.Errorf("%s pins a tokenizer now: drop it from noTokenizer", name)
		case !noTokenizer[name] && (!ok || tok.HF == nil || tok.HF.Type != download.Model):
			t.Errorf("%s pins no tokenizer from its model repository", name)
		}
		datasets[name] = roles[download.RoleDataset].Source()
	}
	if want := "pypi bfcl-eval==2026.3.23 bfcl_eval-2026.3.23-py3-none-any.whl"; datasets["qwen3.6-27b"] != want {
		t.Errorf("qwen3.6-27b's dataset is %q, want %q", datasets["qwen3.6-27b"], want)
	}
	same := func(a, b string) bool { return datasets[a] == datasets[b] }
	if !same("llama3_1-8b", "llama3_1-8b-interactive") || same("llama3_1-8b", "llama3_1-8b-edge") ||
		!same("gpt-oss-120b", "gpt-oss-120b-interactive") || same("qwen3-vl-235b-a22b", "qwen3-vl-235b-a22b-interactive") ||
		!same("llama2-70b", "llama2-70b-99") || !same("llama2-70b", "llama2-70b-interactive-99") || !same("deepseek-r1", "deepseek-r1-interactive") {
		t.Errorf("dataset sources %v", datasets)
	}
	q, _ := Lookup("qwen3-vl-235b-a22b-interactive")
	if _, err := q.DownloadPins("v6.0"); err == nil || !strings.Contains(err.Error(), "use --round v6.1") {
		t.Errorf("qwen3-vl Interactive v6.0: %v", err)
	}
	l, _ := Lookup("llama2-70b-99")
	if _, err := l.DownloadPins("v6.1"); err == nil || !strings.Contains(err.Error(), "use --round v6.0") {
		t.Errorf("llama2-70b-99 v6.1: %v", err)
	}
}

func datasetPin(t *testing.T, b Benchmark) download.Pin {
	t.Helper()
	pins, err := b.DownloadPins("v6.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pins {
		if p.Role == download.RoleDataset {
			return p
		}
	}
	t.Fatalf("%s pins no dataset", b.Name)
	return download.Pin{}
}

// TestOpenDownloadFolder: a download folder given as the dataset opens the
// files its dataset pin names (llama3.1-8b's cnn_eval.json, gpt-oss's
// performance parquet); another variant's folder, an incomplete one and
// one without a dataset are refused with the command that fixes it.
func TestOpenDownloadFolder(t *testing.T) {
	for _, tc := range []struct {
		name, other string
		file        string
	}{
		{"llama3_1-8b", "llama3_1-8b-edge", "dataset/cnn_eval.json"},
		{"llama3_1-8b-edge", "llama3_1-8b", "dataset/sample_cnn_eval_5000.json"},
		{"gpt-oss-120b", "qwen3-vl-235b-a22b", "dataset/perf/perf_eval_ref.parquet"},
	} {
		b, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		synth := t.TempDir()
		paths, err := b.Data.Synth(synth, 9, 1)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		downloadtest.WriteFolder(t, dir, datasetPin(t, b), map[string][]byte{tc.file: data})
		d, err := b.OpenDataset([]string{dir}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if d.Len() != 9 {
			t.Errorf("%s: %d samples, want 9", tc.name, d.Len())
		}
		d.Close()
		other, _ := Lookup(tc.other)
		if _, err := other.OpenDataset([]string{dir}, nil); err == nil || !strings.Contains(err.Error(), "mlperf-go dataset download -b "+tc.other) {
			t.Errorf("%s's folder opened as %s: %v", tc.name, tc.other, err)
		}
		os.Remove(filepath.Join(dir, filepath.FromSlash(tc.file)))
		if _, err := b.OpenDataset([]string{dir}, nil); err == nil || !strings.Contains(err.Error(), "incomplete") {
			t.Errorf("%s incomplete: %v", tc.name, err)
		}
	}
	// gpt-oss-120b's accuracy set is another file of the same download.
	g, _ := Lookup("gpt-oss-120b")
	gdir := t.TempDir()
	perf, _ := g.Data.Synth(t.TempDir(), 5, 1)
	acc, _ := g.Data.Synth(t.TempDir(), 3, 2)
	perfData, _ := os.ReadFile(perf[0])
	accData, _ := os.ReadFile(acc[0])
	downloadtest.WriteFolder(t, gdir, datasetPin(t, g), map[string][]byte{"dataset/perf/perf_eval_ref.parquet": perfData, "dataset/acc/acc_eval_ref.parquet": accData})
	for _, tc := range []struct {
		open func([]string, []string) (Dataset, error)
		n    int
	}{{g.OpenDataset, 5}, {g.OpenAccuracyDataset, 3}} {
		d, err := tc.open([]string{gdir}, nil)
		if err != nil || d.Len() != tc.n {
			t.Errorf("gpt-oss download folder: %v, want %d samples", err, tc.n)
		} else {
			d.Close()
		}
	}
	// A command running both tests opens each set (run --mode both).
	if !g.SeparateAccuracySet([]string{gdir}) || g.SeparateAccuracySet(perf) {
		t.Errorf("SeparateAccuracySet: a download folder with two sets and a single file must differ")
	}

	b, _ := Lookup("llama3_1-8b")
	dir := t.TempDir()
	pins, _ := b.DownloadPins("v6.1")
	for _, p := range pins {
		if p.Role == download.RoleTokenizer {
			downloadtest.WriteFolder(t, dir, p, map[string][]byte{"tokenizer/tokenizer.json": []byte("{}")})
		}
	}
	if _, err := b.OpenDataset([]string{dir}, nil); err == nil || !strings.Contains(err.Error(), "holds no dataset") {
		t.Errorf("tokenizer-only folder: %v", err)
	}
}

// TestDownloadedTokenizer: a download folder given as the dataset lends its
// tokenizer/ (the pinned tokenizer `dataset download` fetched beside the
// data) to a run or evaluation given no --tokenizer, while it is whole; a
// plain file or an incomplete download lends none.
func TestDownloadedTokenizer(t *testing.T) {
	b, _ := Lookup("llama3_1-8b")
	pins, _ := b.DownloadPins("v6.1")
	dir := t.TempDir()
	for _, p := range pins {
		if p.Role == download.RoleTokenizer {
			downloadtest.WriteFolder(t, dir, p, map[string][]byte{"tokenizer/tokenizer.json": []byte("{}")})
		}
	}
	plain := filepath.Join(t.TempDir(), "cnn_eval.json")
	if got := DownloadedTokenizer([]string{plain, dir}); got != filepath.Join(dir, "tokenizer") {
		t.Errorf("DownloadedTokenizer = %q, want %s", got, filepath.Join(dir, "tokenizer"))
	}
	if got := DownloadedTokenizer([]string{plain}); got != "" {
		t.Errorf("a plain file lends a tokenizer: %q", got)
	}
	if err := os.Remove(filepath.Join(dir, "tokenizer", "tokenizer.json")); err != nil {
		t.Fatal(err)
	}
	if got := DownloadedTokenizer([]string{dir}); got != "" {
		t.Errorf("an incomplete download lends its tokenizer: %q", got)
	}
}
