package deepseekr1_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download/downloadtest"
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
	const rel = "dataset/mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl"
	raw := []byte{0x80, 4, 0x95} // a pickle's first bytes
	downloadtest.WriteFolder(t, dir, pins[0], map[string][]byte{rel: raw})
	pkl := filepath.Join(dir, filepath.FromSlash(rel))
	_, err = b.OpenDataset([]string{dir}, nil)
	if err == nil || !strings.Contains(err.Error(), "pd.read_pickle('"+pkl+"').to_json(") {
		t.Errorf("opening the download folder: %v, want the conversion of %s", err, pkl)
	}
}
