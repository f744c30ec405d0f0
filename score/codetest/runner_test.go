package codetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var echoProblem = Problem{ID: "echo", Tests: []Test{{Input: "3\n", Output: "6\n"}}}

// TestNoNetwork checks that an answer cannot open a connection: under the
// namespace even a loopback connection fails, as no interface is up.
func TestNoNetwork(t *testing.T) {
	t.Parallel()
	r, err := New(Options{TimeoutSeconds: 5})
	if err != nil {
		t.Skipf("network isolation unavailable on this machine: %v", err)
	}
	defer r.Close()
	code := "import socket\ns = socket.create_connection(('127.0.0.1', 9), timeout=2)\nprint(6)"
	res, err := r.Run(context.Background(), code, echoProblem)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed || len(res.Codes) != 1 || res.Codes[0] != -4 || !strings.Contains(res.Detail, "Network is unreachable") {
		t.Errorf("a connection attempt gave %+v, want a runtime error: network unreachable", res)
	}
}

// TestMemoryLimit checks Options.MemoryBytes: the same allocation passes
// without a limit (the reference's setting) and fails under one.
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	code := "x = bytearray(600 * 1024 * 1024)\nprint(int(input()) * 2)"
	for _, tc := range []struct {
		limit int64
		pass  bool
	}{{0, true}, {400 << 20, false}} {
		r := newTestRunner(t, Options{TimeoutSeconds: 10, MemoryBytes: tc.limit})
		res, err := r.Run(context.Background(), code, echoProblem)
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed != tc.pass {
			t.Errorf("limit %d: %+v, want passed %v", tc.limit, res, tc.pass)
		}
	}
}

// TestHarnessErrors checks that a missing interpreter or an unusable job is
// an error naming the cause, never a failed answer.
func TestHarnessErrors(t *testing.T) {
	t.Parallel()
	if _, err := New(Options{Python: "/nonexistent/python3"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing interpreter: %v", err)
	}
	r := newTestRunner(t, Options{TimeoutSeconds: 5})
	// A harness that cannot run is an error for every job.
	for len(r.idle) > 0 {
		(<-r.idle).stop()
	}
	if err := os.WriteFile(r.harness, []byte("raise SystemExit('broken harness')\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := r.Run(context.Background(), "print(6)", echoProblem)
	if err == nil || !strings.Contains(err.Error(), "broken harness") || !strings.Contains(err.Error(), "echo") {
		t.Errorf("broken harness: %v, want an error naming the question and the cause", err)
	}
	_, err = r.RunAll(context.Background(), []Job{{Code: "print(6)", Problem: echoProblem}})
	if err == nil {
		t.Error("RunAll hid a harness failure")
	}
}

// TestEmptyCode checks that empty code fails without a process, as the
// reference's `if not code` does.
func TestEmptyCode(t *testing.T) {
	t.Parallel()
	r := &Runner{opts: Options{TimeoutSeconds: 1}, dir: filepath.Join(t.TempDir(), "absent")}
	res, err := r.Run(context.Background(), "", echoProblem)
	if err != nil || res.Passed {
		t.Errorf("empty code: %+v, %v", res, err)
	}
}
