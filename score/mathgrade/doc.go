// Package mathgrade grades MATH-500 answers for deepseek-r1 as PRM800K's
// grading.grader.grade_answer does (openai/prm800k, the submodule
// language/deepseek-r1/eval_accuracy.py imports). gpt-oss-120b's accuracy
// set has no MATH subset, so it never reaches this package.
//
// grade_answer first compares the Hendrycks MATH normalisation of both
// answers (math_normalize.py), then its own normalisation (_normalize), then
// element by element, where anything not settled by string rules goes to
// sympy.simplify. Two of its steps need heavy libraries: _normalize turns any
// answer still containing a backslash into text with pylatexenc's
// LatexNodes2Text, and the last comparison parses and simplifies with sympy.
//
// This package ports every string step exactly and decides in Go whenever
// the reference's answer does not depend on those libraries:
//   - the MATH normalisations are equal, or _normalize's results are equal,
//     or the given answer normalises to "";
//   - tuple/interval shapes differ, or element counts differ;
//   - both elements are fractions a/b (compared as strings, by design);
//   - one element is an integer and the other is not;
//   - both elements are distinct canonical integers (sympy's difference of two
//     Integers is a non-zero Integer).
//
// Everything else is Residual: the pair goes to Options.Fallback, which runs
// the reference's own grade_answer (NewPythonFallback). Residual pairs are:
// any answer that still holds a backslash after _normalize's string steps
// (e.g. "\frac{\sqrt{3}}{2}" against "\sqrt{3}/2", "3\pi"), element pairs
// sympy must simplify (e.g. "x+1" against "1+x", "2.5" against "5/2", "0.50"
// against "0.5", "02" against "2"), and answers with non-ASCII characters
// before _normalize's lower() (Python's lower() differs from Go's for U+0130
// and final sigma). Without a fallback a residual pair is an error naming
// it, never a wrong answer.
package mathgrade
