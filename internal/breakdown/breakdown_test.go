package breakdown

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/internal/lathist"
)

func TestWriteRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want := Breakdown{Stream: true, Parts: []Part{
		{Name: "queue", Harness: true, What: "waiting", Summary: lathist.Summary{Count: 3, Mean: 10, P50: 9, P90: 12, P99: 12, P999: 12, Max: 12}},
		{Name: "ttft", Sum: true, What: "all", Summary: lathist.Summary{Count: 3, P50: 5e7}},
	}}
	if err := Write(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want.Schema = Schema
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	// The summary's fields are flattened into the part.
	raw, _ := os.ReadFile(filepath.Join(dir, File))
	if !strings.Contains(string(raw), `"p99_9_ns": 12`) {
		t.Errorf("file lacks flattened percentiles:\n%s", raw)
	}
	if p, ok := got.Find("ttft"); !ok || p.P50 != 5e7 {
		t.Errorf("Find(ttft) = %+v, %v", p, ok)
	}
	if _, ok := got.Find("nope"); ok {
		t.Error("Find found a missing part")
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	if _, err := Read(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, File), []byte(`{"schema":"mlperf-go/latency/v0"}`), 0o644)
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "another mlperf-go version") {
		t.Errorf("old schema: %v", err)
	}
}
