package codetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// server is one harness process (harness.py serve) under the isolation.
type server struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte // verdict lines, closed when stdout ends
	stderr *limitedWriter
}

// acquire takes an idle server or starts one.
func (r *Runner) acquire() (*server, error) {
	select {
	case s := <-r.idle:
		return s, nil
	default:
		return r.start()
	}
}

// release keeps s for the next job, or stops it when enough are idle.
func (r *Runner) release(s *server) {
	select {
	case r.idle <- s:
	default:
		s.stop()
	}
}

// start launches a server and waits for its ready line, which names the
// Python version (>= 3.9 needed: the harness uses ast.unparse) and the
// preloaded modules the interpreter lacks.
func (r *Runner) start() (*server, error) {
	argv := []string{r.python, r.harness}
	if r.opts.Isolation == NetNamespace {
		argv = append([]string{r.unshare, "-rn"}, argv...)
	}
	cmd := exec.CommandContext(r.ctx, argv[0], argv[1:]...)
	cmd.Dir = r.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// The harness forks one process per answer in its group: the whole
	// group goes, as stop does.
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	s := &server{cmd: cmd, lines: make(chan []byte, 1), stderr: &limitedWriter{w: &bytes.Buffer{}, n: 4096}}
	cmd.Stderr = s.stderr
	var err error
	if s.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("codetest: start %s: %v", argv[0], err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			s.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(s.lines)
	}()
	var ready struct {
		Ready   string
		Missing []string
	}
	select {
	case line, ok := <-s.lines:
		if ok && json.Unmarshal(line, &ready) == nil && ready.Ready != "" {
			break
		}
		s.stop()
		return nil, s.startError(argv)
	case <-time.After(time.Minute):
		s.stop()
		return nil, fmt.Errorf("codetest: %s did not start within a minute", strings.Join(argv, " "))
	case <-r.ctx.Done():
		s.stop()
		return nil, r.ctx.Err()
	}
	var major, minor int
	fmt.Sscanf(ready.Ready, "%d.%d", &major, &minor)
	if major < 3 || (major == 3 && minor < 9) {
		s.stop()
		return nil, fmt.Errorf("codetest: %s is Python %s; the harness needs >= 3.9 (ast.unparse)", r.python, ready.Ready)
	}
	r.missingOnce.Do(func() { r.missing = ready.Missing })
	return s, nil
}

// startError explains a server that ended before its ready line.
func (s *server) startError(argv []string) error {
	msg := strings.TrimSpace(s.stderr.w.String())
	if len(argv) > 1 && argv[1] == "-rn" {
		return fmt.Errorf("codetest: `%s` failed (%s); user and network namespaces are needed to keep answers off the network (enable unprivileged user namespaces, e.g. sysctl kernel.unprivileged_userns_clone=1) or choose NoIsolation knowingly", strings.Join(argv, " "), msg)
	}
	return fmt.Errorf("codetest: harness failed to start under %s: %s", argv[0], msg)
}

// do sends one job and waits for its verdict; an error means the server is
// unusable (the caller stops it).
func (s *server) do(ctx context.Context, jf jobFile, deadline time.Duration) (*verdictLine, error) {
	raw, err := json.Marshal(jf)
	if err != nil {
		return nil, err
	}
	if _, err := s.in.Write(append(raw, '\n')); err != nil {
		return nil, fmt.Errorf("harness stopped: %v %s", err, s.stderr.w.String())
	}
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case line, ok := <-s.lines:
		if !ok {
			return nil, fmt.Errorf("harness stopped: %s", strings.TrimSpace(s.stderr.w.String()))
		}
		var v verdictLine
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, fmt.Errorf("unreadable verdict %q: %v", line, err)
		}
		return &v, nil
	case <-timer.C:
		return nil, fmt.Errorf("harness gave no verdict within %v", deadline)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// stop kills the server's process group.
func (s *server) stop() {
	s.in.Close()
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	_ = s.cmd.Wait()
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		if len(p) > room {
			l.w.Write(p[:room])
		} else {
			l.w.Write(p)
		}
	}
	return len(p), nil
}
