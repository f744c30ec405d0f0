package all

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestBenchmarkFolders holds the naming rule docs/layout.md states: a
// benchmark's folder is its package's name, which keeps its registration
// in <package>.go, its checker rules per round in rounds.go, its download
// pins in downloads.go and its evaluator in evaluate.go; and all.go imports
// every such folder, so each registers itself.
func TestBenchmarkFolders(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	all, err := parser.ParseFile(fset, "all.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var imported []string
	for _, s := range all.Imports {
		p, _ := strconv.Unquote(s.Path.Value)
		imported = append(imported, filepath.Base(p))
	}
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		dir := e.Name()
		if !e.IsDir() || dir == "all" || dir == "internal" {
			continue
		}
		n++
		if !slices.Contains(imported, dir) {
			t.Errorf("benchmarks/%s is not imported by benchmarks/all/all.go, so it never registers", dir)
		}
		for _, f := range []string{dir + ".go", "rounds.go", "downloads.go", "evaluate.go"} {
			if _, err := os.Stat(filepath.Join("..", dir, f)); err != nil {
				t.Errorf("benchmarks/%s has no %s (docs/layout.md's naming rule)", dir, f)
			}
		}
		main := filepath.Join("..", dir, dir+".go")
		src, err := os.ReadFile(main)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(fset, main, src, parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != dir {
			t.Errorf("benchmarks/%s holds package %s: name the folder for its package", dir, f.Name.Name)
		}
		if !strings.Contains(string(src), "benchmark.Register(") {
			t.Errorf("%s does not register the benchmark (benchmark.Register in <package>.go)", main)
		}
	}
	if n < len(imported) {
		t.Errorf("found %d benchmark folders but all.go imports %d", n, len(imported))
	}
}
