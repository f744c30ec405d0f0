// Package dirwalk walks a folder tree as filepath.WalkDir does, but through
// symbolic links. Datasets, model folders and results trees on a cluster
// live on shared storage and are reached through links (data/q3vl ->
// /shared/datasets/…), and the Hugging Face cache is made of them
// (snapshots/<rev>/tokenizer.json -> ../../blobs/<sha>); filepath.WalkDir
// follows neither a linked root nor a linked subfolder, so a folder reached
// that way looks empty. Every walker of the harness goes through here.
//
// A link that leads back into a folder being walked is a loop: the walk
// ends with an error naming the link (errors.Is ErrLoop) instead of
// running forever. A link that leads nowhere is handed to the callback
// with an error naming it (errors.Is fs.ErrNotExist), which the callback
// may return or pass over.
package dirwalk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrLoop marks the error of a link that leads back into a folder the walk
// is already in.
var ErrLoop = errors.New("symbolic link loop")

// ErrOutside marks the error of a link, in a Within walk, that leads out of
// the tree.
var ErrOutside = errors.New("symbolic link out of the tree")

// Walk calls fn for root and everything under it, in lexical order, with
// filepath.WalkDir's contract (fn's errors, fs.SkipDir and fs.SkipAll
// work as there), but follows symbolic links: a root or an entry that
// links to a folder is walked as that folder, under the link's path, and
// one that links to a file is reported with the file's type (d.Type() is
// that of the target, d.Name() the link's name). A folder reached through
// two links is walked twice (as Python's os.walk(followlinks=True) does);
// only a loop is refused.
func Walk(root string, fn fs.WalkDirFunc) error {
	return walk(root, "", fn)
}

// Within is Walk for a tree whose content must all lie inside it, such as
// a results tree being packaged: copied elsewhere, a link out of the tree
// would pull in files from outside it (and an archive of the links alone
// would arrive broken). A link whose target is outside tree ends the walk
// with an error naming the link (errors.Is ErrOutside); links inside it are
// followed. A link to a folder is judged when the walk enters it (fn may
// skip it first with fs.SkipDir), a link to a file before fn sees it.
func Within(tree string, fn fs.WalkDirFunc) error {
	real, err := filepath.EvalSymlinks(tree)
	if err != nil {
		return fn(tree, nil, err)
	}
	return walk(tree, real, fn)
}

// walker is one walk: fn, the real path of the tree links must stay in
// ("" for any), and the folders being walked, outermost first, which a
// folder entered again would be a loop of.
type walker struct {
	fn     fs.WalkDirFunc
	within string
	open   []openDir
}

// openDir is a folder the walk is in: its path as walked, and what it is.
type openDir struct {
	path string
	info os.FileInfo
}

func walk(root, within string, fn fs.WalkDirFunc) error {
	w := &walker{fn: fn, within: within}
	info, err := os.Stat(root)
	if err != nil {
		err = fn(root, nil, err)
	} else {
		err = w.walkDir(root, fs.FileInfoToDirEntry(info))
	}
	if err == fs.SkipDir || err == fs.SkipAll {
		return nil
	}
	return err
}

// walkDir is filepath.WalkDir's walkDir with links followed: d describes
// what path leads to (the target of a link).
func (w *walker) walkDir(path string, d fs.DirEntry) error {
	if err := w.fn(path, d, nil); err != nil || !d.IsDir() {
		if err == fs.SkipDir && d.IsDir() {
			err = nil
		}
		return err
	}
	if err := w.enter(path, d); err != nil {
		return err
	}
	defer func() { w.open = w.open[:len(w.open)-1] }()

	ents, err := os.ReadDir(path)
	if err != nil {
		if err = w.fn(path, d, err); err != nil {
			if err == fs.SkipDir {
				err = nil
			}
			return err
		}
	}
	for _, e := range ents {
		p := filepath.Join(path, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			target, err := w.follow(p)
			if err != nil {
				if err := w.fn(p, e, err); err != nil {
					if err == fs.SkipDir {
						break
					}
					return err
				}
				continue
			}
			if !target.IsDir() {
				if err := w.checkWithin(p); err != nil {
					return err
				}
			}
			e = fs.FileInfoToDirEntry(target)
		}
		if err := w.walkDir(p, e); err != nil {
			if err == fs.SkipDir {
				break
			}
			return err
		}
	}
	return nil
}

// enter notes that the walk goes into folder path, after checking that
// it is not a folder the walk is already in (a loop) nor, for Within, one
// outside the tree.
func (w *walker) enter(path string, d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return w.fn(path, d, err)
	}
	for _, o := range w.open {
		if os.SameFile(o.info, info) {
			return fmt.Errorf("%s%s, which leads back to %s, a folder it is in: remove the link or point it elsewhere: %w", path, linkText(path), o.path, ErrLoop)
		}
	}
	if len(w.open) > 0 { // the root is the tree itself
		if err := w.checkWithin(path); err != nil {
			return err
		}
	}
	w.open = append(w.open, openDir{path, info})
	return nil
}

// follow stats the target of link p; an error names the link and what it
// holds.
func (w *walker) follow(p string) (os.FileInfo, error) {
	st, err := os.Stat(p)
	if err == nil {
		return st, nil
	}
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s%s never reaches a file (the links lead in a circle): %w", p, linkText(p), ErrLoop)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s%s, which does not exist: %w", p, linkText(p), fs.ErrNotExist)
	}
	return nil, err
}

// checkWithin returns the error of a link p that leads out of the tree of
// a Within walk; nil for Walk, and for p inside.
func (w *walker) checkWithin(p string) error {
	if w.within == "" {
		return nil
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(w.within, real)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	// Name the link itself: p, or the folder above it that is the link.
	link := p
	for d := p; d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if st, err := os.Lstat(d); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			link = d
			break
		}
	}
	return fmt.Errorf("%s%s, outside %s: the tree would take in files from elsewhere; copy them into it or remove the link: %w", link, linkText(link), w.within, ErrOutside)
}

// linkText says what the link at p holds (" is a symbolic link to X"), or
// nothing when p is not a link.
func linkText(p string) string {
	if dest, err := os.Readlink(p); err == nil {
		return " is a symbolic link to " + dest
	}
	return ""
}
