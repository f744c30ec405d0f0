package faketest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
)

// The fake endpoint in a process of its own, for benchmarks that measure
// a client's CPU time alone: the test binary runs again as the fake
// (ServeChild, from its TestMain when the benchmark's environment
// variable says so) and StartChild reads the URL it serves at.

// ServeChild serves a fake endpoint with cfg on a free loopback port,
// writes its URL on a line of standard output and serves until standard
// input closes (the parent is done). It exits the process on an error.
func ServeChild(cfg fake.Config) {
	srv, err := fake.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(url)
	_, _ = io.Copy(io.Discard, os.Stdin) // until the parent closes it
	srv.Close()
}

// StartChild starts cmd, a test binary whose TestMain calls ServeChild,
// with start (cmd.Start when nil: a caller may place the child on some
// CPUs), and returns the URL it serves at; the child stops when the test
// or benchmark ends.
func StartChild(tb testing.TB, cmd *exec.Cmd, start func(*exec.Cmd) error) string {
	tb.Helper()
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if start == nil {
		start = (*exec.Cmd).Start
	}
	if err := start(cmd); err != nil {
		tb.Skipf("cannot start the fake endpoint's process: %v", err)
	}
	tb.Cleanup(func() { stdin.Close(); cmd.Wait() }) //nolint:errcheck // it ends when told
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		tb.Fatalf("fake endpoint child: %v", err)
	}
	return strings.TrimSpace(url)
}
