package qwen36

import (
	"archive/zip"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download"
)

// TestDownloadFolder: a folder as `dataset download -b qwen3.6-27b` leaves
// it (the wheel under dataset/, the manifest) opens as the dataset: the
// registered pin names the wheel the reader takes. The wheel here holds
// synthetic data under bfcl_eval/data/.
func TestDownloadFolder(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	pins, err := b.DownloadPins("v6.1")
	if err != nil || len(pins) != 1 || pins[0].PyPI == nil {
		t.Fatalf("pins %+v, %v: want the bfcl-eval wheel only", pins, err)
	}
	pin := pins[0]
	synth := t.TempDir()
	if _, err := Synth(synth, 40, 3); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rel := pin.Dir + "/" + pin.PyPI.File
	wheel := filepath.Join(dir, filepath.FromSlash(rel))
	writeWheel(t, wheel, synth)
	st, err := os.Stat(wheel)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := json.Marshal(download.Manifest{Format: 1, Sets: []download.Set{{Pin: pin, For: []string{"test"},
		Files: []download.File{{Path: rel, Size: st.Size()}}}}})
	if err := os.WriteFile(filepath.Join(dir, download.ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := b.OpenAccuracyDataset([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	d := ds.(*Dataset)
	if d.Len() != 40 || d.Official() || d.source != wheel {
		t.Errorf("%d samples from %s (official %v), want 40 synthetic ones from %s", d.Len(), d.source, d.Official(), wheel)
	}
}

// writeWheel zips the data folder dir as a wheel holds it, under
// bfcl_eval/data/.
func writeWheel(t *testing.T, path, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := z.Create(dataPrefix + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
