package benchmark

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mlperf-go/mlperf-go/download"
)

// SynthManifestFile is the file WriteSynth leaves beside a synthetic
// dataset: which benchmark's it is, its size, seed and files, so that
// --dataset takes the folder as it takes a download folder, whatever the
// benchmark's reader makes of folders (the token-ID readers take one
// file), and so that another set is not written over it unasked.
const SynthManifestFile = "mlperf_go_synth.json"

// synthManifest is SynthManifestFile's content.
type synthManifest struct {
	// Benchmark is the Name of the benchmark (or variant) written for.
	Benchmark string `json:"benchmark"`
	// Samples and Seed are the set's size and seed (0 and nil in a
	// manifest written before they were recorded).
	Samples int     `json:"samples,omitempty"`
	Seed    *uint64 `json:"seed,omitempty"`
	// Files are the files written, relative to the folder.
	Files []string `json:"files"`
}

// describe names the set for a message: "llama3_1-8b's synthetic set of
// 100 samples (seed 0)".
func (m synthManifest) describe() string {
	s := m.Benchmark + "'s synthetic set"
	if m.Samples > 0 {
		s += fmt.Sprintf(" of %d samples", m.Samples)
	}
	if m.Seed != nil {
		s += fmt.Sprintf(" (seed %d)", *m.Seed)
	}
	return s
}

// readSynthManifest reads dir's SynthManifestFile; ok is false when dir
// has none.
func readSynthManifest(dir string) (m synthManifest, ok bool, err error) {
	path := filepath.Join(dir, SynthManifestFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		// No manifest, or dir is a file.
		return m, false, nil
	}
	if err != nil {
		return m, false, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, false, fmt.Errorf("%s: %w", path, err)
	}
	return m, true, nil
}

// PrepareSynth readies dir for WriteSynth(dir, n, seed): a folder that
// does not exist, is empty or holds this very set (same benchmark, size
// and seed, which WriteSynth writes again byte for byte) is ready. Any
// other content — another benchmark's set or another size or seed of
// this one, a downloaded dataset, other files — is refused with what it
// holds and the fix, unless force (`dataset synth --force`): then the
// synthetic set dir holds is removed first, and other files are left.
func (b Benchmark) PrepareSynth(dir string, n int, seed uint64, force bool) error {
	m, ok, err := readSynthManifest(dir)
	if err != nil {
		if force {
			return os.Remove(filepath.Join(dir, SynthManifestFile))
		}
		return fmt.Errorf("%w (pass --force to write over it)", err)
	}
	refuse := func(what string) error {
		return fmt.Errorf("%s holds %s: writing %s's synthetic set of %d samples (seed %d) there would replace it; use another --out, or pass --force to replace it",
			dir, what, b.Name, n, seed)
	}
	switch {
	case ok && force:
		for _, f := range append(m.Files, SynthManifestFile) {
			if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("replacing the synthetic set in %s: %w", dir, err)
			}
			// The set's own subfolders (qwen3-vl's data/) go once empty.
			for sub := filepath.Dir(f); sub != "."; sub = filepath.Dir(sub) {
				if os.Remove(filepath.Join(dir, sub)) != nil {
					break
				}
			}
		}
		return nil
	case ok:
		if m.Benchmark == b.Name && m.Samples == n && m.Seed != nil && *m.Seed == seed {
			return nil // the same set, written again
		}
		return refuse(m.describe())
	case force:
		return nil
	case download.IsDownload(dir):
		return refuse("a downloaded dataset (" + download.ManifestFile + ")")
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	switch {
	case len(names) == 0:
		return nil
	case len(names) > 3:
		names = append(names[:3], fmt.Sprintf("and %d more", len(names)-3))
	}
	return refuse("other files (" + strings.Join(names, ", ") + ")")
}

// WriteSynth writes b's synthetic dataset of n samples into dir (Synth)
// and SynthManifestFile beside it, and returns the files written (not the
// manifest), as `mlperf-go dataset synth` does after PrepareSynth.
func (b Benchmark) WriteSynth(dir string, n int, seed uint64) ([]string, error) {
	if b.Data.Synth == nil {
		return nil, fmt.Errorf("benchmark %s has no synthetic dataset writer", b.Name)
	}
	files, err := b.Data.Synth(dir, n, seed)
	if err != nil {
		return nil, err
	}
	m := synthManifest{Benchmark: b.Name, Samples: n, Seed: &seed}
	for _, f := range files {
		rel, err := filepath.Rel(dir, f)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("synthetic dataset of %s: %s is outside %s", b.Name, f, dir)
		}
		m.Files = append(m.Files, rel)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return files, os.WriteFile(filepath.Join(dir, SynthManifestFile), append(data, '\n'), 0o644)
}

// openSynth replaces each folder among paths that WriteSynth wrote by its
// files, after checking that they are b's (a variant opens its base's).
func (b Benchmark) openSynth(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		m, ok, err := readSynthManifest(p)
		if err != nil {
			return nil, err
		}
		if !ok {
			// A file, or a folder of another kind: the reader judges it.
			out = append(out, p)
			continue
		}
		if of, err := Lookup(m.Benchmark); err != nil || of.Base != b.Base {
			return nil, fmt.Errorf("%s holds a synthetic dataset of %s, not of %s: write one with `mlperf-go dataset synth -b %s --out DIR`", p, m.Benchmark, b.Name, b.Name)
		}
		for _, f := range m.Files {
			out = append(out, filepath.Join(p, f))
		}
	}
	return out, nil
}

// NamedByDataset returns the benchmark the manifests among paths name: a
// synthetic set's (SynthManifestFile) or a download's dataset
// (download.ManifestFile: the benchmark it was fetched for). ok is false
// when none names one, or when they disagree.
func NamedByDataset(paths []string) (b Benchmark, ok bool) {
	name := ""
	for _, p := range paths {
		n := ""
		if m, found, err := readSynthManifest(p); found && err == nil {
			n = m.Benchmark
		} else if dm, err := download.ReadManifest(p); err == nil {
			if s := dm.Role(download.RoleDataset); s != nil && len(s.For) > 0 {
				n, _, _ = strings.Cut(s.For[0], " ") // "llama3_1-8b v6.1"
			}
		}
		switch {
		case n == "":
			continue
		case name != "" && n != name:
			return Benchmark{}, false
		}
		name = n
	}
	if name == "" {
		return Benchmark{}, false
	}
	b, err := Lookup(name)
	return b, err == nil
}
