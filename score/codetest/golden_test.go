package codetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// goldenFile is testdata/golden.json, made by LiveCodeBench's own
// check_correctness (testdata/gen_golden.py).
type goldenFile struct {
	Source string
	Cases  []struct {
		Name    string
		Code    string
		FnName  *string `json:"fn_name"`
		Timeout int
		Tests   []Test
		Passed  bool
		Codes   json.RawMessage
	}
	LCBRows []struct {
		Public, Private, Metadata string
		Sample                    struct {
			Inputs  []string `json:"inputs"`
			Outputs []string `json:"outputs"`
			FnName  *string  `json:"fn_name"`
		}
	} `json:"lcb_rows"`
}

func readGolden(t *testing.T) goldenFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// newTestRunner makes a runner with network isolation, falling back to none
// (with a log line) on machines without user namespaces: the golden answers
// never touch the network.
func newTestRunner(t *testing.T, opts Options) *Runner {
	t.Helper()
	r, err := New(t.Context(), opts)
	if err != nil && opts.Isolation == NetNamespace && strings.Contains(err.Error(), "unshare") {
		t.Logf("no network isolation here (%v); running without it", err)
		opts.Isolation = NoIsolation
		r, err = New(t.Context(), opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestGolden runs every crafted answer and compares the verdict and the
// per-test codes with the reference's. "crash" (the process died or overran
// its deadline) is all -1 here; a result the reference keeps as a
// non-integer (an __eq__ returning a list) is 0 here, failing alike.
func TestGolden(t *testing.T) {
	t.Parallel()
	g := readGolden(t)
	byTimeout := map[int][]int{}
	for i, c := range g.Cases {
		byTimeout[c.Timeout] = append(byTimeout[c.Timeout], i)
	}
	for timeout, idx := range byTimeout {
		t.Run(fmt.Sprintf("timeout%ds", timeout), func(t *testing.T) {
			t.Parallel()
			runGoldenGroup(t, g, timeout, idx)
		})
	}
}

// runGoldenGroup runs the golden cases idx, which share one time limit.
func runGoldenGroup(t *testing.T, g goldenFile, timeout int, idx []int) {
	t.Helper()
	{
		r := newTestRunner(t, Options{TimeoutSeconds: timeout, Workers: 2})
		jobs := make([]Job, len(idx))
		for k, i := range idx {
			c := g.Cases[i]
			p := Problem{ID: c.Name, Tests: c.Tests}
			if c.FnName != nil {
				p.FuncName = *c.FnName
			}
			jobs[k] = Job{Code: c.Code, Problem: p}
		}
		res, err := r.RunAll(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		for k, i := range idx {
			c := g.Cases[i]
			want := wantCodes(t, c.Codes, len(c.Tests))
			if res[k].Passed != c.Passed || !slices.Equal(res[k].Codes, want) {
				t.Errorf("%s: passed %v codes %v (%s); reference passed %v codes %s",
					c.Name, res[k].Passed, res[k].Codes, res[k].Detail, c.Passed, c.Codes)
			}
		}
	}
}

func wantCodes(t *testing.T, raw json.RawMessage, tests int) []int {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil && s == "crash" {
		codes := make([]int, tests)
		for i := range codes {
			codes[i] = -1
		}
		return codes
	}
	var vals []any
	if err := json.Unmarshal(raw, &vals); err != nil {
		t.Fatalf("golden codes %s: %v", raw, err)
	}
	codes := []int{}
	for _, v := range vals {
		n, ok := v.(float64)
		if !ok {
			n = 0
		}
		codes = append(codes, int(n))
	}
	return codes
}

// TestDecodeLCB decodes dataset rows in every encoding code_generation_lite
// uses and compares the tests with the evaluation sample LiveCodeBench's
// CodeGenerationProblem builds from the same row.
func TestDecodeLCB(t *testing.T) {
	t.Parallel()
	g := readGolden(t)
	if len(g.LCBRows) == 0 {
		t.Fatal("no lcb_rows in the golden file")
	}
	for i, row := range g.LCBRows {
		p, err := DecodeLCB("q1", row.Public, row.Private, row.Metadata)
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		var in, out []string
		for _, tc := range p.Tests {
			in, out = append(in, tc.Input), append(out, tc.Output)
		}
		wantFn := ""
		if row.Sample.FnName != nil {
			wantFn = *row.Sample.FnName
		}
		if !slices.Equal(in, row.Sample.Inputs) || !slices.Equal(out, row.Sample.Outputs) || p.FuncName != wantFn {
			t.Errorf("row %d: decoded %d tests, func %q; reference %d tests, func %q",
				i, len(p.Tests), p.FuncName, len(row.Sample.Inputs), wantFn)
		}
	}
	if _, err := DecodeLCB("q2", "[]", "not base64!", "{}"); err == nil || !strings.Contains(err.Error(), "q2") {
		t.Errorf("bad private tests: error %v, want one naming the question", err)
	}
}
