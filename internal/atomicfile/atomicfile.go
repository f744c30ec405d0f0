// Package atomicfile replaces a file's content so that readers, and the
// file after a crash or a power cut, see either its old bytes or its new
// ones, never a part: the bytes go to a temporary file beside it, which is
// synced, renamed over the file, and the folder synced so the rename lasts
// too. Every file the harness replaces (a download's manifest, tune.json,
// user.conf, an aborted run's logs) is written through it.
package atomicfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Write replaces path's content with b. A file it creates gets perm less
// the umask, as os.WriteFile gives it. On error path is as it was and the
// temporary file is gone.
func Write(path string, b []byte, perm fs.FileMode) error {
	return write(path, b, perm, false)
}

// WriteMode is Write giving the file exactly mode, whatever the umask: for
// a file that keeps the mode it had.
func WriteMode(path string, b []byte, mode fs.FileMode) error {
	return write(path, b, mode, true)
}

func write(path string, b []byte, perm fs.FileMode, exact bool) (err error) {
	f, tmp, err := create(path, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp) //nolint:errcheck // the write failed already
		}
	}()
	_, werr := f.Write(b)
	var merr error
	if exact {
		merr = f.Chmod(perm)
	}
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// create makes a new hidden temporary file beside path (".<name>.tmp-<random>",
// so concurrent writers do not meet), never opening one that exists.
func create(path string, perm fs.FileMode) (*os.File, string, error) {
	dir, name := filepath.Split(path)
	for range 100 {
		tmp := filepath.Join(dir, "."+name+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", &fs.PathError{Op: "create temporary file for", Path: path, Err: fs.ErrExist}
}

// SyncDir makes a rename in dir durable. File systems that cannot sync a
// folder (os.ErrInvalid) are let be.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
