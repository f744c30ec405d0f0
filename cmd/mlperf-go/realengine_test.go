package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/engine"
)

// realEngine is a real inference server (vLLM's or SGLang's CPU build)
// a test started on loopback, in a process group of its own so that a
// test can kill or stop all of it (the API server and the engine
// processes it spawned) as a crash or a hang would.
type realEngine struct {
	URL     string
	LogPath string
	cmd     *exec.Cmd
	done    chan struct{}
}

// startRealEngine runs argv with env added (its output to a log in the
// test's temp folder), waits until it serves model at port (up to ten
// minutes: a cold start on a loaded 2-core machine), and stops it when the
// test ends; if it does not come up, the test fails with its log.
func startRealEngine(t *testing.T, argv []string, env map[string]string, port int, model string) *realEngine {
	t.Helper()
	e := &realEngine{LogPath: filepath.Join(t.TempDir(), "engine.log"), done: make(chan struct{})}
	logFile, err := os.Create(e.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	e.cmd = exec.Command(argv[0], argv[1:]...)
	e.cmd.Stdout, e.cmd.Stderr = logFile, logFile
	e.cmd.Env = os.Environ()
	for k, v := range env {
		e.cmd.Env = append(e.cmd.Env, k+"="+v)
	}
	e.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := e.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", argv[0], err)
	}
	go func() { e.cmd.Wait(); close(e.done) }() //nolint:errcheck // how it ended is the test's business
	t.Cleanup(func() {
		e.signal(syscall.SIGCONT) // a stopped engine cannot stop itself
		e.signal(syscall.SIGINT)
		select {
		case <-e.done:
		case <-time.After(30 * time.Second):
			e.signal(syscall.SIGKILL)
			<-e.done
		}
		// Children that outlived their parent (an engine core) go too.
		e.signal(syscall.SIGKILL)
		logFile.Close()
	})
	e.URL = fmt.Sprintf("http://127.0.0.1:%d", port)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	go func() {
		select {
		case <-e.done: // it died while starting: stop waiting
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := engine.WaitReady(ctx, e.URL, model, engine.ReadyOptions{LogPath: e.LogPath}); err != nil {
		t.Fatalf("%s did not come up at %s: %v\n%s", argv[0], e.URL, err, e.log())
	}
	return e
}

// signal sends sig to the engine's whole process group.
func (e *realEngine) signal(sig syscall.Signal) {
	syscall.Kill(-e.cmd.Process.Pid, sig) //nolint:errcheck // gone already is fine
}

// killAfter SIGKILLs the engine and everything it started, as a crash
// mid-run would, once its counter metric has grown by n from its value
// now (the run under way), and sends the time of the kill.
func (e *realEngine) killAfter(metric string, n float64) <-chan time.Time {
	before, _ := fetchMetrics(e.URL)
	killed := make(chan time.Time, 1)
	go func() {
		waitMetric(e.URL, metric, before[metric]+n)
		e.signal(syscall.SIGKILL)
		killed <- time.Now()
	}()
	return killed
}

// kill SIGKILLs the engine and everything it started, as a crash or the
// OOM killer would, and waits until it is gone.
func (e *realEngine) kill(t *testing.T) {
	t.Helper()
	e.signal(syscall.SIGKILL)
	select {
	case <-e.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the engine did not die within 30 s of SIGKILL")
	}
}

// log is the engine's output so far.
func (e *realEngine) log() string {
	b, _ := os.ReadFile(e.LogPath)
	return string(b)
}

// listenArgs are the flags that put an engine on 127.0.0.1:port.
func listenArgs(port int) []string {
	return []string{"--host", "127.0.0.1", "--port", strconv.Itoa(port)}
}
