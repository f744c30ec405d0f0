package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChooseRunDir: a given folder is taken when empty, refused when it
// holds files unless overwrite; none given is a new timestamped folder
// under parent.
func TestChooseRunDir(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	if _, err := ChooseRunDir(full, false, "p"); err == nil || !strings.Contains(err.Error(), "--overwrite") {
		t.Errorf("a folder with files: %v", err)
	}
	if dir, err := ChooseRunDir(full, true, "p"); err != nil || dir != full {
		t.Errorf("--overwrite: %s, %v", dir, err)
	}
	parent := t.TempDir()
	if dir, err := ChooseRunDir("", false, parent); err != nil || filepath.Dir(dir) != parent {
		t.Errorf("no folder: %s, %v; want one under %s", dir, err, parent)
	}
}
