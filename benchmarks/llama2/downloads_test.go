package llama2_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download"
)

// TestOpenDownloadFolder: a download folder of the reference's
// gzip-compressed pickle opens to the pandas conversion that makes the JSON
// the reader takes, naming the downloaded file.
func TestOpenDownloadFolder(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup("llama2-70b-99.9")
	if err != nil {
		t.Fatal(err)
	}
	pins, err := b.DownloadPins("v6.1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	set := download.Set{Pin: pins[0], For: []string{b.Name}}
	pkl := filepath.Join(dir, "dataset", "open_orca_gpt4_tokenized_llama.sampled_24576.pkl.gz")
	gz := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}
	if err := os.MkdirAll(filepath.Dir(pkl), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pkl, gz, 0o644); err != nil {
		t.Fatal(err)
	}
	set.Files = []download.File{{Path: "dataset/open_orca_gpt4_tokenized_llama.sampled_24576.pkl.gz", Size: int64(len(gz))}}
	m, _ := json.Marshal(download.Manifest{Format: 1, Sets: []download.Set{set}})
	if err := os.WriteFile(filepath.Join(dir, download.ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = b.OpenDataset([]string{dir}, nil)
	if err == nil || !strings.Contains(err.Error(), "pd.read_pickle('"+pkl+"').to_json(") {
		t.Errorf("opening the download folder: %v, want the conversion of %s", err, pkl)
	}
}
