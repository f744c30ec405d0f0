package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/engine/enginetest"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/internal/shellquote"
)

// The test binary doubles as the engine: run with ENGINE_TEST_FAKE_LISTEN
// set, it serves the fake endpoint there until SIGTERM, as vLLM would.
func TestMain(m *testing.M) {
	if addr := os.Getenv("ENGINE_TEST_FAKE_LISTEN"); addr != "" {
		os.Exit(serveFake(addr))
	}
	os.Exit(m.Run())
}

// serveFake is the engine side of the tests. ENGINE_TEST_FAKE_MODEL names
// the model, ENGINE_TEST_FAKE_DELAY waits before listening (loading
// weights), ENGINE_TEST_FAKE_DIE_AFTER crashes after serving that long,
// ENGINE_TEST_FAKE_IGNORE_TERM ignores SIGTERM (a hung engine).
func serveFake(addr string) int {
	sig := make(chan os.Signal, 1)
	if os.Getenv("ENGINE_TEST_FAKE_IGNORE_TERM") != "" {
		signal.Ignore(syscall.SIGTERM)
	} else {
		signal.Notify(sig, syscall.SIGTERM)
	}
	fmt.Println("fake engine: loading model", os.Getenv("ENGINE_TEST_FAKE_MODEL"))
	if d, err := time.ParseDuration(os.Getenv("ENGINE_TEST_FAKE_DELAY")); err == nil {
		time.Sleep(d)
	}
	srv, err := fake.New(fake.Config{Model: os.Getenv("ENGINE_TEST_FAKE_MODEL")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake engine:", err)
		return 2
	}
	url, err := srv.Start(addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake engine:", err)
		return 2
	}
	fmt.Println("fake engine: serving on", url)
	var die <-chan time.Time
	if d, err := time.ParseDuration(os.Getenv("ENGINE_TEST_FAKE_DIE_AFTER")); err == nil {
		die = time.After(d)
	}
	select {
	case <-sig:
		fmt.Println("fake engine: SIGTERM, shutting down")
		srv.Close()
		return 0
	case <-die:
		fmt.Fprintln(os.Stderr, "fake engine: simulated crash: CUDA error: out of memory")
		return 3
	}
}

// stubVLLM writes a stub `vllm` (enginetest.StubVLLM) that serves the
// fake endpoint (this test binary) on the host and port it was given.
func stubVLLM(t *testing.T) (path, argsFile string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return enginetest.StubVLLM(t, "ENGINE_TEST_FAKE_LISTEN=$host:$port ENGINE_TEST_FAKE_MODEL=$served exec "+shellquote.Quote(self))
}

// fakeCommand is a Command engine serving the fake endpoint (this test
// binary) on {host}:{port}.
func fakeCommand(t *testing.T, model string, env map[string]string) Spec {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{"ENGINE_TEST_FAKE_MODEL": model}
	for k, v := range env {
		e[k] = v
	}
	// The listen address goes through the environment the shell expands,
	// which also proves {host} and {port} are replaced.
	return Spec{Kind: Command, Model: model, Port: FreePort, Env: e,
		Command: "env ENGINE_TEST_FAKE_LISTEN={host}:{port} " + shellquote.Quote(self)}
}

func start(t *testing.T, s Spec, r Rules) *Process {
	t.Helper()
	p, err := Start(s, r, filepath.Join(t.TempDir(), "engine.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(time.Second) })
	return p
}

// qwen3VLOnVLLM is what the benchmark registry passes for Qwen3-VL on vLLM.
var qwen3VLOnVLLM = Rules{
	Require: []string{"--no-enable-prefix-caching", "--limit-mm-per-prompt.video 0"},
	Forbid:  []string{"--enable-prefix-caching"},
	Why:     "the test rules",
}

func TestRulesApply(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		want    []string
		wantErr string
	}{
		{name: "adds what is missing", args: []string{"--tensor-parallel-size", "8"},
			want: []string{"--tensor-parallel-size", "8", "--no-enable-prefix-caching", "--limit-mm-per-prompt.video", "0"}},
		{name: "keeps what is there", args: []string{"--limit-mm-per-prompt.video=0", "--no-enable-prefix-caching"},
			want: []string{"--limit-mm-per-prompt.video=0", "--no-enable-prefix-caching"}},
		{name: "same value as the next argument", args: []string{"--limit-mm-per-prompt.video", "0"},
			want: []string{"--limit-mm-per-prompt.video", "0", "--no-enable-prefix-caching"}},
		{name: "forbidden", args: []string{"--enable-prefix-caching"}, wantErr: "--enable-prefix-caching is forbidden by the test rules"},
		{name: "forbidden with underscores", args: []string{"--enable_prefix_caching"}, wantErr: "forbidden"},
		{name: "forbidden with a value", args: []string{"--enable-prefix-caching=true"}, wantErr: "forbidden"},
		{name: "required with another value", args: []string{"--limit-mm-per-prompt.video", "2"}, wantErr: "conflicts with the test rules, which require --limit-mm-per-prompt.video 0"},
		{name: "required with another inline value", args: []string{"--limit_mm_per_prompt.video=1"}, wantErr: "conflicts"},
		{name: "required without its value", args: []string{"--limit-mm-per-prompt.video", "--enforce-eager"}, wantErr: "has no value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := qwen3VLOnVLLM.Apply(tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Apply(%q) = %q, %v; want an error containing %q", tc.args, got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Apply(%q) (-want +got):\n%s", tc.args, d)
			}
		})
	}
	if _, err := (Rules{Require: []string{"--a b c"}}).Apply(nil); err == nil {
		t.Error("a malformed rule was accepted")
	}
}

func TestArgv(t *testing.T) {
	got, err := Spec{Kind: VLLM, Model: "Qwen/Qwen3-VL-235B-A22B-Instruct", Args: []string{"--tensor-parallel-size", "8"}}.Argv(qwen3VLOnVLLM)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"vllm", "serve", "Qwen/Qwen3-VL-235B-A22B-Instruct", "--host", "127.0.0.1", "--port", "8000",
		"--tensor-parallel-size", "8", "--no-enable-prefix-caching", "--limit-mm-per-prompt.video", "0"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("vllm argv (-want +got):\n%s", d)
	}
	got, err = Spec{Kind: SGLang, Model: "openai/gpt-oss-120b", Host: "0.0.0.0"}.Argv(Rules{Require: []string{"--disable-radix-cache"}})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"python3", "-m", "sglang.launch_server", "--model-path", "openai/gpt-oss-120b", "--host", "0.0.0.0", "--port", "30000", "--disable-radix-cache"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sglang argv (-want +got):\n%s", d)
	}
	if u := (Spec{Kind: SGLang, Host: "0.0.0.0"}).URL(); u != "http://127.0.0.1:30000" {
		t.Errorf("URL of an engine on 0.0.0.0 = %s, want loopback", u)
	}
	if _, err := (Spec{Kind: VLLM, Model: "m", Args: []string{"--port=9000"}}).Argv(Rules{}); err == nil || !strings.Contains(err.Error(), "--engine-port") {
		t.Errorf("--port in the engine arguments: %v, want a refusal naming --engine-port", err)
	}
	if _, err := (Spec{Kind: VLLM}).Argv(Rules{}); err == nil || !strings.Contains(err.Error(), "model") {
		t.Errorf("no model: %v", err)
	}
	if _, err := (Spec{Kind: Command}).Argv(Rules{}); err == nil || !strings.Contains(err.Error(), "--engine-command") {
		t.Errorf("command engine without a command: %v", err)
	}
	if m := (Spec{Model: "/models/q", Args: []string{"--served-model-name", "q3vl"}}).ServedModel(); m != "q3vl" {
		t.Errorf("ServedModel = %q, want q3vl", m)
	}
}

func TestParseConfig(t *testing.T) {
	yamlDoc := `
engine: vllm
model: Qwen/Qwen3-VL-235B-A22B-Instruct
port: 8100
args: [--tensor-parallel-size, "8"]
env: {VLLM_LOGGING_LEVEL: DEBUG}
`
	s, err := parseConfig("server.yaml", []byte(yamlDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := Spec{Kind: VLLM, Model: "Qwen/Qwen3-VL-235B-A22B-Instruct", Port: 8100,
		Args: []string{"--tensor-parallel-size", "8"}, Env: map[string]string{"VLLM_LOGGING_LEVEL": "DEBUG"}}
	if d := cmp.Diff(want, s); d != "" {
		t.Errorf("YAML (-want +got):\n%s", d)
	}
	s, err = parseConfig("server.json", []byte(`{"engine": "sglang", "model": "openai/gpt-oss-120b", "port": 0, "args": ["--tp", "8"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != SGLang || s.Port != FreePort || len(s.Args) != 2 {
		t.Errorf("JSON: %+v", s)
	}
	for _, tc := range []struct{ doc, want string }{
		{"engine: vllm\nmodle: x\n", "server.yaml: yaml: unmarshal errors:\n  line 2: field modle not found"},
		{"engine: tgi\n", "server.yaml: field engine: engine \"tgi\": use vllm, sglang, command"},
		{"port: 70000\n", "server.yaml: field port: 70000 is not a TCP port"},
		{"port: eighty\n", "server.yaml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `eighty` into int"},
		{"args: --tp 8\n", "line 1: cannot unmarshal !!str `--tp 8` into []string"},
		{"", "server.yaml is empty"},
	} {
		if _, err := parseConfig("server.yaml", []byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseConfig(%q) = %v, want an error containing %q", tc.doc, err, tc.want)
		}
	}
	if _, err := LoadConfig(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("engine: vllm\nmodel: m\nport: 1\nargs: [a]\nenv: {A: b}\n"))
	f.Add([]byte(`{"engine":"command","command":"x {port}"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseConfig("f.yaml", data)
		if err != nil {
			if !strings.Contains(err.Error(), "f.yaml") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		if s.Port < FreePort || s.Port > 65535 {
			t.Errorf("port %d accepted", s.Port)
		}
		if s.Kind != "" {
			if _, err := ParseKind(string(s.Kind)); err != nil {
				t.Errorf("kind %q accepted", s.Kind)
			}
		}
	})
}

// TestStubVLLM launches the stub vllm as vLLM would be launched: the rules'
// flags are added, the stub's real-CLI parser accepts the command line, the
// engine is waited for, and Stop ends it with SIGTERM.
func TestStubVLLM(t *testing.T) {
	stub, argsFile := stubVLLM(t)
	p := start(t, Spec{Kind: VLLM, Model: "Qwen/Qwen3-VL-235B-A22B-Instruct", Port: FreePort, Command: shellquote.Quote(stub),
		Args: []string{"--tensor-parallel-size", "8"}}, qwen3VLOnVLLM)
	var progress strings.Builder
	if err := p.WaitReady(context.Background(), "Qwen/Qwen3-VL-235B-A22B-Instruct", ReadyOptions{Timeout: 30 * time.Second, Poll: 50 * time.Millisecond, Progress: &progress}); err != nil {
		t.Fatalf("WaitReady: %v\n%s", err, Tail(p.LogPath, 20))
	}
	if !strings.Contains(progress.String(), "engine ready at") {
		t.Errorf("progress: %q", progress.String())
	}
	got, _ := os.ReadFile(argsFile)
	want := "serve\nQwen/Qwen3-VL-235B-A22B-Instruct\n--host\n127.0.0.1\n--port\n" + strings.TrimPrefix(p.URL, "http://127.0.0.1:") +
		"\n--tensor-parallel-size\n8\n--no-enable-prefix-caching\n--limit-mm-per-prompt.video\n0\n"
	if string(got) != want {
		t.Errorf("vllm got the arguments\n%s\nwant\n%s", got, want)
	}
	resp, err := http.Get(p.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := p.Stop(10 * time.Second); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if err := p.Err(); err != nil {
		t.Errorf("Err after Stop = %v, want nil (a stopped engine did not die)", err)
	}
	log, _ := os.ReadFile(p.LogPath)
	for _, w := range []string{"starting engine", "fake engine: serving on", "fake engine: SIGTERM", "engine stopped"} {
		if !strings.Contains(string(log), w) {
			t.Errorf("engine log lacks %q:\n%s", w, log)
		}
	}
}

// TestStubVLLMRefusesFlag: an engine that exits while loading ends the wait
// at once with its status and the tail of its log.
func TestStubVLLMRefusesFlag(t *testing.T) {
	stub, _ := stubVLLM(t)
	p := start(t, Spec{Kind: VLLM, Model: "m", Port: FreePort, Command: shellquote.Quote(stub), Args: []string{"--no-such-flag"}}, qwen3VLOnVLLM)
	err := p.WaitReady(context.Background(), "m", ReadyOptions{Timeout: time.Minute, Poll: 50 * time.Millisecond})
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("WaitReady = %v, want an *ExitError", err)
	}
	if ee.Status != "exit status 2" || !strings.Contains(ee.Tail, "unrecognized arguments: --no-such-flag") {
		t.Errorf("exit error: status %q, tail:\n%s", ee.Status, ee.Tail)
	}
	if !strings.Contains(err.Error(), "last lines of "+p.LogPath) {
		t.Errorf("error does not name the log: %v", err)
	}
}

func TestForbiddenFlagNotStarted(t *testing.T) {
	stub, argsFile := stubVLLM(t)
	_, err := Start(Spec{Kind: VLLM, Model: "m", Command: stub, Args: []string{"--enable-prefix-caching"}}, qwen3VLOnVLLM, filepath.Join(t.TempDir(), "engine.log"))
	if err == nil || !strings.Contains(err.Error(), "--enable-prefix-caching is forbidden") {
		t.Fatalf("Start = %v, want the forbidden flag refused", err)
	}
	if _, err := os.Stat(argsFile); !os.IsNotExist(err) {
		t.Error("the engine was started despite a forbidden flag")
	}
}

// TestEngineDiesMidRun: a test watching the engine is cancelled promptly
// with the engine's exit and log tail as the cause.
func TestEngineDiesMidRun(t *testing.T) {
	p := start(t, fakeCommand(t, "m", map[string]string{"ENGINE_TEST_FAKE_DIE_AFTER": "1500ms"}), Rules{})
	if err := p.WaitReady(context.Background(), "m", ReadyOptions{Timeout: 30 * time.Second, Poll: 50 * time.Millisecond}); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
	ctx, cancel := p.Watch(context.Background())
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the engine's death did not cancel the watching context")
	}
	var ee *ExitError
	if cause := context.Cause(ctx); !errors.As(cause, &ee) || ee.Status != "exit status 3" || !strings.Contains(ee.Tail, "simulated crash: CUDA error") {
		t.Errorf("cause = %v", cause)
	}
}

// TestExitStatusNamesTheSignal: an engine killed by a signal is said to be
// killed by that signal, by number and description, not "killed by killed".
func TestExitStatusNamesTheSignal(t *testing.T) {
	err := exec.Command("/bin/sh", "-c", "kill -9 $$").Run()
	if got, want := exitStatus(err), "killed by signal 9 (killed)"; got != want {
		t.Errorf("exitStatus = %q, want %q", got, want)
	}
	err = exec.Command("/bin/sh", "-c", "exit 3").Run()
	if got, want := exitStatus(err), "exit status 3"; got != want {
		t.Errorf("exitStatus = %q, want %q", got, want)
	}
}

// TestReadyTimeout: an engine that never listens times out with what it
// answered and the fix.
func TestReadyTimeout(t *testing.T) {
	p := start(t, Spec{Kind: Command, Port: FreePort, Command: "echo still loading shards 3/40; sleep 60"}, Rules{})
	var progress strings.Builder
	err := p.WaitReady(context.Background(), "m", ReadyOptions{Timeout: 1500 * time.Millisecond, Poll: 100 * time.Millisecond,
		Progress: &progress, ProgressEvery: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "not ready after 1.5s") || !strings.Contains(err.Error(), "--engine-ready-timeout") ||
		!strings.Contains(err.Error(), "not listening yet") || !strings.Contains(err.Error(), "still loading shards 3/40") {
		t.Errorf("WaitReady = %v", err)
	}
	if !strings.Contains(progress.String(), "waiting for the engine at "+p.URL) {
		t.Errorf("no progress line: %q", progress.String())
	}
	// Stop reports a kill: a nil error says SIGTERM reached the group.
	if err := p.Stop(5 * time.Second); err != nil {
		t.Errorf("Stop: %v", err)
	}
}

func TestModelNotServed(t *testing.T) {
	p := start(t, fakeCommand(t, "served-model", nil), Rules{})
	err := p.WaitReady(context.Background(), "other-model", ReadyOptions{Timeout: 30 * time.Second, Poll: 50 * time.Millisecond})
	if !errors.Is(err, ErrModelNotServed) || !strings.Contains(err.Error(), "serves served-model") {
		t.Errorf("WaitReady = %v, want ErrModelNotServed naming the served model", err)
	}
}

// TestStopEscalates: an engine that ignores SIGTERM is killed after the
// grace period.
func TestStopEscalates(t *testing.T) {
	p := start(t, fakeCommand(t, "m", map[string]string{"ENGINE_TEST_FAKE_IGNORE_TERM": "1"}), Rules{})
	if err := p.WaitReady(context.Background(), "m", ReadyOptions{Timeout: 30 * time.Second, Poll: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	err := p.Stop(500 * time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Stop = %v, want the kill reported", err)
	}
	if el := time.Since(begin); el < 500*time.Millisecond {
		t.Errorf("Stop took %s with a 500ms grace: it did not wait the grace", el)
	}
	select {
	case <-p.Died():
	default:
		t.Error("Died not closed after Stop")
	}
	if err := p.Stop(time.Second); err == nil {
		t.Error("a second Stop forgot the first one's result")
	}
}
