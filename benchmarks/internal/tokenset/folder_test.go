package tokenset_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
)

// TestFolderOfOneFile: a folder holding one dataset file opens as that
// file, as the folders `dataset synth` wrote before it left a manifest do;
// a folder with none or several says which files it saw.
func TestFolderOfOneFile(t *testing.T) {
	dir := t.TempDir()
	files, err := tokensynth.Synth("cnn_eval.json", tokensynth.Llama)(dir, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	// mlperf-go's own files beside the data are not candidates.
	for _, own := range []string{"mlperf-go-download.json", "mlperf_go_synth.json"} {
		if err := os.WriteFile(filepath.Join(dir, own), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".hidden.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, err := llama31.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	fromDir, err := llama31.Open(dir)
	if err != nil {
		t.Fatalf("Open(folder of one file): %v", err)
	}
	if fromDir.Len() != 7 || fromDir.Path() != files[0] {
		t.Fatalf("folder opened %d samples from %s, want 7 from %s", fromDir.Len(), fromDir.Path(), files[0])
	}
	for i := range fromFile.Len() {
		if !slices.Equal(fromDir.Tokens(i), fromFile.Tokens(i)) || fromDir.Reference(i) != fromFile.Reference(i) {
			t.Fatalf("sample %d differs between the folder and its file", i)
		}
	}

	if err := os.WriteFile(filepath.Join(dir, "other.parquet"), []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = llama31.Open(dir)
	if err == nil || !strings.Contains(err.Error(), "2 dataset files (cnn_eval.json, other.parquet)") {
		t.Fatalf("folder of two files: got %v, want both named", err)
	}

	empty := t.TempDir()
	_, err = llama31.Open(empty)
	if err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), "no dataset file") {
		t.Fatalf("empty folder: got %v", err)
	}
}
