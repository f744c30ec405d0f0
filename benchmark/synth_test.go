package benchmark_test

import (
	"strings"
	"testing"

	. "github.com/mlperf-go/mlperf-go/benchmark"
)

// TestSynthFolderOpens: every benchmark opens the folder WriteSynth wrote
// as --dataset, whatever its reader makes of folders (the token-ID readers
// take one file), with as many samples as were written; another
// benchmark's synthetic folder is refused, naming both.
func TestSynthFolderOpens(t *testing.T) {
	for _, name := range Names() {
		b, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if b.Data.Synth == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := b.WriteSynth(dir, 12, 1); err != nil {
				t.Fatal(err)
			}
			d, err := b.OpenDataset([]string{dir}, nil)
			if err != nil {
				t.Fatalf("-d %s: %v", dir, err)
			}
			defer d.Close()
			if d.Len() != 12 {
				t.Errorf("%d samples, want 12", d.Len())
			}
		})
	}
	llama, err := Lookup("llama3_1-8b")
	if err != nil {
		t.Fatal(err)
	}
	other, err := Lookup("deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := other.WriteSynth(dir, 4, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := llama.OpenDataset([]string{dir}, nil); err == nil || !strings.Contains(err.Error(), "synthetic dataset of deepseek-r1, not of llama3_1-8b") {
		t.Errorf("llama3_1-8b opening deepseek-r1's synthetic folder: %v", err)
	}
}
