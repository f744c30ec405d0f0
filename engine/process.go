package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultStopGrace is how long Stop waits after SIGTERM before SIGKILL:
// vLLM and SGLang shut their workers down within seconds, and Slurm's
// default KillWait is 30 s.
const DefaultStopGrace = 20 * time.Second

// Process is a launched engine.
type Process struct {
	// URL is the base URL the engine serves on; Argv the command line it
	// was started with; LogPath the file holding its stdout and stderr.
	URL     string
	Argv    []string
	LogPath string

	cmd     *exec.Cmd
	logFile *os.File
	died    chan struct{}
	stopped chan struct{} // closed when Stop begins: an exit after it is not a death

	mu       sync.Mutex
	exit     error // cmd.Wait's result
	stopOnce sync.Once
	stopErr  error
}

// Start launches the engine spec describes, with its stdout and stderr
// appended to logPath, in a process group of its own so that Stop reaches
// the workers it forks. The rules are applied to the engine arguments first
// (see Spec.Argv).
func Start(spec Spec, rules Rules, logPath string) (*Process, error) {
	spec = spec.withDefaults()
	if spec.Port == FreePort {
		port, err := freePort(spec.Host)
		if err != nil {
			return nil, err
		}
		spec.Port = port
	}
	argv, err := spec.Argv(rules)
	if err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("engine log: %w", err)
	}
	fmt.Fprintf(logFile, "=== mlperf-go: starting engine at %s: %s\n", time.Now().UTC().Format(time.RFC3339), strings.Join(argv, " "))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = os.Environ()
	for k, v := range spec.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("starting engine: %w (install it, put it on PATH, or set command: in the engine config)", err)
		}
		return nil, fmt.Errorf("starting engine %s: %w", argv[0], err)
	}
	p := &Process{URL: spec.URL(), Argv: argv, LogPath: logPath, cmd: cmd, logFile: logFile,
		died: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.exit = err
		p.mu.Unlock()
		close(p.died)
	}()
	return p, nil
}

// freePort asks the kernel for a free TCP port on host. Another process can
// take it before the engine binds it; the engine then fails to start and
// says so in its log.
func freePort(host string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(strings.Trim(host, "[]"), "0"))
	if err != nil {
		return 0, fmt.Errorf("finding a free port for the engine on %s: %w", host, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Died is closed when the engine's process has exited, for whatever reason;
// Err then says how.
func (p *Process) Died() <-chan struct{} { return p.died }

// Err is nil while the engine runs or after Stop ended it; once it exited by
// itself it is an *ExitError with its status and the tail of its log.
func (p *Process) Err() error {
	select {
	case <-p.died:
	default:
		return nil
	}
	select {
	case <-p.stopped:
		return nil
	default:
	}
	p.mu.Lock()
	exit := p.exit
	p.mu.Unlock()
	return &ExitError{Argv: p.Argv, Status: exitStatus(exit), LogPath: p.LogPath, Tail: Tail(p.LogPath, tailLines)}
}

// tailLines is how much of the engine log an error shows.
const tailLines = 30

// ExitError is an engine that exited by itself.
type ExitError struct {
	Argv    []string
	Status  string
	LogPath string
	// Tail is the end of the engine's log.
	Tail string
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("engine exited (%s): %s\n--- last lines of %s ---\n%s--- end of engine log ---",
		e.Status, strings.Join(e.Argv, " "), e.LogPath, e.Tail)
}

func exitStatus(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			// Signal's String is its description ("killed"), not its name.
			return fmt.Sprintf("killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
		}
		return "exit status " + strconv.Itoa(ee.ExitCode())
	}
	if err != nil {
		return err.Error()
	}
	return "exit status 0"
}

// Stop ends the engine: SIGTERM to its process group, then SIGKILL to the
// group if the engine has not exited after grace. It waits for the exit and
// is safe to call more than once and after the engine died.
func (p *Process) Stop(grace time.Duration) error {
	p.stopOnce.Do(func() {
		close(p.stopped)
		pgid := p.cmd.Process.Pid
		// The group may outlive its leader (workers); signal it either way.
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		if !waitGroupGone(pgid, p.died, grace) {
			fmt.Fprintf(p.logFile, "=== mlperf-go: engine still running %s after SIGTERM; sending SIGKILL\n", grace)
			p.stopErr = fmt.Errorf("engine did not stop within %s of SIGTERM; killed", grace)
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.died
		fmt.Fprintf(p.logFile, "=== mlperf-go: engine stopped at %s\n", time.Now().UTC().Format(time.RFC3339))
		p.logFile.Close()
	})
	return p.stopErr
}

// waitGroupGone waits up to grace for the engine (died closed) and every
// other process of its group to exit: a wrapper shell or launcher may exit
// on SIGTERM before the workers it started.
func waitGroupGone(pgid int, died <-chan struct{}, grace time.Duration) bool {
	deadline := time.After(grace)
	select {
	case <-died:
	case <-deadline:
		return false
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for syscall.Kill(-pgid, 0) == nil {
		select {
		case <-tick.C:
		case <-deadline:
			return false
		}
	}
	return true
}

// Tail returns the last n lines of the file at path (at most 64 KiB of it),
// or a note saying why it cannot be read.
func Tail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(cannot read the engine log: %v)\n", err)
	}
	defer f.Close()
	const max = 64 << 10
	var buf []byte
	if st, err := f.Stat(); err == nil && st.Size() > max {
		buf = make([]byte, max)
		if _, err := f.ReadAt(buf, st.Size()-max); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Sprintf("(cannot read the engine log: %v)\n", err)
		}
	} else if buf, err = io.ReadAll(f); err != nil {
		return fmt.Sprintf("(cannot read the engine log: %v)\n", err)
	}
	buf = bytes.TrimRight(buf, "\n")
	lines := bytes.Split(buf, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(buf) == 0 {
		return "(the engine log is empty)\n"
	}
	return string(bytes.Join(lines, []byte("\n"))) + "\n"
}

// WaitReady is the package's WaitReady for this engine, returning at once
// with the engine's *ExitError when it exits while loading.
func (p *Process) WaitReady(ctx context.Context, model string, o ReadyOptions) error {
	if o.LogPath == "" {
		o.LogPath = p.LogPath
	}
	ctx, cancel := p.Watch(ctx)
	defer cancel()
	return WaitReady(ctx, p.URL, model, o)
}

// Watch returns a context that is cancelled, with the engine's *ExitError as
// its cause, when the engine exits by itself; the test running against the
// engine uses it to abort at once instead of failing every sample. Call the
// returned function when done watching.
func (p *Process) Watch(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-p.died:
			if err := p.Err(); err != nil {
				cancel(err)
			}
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}
