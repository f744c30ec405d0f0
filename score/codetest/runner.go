package codetest

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

//go:embed harness.py
var harnessSource []byte

// Isolation says how answers are kept off the network.
type Isolation int

const (
	// NetNamespace runs each answer under `unshare -rn`: a user namespace
	// (no root needed) and a network namespace with no interface up.
	NetNamespace Isolation = iota
	// NoIsolation runs answers with the caller's network. Only for machines
	// where namespaces are unavailable and the caller accepts the risk.
	NoIsolation
)

// DefaultTimeoutSeconds is the reference's per-test limit: both evaluators
// pass timeout=60 to LiveCodeBench, which arms signal.alarm(60) per test.
const DefaultTimeoutSeconds = 60

// Options configures a Runner.
type Options struct {
	// Python is the interpreter; default "python3" from PATH. It needs
	// Python >= 3.9 (ast.unparse). Answers importing numpy or other
	// packages pass only if this interpreter has them, as the reference's
	// environment (which had numpy) did.
	Python string
	// Workers is how many answers run at once; default runtime.NumCPU().
	Workers int
	// TimeoutSeconds is the per-test wall-clock limit; default 60.
	TimeoutSeconds int
	// MemoryBytes, when > 0, sets RLIMIT_AS, RLIMIT_DATA and RLIMIT_STACK
	// of each answer's process. Default 0: no limit, as in the reference
	// (reliability_guard is called without maximum_memory_bytes).
	MemoryBytes int64
	// Isolation defaults to NetNamespace.
	Isolation Isolation
	// TempDir holds the harness and job files; default os.TempDir().
	TempDir string
}

// Result is the verdict on one answer.
type Result struct {
	// Passed is the reference's grade: every test result > 0.
	Passed bool
	// Codes holds one entry per test run, in the reference's codes: 1
	// passed, 0 wrong return value, -2 wrong output, -3 time limit, -4
	// runtime error; a run stops at its first failure. When the process
	// died or overran its deadline, every test is -1.
	Codes []int
	// Detail is the reference's metadata (JSON) or why the process ended.
	Detail string
}

// Job is one answer to run: the code and its problem.
type Job struct {
	Code    string
	Problem Problem
}

// Runner runs answers; it is safe for concurrent use.
type Runner struct {
	opts    Options
	python  string
	unshare string
	dir     string
	harness string
}

// New checks the interpreter and the isolation and writes the harness.
// Close removes its files.
func New(opts Options) (*Runner, error) {
	if opts.Python == "" {
		opts.Python = "python3"
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.TimeoutSeconds <= 0 {
		opts.TimeoutSeconds = DefaultTimeoutSeconds
	}
	r := &Runner{opts: opts}
	var err error
	if r.python, err = exec.LookPath(opts.Python); err != nil {
		return nil, fmt.Errorf("codetest: the Python interpreter %q is not found (%v); install python3 >= 3.9 or set the interpreter path", opts.Python, err)
	}
	if opts.Isolation == NetNamespace {
		if r.unshare, err = exec.LookPath("unshare"); err != nil {
			return nil, fmt.Errorf("codetest: unshare (util-linux) is not found, so answers cannot be kept off the network; install util-linux or choose NoIsolation knowingly")
		}
	}
	if r.dir, err = os.MkdirTemp(opts.TempDir, "codetest-"); err != nil {
		return nil, fmt.Errorf("codetest: temporary directory: %v", err)
	}
	r.harness = filepath.Join(r.dir, "harness.py")
	if err := os.WriteFile(r.harness, harnessSource, 0o600); err != nil {
		r.Close()
		return nil, fmt.Errorf("codetest: write harness: %v", err)
	}
	if err := r.probe(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Close removes the runner's temporary files.
func (r *Runner) Close() error { return os.RemoveAll(r.dir) }

// probe runs the interpreter the way answers run, checking its version and
// that the network is out of reach.
func (r *Runner) probe() error {
	const script = `import sys, socket
assert sys.version_info >= (3, 9), "Python %d.%d is older than 3.9" % sys.version_info[:2]
s = socket.socket()
s.settimeout(2)
try:
    s.connect(("1.1.1.1", 53))
    print("NETWORK")
except OSError:
    print("OK")`
	args := r.command("-c", script)
	if r.opts.Isolation == NoIsolation {
		// Without isolation the probe must not touch the network.
		args = r.command("-c", `import sys; assert sys.version_info >= (3, 9), "Python older than 3.9"; print("OK")`)
	}
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	got := strings.TrimSpace(string(out))
	switch {
	case err != nil && r.opts.Isolation == NetNamespace && !strings.Contains(got, "Traceback"):
		return fmt.Errorf("codetest: `unshare -rn %s` failed (%v: %s); user and network namespaces are needed to keep answers off the network (enable unprivileged user namespaces, e.g. sysctl kernel.unprivileged_userns_clone=1) or choose NoIsolation knowingly", r.python, err, got)
	case err != nil:
		return fmt.Errorf("codetest: %s cannot run the harness: %v: %s", r.python, err, got)
	case got == "NETWORK":
		return fmt.Errorf("codetest: an answer run under unshare -rn still reached the network; refusing to run answers")
	case got != "OK":
		return fmt.Errorf("codetest: unexpected probe output from %s: %q", r.python, got)
	}
	return nil
}

// command is the argv running python with args, isolated as configured.
func (r *Runner) command(args ...string) []string {
	argv := []string{r.python}
	if r.opts.Isolation == NetNamespace {
		argv = []string{r.unshare, "-rn", r.python}
	}
	return append(argv, args...)
}

// RunAll runs jobs on Options.Workers processes at once and returns their
// results in order. It stops at the first harness error and returns it.
func (r *Runner) RunAll(ctx context.Context, jobs []Job) ([]Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]Result, len(jobs))
	next := make(chan int)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for w := 0; w < r.opts.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res, err := r.Run(ctx, jobs[i].Code, jobs[i].Problem)
				if err != nil {
					once.Do(func() { firstErr = err; cancel() })
					continue
				}
				results[i] = res
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// jobFile is the harness's input.
type jobFile struct {
	Code    string   `json:"code"`
	Inputs  []string `json:"inputs"`
	Outputs []string `json:"outputs"`
	FnName  *string  `json:"fn_name"`
	Timeout int      `json:"timeout"`
	Memory  int64    `json:"memory"`
}

// verdictLine is the harness's output.
type verdictLine struct {
	Passed       bool   `json:"passed"`
	Codes        []int  `json:"codes"`
	Meta         string `json:"meta"`
	HarnessError string `json:"harness_error"`
}

// Run runs one answer against its problem's tests. Empty code fails without
// running, as the reference's `if not code` does.
func (r *Runner) Run(ctx context.Context, code string, p Problem) (Result, error) {
	if code == "" {
		return Result{Detail: "No code or question_id provided"}, nil
	}
	jf := jobFile{Code: code, Timeout: r.opts.TimeoutSeconds, Memory: r.opts.MemoryBytes,
		Inputs: make([]string, len(p.Tests)), Outputs: make([]string, len(p.Tests))}
	for i, t := range p.Tests {
		jf.Inputs[i], jf.Outputs[i] = t.Input, t.Output
	}
	if p.FuncName != "" {
		jf.FnName = &p.FuncName
	}
	dir, err := os.MkdirTemp(r.dir, "job-")
	if err != nil {
		return Result{}, fmt.Errorf("codetest: job directory: %v", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "job.json")
	raw, err := json.Marshal(jf)
	if err == nil {
		err = os.WriteFile(path, raw, 0o600)
	}
	if err != nil {
		return Result{}, fmt.Errorf("codetest: write job file for question %s: %v", p.ID, err)
	}
	// check_correctness's join deadline: (timeout + 1) × tests + 5 seconds.
	deadline := time.Duration((r.opts.TimeoutSeconds+1)*len(p.Tests)+5) * time.Second
	line, why, err := r.execute(ctx, dir, path, deadline)
	if err != nil {
		return Result{}, fmt.Errorf("codetest: question %s: %w", p.ID, err)
	}
	if line == nil {
		codes := make([]int, len(p.Tests))
		for i := range codes {
			codes[i] = -1
		}
		return Result{Codes: codes, Detail: why}, nil
	}
	if line.HarnessError != "" {
		return Result{}, fmt.Errorf("codetest: question %s: harness: %s", p.ID, line.HarnessError)
	}
	return Result{Passed: line.Passed, Codes: line.Codes, Detail: line.Meta}, nil
}

// execute runs the harness on a job and returns its verdict line, or nil
// and why when the process ended without one (crash, deadline). Only a
// process that cannot be started is an error.
func (r *Runner) execute(ctx context.Context, dir, job string, deadline time.Duration) (*verdictLine, string, error) {
	argv := r.command(r.harness, job)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("start %s: %v", argv[0], err)
	}
	kill := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	lines := make(chan []byte, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		if sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(lines)
	}()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	var raw []byte
	why := ""
	select {
	case raw = <-lines:
		if raw == nil {
			why = "the test process ended without a verdict (crashed or exited)"
		}
	case <-timer.C:
		why = fmt.Sprintf("global timeout: the test process overran %v", deadline)
	case <-ctx.Done():
		kill()
		_ = cmd.Wait()
		return nil, "", ctx.Err()
	}
	kill() // threads an answer left running must not outlive its verdict
	_ = cmd.Wait()
	if raw == nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			// The harness points descriptor 2 at /dev/null before any answer
			// code runs, so whatever reached stderr is its own failure (or
			// unshare's, or the interpreter's).
			return nil, "", fmt.Errorf("harness failed: %s", msg)
		}
		return nil, why, nil
	}
	var v verdictLine
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, "", fmt.Errorf("unreadable verdict %q: %v", raw, err)
	}
	return &v, "", nil
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
