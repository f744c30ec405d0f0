package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/engine/enginetest"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/record"
)

// beCLI, set in a child's environment, makes the test binary run as
// mlperf-go itself, so a launched engine can be `mlperf-go fake-endpoint`
// without building the command first.
const beCLI = "MLPERF_GO_TEST_BE_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(beCLI) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// selfCLI is the shell words that run this test binary as mlperf-go.
func selfCLI(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return beCLI + "=1 " + sh(self)
}

// sh quotes a word for /bin/sh.
var sh = enginetest.Quote

// stubVLLM writes a stub `vllm` (enginetest.StubVLLM) that serves
// `mlperf-go fake-endpoint` where it was told to.
func stubVLLM(t *testing.T) (path, argsFile string) {
	t.Helper()
	return enginetest.StubVLLM(t, `exec env `+selfCLI(t)+` fake-endpoint --listen "$host:$port" --model "$served" --output-tokens 8 --ttft 2ms`)
}

func llamaData(t *testing.T, n int) string {
	t.Helper()
	files, err := mustLookup(t, "llama3_1-8b").Data.Synth(t.TempDir(), n, 7)
	if err != nil || len(files) != 1 {
		t.Fatalf("synth: %v, %v", files, err)
	}
	return files[0]
}

// portClosed reports whether nothing listens at the engine's URL any more.
func portClosed(url string) bool {
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "http://"), time.Second)
	if err == nil {
		c.Close()
		return false
	}
	return true
}

// TestRunLaunchesVLLM runs a benchmark against a launched `vllm` (the stub):
// the rules' flags reach the engine, the run passes, and the engine is
// stopped and its output kept in the output folder.
func TestRunLaunchesVLLM(t *testing.T) {
	loadgentest.Require(t)
	stub, argsFile := stubVLLM(t)
	out := filepath.Join(t.TempDir(), "acc")
	stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-m", "accuracy", "-d", llamaData(t, 20), "-o", out,
		"--progress-interval", "0", "--launch", "vllm", "--engine-command", sh(stub), "--engine-port", "0",
		"--engine-arg", "--tensor-parallel-size", "--engine-arg=1", "--engine-arg", "--max-model-len", "--engine-arg", "4096")
	if err != nil {
		t.Fatalf("run: %v\n%s\nengine log:\n%s", err, stdout, readFile(t, filepath.Join(out, "engine.log")))
	}
	args := strings.Fields(readFile(t, argsFile))
	if len(args) < 6 || args[0] != "serve" || args[1] != "meta-llama/Llama-3.1-8B-Instruct" ||
		!strings.Contains(strings.Join(args, " "), "--tensor-parallel-size 1 --max-model-len 4096 --no-enable-prefix-caching") {
		t.Errorf("vllm ran with %q", args)
	}
	log := readFile(t, filepath.Join(out, "engine.log"))
	for _, w := range []string{"starting engine", "fake endpoint serving", "fake endpoint stopping", "engine stopped"} {
		if !strings.Contains(log, w) {
			t.Errorf("engine.log lacks %q:\n%s", w, log)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "mlperf_log_accuracy.json")); err != nil {
		t.Error(err)
	}
	// The run record describes the launched engine by its kind and its
	// whole command line.
	var info struct {
		Engine      string   `json:"engine"`
		EngineFlags []string `json:"engine_flags"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, record.File))), &info); err != nil {
		t.Fatal(err)
	}
	if flags := strings.Join(info.EngineFlags, " "); info.Engine != "vllm" || !strings.Contains(flags, "serve meta-llama/Llama-3.1-8B-Instruct") || !strings.Contains(flags, "--tensor-parallel-size 1 --max-model-len 4096") {
		t.Errorf("run record: engine %q, flags %q; want vllm and the launched command line", info.Engine, info.EngineFlags)
	}
	port := args[5]
	if !portClosed("127.0.0.1:" + port) {
		t.Errorf("the engine still listens on port %s after the run", port)
	}
}

// TestRunLaunchConfigFile launches `mlperf-go fake-endpoint` as a command
// engine described by a YAML server-config file.
func TestRunLaunchConfigFile(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "server.yaml")
	os.WriteFile(conf, []byte("engine: command\nport: 0\ncommand: env "+selfCLI(t)+" fake-endpoint --listen {host}:{port} --model {model}\nargs: [--output-tokens, \"4\"]\n"), 0o644)
	out := filepath.Join(dir, "out")
	stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-m", "accuracy", "-d", llamaData(t, 10), "-o", out,
		"--progress-interval", "0", "--engine-config", conf)
	if err != nil {
		t.Fatalf("run: %v\n%s\nengine log:\n%s", err, stdout, readFile(t, filepath.Join(out, "engine.log")))
	}
	if log := readFile(t, filepath.Join(out, "engine.log")); !strings.Contains(log, "--output-tokens 4") || !strings.Contains(log, "fake endpoint stopping") {
		t.Errorf("engine.log:\n%s", log)
	}
}

// TestRunEngineDies: an engine crashing mid-run aborts the test promptly,
// and the error carries the tail of the engine's log.
func TestRunEngineDies(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	trigger := filepath.Join(dir, "crash-now")
	// Serves slowly until the trigger file appears, then crashes.
	cmd := "env " + selfCLI(t) + " fake-endpoint --listen {host}:{port} --model {model} --ttft 300ms --max-concurrency 1 & pid=$!; " +
		"while [ ! -e " + sh(trigger) + " ]; do sleep 0.05; done; kill -9 $pid; echo 'engine: CUDA error: an illegal memory access was encountered' >&2; exit 7"
	out := filepath.Join(dir, "out")
	go func() {
		// Crash once LoadGen's test is under way.
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(filepath.Join(out, "mlperf_log_detail.txt")); err == nil {
				time.Sleep(time.Second)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		os.WriteFile(trigger, nil, 0o644)
	}()
	begin := time.Now()
	// 200 samples at 300 ms each, one at a time: a minute if nothing aborts.
	stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-m", "accuracy", "-d", llamaData(t, 200), "-o", out,
		"--progress-interval", "0", "--launch", "command", "--engine-command", cmd, "--engine-port", "0")
	elapsed := time.Since(begin)
	if exitCode(err) != 1 || err == nil || !strings.Contains(err.Error(), "the engine died") ||
		!strings.Contains(err.Error(), "exit status 7") || !strings.Contains(err.Error(), "CUDA error: an illegal memory access") {
		t.Fatalf("run = %v (exit %d)\n%s", err, exitCode(err), stdout)
	}
	if elapsed > 25*time.Second {
		t.Errorf("the run took %s: not aborted promptly when the engine died", elapsed)
	}
	// Each sample the death cut short says why in one line; the engine's
	// log is shown once, in the run's error, not once per sample.
	failures := readFile(t, filepath.Join(out, record.FailuresFile))
	if !strings.Contains(failures, "run stopped: engine exited (exit status 7)") || strings.Contains(failures, "last lines of") {
		t.Errorf("%s: want one-line reasons naming the engine's exit, without its log:\n%s", record.FailuresFile, failures)
	}
}

func TestRunEngineRefusals(t *testing.T) {
	stub, argsFile := stubVLLM(t)
	data := llamaData(t, 5)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--launch", "vllm", "--engine-command", sh(stub), "--engine-arg=--enable-prefix-caching"},
			"--enable-prefix-caching is forbidden by the MLPerf Inference rules for llama3_1-8b on vllm"},
		{[]string{"--launch", "tgi"}, "--launch: engine \"tgi\""},
		{[]string{"--engine-arg", "--x"}, "--engine-arg needs an engine to launch"},
		{[]string{"--launch", "vllm", "-e", "http://127.0.0.1:1"}, "drop --endpoint"},
		{[]string{"--launch", "command", "--engine-command", "echo loading; sleep 30", "--engine-port", "0", "--engine-ready-timeout", "1s"},
			"not ready after 1s: /health: not listening yet"},
		{[]string{"--launch", "vllm", "--engine-command", sh(stub), "--engine-port", "0", "--engine-arg=--bogus"},
			"unrecognized arguments: --bogus"},
	} {
		args := append([]string{"run", "-b", "llama3_1-8b", "-d", data, "-o", filepath.Join(t.TempDir(), "o"), "--progress-interval", "0"}, tc.args...)
		if _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
	if got := strings.Fields(readFileQuiet(argsFile)); len(got) > 0 && got[len(got)-1] == "--enable-prefix-caching" {
		t.Error("vllm was started with a forbidden flag")
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

func readFileQuiet(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

// TestRetryAfterFailedLaunch: an engine that fails to come up leaves its
// log in the output folder for the diagnosis, and a retry into the same
// folder is not refused for it: it appends to the log.
func TestRetryAfterFailedLaunch(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "-b", "llama3_1-8b", "-d", llamaData(t, 4), "-o", out, "--progress-interval", "0",
		"--launch", "vllm", "--engine-command", "echo engine says no; exit 3", "--engine-port", "0"}
	for try := 1; try <= 2; try++ {
		stdout, err := runCLI(t, args...)
		if err == nil {
			t.Fatalf("try %d: the run passed with an engine that exits at once:\n%s", try, stdout)
		}
		if strings.Contains(err.Error(), "already holds files") || !strings.Contains(err.Error(), "engine exited") {
			t.Errorf("try %d: %v, want the engine's exit, not a refusal of the folder", try, err)
		}
	}
	if log := readFile(t, filepath.Join(out, record.EngineLogFile)); strings.Count(log, "\nengine says no\n") != 2 {
		t.Errorf("engine.log after two tries:\n%s\nwant both tries' output", log)
	}
}
