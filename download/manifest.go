package download

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
)

// ManifestFile is the manifest's name in a download folder.
const ManifestFile = "mlperf-go-download.json"

// manifestFormat is the manifest's format version.
const manifestFormat = 1

// Manifest records what a download folder holds: one Set per role, each
// with the pin it was fetched for and every file's size and sha256.
type Manifest struct {
	Format int   `json:"format"`
	Sets   []Set `json:"sets"`
}

// Set is one pinned set of files in a download folder.
type Set struct {
	// Pin is what was asked for.
	Pin Pin `json:"pin"`
	// For lists who asked ("llama3_1-8b v6.1").
	For []string `json:"for"`
	// Source is where the files came from: the hub's endpoint, or the
	// folder the storage's .uri named.
	Source string `json:"source"`
	// Fetched is when the set was completed.
	Fetched time.Time `json:"fetched"`
	// Files are the set's files.
	Files []File `json:"files"`
}

// File is one file of a Set.
type File struct {
	// Path is the file's path in the download folder, slash-separated.
	Path string `json:"path"`
	// Size and SHA256 are its length and digest, computed as it was
	// written (`dataset download --verify` checks them again).
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Verified says what the bytes were checked against ("md5 c41c…
	// (r2 listing, pinned)"), or why they could not be.
	Verified string `json:"verified"`
}

// ReadManifest reads dir's manifest; a folder without one gives an error
// satisfying errors.Is(err, os.ErrNotExist).
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v (delete it and download again)", filepath.Join(dir, ManifestFile), err)
	}
	if m.Format != manifestFormat {
		return nil, fmt.Errorf("%s: format %d, this mlperf-go reads %d: download again into a new folder", filepath.Join(dir, ManifestFile), m.Format, manifestFormat)
	}
	for _, s := range m.Sets {
		for _, f := range s.Files {
			if !localPath(f.Path) {
				return nil, fmt.Errorf("%s: file path %q leaves the folder", filepath.Join(dir, ManifestFile), f.Path)
			}
		}
	}
	return &m, nil
}

// IsDownload reports whether dir holds a download manifest.
func IsDownload(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, ManifestFile))
	return err == nil && st.Mode().IsRegular()
}

// Role returns the set of the role, or nil.
func (m *Manifest) Role(role string) *Set {
	for i := range m.Sets {
		if m.Sets[i].Pin.Role == role {
			return &m.Sets[i]
		}
	}
	return nil
}

// put adds or replaces the set of s's role, keeping the sets sorted.
func (m *Manifest) put(s Set) {
	if old := m.Role(s.Pin.Role); old != nil {
		*old = s
	} else {
		m.Sets = append(m.Sets, s)
	}
	slices.SortFunc(m.Sets, func(a, b Set) int {
		if a.Pin.Role < b.Pin.Role {
			return -1
		}
		if a.Pin.Role > b.Pin.Role {
			return 1
		}
		return 0
	})
}

// write stores m in dir atomically.
func (m *Manifest) write(dir string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// Missing returns the first of s's files that is absent from dir or has
// another size than recorded, as an error naming it; nil when all are there.
func (s *Set) Missing(dir string) error {
	for _, f := range s.Files {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			return fmt.Errorf("%s is missing", f.Path)
		}
		if st.Size() != f.Size {
			return fmt.Errorf("%s has %d bytes, the manifest says %d", f.Path, st.Size(), f.Size)
		}
	}
	return nil
}

// Verify hashes every file of s in dir and compares it with the manifest,
// calling onBytes with each chunk read (progress); it returns an error
// naming the first file that differs.
func (s *Set) Verify(dir string, onBytes func(int64)) error {
	if err := s.Missing(dir); err != nil {
		return err
	}
	for _, f := range s.Files {
		got, err := sha256File(filepath.Join(dir, filepath.FromSlash(f.Path)), onBytes)
		if err != nil {
			return err
		}
		if got != f.SHA256 {
			return &ChecksumError{File: f.Path, Algo: "sha256", Want: f.SHA256, Got: got, Source: "the manifest " + ManifestFile}
		}
	}
	return nil
}

// Bytes is the total size of s's files.
func (s *Set) Bytes() int64 {
	var n int64
	for _, f := range s.Files {
		n += f.Size
	}
	return n
}

// OpenPaths returns the paths, in dir, the set's dataset reader takes: the
// pin's Open files (OpenAccuracy for an accuracy run, where set), else the
// set's folder.
func (s *Set) OpenPaths(dir string, accuracy bool) []string {
	base := filepath.Join(dir, filepath.FromSlash(s.Pin.Dir))
	files := s.Pin.Open
	if accuracy && len(s.Pin.OpenAccuracy) > 0 {
		files = s.Pin.OpenAccuracy
	}
	if len(files) == 0 {
		return []string{base}
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Join(base, filepath.FromSlash(f))
	}
	return out
}

func sha256File(path string, onBytes func(int64)) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	var w io.Writer = h
	if onBytes != nil {
		w = countWriter{h, onBytes}
	}
	if _, err := io.Copy(w, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

type countWriter struct {
	w  io.Writer
	on func(int64)
}

func (c countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.on(int64(n))
	return n, err
}

// writeAtomic replaces path with b (atomicfile.Write), so path holds
// either its old or its new bytes; a full disk is a DiskFullError.
func writeAtomic(path string, b []byte) error {
	err := atomicfile.Write(path, b, 0o666)
	if err != nil && isNoSpace(err) {
		return &DiskFullError{Dir: filepath.Dir(path), File: filepath.Base(path), Need: int64(len(b)), Free: -1, Err: err}
	}
	return err
}
