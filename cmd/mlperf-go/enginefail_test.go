package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// The real engines failing under load: killed (SIGKILL, as a crash or the
// OOM killer ends one), stopped longer than a request may take (SIGSTOP, a
// hung engine, then SIGCONT), dying under --launch, and slow to answer
// first. Each checks what the user is told and that every sample LoadGen
// issued completed exactly once.

// waitMetric polls an engine's /metrics until the counter reaches n (up
// to ten minutes: a launched engine's start on a loaded machine), so a
// test hurts an engine while it serves the run. It reports false if the
// counter never got there.
func waitMetric(base, name string, n float64) bool {
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		if m, err := fetchMetrics(base); err == nil && m[name] >= n {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// failureLines reads a run's failures.jsonl: every failed sample, one a line.
func failureLines(t *testing.T, dir string) []sut.Failure {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, record.FailuresFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sut.Failure
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var x sut.Failure
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			t.Fatalf("%s: %v: %s", record.FailuresFile, err, sc.Bytes())
		}
		out = append(out, x)
	}
	return out
}

// checkEveryFailureListed checks that every sample LoadGen issued was
// completed once and every failed one is listed once, with a reason.
func checkEveryFailureListed(t *testing.T, dir string, rec record.Run) []sut.Failure {
	t.Helper()
	if rec.Samples == nil || rec.Samples.Completed != rec.Samples.Issued {
		t.Fatalf("samples %+v: every issued sample must be completed", rec.Samples)
	}
	fails := failureLines(t, dir)
	if int64(len(fails)) != rec.Samples.Failed {
		t.Errorf("%s lists %d failures, the record counts %d", record.FailuresFile, len(fails), rec.Samples.Failed)
	}
	seen := map[uint64]bool{}
	for _, f := range fails {
		if seen[f.ID] {
			t.Errorf("sample ID %d is listed as failed twice", f.ID)
		}
		seen[f.ID] = true
		if f.Reason == "" || f.Message == "" {
			t.Errorf("failure without a reason: %+v", f)
		}
	}
	return fails
}

// serverRun are the flags of a streamed Server performance run whose
// schedule (min_duration ms) outlasts what the test does to the engine.
func serverRun(out string, minDuration int) []string {
	return []string{"run", "-s", "Server", "-m", "performance", "-o", out, "--stream", "true", "--skip-preflight",
		"--min-duration", strconv.Itoa(minDuration), "--min-query-count", "20", "--setting", "target_qps=3",
		"--progress-interval", "0"}
}

// vllmFailures runs against a real vLLM that hangs, answers late and
// dies (TestVLLM's, last, for it does not survive): stopped (SIGSTOP) longer than the request timeout, then continued,
// the samples it held time out as failures with their reason, none
// completes twice and the run goes on to its end; stopped while preflight
// waits for its first answer, longer than a request may take, the run
// waits (preflight has its own timeout) and goes on; SIGKILLed as the only
// endpoint mid-run, the run stops without playing out its schedule, exits
// 1, is not VALID, and lists every sample it lost.
func vllmFailures(t *testing.T, e *realEngine) {
	const n = 24
	data := llamaData(t, n)
	// Short answers, so that a healthy answer takes a fraction of the
	// request timeout even on a loaded machine, and only the hang passes it.
	common := []string{"-b", "llama3_1-8b", "-d", data, "-e", e.URL, "--total-sample-count", strconv.Itoa(n), "--performance-sample-count", strconv.Itoa(n),
		"--max-tokens", "16"}

	t.Run("stopped past the request timeout", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "run")
		const timeout = 5 * time.Second
		before, _ := fetchMetrics(e.URL)
		stopped := make(chan time.Duration, 1)
		go func() {
			// Once the run is being served, the engine hangs for three
			// request timeouts, then goes on.
			waitMetric(e.URL, "vllm:request_success_total", before["vllm:request_success_total"]+3)
			e.signal(syscall.SIGSTOP)
			begin := time.Now()
			time.Sleep(3 * timeout)
			e.signal(syscall.SIGCONT)
			stopped <- time.Since(begin)
		}()
		// No failure limit: the run rides the hang out, as a user who
		// set --max-failures off asked.
		stdout, err := runCLI(t, append(append(serverRun(out, 30000), "--timeout", timeout.String(), "--max-failures", "off"), common...)...)
		held := <-stopped
		if exitCode(err) != 1 {
			t.Fatalf("exit %d (%v), want 1: samples failed\n%s", exitCode(err), err, stdout)
		}
		rec := readRecord(t, out)
		fails := checkEveryFailureListed(t, out, rec)
		if rec.Outcome == record.Valid || rec.Samples.Failed == 0 || rec.Samples.FailuresByReason[sut.ReasonTimeout] != rec.Samples.Failed {
			t.Errorf("outcome %s, samples %+v: want the samples the hung engine held failed by timeout, and nothing else", rec.Outcome, rec.Samples)
		}
		for _, f := range fails {
			if !strings.Contains(f.Message, "no complete response within "+timeout.String()) {
				t.Errorf("failure %+v does not say the timeout", f)
			}
		}
		// The run went on after the engine did: samples succeeded after.
		if succeeded := rec.Samples.Completed - rec.Samples.Failed; succeeded <= 3 {
			t.Errorf("%d samples succeeded: the run did not go on after the engine came back", succeeded)
		}
		t.Logf("engine stopped %v; %d of %d samples failed, all by timeout", held.Round(time.Millisecond), rec.Samples.Failed, rec.Samples.Issued)
	})

	t.Run("slow first answer", func(t *testing.T) {
		// The engine hangs as the run starts, and answers preflight's
		// probe only after more than twice the run's request timeout:
		// preflight has its own, longer one.
		out := filepath.Join(t.TempDir(), "run")
		e.signal(syscall.SIGSTOP)
		resumed := make(chan struct{})
		go func() {
			time.Sleep(12 * time.Second)
			e.signal(syscall.SIGCONT)
			close(resumed)
		}()
		stdout, err := runCLI(t, append([]string{"run", "-s", "Offline", "-m", "accuracy", "-o", out, "--timeout", "5s",
			"--preflight-timeout", "5m", "--progress-interval", "0"}, common...)...)
		<-resumed
		if err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		rec := readRecord(t, out)
		if rec.Outcome != record.Valid || rec.Samples.Completed != n || rec.Samples.Failed != 0 {
			t.Errorf("outcome %s, samples %+v: want every sample answered", rec.Outcome, rec.Samples)
		}
	})

	t.Run("the only engine killed", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "run")
		killed := e.killAfter("vllm:request_success_total", 3)
		// A schedule of ten minutes, as an official Server run's: the
		// run must not play it out against a dead engine.
		const minDuration = 600000
		stdout, code := runSub(t, append(serverRun(out, minDuration), common...)...)
		at := <-killed
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, stdout)
		}
		rec := readRecord(t, out)
		checkEveryFailureListed(t, out, rec)
		if rec.Outcome == record.Valid || rec.Samples.Failed == 0 || !strings.Contains(rec.OutcomeReason, "every endpoint has refused or dropped connections") {
			t.Errorf("outcome %s (%s), samples %+v: want a run stopped because no endpoint answers", rec.Outcome, rec.OutcomeReason, rec.Samples)
		}
		if ran := rec.End.Sub(rec.Start); ran >= minDuration*time.Millisecond {
			t.Errorf("the run took %v: it played out its schedule against a dead engine", ran)
		}
		if !strings.Contains(stdout, "--endpoints-down-timeout") || !strings.Contains(stdout, "every failed sample is listed in") {
			t.Errorf("the output does not name the flag that stopped the run:\n%s", stdout)
		}
		t.Logf("killed %v after the start; the run ended %v after the kill: %s", at.Sub(rec.Start).Round(time.Millisecond), rec.End.Sub(at).Round(time.Millisecond), rec.OutcomeReason)
	})
}

// sglangOneOfTwoKilled runs against a real SGLang (TestSGLangOpenAI's,
// last, for it does not survive) and the fake: SGLang SIGKILLed mid-run
// loses no sample, and the outcome names the endpoint dropped and when.
func sglangOneOfTwoKilled(t *testing.T, e *realEngine) {
	const n = 24
	data := llamaData(t, n)
	// The fake answers as slowly as SGLang does here, so both get
	// requests until one dies.
	other := startFake(t, fake.Config{Model: vllmServedName, TTFT: 300 * time.Millisecond, TPOT: 20 * time.Millisecond, OutputTokens: 64})
	out := filepath.Join(t.TempDir(), "run")
	killed := e.killAfter("sglang:num_requests_total", 4)
	stdout, err := runCLI(t, append(serverRun(out, 20000), "-b", "llama3_1-8b", "-d", data, "-e", e.URL, "-e", other,
		"--total-sample-count", strconv.Itoa(n), "--performance-sample-count", strconv.Itoa(n))...)
	at := <-killed
	if exitCode(err) > 3 { // INVALID (3) is fine: a CPU misses the latency targets
		t.Fatalf("%v\n%s", err, stdout)
	}
	rec := readRecord(t, out)
	checkEveryFailureListed(t, out, rec)
	if rec.Samples.Failed != 0 {
		t.Errorf("samples %+v: want none lost", rec.Samples)
	}
	drops := rec.Samples.EndpointDrops
	if len(drops) != 1 || !strings.HasPrefix(drops[0].Endpoint, e.URL) || drops[0].Back != nil || drops[0].At.Before(at.Add(-time.Second)) {
		t.Fatalf("endpoint drops %+v: want SGLang's, after the kill at %v, not back", drops, at.UTC())
	}
	if !strings.Contains(stdout, "Endpoints dropped") || !strings.Contains(stdout, drops[0].Endpoint) {
		t.Errorf("the outcome does not say which endpoint was dropped:\n%s", stdout)
	}
	t.Logf("SGLang killed at %.1fs; %d samples, none lost, %d retried", float64(drops[0].AfterStart), rec.Samples.Issued, countRetries(stdout))
}

// TestSGLangLaunchedEngineDies: an SGLang launched by the run (--launch)
// that dies mid-run ends the run within seconds, saying so.
func TestSGLangLaunchedEngineDies(t *testing.T) {
	py := requireSGLang(t)
	model := requireModel(t, tinyLlamaEnv)
	const n = 24
	data := llamaData(t, n)

	t.Run("launched engine dies", func(t *testing.T) {
		dir := t.TempDir()
		// The launch command records the engine's process ID, so the
		// test can kill it (and the processes it started) as a crash
		// would.
		pidFile := filepath.Join(dir, "engine.pid")
		wrapper := filepath.Join(dir, "sglang")
		script := "#!/bin/sh\necho $$ > " + sh(pidFile) + "\nexec " + sh(py) + " -m sglang.launch_server \"$@\"\n"
		if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		conf := filepath.Join(dir, "engine.json")
		cfg := map[string]any{"engine": "sglang", "model": model, "command": wrapper, "env": sglangEngineEnv,
			"args": []string{"--served-model-name", vllmServedName, "--device", "cpu", "--attention-backend", "torch_native", "--max-total-tokens", "16384", "--enable-metrics"}}
		b, _ := json.Marshal(cfg)
		if err := os.WriteFile(conf, b, 0o644); err != nil {
			t.Fatal(err)
		}
		port := freePort(t)
		url := "http://127.0.0.1:" + strconv.Itoa(port)
		out := filepath.Join(dir, "run")
		killed := make(chan time.Time, 1)
		go func() {
			waitMetric(url, "sglang:num_requests_total", 4)
			pid, _ := strconv.Atoi(strings.TrimSpace(readFileQuiet(pidFile)))
			if pid > 0 {
				syscall.Kill(-pid, syscall.SIGKILL) //nolint:errcheck // the test fails below if it lived
			}
			killed <- time.Now()
		}()
		const minDuration = 600000
		args := append(serverRun(out, minDuration), "-b", "llama3_1-8b", "-d", data, "--total-sample-count", strconv.Itoa(n),
			"--performance-sample-count", strconv.Itoa(n), "--launch", "sglang", "--engine-config", conf,
			"--engine-port", strconv.Itoa(port), "--engine-ready-timeout", "10m")
		stdout, code := runSub(t, args...)
		at := <-killed
		if code != 1 || !strings.Contains(stdout, "the engine died") || !strings.Contains(stdout, "engine exited (killed by signal 9 (killed))") {
			t.Fatalf("exit %d: want 1 and the engine's death named\n%s", code, stdout)
		}
		rec := readRecord(t, out)
		checkEveryFailureListed(t, out, rec)
		if rec.Outcome != record.Aborted {
			t.Errorf("outcome %s (%s): want ABORTED", rec.Outcome, rec.OutcomeReason)
		}
		if after := rec.End.Sub(at); after > 30*time.Second {
			t.Errorf("the run ended %v after the engine died: not within seconds", after)
		}
		t.Logf("the run ended %v after the launched SGLang was killed", rec.End.Sub(at).Round(time.Millisecond))
	})
}

// countRetries reads the retries line of a run's output (0 if none).
func countRetries(stdout string) int {
	for _, l := range strings.Split(stdout, "\n") {
		if f := strings.Fields(l); len(f) > 4 && strings.HasPrefix(strings.TrimSpace(l), "Requests sent again") {
			n, _ := strconv.Atoi(f[4])
			return n
		}
	}
	return 0
}
