// Package dirwalk walks a folder tree as filepath.WalkDir does, but through
// symbolic links. Datasets, model folders and results trees on a cluster
// live on shared storage and are reached through links (data/q3vl ->
// /shared/datasets/…), and the Hugging Face cache is made of them
// (snapshots/<rev>/tokenizer.json -> ../../blobs/<sha>); filepath.WalkDir
// follows neither a linked root nor a linked subfolder, so a folder reached
// that way looks empty. Every walker of the harness goes through here.
//
// A link the walk cannot take is not followed: one that leads back into a
// folder being walked (a loop, errors.Is ErrLoop, which would otherwise
// run forever) or nowhere (errors.Is fs.ErrNotExist). The callback gets an
// error naming the link and where it leads, and ends the walk by returning
// it or passes it over. MkdirAll and Dangling name a link that leads
// nowhere among the folders of a path the harness is to write into.
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
//
// A link the walk cannot take (a loop, a dangling link, for Within one out
// of the tree) is handed to fn with the link's own entry and an error
// naming it: fn returning the error ends the walk with it, returning nil
// goes on without following the link.
func Walk(root string, fn fs.WalkDirFunc) error {
	return walk(root, "", fn)
}

// Within is Walk for a tree whose content must all lie inside it, such as
// a results tree being packaged: copied elsewhere, a link out of the tree
// would pull in files from outside it (and an archive of the links alone
// would arrive broken). A link whose target is outside tree is not
// followed: fn gets an error naming it (errors.Is ErrOutside). Links inside
// the tree are followed.
func Within(tree string, fn fs.WalkDirFunc) error {
	real, err := filepath.EvalSymlinks(tree)
	if err != nil {
		return fn(tree, nil, err)
	}
	return walk(tree, real, fn)
}

// walker is one walk: fn, the tree links must stay in (its real path; ""
// for any), and the folders being walked, outermost first, which a link
// leading to one of them would make a loop of.
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
		if st, lerr := os.Lstat(root); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			_, err = w.follow(root) // an error that names the link
		}
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
	info, err := d.Info()
	if err != nil {
		return w.fn(path, d, err)
	}
	w.open = append(w.open, openDir{path, info})
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

// follow returns what link p leads to, or an error naming the link when
// the walk cannot take it: it leads nowhere, in a circle of links, back
// into a folder the walk is in, or out of a Within tree.
func (w *walker) follow(p string) (os.FileInfo, error) {
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, fmt.Errorf("%s%s never reaches a file (the links lead in a circle): %w", p, linkText(p), ErrLoop)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s%s, which does not exist: %w", p, linkText(p), fs.ErrNotExist)
	case err != nil:
		return nil, err
	}
	if st.IsDir() {
		for _, o := range w.open {
			if os.SameFile(o.info, st) {
				return nil, fmt.Errorf("%s%s, which leads back to %s, a folder it is in: remove the link or point it elsewhere: %w", p, linkText(p), o.path, ErrLoop)
			}
		}
	}
	if w.within != "" {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(w.within, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s%s, outside the tree %s: copy what it holds into the tree or remove the link: %w", p, linkText(p), w.open[0].path, ErrOutside)
		}
	}
	return st, nil
}

// linkText says what the link at p holds (" is a symbolic link to X").
func linkText(p string) string {
	dest, err := os.Readlink(p)
	if err != nil {
		return ""
	}
	return " is a symbolic link to " + dest
}
