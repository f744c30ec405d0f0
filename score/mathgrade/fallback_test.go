package mathgrade

import (
	"os"
	"testing"
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
	f, err := NewPythonFallback(py, dir)
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
	if _, err := NewPythonFallback("python3", t.TempDir()); err == nil {
		t.Error("a directory without grading/grader.py was accepted")
	}
}
