// Package downloadtest makes download folders for tests, as
// `mlperf-go dataset download` leaves them, without a server.
package downloadtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlperf-go/mlperf-go/download"
)

// WriteFolder makes dir a download folder holding pin with the given files
// (path in the folder → bytes) and the manifest download.Fetch writes.
func WriteFolder(tb testing.TB, dir string, pin download.Pin, files map[string][]byte) {
	tb.Helper()
	set := download.Set{Pin: pin, For: []string{"test"}}
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			tb.Fatal(err)
		}
		set.Files = append(set.Files, download.File{Path: p, Size: int64(len(b))})
	}
	m, err := json.Marshal(download.Manifest{Format: 1, Sets: []download.Set{set}})
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, download.ManifestFile), m, 0o644); err != nil {
		tb.Fatal(err)
	}
}
