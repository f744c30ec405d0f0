package codetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var echoProblem = Problem{ID: "echo", Tests: []Test{{Input: "3\n", Output: "6\n"}}}

// TestNoNetwork checks that an answer cannot open a connection: under the
// namespace even a loopback connection fails, as no interface is up.
func TestNoNetwork(t *testing.T) {
	t.Parallel()
	r, err := New(t.Context(), Options{TimeoutSeconds: 5})
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
	if _, err := New(t.Context(), Options{Python: "/nonexistent/python3"}); err == nil || !strings.Contains(err.Error(), "not found") {
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

// TestCancelKillsAnswers: cancelling the runner's context (Ctrl-C during an
// evaluation) kills the harness and the answer it is running, and the job
// waiting on it returns the context's error at once, not after the answer's
// 60-second limit.
func TestCancelKillsAnswers(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r, err := New(ctx, Options{TimeoutSeconds: 60, Workers: 1, Isolation: NoIsolation})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	started := filepath.Join(t.TempDir(), "pid")
	code := "import os, time\nwith open(" + strconv.Quote(started) + ", 'w') as f:\n    f.write(str(os.getpid()))\ntime.sleep(60)\nprint(6)"
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(context.Background(), code, echoProblem)
		done <- err
	}()
	var pid int
	for pid == 0 {
		select {
		case err := <-done:
			t.Fatalf("the answer ended before it was cancelled: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if b, err := os.ReadFile(started); err == nil {
			pid, _ = strconv.Atoi(string(b))
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10 s of the cancel")
	}
	for deadline := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the answer's process %d still runs after the cancel", pid)
		}
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
