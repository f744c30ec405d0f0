package dirwalk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// MkdirAll is os.MkdirAll for a folder the harness writes into (an output
// folder, --runs-dir, --results-dir, a download's --out), which may be, or
// lie under, a symbolic link to shared storage. Where it fails because one
// of path's folders is a link that leads nowhere (os.MkdirAll says only
// "file exists"), the error is Dangling's. The link's target is not
// created, as mkdir -p does not create it: a link to a folder not there is
// more often a mistake (storage not mounted, a typo) than a request.
func MkdirAll(path string, perm fs.FileMode) error {
	err := os.MkdirAll(path, perm)
	if err != nil {
		if derr := Dangling(path); derr != nil {
			return derr
		}
	}
	return err
}

// Dangling returns an error naming the first of path's folders, from the
// innermost, that is a symbolic link leading nowhere, and where it leads
// (errors.Is fs.ErrNotExist); nil when there is none. Folders of path that
// do not exist yet are passed over, so a command can check a folder it
// will create before it starts.
func Dangling(path string) error {
	for d := filepath.Clean(path); ; d = filepath.Dir(d) {
		if st, err := os.Lstat(d); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			if _, err := os.Stat(d); err != nil {
				return fmt.Errorf("%s%s, which does not exist: create that folder (or mount its storage) or point the link elsewhere: %w", d, linkText(d), fs.ErrNotExist)
			}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}
