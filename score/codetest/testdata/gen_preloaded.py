#!/usr/bin/env python3
"""Golden verdicts for answers that import the modules the reference's
process has loaded (numpy, pandas, tqdm, multiprocessing), made by LiveCodeBench's own runner
in a process that imported them as the MLPerf evaluators do.

Both evaluators (language/deepseek-r1/eval_accuracy.py and
language/gpt-oss-120b/eval_accuracy.py) import pandas, numpy and tqdm, and
LiveCodeBench's testing_util imports numpy, before check_correctness forks
the test process; so an answer's `import numpy` finds it in sys.modules
although reliability_guard has set os.putenv to None, which a fresh import
of numpy or pandas calls (and os.getcwd, which multiprocessing's calls). Writes preloaded.json; score/codetest's
TestPreloadedModules compares the harness's verdicts with it.

Usage (from the repository root; same venv as gen_golden.py):
  /tmp/venv-exact/bin/python score/codetest/testdata/gen_preloaded.py \\
      --inference /work/.mirror/mlcommons+inference/repo \\
      --lcb /work/.mirror/LiveCodeBench+LiveCodeBench/repo

Committed outputs: CPython 3.11.7, LiveCodeBench b1e7cab44d61, numpy 2.1.3,
pandas 2.2.3, tqdm 4.67.1.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy  # noqa: F401 - loaded as in the evaluators' processes
import pandas  # noqa: F401
import tqdm  # noqa: F401
import multiprocessing  # noqa: F401 - check_correctness forks through it

HERE = os.path.dirname(os.path.abspath(__file__))

DOUBLE = [("3\n", "6\n"), ("5\n", "10")]
CASES = [
    {"name": "numpy stdio", "module": "numpy", "fn_name": None, "tests": DOUBLE,
     "code": "import numpy as np\nn = int(input())\nprint(int(np.array([n, n]).sum()))"},
    {"name": "numpy from-import", "module": "numpy", "fn_name": None, "tests": DOUBLE,
     "code": "from numpy import int64\nprint(int64(int(input())) * 2)"},
    {"name": "numpy functional", "module": "numpy", "fn_name": "f", "tests": [("[1, 2, 3]", "6")],
     "code": "import numpy as np\nclass Solution:\n    def f(self, a):\n        return int(np.sum(a))"},
    {"name": "numpy bool result", "module": "numpy", "fn_name": "f", "tests": [("2", "true")],
     "code": "import numpy as np\nclass Solution:\n    def f(self, a):\n        return np.bool_(a == 2)"},
    {"name": "pandas stdio", "module": "pandas", "fn_name": None, "tests": DOUBLE,
     "code": "import pandas as pd\nn = int(input())\nprint(int(pd.Series([n, n]).sum()))"},
    {"name": "pandas functional", "module": "pandas", "fn_name": "f", "tests": [("[4, 5]", "9")],
     "code": "import pandas as pd\nclass Solution:\n    def f(self, a):\n        return int(pd.Series(a).sum())"},
    {"name": "multiprocessing stdio", "module": "multiprocessing", "fn_name": None, "tests": DOUBLE,
     "code": "import multiprocessing\nn = int(input())\nprint(n * 2 if multiprocessing.current_process() else 0)"},
    {"name": "tqdm stdio", "module": "tqdm", "fn_name": None, "tests": DOUBLE,
     "code": "from tqdm import tqdm\nn = int(input())\nprint(sum(1 for _ in tqdm(range(2 * n), disable=True)))"},
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inference", required=True)
    ap.add_argument("--lcb", required=True, help="LiveCodeBench git dir")
    args = ap.parse_args()
    tree = subprocess.run(["git", "-C", args.inference, "ls-tree", "HEAD",
                           "language/deepseek-r1/submodules/LiveCodeBench"],
                          check=True, capture_output=True, text=True).stdout.split()
    commit = tree[2]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(["git", "-C", args.lcb, "archive", commit, "lcb_runner"],
                              check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
        sys.path.insert(0, tmp)
        from lcb_runner.evaluation.compute_code_generation_metrics import check_correctness
        for c in CASES:
            sample = {"input_output": json.dumps({
                "inputs": [i for i, _ in c["tests"]],
                "outputs": [o for _, o in c["tests"]],
                "fn_name": c["fn_name"]})}
            res, _ = check_correctness(sample, c["code"], 5, debug=False)
            # codegen_metrics turns numpy bools into Python ones.
            codes = [int(bool(r)) if isinstance(r, numpy.bool_) else int(r) for r in res]
            try:
                passed = all([g > 0 for g in res])
            except Exception:
                passed = False
            out.append(dict(c, tests=[{"input": i, "output": o} for i, o in c["tests"]],
                            timeout=5, passed=passed, codes=codes))
            print(f"{c['name']}: {passed} {codes}", file=sys.stderr)
    with open(os.path.join(HERE, "preloaded.json"), "w", encoding="utf-8") as f:
        json.dump({"source": "LiveCodeBench@" + commit, "python": sys.version.split()[0],
                   "modules": dict({m.__name__: m.__version__ for m in (numpy, pandas, tqdm)},
                                   multiprocessing="stdlib"),
                   "cases": out}, f, indent=1, ensure_ascii=True)


if __name__ == "__main__":
    main()
