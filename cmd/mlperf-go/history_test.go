package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
)

// TestRunHistory runs twice without --output-dir: each run gets its own
// timestamped folder, `latest` follows the newest and the index lists
// both. An --output-dir that holds a run is refused unless --overwrite.
func TestRunHistory(t *testing.T) {
	loadgentest.Require(t)
	const name = "llama3_1-8b"
	data := synthCLI(t, name, 20)
	url := startFake(t, fake.Config{Model: mustLookup(t, name).Model, OutputTokens: 4, TTFT: time.Millisecond, TPOT: time.Millisecond})
	runs := filepath.Join(t.TempDir(), "runs")
	base := append([]string{"run", "-b", name, "-s", "Offline", "-e", url, "--quick", "--progress-interval", "0",
		"--engine-metrics-interval", "0", "--runs-dir", runs}, data...)

	// A run that fails before its test (here: no such dataset) leaves no
	// empty run folder behind.
	bad := []string{"run", "-b", name, "-s", "Offline", "-e", url, "--quick", "--runs-dir", runs, "-d", filepath.Join(t.TempDir(), "missing.json")}
	if out, err := runCLI(t, bad...); err == nil {
		t.Fatalf("a run on a missing dataset succeeded:\n%s", out)
	}
	if _, err := os.Stat(runs); !os.IsNotExist(err) {
		t.Fatalf("a failed run left %s behind (%v)", runs, err)
	}
	// Nor does one whose preflight fails (nothing listens on port 9), with
	// or without --output-dir, or a compliance run's folder.
	failedOut := filepath.Join(t.TempDir(), "out", "perf")
	for _, extra := range [][]string{{"--runs-dir", runs}, {"-o", failedOut}, {"-o", failedOut, "--compliance", "TEST06"}} {
		args := append([]string{"run", "-b", name, "-s", "Offline", "-e", "http://127.0.0.1:9", "--quick"}, extra...)
		if o, err := runCLI(t, append(args, data...)...); err == nil || !strings.Contains(err.Error(), "preflight") {
			t.Fatalf("%v against a closed port: %v\n%s", extra, err, o)
		}
		for _, dir := range []string{runs, filepath.Dir(failedOut)} {
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("a run whose preflight failed (%v) left %s behind (%v)", extra, dir, err)
			}
		}
	}

	for i := range 2 {
		if out, err := runCLI(t, base...); err != nil {
			t.Fatalf("run %d: %v\n%s", i, err, out)
		}
	}
	parent := filepath.Join(runs, name, "Offline-performance")
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 2 {
		t.Fatalf("want two run folders in %s, got %v", parent, dirs)
	}
	for _, d := range dirs {
		if _, err := time.Parse("20060102T150405Z", strings.SplitN(d, "-", 2)[0]); err != nil {
			t.Errorf("run folder %q is not a UTC timestamp: %v", d, err)
		}
		if _, err := os.Stat(filepath.Join(parent, d, mllog.DetailFile)); err != nil {
			t.Errorf("run folder %s has no LoadGen log: %v", d, err)
		}
	}
	// ReadDir sorts by name, and names sort by time (same-second runs
	// get -2): the second is the newest.
	if got, err := os.Readlink(filepath.Join(parent, record.LatestLink)); err != nil || got != dirs[1] {
		t.Errorf("latest -> %q (%v), want %q", got, err, dirs[1])
	}
	index, err := os.ReadFile(filepath.Join(runs, record.IndexHTMLFile))
	if err != nil {
		t.Fatalf("no index of runs: %v", err)
	}
	for _, d := range dirs {
		if !strings.Contains(string(index), d) {
			t.Errorf("the index does not list run %s", d)
		}
	}
	if strings.Contains(string(index), record.LatestLink+"/") {
		t.Errorf("the index lists the latest link as a run of its own")
	}

	// An existing run folder is never silently replaced.
	first := filepath.Join(parent, dirs[0])
	before, err := os.ReadFile(filepath.Join(first, mllog.DetailFile))
	if err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, append(base, "-o", first)...)
	if err == nil || !strings.Contains(err.Error(), "--overwrite") {
		t.Fatalf("re-using a run's --output-dir: want a refusal naming --overwrite, got %v\n%s", err, out)
	}
	if after, _ := os.ReadFile(filepath.Join(first, mllog.DetailFile)); string(after) != string(before) {
		t.Fatal("a refused run changed the earlier run's log")
	}
	if out, err := runCLI(t, append(base, "-o", first, "--overwrite")...); err != nil {
		t.Fatalf("--overwrite: %v\n%s", err, out)
	}
	// An empty or new --output-dir needs nothing.
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := runCLI(t, append(base, "-o", empty)...); err != nil {
		t.Fatalf("empty --output-dir: %v\n%s", err, out)
	}
}
