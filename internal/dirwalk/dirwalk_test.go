package dirwalk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tree makes files (path → content; a value "-> X" makes a symbolic link
// to X instead) under a new folder and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			err = os.Symlink(filepath.FromSlash(target), full)
		} else {
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// files lists what a walk of root reports as regular files, relative to
// root and slash-separated, with the walk's error.
func files(t *testing.T, root string, walk func(string, fs.WalkDirFunc) error) ([]string, error) {
	t.Helper()
	var out []string
	err := walk(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out, err
}

// bounded runs f, failing the test if it has not returned in ten seconds:
// a loop must end the walk, not hang it.
func bounded(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the walk did not end")
		return nil
	}
}

func TestWalkFollowsLinks(t *testing.T) {
	t.Parallel()
	shared := tree(t, map[string]string{"data/train.parquet": "x", "data/test.parquet": "y"})
	blobs := tree(t, map[string]string{"blobs/abc": "tok"})
	root := tree(t, map[string]string{
		"own.txt":                 "o",
		"linked":                  "-> " + filepath.Join(shared, "data"),
		"snap/rev/tokenizer.json": "-> ../../blobs/abc",
		"blobs":                   "-> " + filepath.Join(blobs, "blobs"),
		"sub/deeper":              "-> " + shared,
	})
	// The root itself reached through a link, as `-d q3link` is.
	link := filepath.Join(t.TempDir(), "rootlink")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	got, err := files(t, link, Walk)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"blobs/abc", "linked/test.parquet", "linked/train.parquet", "own.txt", "snap/rev/tokenizer.json",
		"sub/deeper/data/test.parquet", "sub/deeper/data/train.parquet"}
	if !slices.Equal(got, want) {
		t.Errorf("Walk found %q, want %q", got, want)
	}
	// filepath.WalkDir, for contrast, sees nothing under a linked root:
	// the bug this package exists for.
	if plain, _ := files(t, link, filepath.WalkDir); len(plain) != 0 {
		t.Errorf("filepath.WalkDir now follows a linked root (%q): this package may be simpler", plain)
	}
}

func TestWalkSkipsAsWalkDir(t *testing.T) {
	t.Parallel()
	shared := tree(t, map[string]string{"a.txt": "a"})
	root := tree(t, map[string]string{"keep/x.txt": "x", "skip": "-> " + shared, "z/y.txt": "y"})
	var seen []string
	err := Walk(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		seen = append(seen, filepath.ToSlash(rel))
		if d.Name() == "skip" {
			if !d.IsDir() {
				t.Errorf("a link to a folder is reported as %v, want a folder", d.Type())
			}
			return fs.SkipDir
		}
		if d.Name() == "y.txt" {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".", "keep", "keep/x.txt", "skip", "z", "z/y.txt"}; !slices.Equal(seen, want) {
		t.Errorf("saw %q, want %q", seen, want)
	}
}

func TestWalkLoops(t *testing.T) {
	t.Parallel()
	for name, files := range map[string]map[string]string{
		"to an ancestor":    {"a/b/up": "-> ../..", "a/f.txt": "f"},
		"to itself":         {"a/self": "-> ."},
		"two links":         {"a/x/to-y": "-> ../y", "a/y/to-x": "-> ../x"},
		"a circle of links": {"a/p": "-> q", "a/q": "-> p"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := tree(t, files)
			err := bounded(t, func() error { return Walk(root, func(_ string, _ fs.DirEntry, err error) error { return err }) })
			if !errors.Is(err, ErrLoop) {
				t.Fatalf("err = %v, want a loop", err)
			}
			if !strings.Contains(err.Error(), "is a symbolic link to") || !strings.Contains(err.Error(), root) {
				t.Errorf("the error does not name the link: %v", err)
			}
			// A callback that passes the loop over goes on past it.
			var loops int
			err = bounded(t, func() error {
				return Walk(root, func(_ string, _ fs.DirEntry, err error) error {
					if errors.Is(err, ErrLoop) {
						loops++
						return nil
					}
					return err
				})
			})
			if err != nil || loops == 0 {
				t.Errorf("passing over: %v, %d loops seen", err, loops)
			}
		})
	}
}

func TestWalkDanglingLink(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"gone.parquet": "-> /nonexistent/x.parquet", "ok.txt": "k"})
	got, err := files(t, root, Walk)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(root, "gone.parquet")+" is a symbolic link to /nonexistent/x.parquet") {
		t.Fatalf("err = %v, want one naming the dangling link", err)
	}
	if len(got) != 0 {
		t.Errorf("reported %q before the error", got)
	}
	// A callback that passes the error over goes on.
	var seen []string
	err = Walk(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			seen = append(seen, d.Name())
		}
		return nil
	})
	if err != nil || !slices.Equal(seen, []string{filepath.Base(root), "ok.txt"}) {
		t.Errorf("passing over: err %v, saw %q", err, seen)
	}
	if err := Walk(filepath.Join(root, "none"), func(_ string, _ fs.DirEntry, err error) error { return err }); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing root: %v", err)
	}
	gone := filepath.Join(root, "gone.parquet")
	if err := Walk(gone, func(_ string, _ fs.DirEntry, err error) error { return err }); !errors.Is(err, fs.ErrNotExist) ||
		!strings.Contains(err.Error(), gone+" is a symbolic link to /nonexistent/x.parquet") {
		t.Errorf("a dangling root: %v", err)
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	outside := tree(t, map[string]string{"secret/key": "k", "file.txt": "f"})
	for _, tc := range []struct {
		name  string
		files map[string]string
		link  string // the link the error must name; "" when the walk succeeds
		want  []string
	}{
		{name: "links inside are followed",
			files: map[string]string{"sys/Offline/accuracy/a.json": "a", "sys/Server/accuracy": "-> ../Offline/accuracy"},
			want:  []string{"sys/Offline/accuracy/a.json", "sys/Server/accuracy/a.json"}},
		{name: "a folder outside",
			files: map[string]string{"sys/Offline/x.txt": "x", "sys/Server": "-> " + filepath.Join(outside, "secret")},
			link:  "sys/Server"},
		{name: "a file outside",
			files: map[string]string{"sys/Offline/x.txt": "-> " + filepath.Join(outside, "file.txt")},
			link:  "sys/Offline/x.txt"},
		{name: "a relative link climbing out",
			files: map[string]string{"sys/up": "-> ../.."},
			link:  "sys/up"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := tree(t, tc.files)
			// The tree itself reached through a link is fine.
			link := filepath.Join(t.TempDir(), "results")
			if err := os.Symlink(root, link); err != nil {
				t.Fatal(err)
			}
			got, err := files(t, link, Within)
			if tc.link == "" {
				if err != nil || !slices.Equal(got, tc.want) {
					t.Errorf("got %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), filepath.Join(link, filepath.FromSlash(tc.link))+" is a symbolic link to") ||
				!strings.Contains(err.Error(), "outside the tree "+link) {
				t.Errorf("err = %v, want one naming %s", err, tc.link)
			}
			// Passed over, the link is not followed and the walk goes on.
			var outside []string
			err = Within(link, func(p string, d fs.DirEntry, err error) error {
				if errors.Is(err, ErrOutside) {
					outside = append(outside, p)
					return nil
				}
				if err == nil && d.Type().IsRegular() && strings.HasPrefix(p, filepath.Join(link, filepath.FromSlash(tc.link))) {
					t.Errorf("followed %s", p)
				}
				return err
			})
			if err != nil || len(outside) != 1 {
				t.Errorf("passing over: %v, outside links %q", err, outside)
			}
		})
	}
}

func TestMkdirAll(t *testing.T) {
	t.Parallel()
	real := t.TempDir()
	root := tree(t, map[string]string{"out": "-> " + real, "gone": "-> /nonexistent/storage"})
	for _, p := range []string{"out", "out/run/1"} {
		if err := MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Errorf("MkdirAll(%s) through a link: %v", p, err)
		}
	}
	if st, err := os.Stat(filepath.Join(real, "run", "1")); err != nil || !st.IsDir() {
		t.Errorf("not made in the link's folder: %v", err)
	}
	for _, p := range []string{"gone", "gone/run/1"} {
		err := MkdirAll(filepath.Join(root, p), 0o755)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(root, "gone")+" is a symbolic link to /nonexistent/storage, which does not exist") {
			t.Errorf("MkdirAll(%s) under a dangling link: %v", p, err)
		}
	}
	file := filepath.Join(root, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(filepath.Join(file, "x"), 0o755); err == nil || strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("under a file: %v, want os.MkdirAll's own error", err)
	}
}

func TestDangling(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"ok": "-> .", "gone": "-> /nonexistent/storage"})
	for p, bad := range map[string]bool{"ok/new/x": false, "new/x": false, "gone": true, "gone/sys1/llama/Offline": true} {
		err := Dangling(filepath.Join(root, p))
		if got := err != nil && strings.Contains(err.Error(), filepath.Join(root, "gone")+" is a symbolic link to /nonexistent/storage"); got != bad {
			t.Errorf("Dangling(%s) = %v", p, err)
		}
	}
}
