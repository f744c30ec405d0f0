package deepseekr1_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download"
)

// TestOpenDownloadFolder: a download folder of the reference's pickle
// opens to the pandas conversion that makes the JSON
// the reader takes, naming the downloaded file.
func TestOpenDownloadFolder(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup("deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	pins, err := b.DownloadPins("v6.1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	set := download.Set{Pin: pins[0], For: []string{b.Name}}
	pkl := filepath.Join(dir, "dataset", "mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl")
	raw := []byte{0x80, 4, 0x95} // a pickle's first bytes
	if err := os.MkdirAll(filepath.Dir(pkl), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pkl, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	set.Files = []download.File{{Path: "dataset/mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl", Size: int64(len(raw))}}
	m, _ := json.Marshal(download.Manifest{Format: 1, Sets: []download.Set{set}})
	if err := os.WriteFile(filepath.Join(dir, download.ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = b.OpenDataset([]string{dir}, nil)
	if err == nil || !strings.Contains(err.Error(), "pd.read_pickle('"+pkl+"').to_json(") {
		t.Errorf("opening the download folder: %v, want the conversion of %s", err, pkl)
	}
}
