package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/workflow"
)

// synthCLI writes n synthetic samples of a benchmark with `dataset synth`
// and returns the --dataset arguments for them.
func synthCLI(t testing.TB, name string, n int) []string {
	t.Helper()
	dir := t.TempDir()
	out, err := runCLI(t, "dataset", "synth", "-b", name, "-n", strconv.Itoa(n), "-o", dir)
	if err != nil {
		t.Fatalf("dataset synth %s: %v\n%s", name, err, out)
	}
	var args []string
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); line != "" && strings.HasPrefix(line, dir) {
			args = append(args, "-d", line)
		}
	}
	if len(args) == 0 {
		t.Fatalf("dataset synth %s printed no files:\n%s", name, out)
	}
	return args
}

var samplesLine = regexp.MustCompile(`(\d+) issued, (\d+) completed, (\d+) failed`)

// issuedCompleted reads the samples line run prints.
func issuedCompleted(t *testing.T, out string) (issued, completed, failed int) {
	t.Helper()
	m := samplesLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no samples line in the output:\n%s", out)
	}
	issued, _ = strconv.Atoi(m[1])
	completed, _ = strconv.Atoi(m[2])
	failed, _ = strconv.Atoi(m[3])
	return issued, completed, failed
}

// TestQuickRunsEveryBenchmark runs every registered benchmark with --quick
// against the fake endpoint, on a synthetic dataset larger than a quick
// run: each must issue exactly workflow.QuickSamples samples (mlperf.conf alone
// would issue thousands) in seconds, in performance and accuracy mode.
func TestQuickRunsEveryBenchmark(t *testing.T) {
	loadgentest.Require(t)
	for _, b := range benchmark.All() {
		t.Run(b.Name, func(t *testing.T) {
			data := synthCLI(t, b.Name, 3*workflow.QuickSamples)
			url := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 8, TTFT: time.Millisecond, TPOT: time.Millisecond})
			for _, mode := range []string{"performance", "accuracy"} {
				out := filepath.Join(t.TempDir(), mode)
				args := append([]string{"run", "-b", b.Name, "-s", "Offline", "-m", mode, "-e", url, "-o", out,
					"--quick", "--progress-interval", "0", "--engine-metrics-interval", "0"}, data...)
				start := time.Now()
				text, err := runCLI(t, args...)
				took := time.Since(start)
				if err != nil {
					t.Fatalf("%s: %v\n%s", mode, err, text)
				}
				issued, completed, failed := issuedCompleted(t, text)
				if issued != workflow.QuickSamples || completed != workflow.QuickSamples || failed != 0 {
					t.Errorf("%s: %d issued, %d completed, %d failed; want %d issued and completed", mode, issued, completed, failed, workflow.QuickSamples)
				}
				if took > 30*time.Second {
					t.Errorf("%s: a quick run took %s", mode, took)
				}
				conf, err := os.ReadFile(filepath.Join(out, "user.conf"))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(conf), b.LoadGenModel()+".Offline.min_duration = 0") {
					t.Errorf("%s: user.conf does not carry the quick settings:\n%s", mode, conf)
				}
			}
		})
	}
}

// TestQuickServerAndOverrides checks that a quick Server run issues its
// samples at the given target QPS, that the user's own settings win over
// --quick's, and that a quick run is refused a results tree.
func TestQuickServerAndOverrides(t *testing.T) {
	loadgentest.Require(t)
	const name = "llama3_1-8b"
	data := synthCLI(t, name, 40)
	url := startFake(t, fake.Config{Model: mustLookup(t, name).Serving.Model, OutputTokens: 8, TTFT: time.Millisecond, TPOT: time.Millisecond})
	base := append([]string{"run", "-b", name, "-e", url, "--quick", "--progress-interval", "0", "--engine-metrics-interval", "0"}, data...)

	out := filepath.Join(t.TempDir(), "server")
	text, err := runCLI(t, append(base, "-s", "Server", "--target-qps", "200", "-o", out)...)
	// Ten queries cannot satisfy early stopping: INVALID (exit 3) is the
	// honest outcome; the run itself must have completed every sample.
	if c := exitCode(err); c != 0 && c != 3 {
		t.Fatalf("quick Server run: %v\n%s", err, text)
	}
	if issued, completed, failed := issuedCompleted(t, text); issued != workflow.QuickSamples || completed != issued || failed != 0 {
		t.Errorf("quick Server: %d issued, %d completed, %d failed", issued, completed, failed)
	}

	// --total-sample-count sizes the quick run; --min-query-count wins
	// over --quick's min_query_count. LoadGen rounds an Offline query up
	// to whole permutations of the 20 loaded samples
	// (sample_concatenate_permutation in mlperf.conf): 25 becomes 40.
	out = filepath.Join(t.TempDir(), "sized")
	text, err = runCLI(t, append(base, "-s", "Offline", "--total-sample-count", "20", "--min-query-count", "25", "-o", out)...)
	if err != nil {
		t.Fatalf("sized quick run: %v\n%s", err, text)
	}
	if issued, _, _ := issuedCompleted(t, text); issued != 40 {
		t.Errorf("quick run with --total-sample-count 20 --min-query-count 25 issued %d samples, want 40", issued)
	}

	text, err = runCLI(t, append(base, "-o", filepath.Join(t.TempDir(), "x"), "--results-dir", t.TempDir(), "--system", "sys")...)
	if err == nil || !strings.Contains(err.Error(), "--quick") {
		t.Fatalf("--quick with --results-dir: want a refusal naming --quick, got %v\n%s", err, text)
	}
}
