package codetest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"testing"
)

// preloadedFile is testdata/preloaded.json, made by LiveCodeBench's own
// check_correctness in a process that imported numpy, pandas and tqdm as
// the MLPerf evaluators' processes do (testdata/gen_preloaded.py).
type preloadedFile struct {
	Modules map[string]string
	Cases   []struct {
		Name    string
		Module  string
		Code    string
		FnName  *string `json:"fn_name"`
		Timeout int
		Tests   []Test
		Passed  bool
		Codes   []int
	}
}

// TestPreloadedModules runs answers importing each module the reference's
// process has loaded and compares the verdicts with the reference's: they
// pass there because the module was imported before reliability_guard set
// os.putenv to None. A module the test's python3 lacks skips its cases,
// saying so; CI installs them (.ci/run).
func TestPreloadedModules(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/preloaded.json")
	if err != nil {
		t.Fatal(err)
	}
	var g preloadedFile
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, Options{TimeoutSeconds: 5, Workers: 2})
	missing := r.Missing()
	list := regexp.MustCompile(`(?m)^PRELOADED = \[(.*)\]$`).FindSubmatch(harnessSource)
	if list == nil {
		t.Fatal("harness.py has no PRELOADED list")
	}
	for _, m := range regexp.MustCompile(`"(\w+)"`).FindAllSubmatch(list[1], -1) {
		name := string(m[1])
		if _, ok := g.Modules[name]; !ok {
			t.Errorf("harness.py preloads %s, for which preloaded.json has no case: add one to gen_preloaded.py and regenerate", name)
		}
		// Missing names exactly the modules python3 cannot import.
		lacks := exec.Command(r.python, "-c", "import "+name).Run() != nil
		if lacks != slices.Contains(missing, name) {
			t.Errorf("Missing() = %v, but python3 lacks %s: %v", missing, name, lacks)
		}
	}
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			if slices.Contains(missing, c.Module) {
				t.Skipf("python3 here cannot import %s (the reference's process has %s %s loaded); pip install %s to run this case", c.Module, c.Module, g.Modules[c.Module], c.Module)
			}
			p := Problem{ID: c.Name, Tests: c.Tests}
			if c.FnName != nil {
				p.FuncName = *c.FnName
			}
			res, err := r.Run(context.Background(), c.Code, p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed != c.Passed || !slices.Equal(res.Codes, c.Codes) {
				t.Errorf("passed %v codes %v (%s); reference passed %v codes %v", res.Passed, res.Codes, res.Detail, c.Passed, c.Codes)
			}
		})
	}
}
