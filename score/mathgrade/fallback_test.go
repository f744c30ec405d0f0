package mathgrade

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPythonFallback runs the reference grader on the golden residual pairs
// when MATHGRADE_PRM800K names a PRM800K prm800k directory and
// MATHGRADE_PYTHON (default python3) has sympy and pylatexenc; it is skipped
// otherwise, as neither ships with the repository.
func TestPythonFallback(t *testing.T) {
	dir := os.Getenv("MATHGRADE_PRM800K")
	if dir == "" {
		t.Skip("MATHGRADE_PRM800K is not set")
	}
	py := os.Getenv("MATHGRADE_PYTHON")
	if py == "" {
		py = "python3"
	}
	f, err := NewPythonFallback(t.Context(), py, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := Grader{Fallback: f}
	n := 0
	for _, c := range readGolden(t) {
		if Decide(c.Given, c.GT) != Residual || n >= 300 {
			continue
		}
		n++
		ok, err := g.Grade(c.Given, c.GT)
		if err != nil || ok != c.OK {
			t.Errorf("Grade(%q, %q) = %v, %v; reference %v", c.Given, c.GT, ok, err, c.OK)
		}
	}
}

// TestPythonFallbackErrors checks that a wrong grader path is an error.
func TestPythonFallbackErrors(t *testing.T) {
	t.Parallel()
	if _, err := NewPythonFallback(t.Context(), "python3", t.TempDir()); err == nil {
		t.Error("a directory without grading/grader.py was accepted")
	}
}

// TestPythonFallbackCancelled: cancelling the context the grader was
// started under kills its process, so Grade fails instead of waiting on
// it (Ctrl-C during an evaluation).
func TestPythonFallbackCancelled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "grading"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A stand-in for PRM800K's grader: string equality.
	grader := "def grade_answer(given_answer, ground_truth):\n    return given_answer == ground_truth\n"
	if err := os.WriteFile(filepath.Join(dir, "grading", "grader.py"), []byte(grader), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	f, err := NewPythonFallback(ctx, "python3", dir)
	if err != nil {
		t.Skipf("python3 cannot run the stand-in grader: %v", err)
	}
	defer f.Close()
	if ok, err := f.Grade("2", "2"); !ok || err != nil {
		t.Fatalf("Grade before the cancel: %v, %v", ok, err)
	}
	cancel()
	// The kill follows the cancel asynchronously: grade until it fails.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := f.Grade("2", "2"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Grade still succeeds 10 s after the cancel: the grader process outlived its context")
		}
	}
}
