package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/submission/filing"
)

// noFileClaimsValid fails the test if any file under dir says LoadGen's
// "Result is : VALID".
func noFileClaimsValid(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "Result is : VALID") {
			t.Errorf("%s says \"Result is : VALID\" in an aborted run", p)
		}
		return nil
	})
}

// outputOf reads a child's output file at the time it is asked.
type outputOf struct{ path string }

func (o outputOf) String() string {
	b, _ := os.ReadFile(o.path)
	return string(b)
}

func readRecord(t *testing.T, dir string) record.Run {
	t.Helper()
	info, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// stillRunning is how long after SIGTERM TestSIGTERMAbortsPromptly calls
// a run stuck: well under the ten minutes the runs would last, and far
// over what leaving takes on any machine (run.AbortGrace, then the
// report), so the test tells an abort from a run played to its end and
// never measures this machine's speed.
const stillRunning = 4 * time.Minute

// TestSIGTERMAbortsPromptly signals a real mlperf-go process (this test
// binary as the CLI) in the middle of a Server run and of an Offline run,
// each with a ten-minute min_duration: each exits with 130 long before
// its natural end (stillRunning), its run record says ABORTED, and no file
// claims VALID.
func TestSIGTERMAbortsPromptly(t *testing.T) {
	loadgentest.Require(t)
	model := mustLookup(t, "llama3_1-8b").Serving.Model
	data := llamaData(t, 50)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ttft time.Duration
		args []string
	}{
		// LoadGen plays the Server schedule to min_duration even aborted.
		{"Server", 20 * time.Millisecond, []string{"-s", "Server", "--target-qps", "20", "--min-duration", "600000"}},
		// 600 samples (1 QPS for ten minutes) one at a time at 1 s each.
		{"Offline", time.Second, []string{"-s", "Offline", "--target-qps", "1", "--concurrency", "1", "--min-duration", "600000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each runs the CLI in a process of its own
			srv, url := startFakeServer(t, fake.Config{Model: model, OutputTokens: 4, TTFT: tc.ttft})
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"--log-level", "warn", "run", "-b", "llama3_1-8b", "-d", data, "-e", url, "-o", out, "--progress-interval", "0"}, tc.args...)
			cmd := exec.Command(self, args...)
			cmd.Env = append(os.Environ(), beCLI+"=1")
			outFile, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
			if err != nil {
				t.Fatal(err)
			}
			defer outFile.Close()
			outBuf := outputOf{outFile.Name()}
			cmd.Stdout, cmd.Stderr = outFile, outFile
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill() //nolint:errcheck // only if the test failed
			deadline := time.Now().Add(60 * time.Second)
			for {
				if _, err := os.Stat(filepath.Join(out, "mlperf_log_detail.txt")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the test never started:\n%s", outBuf.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			// Signal once LoadGen's samples reach the fake (beyond the
			// preflight's one probe), not after a guess.
			for deadline := time.Now().Add(30 * time.Second); srv.Stats().Requests["/v1/completions"] < 3; {
				if time.Now().After(deadline) {
					t.Fatalf("no request reached the fake:\n%s", outBuf.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(stillRunning):
				t.Fatalf("still running %s after SIGTERM, when the run would have lasted ten minutes:\n%s", stillRunning, outBuf.String())
			}
			t.Logf("exited %s after SIGTERM", time.Since(sent))
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("exit = %v, want 130\n%s", err, outBuf.String())
			}
			if res, err := results.Read(out); err != nil || res.Outcome.Status != results.StatusAborted {
				t.Errorf("results.json of the aborted run: %v, want status ABORTED", err)
			}
			if _, err := os.Stat(filepath.Join(out, "report.html")); err != nil {
				t.Errorf("the aborted run has no report: %v", err)
			}
			info := readRecord(t, out)
			if info.Outcome != record.Aborted || !strings.Contains(info.OutcomeReason, "interrupted by SIGTERM") {
				t.Errorf("record outcome %q (%q), want ABORTED by the signal", info.Outcome, info.OutcomeReason)
			}
			if b, _ := os.ReadFile(filepath.Join(out, record.File)); !strings.Contains(string(b), `"outcome": "ABORTED"`) {
				t.Errorf("the record lacks \"outcome\": \"ABORTED\" (the Slurm scripts look for it):\n%s", b)
			}
			if !strings.Contains(outBuf.String(), "=== Outcome: ABORTED") {
				t.Errorf("the user was not told the run was aborted:\n%s", outBuf.String())
			}
			if info.Samples == nil || info.Samples.Issued == 0 {
				t.Errorf("the record has no sample counts: %+v", info.Samples)
			}
			if len(info.RemovedLogs) == 0 && len(info.RenamedLogs) == 0 {
				t.Errorf("the record says nothing about LoadGen's logs: %+v", info)
			}
			if _, err := os.Stat(filepath.Join(out, "mlperf_log_summary.txt")); err == nil {
				t.Errorf("the summary is left under its own name in an aborted run")
			}
			// The detail log stays (Slurm's test looks for it), every line
			// of it whole, and no result_validity in it says VALID.
			d, err := mllog.ReadDetail(filepath.Join(out, "mlperf_log_detail.txt"), mllog.Strict)
			if err != nil {
				t.Errorf("the aborted run's detail log does not parse: %v", err)
			} else if v, ok, _ := d.String("result_validity"); ok && v == "VALID" {
				t.Errorf("the aborted run's detail log says result_validity VALID")
			}
			noFileClaimsValid(t, out)
		})
	}
}

// TestFailedSamplesMakeRunInvalid: a performance run in which samples fail
// (the fake fails 30% with HTTP 500, retries off) says INVALID with the
// reason in its headline, record and exit code, and --results-dir refuses
// to file it whatever LoadGen's summary says.
func TestFailedSamplesMakeRunInvalid(t *testing.T) {
	loadgentest.Require(t)
	url := startFake(t, fake.Config{Model: mustLookup(t, "llama3_1-8b").Serving.Model, OutputTokens: 4, FailRate: 0.3, Seed: 3})
	dir := t.TempDir()
	out, results := filepath.Join(dir, "out"), filepath.Join(dir, "results")
	stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-s", "Offline", "-d", llamaData(t, 60), "-e", url, "-o", out,
		"--progress-interval", "0", "--skip-preflight", "--retries", "0", "--max-failures", "off", "--min-duration", "0", "--min-query-count", "1",
		"--results-dir", results, "--system", "sys", "--allow-unofficial-settings")
	if exitCode(err) != 1 {
		t.Fatalf("exit %d (%v), want 1\n%s", exitCode(err), err, stdout)
	}
	if !strings.Contains(stdout, "=== Outcome: INVALID: ") || !strings.Contains(stdout, "samples failed") {
		t.Errorf("headline does not say INVALID with the failures:\n%s", stdout)
	}
	if strings.Contains(stdout, "Outcome: VALID") {
		t.Errorf("a run with failures is called VALID:\n%s", stdout)
	}
	info := readRecord(t, out)
	if info.Outcome != record.Invalid || info.Samples == nil || info.Samples.Failed == 0 {
		t.Errorf("record: outcome %q, samples %+v", info.Outcome, info.Samples)
	}
	if !strings.Contains(stdout, "not filed into --results-dir") {
		t.Errorf("no word that the run was not filed:\n%s", stdout)
	}
	if _, err := os.Stat(results); err == nil {
		t.Errorf("a run with failed samples was filed into %s", results)
	}
	// FileRun itself refuses the folder, whoever calls it.
	_, err = filing.FileRun(filing.RunRecord{ResultsDir: results, System: "sys", Benchmark: "llama3_1-8b",
		Scenario: "Offline", Kind: record.KindPerformance, LogDir: out, UserConf: filepath.Join(out, "user.conf")})
	if err == nil || !strings.Contains(err.Error(), "samples failed") {
		t.Errorf("FileRun of a failed run = %v, want refused", err)
	}
}

// TestMaxFailuresStopReported: a run stopped by --max-failures still
// prints its report and writes a run record saying ABORTED and why.
func TestMaxFailuresStopReported(t *testing.T) {
	loadgentest.Require(t)
	url := startFake(t, fake.Config{Model: mustLookup(t, "llama3_1-8b").Serving.Model, OutputTokens: 4, FailRate: 1})
	out := filepath.Join(t.TempDir(), "out")
	stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-s", "Offline", "-d", llamaData(t, 200), "-e", url, "-o", out,
		"--progress-interval", "0", "--skip-preflight", "--retries", "0", "--max-failures", "10")
	if exitCode(err) != 1 {
		t.Fatalf("exit %d (%v), want 1\n%s", exitCode(err), err, stdout)
	}
	if !strings.Contains(stdout, "=== Outcome: ABORTED: ") || !strings.Contains(stdout, "Samples") {
		t.Errorf("no report with an ABORTED headline:\n%s", stdout)
	}
	info := readRecord(t, out)
	if info.Outcome != record.Aborted || info.OutcomeReason == "" || info.Samples == nil || info.Samples.Failed < 10 {
		t.Errorf("record: outcome %q (%q), samples %+v", info.Outcome, info.OutcomeReason, info.Samples)
	}
	noFileClaimsValid(t, out)
}

// TestServerStopLeavesTheSchedule: a Server run the pool stops early, for
// too many failures or because no endpoint answers, ends within seconds
// instead of playing LoadGen's schedule out to min_duration (ten minutes
// here): the process leaves LoadGen behind, as after Ctrl-C, exits 1, and
// the record says ABORTED, why, and the flag that decided it. (In a process
// of its own: LoadGen goes on running until the process ends.)
func TestServerStopLeavesTheSchedule(t *testing.T) {
	loadgentest.Require(t)
	failing := startFake(t, fake.Config{Model: mustLookup(t, "llama3_1-8b").Serving.Model, OutputTokens: 4, FailRate: 1})
	data := llamaData(t, 20)
	for _, tc := range []struct {
		name, flag string
		args       []string
	}{
		{"too many failures", "--max-failures", []string{"-e", failing, "--max-failures", "5"}},
		{"no endpoint answers", "--endpoints-down-timeout", []string{"-e", "http://127.0.0.1:" + strconv.Itoa(freePort(t)), "--endpoints-down-timeout", "1s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			const minDuration = 600000
			stdout, code := runSub(t, append([]string{"run", "-b", "llama3_1-8b", "-s", "Server", "-d", data, "-o", out,
				"--progress-interval", "0", "--skip-preflight", "--min-duration", strconv.Itoa(minDuration), "--setting", "target_qps=20"}, tc.args...)...)
			if code != 1 || !strings.Contains(stdout, "left behind") || !strings.Contains(stdout, "(see "+tc.flag+")") {
				t.Fatalf("exit %d, want 1, LoadGen left behind and %s named\n%s", code, tc.flag, stdout)
			}
			info := readRecord(t, out)
			if info.Outcome != record.Aborted || info.Samples == nil || info.Samples.Failed == 0 || info.Samples.Completed != info.Samples.Issued {
				t.Errorf("record: outcome %q (%q), samples %+v", info.Outcome, info.OutcomeReason, info.Samples)
			}
			if ran := info.End.Sub(info.Start); ran >= minDuration*time.Millisecond {
				t.Errorf("the run took %v: it played its schedule out", ran)
			}
			noFileClaimsValid(t, out)
		})
	}
}

// TestResultsDirRefusesUnofficialSettings: with --results-dir, settings
// that cannot make a valid submission run are refused before the run
// starts, each with its fix; --allow-unofficial-settings lets them through
// (TestSubmissionWorkflow), and without --results-dir they stay allowed.
func TestResultsDirRefusesUnofficialSettings(t *testing.T) {
	loadgentest.Require(t)
	model := mustLookup(t, "llama3_1-8b").Serving.Model
	url := startFake(t, fake.Config{Model: model, OutputTokens: 4})
	data := llamaData(t, 20)
	for _, tc := range []struct {
		name  string
		extra []string
		want  []string
	}{
		{"short min_duration", []string{"-s", "Server", "--min-duration", "1000"}, []string{"min_duration 1000 ms is below the rules' 600000 ms", "drop --min-duration"}},
		{"sample count override", []string{"-s", "Server", "--setting", "performance_sample_count_override=10"}, []string{"performance_sample_count_override = 10", "remove the override"}},
		// The fix names the cause: a 20-sample dataset, or the flag that
		// cut the run short, only where it was passed.
		{"accuracy subset", []string{"-s", "Offline", "-m", "accuracy"}, []string{"accuracy run over 20 samples", "the dataset holds 20: pass the whole one"}},
		{"accuracy capped", []string{"-s", "Offline", "-m", "accuracy", "--total-sample-count", "10"}, []string{"accuracy run over 10 samples", "drop --total-sample-count"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			stdout, err := runCLI(t, append([]string{"run", "-b", "llama3_1-8b", "-d", data, "-e", url, "-o", out, "--progress-interval", "0",
				"--results-dir", filepath.Join(dir, "results"), "--system", "sys"}, tc.extra...)...)
			if err == nil {
				t.Fatalf("run passed:\n%s", stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if _, err := os.Stat(filepath.Join(out, "mlperf_log_detail.txt")); err == nil {
				t.Errorf("the run started before being refused")
			}
		})
	}
	// Without --results-dir a short trial runs.
	out := filepath.Join(t.TempDir(), "out")
	if stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-s", "Offline", "-d", data, "-e", url, "-o", out, "--progress-interval", "0",
		"--min-duration", "0", "--min-query-count", "1"); exitCode(err) != 0 && exitCode(err) != 3 {
		t.Errorf("short run without --results-dir: %v\n%s", err, stdout)
	}
}
