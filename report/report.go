// Package report renders a run's results as report.html, one self-contained
// page (inline CSS and SVG charts, nothing fetched from the network), and
// report.md; and an index of several runs (a results tree) as index.html
// and index.md.
//
// The figures come from results.json (package results: LoadGen's own
// numbers), the charts over time from timeline.jsonl (the harness's
// counters each second) and engine_metrics.jsonl (the engine's Prometheus
// metrics).
package report

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/timeline"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
)

// Run is everything one run's report shows.
type Run struct {
	// Dir is the run's output directory.
	Dir string
	// Results are the run's results.json.
	Results *results.Results
	// Timeline and Engine are the series over time (nil when the run did
	// not record them, e.g. a run filed into a results tree).
	Timeline []timeline.Point
	Engine   []metrics.Scrape
}

// Load builds a run's results from its logs (results.Build) and reads its
// series. Missing series are not an error; malformed ones are.
func Load(dir string) (*Run, error) {
	r, err := results.Build(dir)
	if err != nil {
		return nil, err
	}
	run := &Run{Dir: dir, Results: r}
	if run.Timeline, err = timeline.Read(filepath.Join(dir, timeline.File)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("report: %w", err)
	}
	if run.Engine, err = metrics.Read(filepath.Join(dir, metrics.File)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("report: %w", err)
	}
	return run, nil
}

// WriteRun (re)builds a run directory's results.json, report.html and
// report.md from its logs and returns the results.
func WriteRun(dir string) (*results.Results, error) {
	run, err := Load(dir)
	if err != nil {
		return nil, err
	}
	if err := results.Write(dir, run.Results); err != nil {
		return nil, err
	}
	var h bytes.Buffer
	if err := renderHTML(&h, run); err != nil {
		return nil, fmt.Errorf("report: rendering %s: %w", record.ReportHTMLFile, err)
	}
	if err := atomicfile.Write(filepath.Join(dir, record.ReportHTMLFile), h.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, record.ReportMarkdownFile), []byte(renderMarkdown(run)), 0o644); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return run.Results, nil
}

// FindRuns returns the directories under root (root included) that hold a
// LoadGen detail log, sorted. Symbolic links are followed (a runs folder or
// results tree on shared storage, a run linked in), except the run
// history's record.LatestLink, which leads to a run listed already.
func FindRuns(root string) ([]string, error) {
	var dirs []string
	err := dirwalk.Walk(root, func(p string, d fs.DirEntry, err error) error {
		if p != root && d != nil && (strings.HasPrefix(d.Name(), ".") || d.Name() == record.LatestLink) {
			if err == nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil // even a LatestLink to a run since deleted
		}
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == mllog.DetailFile {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("report: searching %s for runs: %w", root, err)
	}
	sort.Strings(dirs)
	return dirs, nil
}

// Entry is one run in an index: its directory relative to the index, and
// its results or why they could not be built.
type Entry struct {
	Rel     string
	Results *results.Results
	Err     error
}

// Written is what WriteDir wrote: a run's results, or the entries of the
// runs under a tree.
type Written struct {
	Run  *results.Results
	Tree []Entry
}

// WriteDir (re)builds the report of dir: of the run if dir holds LoadGen's
// detail log (WriteRun), else of every run under it and their index
// (WriteTree).
func WriteDir(dir string) (Written, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return Written{}, fmt.Errorf("report: %s is not a directory", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, mllog.DetailFile)); err == nil {
		r, err := WriteRun(dir)
		return Written{Run: r}, err
	}
	entries, err := WriteTree(dir)
	return Written{Tree: entries}, err
}

// WriteTree rebuilds the report of every run under root and writes
// root/index.html and root/index.md listing them. A run whose logs cannot
// be read is listed with its error; the returned error joins them all.
func WriteTree(root string) ([]Entry, error) {
	dirs, err := FindRuns(root)
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("report: no run under %s (no %s found): pass a run's --output-dir or a results tree", root, mllog.DetailFile)
	}
	var entries []Entry
	var errs []error
	for _, d := range dirs {
		rel, _ := filepath.Rel(root, d)
		r, err := WriteRun(d)
		if err != nil {
			errs = append(errs, err)
		}
		entries = append(entries, Entry{Rel: filepath.ToSlash(rel), Results: r, Err: err})
	}
	var h bytes.Buffer
	if err := renderIndexHTML(&h, root, entries); err != nil {
		return entries, fmt.Errorf("report: rendering %s: %w", record.IndexHTMLFile, err)
	}
	if err := atomicfile.Write(filepath.Join(root, record.IndexHTMLFile), h.Bytes(), 0o644); err != nil {
		return entries, fmt.Errorf("report: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(root, record.IndexMarkdownFile), []byte(renderIndexMarkdown(root, entries)), 0o644); err != nil {
		return entries, fmt.Errorf("report: %w", err)
	}
	return entries, errors.Join(errs...)
}
