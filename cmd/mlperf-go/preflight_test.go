package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestPreflight: before LoadGen starts, a wrong --model is refused within
// seconds naming what is served and how to pass it, a dead endpoint is
// refused naming it, a server failing every request is refused by the
// probe request, and --skip-preflight skips the checks (the run then
// goes ahead and fails on its own).
func TestPreflight(t *testing.T) {
	loadgentest.Require(t)
	model := mustLookup(t, "llama3_1-8b").Serving.Model
	data := llamaData(t, 20)
	good := startFake(t, fake.Config{Model: model, OutputTokens: 4})
	failing := startFake(t, fake.Config{Model: model, OutputTokens: 4, FailRate: 1})
	other := startFake(t, fake.Config{Model: "someone/else-7b", OutputTokens: 4})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()

	run := func(endpoint string, extra ...string) (string, error, string) {
		out := filepath.Join(t.TempDir(), "out")
		args := append([]string{"run", "-b", "llama3_1-8b", "-s", "Offline", "-m", "accuracy", "-d", data, "-e", endpoint, "-o", out,
			"--progress-interval", "0", "--retries", "0"}, extra...)
		stdout, err := runCLI(t, args...)
		return stdout, err, out
	}
	for _, tc := range []struct {
		name     string
		endpoint string
		extra    []string
		want     []string
	}{
		{"wrong model", other, nil, []string{"serves someone/else-7b", model, "--model NAME"}},
		{"dead endpoint", dead, nil, []string{"endpoint " + dead + " does not answer", "connection refused"}},
		{"second endpoint dead", good, []string{"-e", dead}, []string{dead}},
		{"every request fails", failing, nil, []string{"probe request (sample 0, 4 tokens", "http_status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, err, out := run(tc.endpoint, tc.extra...)
			if err == nil {
				t.Fatalf("run passed:\n%s", stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if _, err := os.Stat(filepath.Join(out, "mlperf_log_detail.txt")); err == nil {
				t.Errorf("LoadGen started despite the failed preflight")
			}
		})
	}
	t.Run("passes", func(t *testing.T) {
		if stdout, err, _ := run(good); err != nil {
			t.Fatalf("run against a good endpoint: %v\n%s", err, stdout)
		}
	})
	t.Run("skipped", func(t *testing.T) {
		// The wrong model is not caught before the test: LoadGen starts
		// and the samples fail.
		stdout, err, out := run(other, "--skip-preflight")
		if exitCode(err) != 1 || strings.Contains(err.Error(), "preflight") {
			t.Fatalf("skipped preflight: exit %d, %v\n%s", exitCode(err), err, stdout)
		}
		if _, err := os.Stat(filepath.Join(out, "mlperf_log_detail.txt")); err != nil {
			t.Errorf("LoadGen did not run with --skip-preflight: %v", err)
		}
	})
}
