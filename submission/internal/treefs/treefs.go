// Package treefs holds the small file-system helpers the submission
// packages share while they read and write results trees: existence
// and directory tests, sorted directory listings, and a file copy.
//
// Errors carry the "submission:" prefix of the packages that use them,
// so a message reads the same whichever of them reports it.
package treefs

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
)

// Exists reports whether path names anything, a dangling symbolic link
// included (it does not follow links).
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// IsDir reports whether p is a directory (following links).
func IsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ListDirs lists the subdirectories of dir, hidden ones included (the
// official checker lists them too), sorted; nil when dir cannot be read. A
// symbolic link to a folder counts as one, as in the official checker
// (submission_checker/utils.py list_dir filters os.listdir with
// os.path.isdir, which follows links).
func ListDirs(dir string) []string {
	return list(dir, fs.FileMode.IsDir)
}

// ListFiles lists the regular files of dir, sorted; nil when dir cannot be
// read. A symbolic link to a file counts as one (utils.py list_files:
// os.path.isfile follows links); a dangling link is neither.
func ListFiles(dir string) []string {
	return list(dir, fs.FileMode.IsRegular)
}

// list lists the entries of dir whose type, links followed, is, sorted.
func list(dir string, is func(fs.FileMode) bool) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(filepath.Join(dir, e.Name()))
			if err != nil {
				continue
			}
			mode = st.Mode()
		}
		if is(mode) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// CopyFile copies src to dst (mode 0644, replacing dst), creating dst's
// directory.
func CopyFile(src, dst string) error {
	if err := dirwalk.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("submission: copying %s to %s: %w", src, dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("submission: copying %s to %s: %w", src, dst, err)
	}
	return nil
}
