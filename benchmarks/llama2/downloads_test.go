package llama2_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download/downloadtest"
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
	const rel = "dataset/open_orca_gpt4_tokenized_llama.sampled_24576.pkl.gz"
	gz := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}
	downloadtest.WriteFolder(t, dir, pins[0], map[string][]byte{rel: gz})
	pkl := filepath.Join(dir, filepath.FromSlash(rel))
	_, err = b.OpenDataset([]string{dir}, nil)
	if err == nil || !strings.Contains(err.Error(), "pd.read_pickle('"+pkl+"').to_json(") {
		t.Errorf("opening the download folder: %v, want the conversion of %s", err, pkl)
	}
}
