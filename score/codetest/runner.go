package codetest

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
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
	// Python >= 3.9 (ast.unparse), and numpy, pandas and tqdm, which the
	// reference's process has loaded when it runs an answer (see
	// Runner.Missing): answers importing other packages pass only if this
	// interpreter has them.
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

// Runner runs answers; it is safe for concurrent use. It keeps up to
// Options.Workers harness servers, each a warm python3 that forks one
// process per answer, as LiveCodeBench's check_correctness does.
type Runner struct {
	// ctx is New's: the servers are started under it, so cancelling it
	// kills them (and the answers they run) wherever the jobs are.
	ctx     context.Context
	opts    Options
	python  string
	unshare string
	dir     string
	harness string
	idle    chan *server

	missingOnce sync.Once
	missing     []string
}

// Missing names the modules the reference's process has loaded (numpy,
// pandas, tqdm) that the interpreter could not import. An answer importing
// one fails here though it passes in the reference, so a scorer says so
// beside its result.
func (r *Runner) Missing() []string { return r.missing }

// New checks the interpreter and the isolation and writes the harness.
// Close stops its processes and removes its files; cancelling ctx kills
// them too (an evaluation stopped by Ctrl-C leaves no Python behind).
func New(ctx context.Context, opts Options) (*Runner, error) {
	if opts.Python == "" {
		opts.Python = "python3"
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.TimeoutSeconds <= 0 {
		opts.TimeoutSeconds = DefaultTimeoutSeconds
	}
	r := &Runner{ctx: ctx, opts: opts, idle: make(chan *server, opts.Workers)}
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

// Close stops the idle servers and removes the runner's files.
func (r *Runner) Close() error {
	for {
		select {
		case s := <-r.idle:
			s.stop()
		default:
			return os.RemoveAll(r.dir)
		}
	}
}

// probe checks that answers cannot reach the network: an answer that
// connects to a public address must fail to.
func (r *Runner) probe() error {
	if r.opts.Isolation == NoIsolation {
		s, err := r.acquire()
		if err == nil {
			r.release(s)
		}
		return err
	}
	code := "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), timeout=2)\n    print('NETWORK')\nexcept OSError:\n    print('OK')"
	res, err := r.Run(r.ctx, code, Problem{ID: "network probe", Tests: []Test{{Input: "", Output: "OK"}}})
	if err != nil {
		return err
	}
	if !res.Passed {
		return fmt.Errorf("codetest: an answer run under unshare -rn reached the network or could not run (%s); refusing to run answers", res.Detail)
	}
	return nil
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
	Crashed      string `json:"crashed"`
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
	s, err := r.acquire()
	if err != nil {
		return Result{}, fmt.Errorf("question %s: %w", p.ID, err)
	}
	// The server enforces check_correctness's deadline of (timeout + 1) ×
	// tests + 5 seconds; this one only catches a server that stopped.
	deadline := time.Duration((r.opts.TimeoutSeconds+1)*len(p.Tests)+5)*time.Second + time.Minute
	line, err := s.do(ctx, jf, deadline)
	if err != nil {
		s.stop()
		if cerr := r.ctx.Err(); cerr != nil {
			err = cerr // the runner's processes were killed on purpose
		}
		return Result{}, fmt.Errorf("codetest: question %s: %w", p.ID, err)
	}
	r.release(s)
	switch {
	case line.HarnessError != "":
		return Result{}, fmt.Errorf("codetest: question %s: harness: %s", p.ID, line.HarnessError)
	case line.Crashed != "":
		codes := make([]int, len(p.Tests))
		for i := range codes {
			codes[i] = -1
		}
		return Result{Codes: codes, Detail: line.Crashed}, nil
	}
	return Result{Passed: line.Passed, Codes: line.Codes, Detail: line.Meta}, nil
}
