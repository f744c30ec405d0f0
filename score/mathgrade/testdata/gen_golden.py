#!/usr/bin/env python3
"""Golden cases for score/mathgrade, made by PRM800K's own grader.

For crafted and seeded-random (given, ground_truth) pairs of MATH-style
answers, records math_normalize.normalize_answer of each side, grader._normalize
of each side (or its exception) and grade_answer's verdict. PRM800K is exported
from a checkout at the commit mlcommons/inference's deepseek-r1 submodule pins
into a temporary directory (nothing copied here).

Usage (from the repository root):
  /tmp/venv-exact/bin/pip install sympy==1.13.1 pylatexenc==2.10
  /tmp/venv-exact/bin/python score/mathgrade/testdata/gen_golden.py \\
      --inference /work/.mirror/mlcommons+inference/repo --prm800k /work/.mirror/openai+prm800k/repo

Committed outputs: CPython 3.11.7, sympy 1.13.1, pylatexenc 2.10.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

GTS = ["5", "0", "-3", "10", "1000", "1,000", "\\frac{1}{2}", "\\dfrac{3}{4}", "-\\frac{1}{2}",
       "\\frac{\\sqrt{3}}{2}", "2\\sqrt{3}", "\\sqrt{2}", "3\\pi", "\\pi", "(1,2)", "[0,1)",
       "(-\\infty, 3]", "\\text{Evelyn}", "\\text{(B)}", "10\\%", "\\$5.00", "5.00", "0.5",
       "x^2+1", "2x+3", "y = 2x + 1", "1 \\frac{1}{2}", "6 \\text{ inches}", "90^\\circ",
       "\\{1,2\\}", "2.5", "\\frac{14}{3}", "12\\sqrt{2}", "\\infty", "3, 5", "a+b", "p - q",
       "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\text{even}", "7 \\text{ cm}", "30^{\\circ}",
       "4 \\sqrt{5}", "2 \\text{ million}", "\\frac{1}{4}", "1/4", "3.14", "\\left( 3, \\frac{\\pi}{2} \\right)",
       "18", "17", "\\textbf{(C)}", "k = 5", "0.333", "\\tfrac12", "1.5", "-2.0", "8 hours", "2\\%"]

GIVEN_EXTRA = ["5.0", "5.", "05", "+5", "five", "\\boxed{5}", "1000.0", "1000", "1,000.00", "10^3",
               "\\frac12", "1/2", "2/4", "0.50", "\\frac{2}{4}", "\\sqrt3/2", "\\frac{\\sqrt3}{2}",
               "\\pi \\cdot 3", "3 \\pi", "(2,1)", "(1, 2)", "[0, 1)", "(0,1]", "evelyn", "Evelyn",
               "\\text{ Evelyn}", "B", "(B)", "10", "10 \\%", "5", "$5", "x^2 + 1", "1+x^2", "2x + 3",
               "3+2x", "1.5", "\\frac32", "3/2", "1\\frac12", "6", "6 inches", "90", "90 degrees",
               "\\{1, 2\\}", "5/2", "2.50", "14/3", "4.67", "", " ", "\\infty", "inf", "5,3", "b+a",
               "-q+p", "even", "7", "7 \\text{ cm}", "30", "2000000", "2,000,000", "0.25",
               "\\frac{1}{4}", "1/4", "\\pi", "k=5", "5 \\text{ and } 3", "3 or 5", "1e3", "1_000",
               "0.99999999", "1e400", "nan", "inf", "\\sqrt", "\\frac", "\\frac1", "a \\text{ b} \\text{ c}",
               "\\text{a}\\text{ b}", "12", "12.0000000001", "\u0661\u0662", "\u03c0", "3\u03c0", "\u0130",
               "x", "xyz+1", "2^{10}", "2^10", "1 2 3", "7 3/4", "- 5", "-5", "(3,\\frac{\\pi}{2})",
               "18.0", "17", "\\mathbf{(C)}", "C", "-2", "-2.0", "8", "\\$5", "5\\$", "0.333", "1/3",
               "\\dfrac{1}{2}", "1.50", "2", "2%", "2\\%", "\\text{2}"]


def rand_pairs(rng, n):
    atoms = ["1", "2", "5", "10", "0", ".5", "x", "y", "\\frac{1}{2}", "\\frac12", "\\sqrt{2}", "\\sqrt2",
             "\\pi", "(", ")", "[", "]", ",", " ", "-", "+", "/", "^", "{", "}", "\\text{", "cm", "s",
             "degrees", "\\%", "$", "1,000", "=", "k", "\\left(", "\\right)", "\\!", "\\\\", "million",
             " and ", " or ", "^\\circ", "e", "inf", "_", "\n"]
    out = []
    for _ in range(n):
        gt = rng.choice(GTS) if rng.random() < 0.5 else "".join(rng.choice(atoms) for _ in range(rng.randint(1, 6)))
        gv = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 6))) if rng.random() < 0.7 else rng.choice(GIVEN_EXTRA)
        out.append((gv, gt))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inference", required=True)
    ap.add_argument("--prm800k", required=True)
    ap.add_argument("--random", type=int, default=3000)
    args = ap.parse_args()
    commit = subprocess.run(["git", "-C", args.inference, "ls-tree", "HEAD",
                             "language/deepseek-r1/submodules/prm800k"],
                            check=True, capture_output=True, text=True).stdout.split()[2]
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(["git", "-C", args.prm800k, "archive", commit, "prm800k/grading"],
                              check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
        path = os.path.join(tmp, "prm800k")
        sys.path.insert(0, path)
        os.chdir(path)
        from grading import grader, math_normalize
        pairs = [(gv, gt) for gt in GTS for gv in GTS[:20] + GIVEN_EXTRA]
        pairs += rand_pairs(random.Random(5), args.random)

        def norm(s):
            try:
                return grader._normalize(s)
            except Exception as e:  # noqa: BLE001
                return {"raised": type(e).__name__}
        cases, seen = [], set()
        for gv, gt in pairs:
            if (gv, gt) in seen:
                continue
            seen.add((gv, gt))
            cases.append({"given": gv, "gt": gt, "ok": grader.grade_answer(gv, gt),
                          "mathd": [math_normalize.normalize_answer(gv), math_normalize.normalize_answer(gt)],
                          "norm": [norm(gv), norm(gt)]})
    import sympy
    import pylatexenc
    with open(os.path.join(HERE, "golden.json"), "w", encoding="utf-8") as f:
        json.dump({"source": "prm800k@" + commit, "python": sys.version.split()[0],
                   "sympy": sympy.__version__, "pylatexenc": pylatexenc.__version__,
                   "cases": cases}, f, ensure_ascii=True)
    print(f"{len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
