// The layers of mlperf-go, from the commands at the top to the ground every
// part stands on. A package may import packages of its own layer or of a
// layer below it, never one above: the registry of benchmarks knows nothing
// of the runner, the runner nothing of the submission tooling.
// docs/layout.md draws the same table.
package mlperfgo_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/mlperf-go/mlperf-go"

// layers lists, from the top, the package path prefixes of each layer (a
// prefix names the package and those below its folder; the longest prefix
// decides).
var layers = []struct {
	name     string
	packages []string
}{
	{"commands", []string{"cmd/"}},
	{"the run workflow", []string{"workflow"}},
	{"workflows", []string{"tune", "report", "submission", "quality", "bench"}},
	{"one LoadGen test", []string{"run"}},
	{"the fake's answers", []string{"fake/answers"}},
	{"results and the fake endpoint", []string{"results", "fake"}},
	{"benchmarks", []string{"benchmarks/"}},
	{"the registry", []string{"benchmark"}},
	{"wire, engines, scorers, records", []string{"protocol", "sut", "qsl", "engine", "record", "score", "tokenizer", "download"}},
	{"ground", []string{"loadgen", "internal/"}},
}

// layerOf returns the index in layers of the package at path (relative to
// the module), or -1.
func layerOf(path string) int {
	best, bestLen := -1, -1
	for i, l := range layers {
		for _, p := range l.packages {
			dir := strings.TrimSuffix(p, "/")
			if (path == dir || strings.HasPrefix(path, dir+"/")) && len(dir) > bestLen {
				best, bestLen = i, len(dir)
			}
		}
	}
	return best
}

type listedPackage struct {
	ImportPath string
	Imports    []string
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	// -e lists packages that do not build here (the cgo ones without the
	// LoadGen build): their imports are still known.
	out, err := exec.Command("go", "list", "-e", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestLayers: every package belongs to a layer, and no import runs from a
// lower layer up to a higher one.
func TestLayers(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			continue // the module root: this test
		}
		from := layerOf(rel)
		if from < 0 {
			t.Errorf("package %s is in no layer: add it to layers here and to docs/layout.md", rel)
			continue
		}
		for _, imp := range p.Imports {
			irel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if to := layerOf(irel); to >= 0 && to < from {
				t.Errorf("%s (%s) imports %s (%s), a layer above it", rel, layers[from].name, irel, layers[to].name)
			}
		}
	}
}

// TestTestDoublesStayOutOfProduction: the fake endpoint is served only by
// the command (and used by tests and packages made for them, such as
// fake/faketest), and no production package imports a package made for
// tests (one that imports "testing").
func TestTestDoublesStayOutOfProduction(t *testing.T) {
	pkgs := listPackages(t)
	forTests := map[string]bool{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if imp == "testing" {
				forTests[p.ImportPath] = true
			}
		}
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		for _, imp := range p.Imports {
			switch {
			case forTests[imp] && !forTests[p.ImportPath]:
				t.Errorf("production package %s imports %s, a package made for tests", rel, strings.TrimPrefix(imp, module+"/"))
			case imp == module+"/fake" && !strings.HasPrefix(rel, "cmd/") && !strings.HasPrefix(rel, "fake/") && !forTests[p.ImportPath]:
				t.Errorf("%s imports the fake endpoint; only the command serves it (with its own fake/ packages)", rel)
			}
		}
	}
}
