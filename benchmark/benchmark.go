// Package benchmark is the registry of the MLPerf benchmarks mlperf-go runs.
// Each benchmark lives in its own folder under benchmarks/ and registers
// itself from init with Register, carrying its facts and behaviour in one
// facet per layer that reads them: Identity (names, submission directory),
// LoadGen (the model name and settings LoadGen runs it under), Data (sizes,
// reader, synthetic writer, the files `mlperf-go dataset download` fetches,
// pinned per round), Serving (API, served model, sampling, what responses
// carry), Submission (each round's checker rules, compliance tests, whether
// runs can be filed) and Fake (the fake endpoint's default answer). The
// core packages — the runner, the
// submission checks, the CLI — look benchmarks up here and never name one,
// as database/sql never names a driver. Adding a benchmark is one folder
// and one import in benchmarks/all.
package benchmark

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Benchmark is one MLPerf Inference benchmark: its facts and its behaviour,
// grouped by the layer that reads them, so a variant replaces a facet
// rather than a list of fields. Lookup returns it with a variant's facets
// applied when given a variant's name.
type Benchmark struct {
	// Identity names the benchmark (embedded: every layer names it).
	Identity
	// LoadGen is what LoadGen runs the benchmark as.
	LoadGen LoadGen
	// Data is the benchmark's dataset: its sizes, reader, synthetic writer
	// and downloads.
	Data Data
	// Serving is how requests go to the endpoint and what comes back.
	Serving Serving
	// Submission is what the submission tree and its checker require.
	Submission Submission
	// Fake is what the fake endpoint needs beyond the dataset's answers.
	Fake Fake
	// Variants are the benchmark's other LoadGen model names (Interactive,
	// edge), each with the facets that differ.
	Variants []Variant
}

var (
	mu    sync.RWMutex
	byKey = map[string]Benchmark{} // registered benchmarks by Name
)

// Register adds b to the registry; benchmarks call it from init. It panics
// when b lacks a name, dataset reader or submission directory, when a
// default sampling entry does not decode into its protocol's parameters, or
// when one of its names is taken, as database/sql.Register does.
func Register(b Benchmark) {
	mu.Lock()
	defer mu.Unlock()
	if b.Name == "" || b.SubmissionDir == "" || b.Data.Open == nil {
		panic(fmt.Sprintf("benchmark: Register(%q): Name, SubmissionDir and Data.Open are required", b.Name))
	}
	b.Base = b.Name
	for api := range b.Serving.Sampling {
		if _, err := b.DefaultSampling(api); err != nil {
			panic(fmt.Sprintf("benchmark: Register(%q): %v", b.Name, err))
		}
	}
	if err := checkDownloads(b.Data.Downloads); err != nil {
		panic(fmt.Sprintf("benchmark: Register(%q): %v", b.Name, err))
	}
	for _, v := range b.Variants {
		if v.Data == nil {
			continue
		}
		if v.Data.Open == nil {
			panic(fmt.Sprintf("benchmark: Register(%q): variant %s: its Data has no Open (copy the benchmark's Data and change what differs)", b.Name, v.Name))
		}
		if err := checkDownloads(v.Data.Downloads); err != nil {
			panic(fmt.Sprintf("benchmark: Register(%q): variant %s: %v", b.Name, v.Name, err))
		}
	}
	for _, n := range b.names() {
		if _, _, ok := lookupLocked(n); ok {
			panic(fmt.Sprintf("benchmark: Register(%q): the name %q is already registered", b.Name, n))
		}
	}
	byKey[b.Name] = b
}

// names are every name b answers to.
func (b Benchmark) names() []string {
	n := []string{b.Name, b.SubmissionDir}
	for _, v := range b.Variants {
		n = append(n, v.Name)
		if v.SubmissionDir != "" {
			n = append(n, v.SubmissionDir)
		}
	}
	return n
}

// Lookup returns the benchmark named name: a LoadGen model name, a
// variant's LoadGen name ("llama3_1-8b-interactive", returned with the
// variant's facts) or a submission directory name ("llama3.1-8b").
func Lookup(name string) (Benchmark, error) {
	mu.RLock()
	defer mu.RUnlock()
	if b, v, ok := lookupLocked(name); ok {
		return b.withVariant(v), nil
	}
	if len(byKey) == 0 {
		return Benchmark{}, fmt.Errorf("unknown benchmark %q: no benchmark is registered (import github.com/mlperf-go/mlperf-go/benchmarks/all)", name)
	}
	return Benchmark{}, fmt.Errorf("unknown benchmark %q: use one of %s", name, strings.Join(namesLocked(), ", "))
}

func lookupLocked(name string) (Benchmark, *Variant, bool) {
	if b, ok := byKey[name]; ok {
		return b, nil, true
	}
	for _, b := range byKey {
		if b.SubmissionDir == name {
			return b, nil, true
		}
		for i := range b.Variants {
			if v := &b.Variants[i]; v.Name == name || (v.SubmissionDir != "" && v.SubmissionDir == name) {
				return b, v, true
			}
		}
	}
	return Benchmark{}, nil, false
}

// InteractiveVariant returns the benchmark as its Interactive scenario
// runs it (the Variant marked Interactive applied); b itself when b is
// already that variant. A benchmark without one is an error naming the
// scenarios to use instead.
func (b Benchmark) InteractiveVariant() (Benchmark, error) {
	if b.Base != "" && b.Name != b.Base && !b.IsInteractive() {
		// Another variant (llama3_1-8b-edge) has no Interactive form, even
		// though it carries its base's variant list.
		return Benchmark{}, fmt.Errorf("benchmark %s has no Interactive scenario: use its own scenarios, or -b %s", b.Name, b.Base)
	}
	for i := range b.Variants {
		v := &b.Variants[i]
		if !v.Interactive {
			continue
		}
		if b.Name == v.Name {
			return b, nil
		}
		return b.withVariant(v), nil
	}
	return Benchmark{}, fmt.Errorf("benchmark %s has no Interactive scenario: use Offline or Server", b.Name)
}

// IsInteractive reports whether b is its benchmark's Interactive variant
// (what InteractiveVariant returns), whose Server runs are filed as
// Interactive.
func (b Benchmark) IsInteractive() bool {
	for _, v := range b.Variants {
		if v.Interactive && v.Name == b.Name {
			return true
		}
	}
	return false
}

// withVariant returns b with v's facets applied (b itself for nil).
func (b Benchmark) withVariant(v *Variant) Benchmark {
	if v == nil {
		return b
	}
	b.Name = v.Name
	if v.SubmissionDir != "" {
		b.SubmissionDir = v.SubmissionDir
	}
	if v.Description != "" {
		b.Description = v.Description
	}
	b.LoadGen = v.LoadGen
	if v.Data != nil {
		b.Data = *v.Data
	}
	if v.Submission != nil {
		b.Submission = *v.Submission
	}
	return b
}

// Names lists the registered benchmarks' LoadGen names with their
// variants', sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	var n []string
	for _, b := range byKey {
		n = append(n, b.Name)
		for _, v := range b.Variants {
			n = append(n, v.Name)
		}
	}
	sort.Strings(n)
	return n
}

// All returns the registered benchmarks (without variants applied), sorted
// by name.
func All() []Benchmark {
	mu.RLock()
	defer mu.RUnlock()
	all := make([]Benchmark, 0, len(byKey))
	for _, b := range byKey {
		all = append(all, b)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// LoadGenModel is the model name LoadGen runs b under: LoadGen.Model, else
// Name.
func (b Benchmark) LoadGenModel() string {
	if b.LoadGen.Model != "" {
		return b.LoadGen.Model
	}
	return b.Name
}
