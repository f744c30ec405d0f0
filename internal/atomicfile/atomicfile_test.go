package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// entries lists dir's names, so a test sees any temporary file left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "tune.json")
	for _, content := range []string{"first\n", "second, longer\n", ""} {
		if err := Write(path, []byte(content), 0o644); err != nil {
			t.Fatalf("Write(%q): %v", content, err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != content {
			t.Fatalf("after Write(%q) the file holds %q (%v)", content, got, err)
		}
		if names := entries(t, dir); len(names) != 1 {
			t.Fatalf("folder holds %v, want only tune.json", names)
		}
	}
}

// TestWriteModes: Write gives a new file what os.WriteFile would (perm
// less the umask); WriteMode gives exactly the mode asked.
func TestWriteModes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref")
	if err := os.WriteFile(ref, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	want, _ := os.Stat(ref)
	a := filepath.Join(dir, "a")
	if err := Write(a, []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(a); st.Mode().Perm() != want.Mode().Perm() {
		t.Errorf("Write made mode %v, os.WriteFile %v", st.Mode().Perm(), want.Mode().Perm())
	}
	b := filepath.Join(dir, "b")
	for _, mode := range []fs.FileMode{0o666, 0o600} {
		if err := WriteMode(b, []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(b); st.Mode().Perm() != mode {
			t.Errorf("WriteMode(%v) made mode %v", mode, st.Mode().Perm())
		}
	}
}

// TestWriteFailureKeepsTheOld: when the rename cannot happen (a folder is
// in the way), the error comes back, what was there stays, and no
// temporary file is left.
func TestWriteFailureKeepsTheOld(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "user.conf")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "inside"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err == nil {
		t.Fatal("Write over a non-empty folder succeeded")
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "user.conf" {
		t.Errorf("folder holds %v after the failed write, want only user.conf", names)
	}
	if got, _ := os.ReadFile(filepath.Join(path, "inside")); string(got) != "old" {
		t.Errorf("what was there changed: %q", got)
	}
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644); err == nil {
		t.Error("Write into a missing folder succeeded")
	}
}
