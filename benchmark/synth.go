package benchmark

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SynthManifestFile is the file WriteSynth leaves beside a synthetic
// dataset: which benchmark's it is and its files, so that --dataset takes
// the folder as it takes a download folder, whatever the benchmark's
// reader makes of folders (the token-ID readers take one file).
const SynthManifestFile = "mlperf_go_synth.json"

// synthManifest is SynthManifestFile's content.
type synthManifest struct {
	// Benchmark is the Name of the benchmark (or variant) written for.
	Benchmark string `json:"benchmark"`
	// Files are the files written, relative to the folder.
	Files []string `json:"files"`
}

// WriteSynth writes b's synthetic dataset of n samples into dir (Synth)
// and SynthManifestFile beside it, and returns the files written (not the
// manifest), as `mlperf-go dataset synth` does.
func (b Benchmark) WriteSynth(dir string, n int, seed uint64) ([]string, error) {
	if b.Data.Synth == nil {
		return nil, fmt.Errorf("benchmark %s has no synthetic dataset writer", b.Name)
	}
	files, err := b.Data.Synth(dir, n, seed)
	if err != nil {
		return nil, err
	}
	m := synthManifest{Benchmark: b.Name}
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
		data, err := os.ReadFile(filepath.Join(p, SynthManifestFile))
		if err != nil {
			// A file, or a folder of another kind: the reader judges it.
			out = append(out, p)
			continue
		}
		var m synthManifest
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(p, SynthManifestFile), err)
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
