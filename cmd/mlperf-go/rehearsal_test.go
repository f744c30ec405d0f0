package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// rehearsalObjections are what `submission check` may say of the
// rehearsal's short runs, and only they: a minimum duration, Offline query
// size and early stopping no second-long run meets, and qwen3-vl's
// accuracy over a synthetic subset. Anything else is a real problem of the
// tree.
var rehearsalObjections = regexp.MustCompile(`effective_min_duration_ms is \d+, must be at least 600000|` +
	`effective_samples_per_query is \d+, must be at least|Result is : INVALID|result_validity is "INVALID"|` +
	`early stopping condition not met|qwen3-vl-235b-a22b/\w+/accuracy/mlperf_log_detail.txt: accuracy run covered \d+ samples`)

// TestRehearsal runs scripts/rehearsal.sh, the documented command sequence
// that makes a complete results tree for llama3.1-8b and qwen3-vl against
// the fake, at reduced durations: every run it makes succeeds, every
// accuracy run is mlperf-go's PASS (llama3.1-8b's over all 13,368
// synthetic samples, so gen_len is the whole set's), TEST06 passes, the
// tree is packaged, and the check objects only to what short runs cannot
// satisfy. Llama 3's tokenizer encodes and decodes the summaries (gen_len
// depends on it), so the test needs MLPERF_GO_LLAMA3_TOKENIZER.
func TestRehearsal(t *testing.T) {
	loadgentest.Require(t)
	tok := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER")
	if tok == "" {
		t.Skip("MLPERF_GO_LLAMA3_TOKENIZER is not set: run scripts/fetch-test-tokenizers.sh DIR and set it to DIR/llama3/tokenizer.model")
	}
	if testing.Short() {
		t.Skip("the rehearsal takes minutes")
	}
	if raceDetector {
		// ctest runs it on its own without the race detector (the
		// rehearsal test): under it, the rehearsal's dozens of CLI
		// processes, each this test binary, take many minutes more.
		t.Skip("the rehearsal runs without -race (ctest's rehearsal test)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mlperf-go")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexec env "+selfCLI(t)+` "$@"`+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command(filepath.Join("..", "..", "scripts", "rehearsal.sh"))
	cmd.Env = append(os.Environ(), "BIN="+bin, "OUT="+out, "TOKENIZER="+tok,
		"DURATION=500", "PERF_SAMPLES=100", "QWEN_SAMPLES=60", "QPS=200")
	b, err := cmd.CombinedOutput()
	log := string(b)
	if err != nil {
		t.Fatalf("rehearsal.sh: %v\n%s", err, log)
	}
	if n := strings.Count(log, "=== Accuracy: PASS ==="); n != 4 || strings.Contains(log, "Accuracy: FAIL") {
		t.Errorf("%d accuracy runs passed, want 4 (llama3.1-8b and qwen3-vl, Offline and Server):\n%s", n, log)
	}
	tree := filepath.Join(out, "sub", "closed", "Rehearsal", "results", "rehearsal")
	for _, bench := range []string{"llama3.1-8b", "qwen3-vl-235b-a22b"} {
		for _, scen := range []string{"Offline", "Server"} {
			d := filepath.Join(tree, bench, scen)
			for _, f := range []string{"accuracy/accuracy.txt", "accuracy/mlperf_log_accuracy.json", "performance/run_1/mlperf_log_detail.txt", "measurements.json", "README.md", "user.conf"} {
				if _, err := os.Stat(filepath.Join(d, f)); err != nil {
					t.Errorf("the package lacks %s: %v", filepath.Join(bench, scen, f), err)
				}
			}
			acc, _ := os.ReadFile(filepath.Join(d, "accuracy", "accuracy.txt"))
			if !regexp.MustCompile(`(?m)^hash=[0-9a-f]{64}$`).Match(acc) {
				t.Errorf("%s %s accuracy.txt has no hash= line:\n%s", bench, scen, acc)
			}
			if bench == "llama3.1-8b" {
				v, _ := os.ReadFile(filepath.Join(d, "TEST06", "verify_accuracy.txt"))
				if !strings.Contains(string(v), "EOS check pass: True") || !strings.Contains(string(v), "Sample length check pass: True") {
					t.Errorf("%s TEST06 verify_accuracy.txt:\n%s", scen, v)
				}
			}
		}
	}
	check := log[strings.LastIndex(log, "packaged "):]
	for _, line := range strings.Split(check, "\n") {
		if strings.HasPrefix(line, out) && !rehearsalObjections.MatchString(line) {
			t.Errorf("submission check objects to more than the short runs: %s", line)
		}
	}
}

// TestScriptsSayTheFakeExited: a script waiting for a fake endpoint to
// serve notices at once when it has exited, and says so with its log,
// instead of waiting out its timeout: scripts/rehearsal.sh given a
// TOKENIZER that does not exist, and scripts/demo.sh whose fake cannot
// start.
func TestScriptsSayTheFakeExited(t *testing.T) {
	loadgentest.Require(t)
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "mlperf-go")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexec env "+selfCLI(t)+` "$@"`+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A binary whose fake endpoint cannot start, like one on a taken port.
	noFake := filepath.Join(dir, "mlperf-go-nofake")
	if err := os.WriteFile(noFake, []byte("#!/bin/sh\nif [ \"$1\" = fake-endpoint ]; then echo 'listen tcp 127.0.0.1:0: address already in use' >&2; exit 3; fi\nexec "+sh(bin)+` "$@"`+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no-such", "tokenizer.model")
	for _, tc := range []struct {
		script string
		env    []string
		want   []string
	}{
		{"rehearsal.sh", []string{"BIN=" + bin, "OUT=" + filepath.Join(dir, "rehearsal"), "TOKENIZER=" + missing, "QWEN_SAMPLES=4"},
			[]string{"rehearsal: the llama fake exited (status 1) before it served:", missing}},
		{"demo.sh", []string{"BIN=" + noFake, "DEMO_DIR=" + filepath.Join(dir, "demo"), "SAMPLES=4"},
			[]string{"demo: the fake endpoint exited (status 3) before it served:", "address already in use"}},
	} {
		cmd := exec.Command(filepath.Join("..", "..", "scripts", tc.script))
		cmd.Env = append(os.Environ(), tc.env...)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%s passed with a fake that cannot start:\n%s", tc.script, out)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s said:\n%s\nwant %q", tc.script, out, w)
			}
		}
	}
}
