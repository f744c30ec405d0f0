package mathgrade

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// fallbackScript serves grade_answer of a PRM800K checkout: one JSON pair
// [given, ground_truth] per input line, one JSON verdict per output line.
// It imports the grader the way evaluate_math500 does (module path on
// sys.path, working directory inside it).
const fallbackScript = `import json, os, sys
path = sys.argv[1]
sys.path.insert(0, path)
os.chdir(path)
from grading.grader import grade_answer
for line in sys.stdin:
    given, gt = json.loads(line)
    try:
        out = {"ok": bool(grade_answer(given_answer=given, ground_truth=gt))}
    except Exception as e:
        out = {"error": "%s: %s" % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
`

// PythonFallback grades residual pairs with PRM800K's own grade_answer in
// one long-lived Python process. It needs sympy and pylatexenc (the
// reference's environment pins neither; the golden files were made with
// sympy 1.13.1 and pylatexenc 2.10) and a PRM800K checkout.
type PythonFallback struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// NewPythonFallback starts python on the grader in prm800kDir, the
// directory holding grading/grader.py (the submodule's prm800k/prm800k).
// Cancelling ctx kills the process: Grade then fails.
func NewPythonFallback(ctx context.Context, python, prm800kDir string) (*PythonFallback, error) {
	if _, err := os.Stat(filepath.Join(prm800kDir, "grading", "grader.py")); err != nil {
		return nil, fmt.Errorf("mathgrade: %s has no grading/grader.py; point it at PRM800K's prm800k directory: %v", prm800kDir, err)
	}
	cmd := exec.CommandContext(ctx, python, "-c", fallbackScript, prm800kDir)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("mathgrade: start %s: %v", python, err)
	}
	f := &PythonFallback{cmd: cmd, in: in, out: bufio.NewReader(out)}
	if _, err := f.Grade("1", "1"); err != nil {
		f.Close()
		return nil, fmt.Errorf("mathgrade: the PRM800K grader does not run under %s (are sympy and pylatexenc installed?): %v", python, err)
	}
	return f, nil
}

// Grade asks the reference grader.
func (f *PythonFallback) Grade(given, groundTruth string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	req, _ := json.Marshal([2]string{given, groundTruth})
	if _, err := f.in.Write(append(req, '\n')); err != nil {
		return false, fmt.Errorf("mathgrade: grader process: %v", err)
	}
	line, err := f.out.ReadBytes('\n')
	if err != nil {
		return false, fmt.Errorf("mathgrade: grader process ended: %v", err)
	}
	var v struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &v); err != nil {
		return false, fmt.Errorf("mathgrade: grader said %q: %v", line, err)
	}
	if v.Error != "" {
		return false, fmt.Errorf("mathgrade: grade_answer(%q, %q) raised %s", given, groundTruth, v.Error)
	}
	return v.OK, nil
}

// Close stops the grader process.
func (f *PythonFallback) Close() error {
	f.in.Close()
	return f.cmd.Wait()
}
