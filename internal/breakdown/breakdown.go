// Package breakdown is the file in which a run records where its samples'
// time went (mlperf_go_latency.json beside LoadGen's logs): for each part
// of a sample's life in the harness (queued, request written, first token
// read, reported to LoadGen, …) its distribution, and whether the harness
// or the endpoint owns it. The runner writes it from the worker pool's
// histograms; results.json and the report read it.
package breakdown

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/internal/lathist"
)

// File is the breakdown's name in a run's output directory.
const File = "mlperf_go_latency.json"

// Schema identifies the file's format; a change that removes or redefines
// a field gets a new one.
const Schema = "mlperf-go/latency/v1"

// Breakdown is the file's content.
type Breakdown struct {
	// Schema is always the Schema constant.
	Schema string `json:"schema"`
	// Stream says whether responses streamed (first-token parts exist).
	Stream bool `json:"stream"`
	// Parts are in a sample's order, then the per-sample sums.
	Parts []Part `json:"parts"`
}

// Part is one span of the successful samples' time, in nanoseconds.
type Part struct {
	// Name is the part's key (sut.PartInfo.Name).
	Name string `json:"name"`
	// Harness is true for time the harness owns; false for time that
	// includes the endpoint, the network and the kernel.
	Harness bool `json:"harness"`
	// Owner says who owns the time, for people (sut.PartInfo.Owner):
	// "harness", "endpoint", "concurrency limit", "harness (sum)",
	// "total"; empty in files written before it existed.
	Owner string `json:"owner,omitempty"`
	// Sum is true for a per-sample total of other parts.
	Sum bool `json:"sum,omitempty"`
	// What says what it spans.
	What string `json:"what"`
	lathist.Summary
}

// OwnerName is who owns the part's time, for people: Owner, or for a
// file written before parts named their owner, what Harness and Sum say.
func (p Part) OwnerName() string {
	switch {
	case p.Owner != "":
		return p.Owner
	case p.Harness && p.Sum:
		return "harness (sum)"
	case p.Harness:
		return "harness"
	case p.Sum:
		return "total"
	}
	return "endpoint"
}

// Find returns the part named name and whether it is there.
func (b *Breakdown) Find(name string) (Part, bool) {
	for _, p := range b.Parts {
		if p.Name == name {
			return p, true
		}
	}
	return Part{}, false
}

// Write writes b (its Schema set) as indented JSON to dir/File.
func Write(dir string, b Breakdown) error {
	b.Schema = Schema
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return fmt.Errorf("latency breakdown: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, File), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("latency breakdown: %w", err)
	}
	return nil
}

// Read reads dir/File; a missing file is an error wrapping fs.ErrNotExist.
func Read(dir string) (*Breakdown, error) {
	path := filepath.Join(dir, File)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b Breakdown
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("latency breakdown %s: %w", path, err)
	}
	if b.Schema != Schema {
		return nil, fmt.Errorf("latency breakdown %s has schema %q, want %q: it was written by another mlperf-go version", path, b.Schema, Schema)
	}
	return &b, nil
}
