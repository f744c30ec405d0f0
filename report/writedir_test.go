package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/report"
)

// TestWriteDirRefuses: WriteDir refuses a path that is no folder, and a
// folder that is neither a run nor holds one, saying what to pass.
func TestWriteDirRefuses(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	if w, err := report.WriteDir(file); err == nil || !strings.Contains(err.Error(), "is not a directory") || w.Run != nil || w.Tree != nil {
		t.Errorf("a file: %+v, %v", w, err)
	}
	if _, err := report.WriteDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no run under") {
		t.Errorf("an empty folder: %v", err)
	}
}
