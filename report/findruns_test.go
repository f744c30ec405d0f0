package report_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
)

// TestFindRunsThroughLinks: runs are found under a root reached through a
// symbolic link and in a run folder linked in from elsewhere, each once:
// the history's latest link is not a run of its own, even when the run it
// named is gone.
func TestFindRunsThroughLinks(t *testing.T) {
	t.Parallel()
	real := t.TempDir()
	parent := filepath.Join(real, "llama3_1-8b", "Offline-performance")
	elsewhere := t.TempDir()
	for _, d := range []string{filepath.Join(parent, "20261128T100000Z"), elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, mllog.DetailFile), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for target, link := range map[string]string{
		"20261128T100000Z": filepath.Join(parent, record.LatestLink),
		elsewhere:          filepath.Join(parent, "20261127T090000Z"),
		"gone":             filepath.Join(real, "llama3_1-8b", "Offline-accuracy", record.LatestLink),
	} {
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(t.TempDir(), "runs")
	if err := os.Symlink(real, root); err != nil {
		t.Fatal(err)
	}
	got, err := report.FindRuns(root)
	want := []string{filepath.Join(root, "llama3_1-8b", "Offline-performance", "20261127T090000Z"), filepath.Join(root, "llama3_1-8b", "Offline-performance", "20261128T100000Z")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("FindRuns = %q, %v; want %q", got, err, want)
	}
}
