package record

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestChooseRunDir: a given folder is taken when empty, refused when it
// holds files unless overwrite; none given is a new timestamped folder
// under parent, created at once.
func TestChooseRunDir(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	if _, _, err := ChooseRunDir(full, false, "p"); err == nil || !strings.Contains(err.Error(), "--overwrite") {
		t.Errorf("a folder with files: %v", err)
	}
	if dir, _, err := ChooseRunDir(full, true, "p"); err != nil || dir != full {
		t.Errorf("--overwrite: %s, %v", dir, err)
	}
	parent := filepath.Join(t.TempDir(), "runs", "llama3_1-8b")
	dir, res, err := ChooseRunDir("", false, parent)
	if err != nil || filepath.Dir(dir) != parent {
		t.Fatalf("no folder: %s, %v; want one under %s", dir, err, parent)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("the new folder was not created: %v", err)
	}
	// Nothing written: the folder and the parents made for it go.
	res.ReleaseUnused()
	if _, err := os.Stat(filepath.Dir(parent)); !os.IsNotExist(err) {
		t.Errorf("an unused run folder's parents stayed: %v", err)
	}
}

// TestClaimRunDirIsExclusive: runs that start in the same second, here 16
// at once, each get a folder of their own; none is shared. Two processes
// claim the same way (os.Mkdir is exclusive in the file system, not in
// the process).
func TestClaimRunDirIsExclusive(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	const runs = 16
	dirs := make([]string, runs)
	var wg sync.WaitGroup
	for i := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, _, err := ClaimRunDir(parent, "20261207T033214Z")
			if err != nil {
				t.Error(err)
			}
			dirs[i] = d
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			t.Errorf("two runs share %s", d)
		}
		seen[d] = true
	}
	if !seen[filepath.Join(parent, "20261207T033214Z")] || !seen[filepath.Join(parent, "20261207T033214Z-16")] {
		t.Errorf("want 20261207T033214Z to …-16, got %v", dirs)
	}
}

// TestLinkLatestKeepsTheNewest: a run that ends after a newer one began
// and ended leaves latest at the newer one; a newer run moves it.
func TestLinkLatestKeepsTheNewest(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	for _, n := range []string{"20261207T033214Z", "20261207T033214Z-2", "20261207T033214Z-10", "20261207T033215Z"} {
		os.Mkdir(filepath.Join(parent, n), 0o755)
	}
	latest := func() string {
		l, err := os.Readlink(filepath.Join(parent, LatestLink))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, step := range []struct{ ended, want string }{
		{"20261207T033214Z-2", "20261207T033214Z-2"},
		{"20261207T033214Z", "20261207T033214Z-2"}, // older: latest stays
		{"20261207T033214Z-10", "20261207T033214Z-10"},
		{"20261207T033215Z", "20261207T033215Z"},
		{"20261207T033214Z-10", "20261207T033215Z"},
	} {
		if err := LinkLatest(filepath.Join(parent, step.ended)); err != nil {
			t.Fatal(err)
		}
		if got := latest(); got != step.want {
			t.Errorf("after %s ended: latest → %s, want %s", step.ended, got, step.want)
		}
	}
	// A link at a run that was deleted is replaced.
	os.Remove(filepath.Join(parent, "20261207T033215Z"))
	if err := LinkLatest(filepath.Join(parent, "20261207T033214Z")); err != nil || latest() != "20261207T033214Z" {
		t.Errorf("latest at a deleted run was kept: %s, %v", latest(), err)
	}
}
