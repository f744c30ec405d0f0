#!/usr/bin/env python3
"""Golden verdicts for score/codetest, made by LiveCodeBench's own runner.

Runs lcb_runner.evaluation.compute_code_generation_metrics.check_correctness
(the call the MLPerf gpt-oss-120b and deepseek-r1 evaluators reach through
get_metrics -> codegen_metrics) on crafted answers and tests, and writes the
per-test result codes and the pass/fail verdict to golden.json. LiveCodeBench
is read from a checkout at the commit the mlcommons/inference submodule pins
(exported to a temporary directory at generation time, never copied here).

Usage (from the repository root):
  python3 -m venv /tmp/venv-exact
  /tmp/venv-exact/bin/pip install numpy==2.1.3 tqdm==4.67.1 pebble==5.1.0 \\
      attrs==24.2.0 pandas==2.2.3 datasets==2.21.0
  /tmp/venv-exact/bin/python score/codetest/testdata/gen_golden.py \\
      --inference /work/.mirror/mlcommons+inference/repo \\
      --lcb /work/.mirror/LiveCodeBench+LiveCodeBench/repo

Committed outputs: CPython 3.11.7, LiveCodeBench b1e7cab44d61 (the pinned
submodule commit), the versions above. Only standard-library answers are
used, so the verdicts do not depend on which packages an interpreter has.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def stdio(name, code, tests, timeout=3):
    return {"name": name, "code": code, "fn_name": None, "timeout": timeout,
            "tests": [{"input": i, "output": o} for i, o in tests]}


def func(name, code, fn, tests, timeout=3):
    return {"name": name, "code": code, "fn_name": fn, "timeout": timeout,
            "tests": [{"input": i, "output": o} for i, o in tests]}


DOUBLE = [("3\n", "6\n"), ("5\n", "10")]
CASES = [
    stdio("correct", "n = int(input())\nprint(n * 2)", DOUBLE),
    stdio("wrong output", "n = int(input())\nprint(n * 3)", DOUBLE),
    stdio("second test wrong", "n = int(input())\nprint(6)", DOUBLE),
    stdio("whitespace lines", "n = int(input())\nprint('  ', n * 2, '  ')\nprint()\n", DOUBLE),
    stdio("decimal equal", "input()\nprint('1.0 1e3 -0')", [("x\n", "1 1000 0")]),
    stdio("decimal differ", "input()\nprint('1.00001')", [("x\n", "1")]),
    stdio("nan text", "input()\nprint('nan')", [("x\n", "NaN")]),
    stdio("nan equal text", "input()\nprint('NaN')", [("x\n", "NaN")]),
    stdio("snan raises", "input()\nprint('sNaN')", [("x\n", "1")]),
    stdio("extra line", "n = int(input())\nprint(n * 2)\nprint(0)", DOUBLE),
    stdio("raises", "n = int(input())\nprint(1 // (n - n))", DOUBLE),
    stdio("raises on second", "n = int(input())\nprint(n * 2 if n == 3 else 1 // 0)", DOUBLE),
    stdio("syntax error", "n = int(input()\nprint(n)", DOUBLE),
    stdio("time limit", "n = int(input())\nwhile True:\n    n += 1", DOUBLE, timeout=1),
    stdio("swallows time limit", "while True:\n    try:\n        while True:\n            pass\n    except Exception:\n        pass",
          [("1\n", "1")], timeout=1),
    stdio("reads first line only", "print(int(input()) * 2)", [("3\n7\n8\n", "6")]),
    stdio("no input read", "print(6)", [("3\n", "6")]),
    stdio("for line in stdin", "import sys\nfor line in sys.stdin:\n    print(int(line) * 2)", DOUBLE),
    stdio("sys.stdin.readline keeps newline", "import sys\ns = sys.stdin.readline()\nprint(repr(s))", [("ab\ncd\n", "'ab\\n'")]),
    stdio("star stdin.readline drops newline", "s = stdin.readline()\nprint(repr(s))", [("ab\ncd\n", "'ab'")]),
    stdio("readline alias", "import sys\ninput = sys.stdin.readline\nn = int(input())\nprint(n * 2)", DOUBLE),
    stdio("stdin.read split", "import sys\nprint(sum(map(int, sys.stdin.read().split())))", [("1 2\n3\n", "6")]),
    stdio("readlines no newlines", "import sys\nprint(sys.stdin.readlines())", [("a\nb", "['a', 'b']")]),
    stdio("buffer read", "import sys\nprint(sum(map(int, sys.stdin.buffer.read().split())))", [("1 2\n3\n", "6")]),
    stdio("buffer readline", "import sys\nprint(sys.stdin.buffer.readline())", [("12\n3\n", "b'12\\n'")]),
    stdio("open(0)", "print(sum(map(int, open(0).read().split())))", [("1 2\n3\n", "6")]),
    stdio("input past end", "a = input()\nb = input()\nprint(a + b)", [("x\n", "xx")]),
    stdio("star readline past end", "a = stdin.readline()\nb = stdin.readline()\nc = stdin.readline()\nprint(a)", [("x", "x")]),
    stdio("exit mid output", "print(6)\nexit()\nprint(7)", [("3\n", "6")]),
    stdio("sys.exit", "import sys\nprint(6)\nsys.exit(0)", [("3\n", "6")]),
    stdio("quit is None", "print(6)\nquit()", [("3\n", "6")]),
    stdio("os._exit", "import os\nprint(6)\nos._exit(0)", [("3\n", "6")]),
    stdio("main guard", "def main():\n    print(int(input()) * 2)\n\nif __name__ == '__main__':\n    main()", DOUBLE),
    stdio("main guard double quotes", 'def main():\n    print(int(input()) * 2)\nif __name__ == "__main__":\n    main()', DOUBLE),
    stdio("global in function", "x = 2\ndef f():\n    global x\n    return x\nprint(f())", [("\n", "2")]),
    stdio("nonlocal closure", "x = 2\ndef f():\n    return x\nprint(f())", [("\n", "2")]),
    stdio("memory error", "x = bytearray(10 ** 15)\nprint(1)", [("\n", "1")]),
    stdio("os.write bypasses capture", "import os\nos.write(1, b'6\\n')", [("3\n", "6")]),
    stdio("stdout.write", "import sys\nsys.stdout.write('6\\n')", [("3\n", "6")]),
    stdio("stdout.close", "import sys\nprint(6)\nsys.stdout.close()", [("3\n", "6")]),
    stdio("big int str", "print(10 ** 4400)", [("\n", "1" + "0" * 4400)]),
    stdio("thread joined", "import threading\ndef main():\n    print(int(input()) * 2)\nt = threading.Thread(target=main)\nt.start()\nt.join()", DOUBLE),
    stdio("only imports", "import sys\nimport math", [("\n", "")]),
    stdio("recursion 20000", "import sys\ndef f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(20000))", [("\n", "20000")]),
    stdio("os.getcwd disabled", "import os\nprint(os.getcwd())", [("\n", "/")]),
    stdio("import resource blocked", "import resource\nprint(1)", [("\n", "1")]),
    stdio("datetime name is module", "print(datetime.date(2020, 1, 2).year)", [("\n", "2020")]),
    stdio("prelude names", "print(gcd(12, 18), sqrt(16), Counter('aab')['a'], bisect_left([1, 3], 2))", [("\n", "6 4.0 2 1")]),
    stdio("unicode output", "print('h\u00e9llo \u4e16\u754c')", [("\n", "h\u00e9llo \u4e16\u754c")]),
    stdio("no tests", "print(1)", []),
    stdio("printing to stderr", "import sys\nprint('x', file=sys.stderr)\nprint(6)", [("3\n", "6")]),
    stdio("state across tests", "import sys\nsys.counter = getattr(sys, 'counter', 0) + 1\nprint(sys.counter)", [("\n", "1"), ("\n", "1")]),
    func("functional correct", "class Solution:\n    def add(self, a: int, b: int) -> int:\n        return a + b", "add",
         [("1\n2", "3"), ("[1]\n[2]", "[1, 2]")]),
    func("functional wrong", "class Solution:\n    def add(self, a, b):\n        return a - b", "add", [("1\n2", "3")]),
    func("functional second wrong", "class Solution:\n    def add(self, a, b):\n        return 3", "add", [("1\n2", "3"), ("2\n2", "4")]),
    func("functional tuple", "class Solution:\n    def pair(self, a):\n        return (a, a)", "pair", [("1", "[1, 1]")]),
    func("functional nested tuple", "class Solution:\n    def pair(self, a):\n        return [(a, a)]", "pair", [("1", "[[1, 1]]")]),
    func("functional float", "class Solution:\n    def f(self, a):\n        return 0.1 + 0.2", "f", [("1", "0.3")]),
    func("functional int vs float", "class Solution:\n    def f(self, a):\n        return 1.0", "f", [("1", "1")]),
    func("functional bool vs int", "class Solution:\n    def f(self, a):\n        return True", "f", [("1", "1")]),
    func("functional none", "class Solution:\n    def f(self, a):\n        return None", "f", [("1", "null")]),
    func("functional raises", "class Solution:\n    def f(self, a):\n        return a[5]", "f", [("[1]", "1")]),
    func("functional time limit", "class Solution:\n    def f(self, a):\n        while True:\n            a += 1", "f", [("1", "1")], timeout=1),
    func("functional missing method", "class Solution:\n    def g(self, a):\n        return a", "f", [("1", "1")]),
    func("functional plain function", "def f(a):\n    return a * 2", "f", [("2", "4")]),
    func("functional module exit", "exit()\nclass Solution:\n    def f(self, a):\n        return a", "f", [("1", "1")]),
    func("functional init raises", "class Solution:\n    def __init__(self):\n        raise ValueError\n    def f(self, a):\n        return a", "f", [("1", "1")]),
    func("functional class state", "class Solution:\n    n = 0\n    def f(self, a):\n        Solution.n += 1\n        return Solution.n", "f", [("0", "1"), ("0", "1")]),
    func("functional bad json input", "class Solution:\n    def f(self, a):\n        return a", "f", [("nope", "1")]),
    func("functional prints", "class Solution:\n    def f(self, a):\n        print('noise')\n        return a", "f", [("1", "1")]),
    func("functional string compare", "class Solution:\n    def f(self, s):\n        return s.upper()", "f", [('"ab"', '"AB"')]),
    func("functional object eq", "class Solution:\n    def f(self, a):\n        class T:\n            def __eq__(self, o):\n                return 1\n        return T()", "f", [("1", "2")]),
    func("functional list result", "class Solution:\n    def f(self, a):\n        class T:\n            def __eq__(self, o):\n                return [0]\n        return T()", "f", [("1", "2")]),
    func("functional syntax error", "class Solution:\n    def f(self, a)\n        return a", "f", [("1", "1")]),
]


def lcb_rows(tmp):
    """Dataset rows in code_generation_lite's encodings, and the evaluation
    sample CodeGenerationProblem makes of each (the tests the runner gets)."""
    import base64
    import pickle
    import zlib
    from lcb_runner.benchmarks.code_generation import CodeGenerationProblem
    tests = [{"input": "1\n2", "output": "3", "testtype": "functional"},
             {"input": "\u00e9\n", "output": "x" * 300, "testtype": "functional"}]
    rows = []
    for proto in (2, 3, 4, 5):
        private = base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests), protocol=proto))).decode()
        rows.append({"private": private, "func_name": "add"})
    rows.append({"private": json.dumps(tests), "func_name": None})
    big = [{"input": "9" * 70000, "output": "1", "testtype": "stdin"}]
    rows.append({"private": base64.b64encode(zlib.compress(pickle.dumps(json.dumps(big)))).decode(),
                 "func_name": None})
    out = []
    for r in rows:
        meta = json.dumps({"func_name": r["func_name"]} if r["func_name"] else {})
        public = json.dumps([{"input": "5\n6", "output": "11", "testtype": "functional"}])
        p = CodeGenerationProblem(question_title="t", question_content="c", platform="leetcode",
                                  question_id="q1", contest_id="c1", contest_date="2024-01-01T00:00:00",
                                  starter_code="", difficulty="easy", public_test_cases=public,
                                  private_test_cases=r["private"], metadata=meta)
        out.append({"public": public, "private": r["private"], "metadata": meta,
                    "sample": json.loads(p.get_evaluation_sample()["input_output"])})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inference", required=True)
    ap.add_argument("--lcb", required=True, help="LiveCodeBench git dir")
    args = ap.parse_args()
    tree = subprocess.run(["git", "-C", args.inference, "ls-tree", "HEAD",
                           "language/deepseek-r1/submodules/LiveCodeBench"],
                          check=True, capture_output=True, text=True).stdout.split()
    commit = tree[2]
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(["git", "-C", args.lcb, "archive", commit, "lcb_runner"],
                              check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
        sys.path.insert(0, tmp)
        from lcb_runner.evaluation.compute_code_generation_metrics import check_correctness
        from lcb_runner.evaluation import testing_util
        sys.path.insert(0, os.path.join(HERE, ".."))
        import harness  # score/codetest/harness.py: its prelude must be the reference's
        assert harness.PRELUDE == testing_util.import_string, "harness prelude differs"
        out = []
        for c in CASES:
            sample = {"input_output": json.dumps({
                "inputs": [t["input"] for t in c["tests"]],
                "outputs": [t["output"] for t in c["tests"]],
                "fn_name": c["fn_name"]})}
            try:
                res, _ = check_correctness(sample, c["code"], c["timeout"], debug=False)
                codes = [int(r) if isinstance(r, (bool, int)) else r for r in res]
            except IndexError:
                # The process died or overran: result [-1]*n and no metadata,
                # so check_correctness's metadata_list[0] raises.
                codes = "crash"
            if codes == "crash":
                passed = False
            else:
                try:
                    passed = all([g > 0 for g in res])
                except Exception:
                    passed = False
            c = dict(c, passed=passed, codes=codes)
            out.append(c)
            print(f"{c['name']}: {passed} {codes}", file=sys.stderr)
        encoded = lcb_rows(tmp)
    with open(os.path.join(HERE, "golden.json"), "w", encoding="utf-8") as f:
        json.dump({"source": "LiveCodeBench@" + commit, "python": sys.version.split()[0],
                   "cases": out, "lcb_rows": encoded}, f, indent=1, ensure_ascii=True)


if __name__ == "__main__":
    main()
