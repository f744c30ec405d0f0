package deepseekr1

import (
	"context"
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/score/mathgrade"
)

// mathFallback grades a MATH-500 pair that depends on sympy or pylatexenc
// (mathgrade.Residual); *mathgrade.PythonFallback is one.
type mathFallback interface {
	Grade(given, groundTruth string) (bool, error)
}

// mathGrader is PRM800K's grade_answer: mathgrade decides in Go what it
// can, and the rest goes to the fallback, started on the first such pair
// from the PRM800K folder the options name (so a log that needs none runs
// without Python, sympy or PRM800K).
type mathGrader struct {
	// ctx is the evaluation's: the fallback's process is started under
	// it, so cancelling the evaluation kills it.
	ctx             context.Context
	python, prm800k string
	fallback        mathFallback
	started         *mathgrade.PythonFallback
	residual        int
}

func newMathGrader(ctx context.Context, o benchmark.EvalOptions, fallback mathFallback) *mathGrader {
	python := o.Python
	if python == "" {
		python = "python3"
	}
	return &mathGrader{ctx: ctx, python: python, prm800k: o.PRM800K, fallback: fallback}
}

// Grade implements exactmatch.MathGrader.
func (g *mathGrader) Grade(given, groundTruth string) (bool, error) {
	switch mathgrade.Decide(given, groundTruth) {
	case mathgrade.Right:
		return true, nil
	case mathgrade.Wrong:
		return false, nil
	}
	g.residual++
	if g.fallback == nil {
		if g.prm800k == "" {
			return false, fmt.Errorf("the MATH-500 answer %q against %q is graded by PRM800K's grade_answer through sympy/pylatexenc, which mlperf-go runs under Python: pass --prm800k DIR (the prm800k folder of an openai/prm800k checkout, deepseek-r1's submodules/prm800k/prm800k) with sympy and pylatexenc installed for --python", given, groundTruth)
		}
		fb, err := mathgrade.NewPythonFallback(g.ctx, g.python, g.prm800k)
		if err != nil {
			return false, fmt.Errorf("--prm800k %s: %w", g.prm800k, err)
		}
		g.fallback, g.started = fb, fb
	}
	ok, err := g.fallback.Grade(given, groundTruth)
	if err != nil {
		return false, fmt.Errorf("grading the MATH-500 answer %q against %q: %w", given, groundTruth, err)
	}
	return ok, nil
}

// describe says how the MATH answers were graded, for the scorer line.
func (g *mathGrader) describe() string {
	if g.residual == 0 {
		return "every answer decided by mlperf-go's port"
	}
	if g.started != nil {
		return fmt.Sprintf("%d answers by the reference grader in %s under %s, the rest by mlperf-go's port", g.residual, g.prm800k, g.python)
	}
	return fmt.Sprintf("%d answers by the reference grader's verdicts, the rest by mlperf-go's port", g.residual)
}

// Close stops the Python grader if one was started.
func (g *mathGrader) Close() {
	if g.started != nil {
		g.started.Close()
	}
}
