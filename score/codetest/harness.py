# Test runner for score/codetest: runs one LiveCodeBench answer against its
# tests inside one python3 process, with the semantics of LiveCodeBench's
# lcb_runner/evaluation/testing_util.py run_test as the MLPerf gpt-oss-120b
# and deepseek-r1 evaluators call it (timeout in whole seconds, no memory
# limit unless asked). It is a re-implementation, not a copy: each step names
# the reference behaviour it reproduces, quirks included, because the verdict
# depends on them.
#
# Protocol (serve): one JSON job per stdin line {"code", "inputs",
# "outputs", "fn_name", "timeout", "memory"}, one JSON verdict per stdout
# line. Like the reference, each answer runs in a process forked from a warm
# one (its parent imported the prelude's modules), so a run costs a fork,
# not an interpreter start.
import ast
import faulthandler
import json
import os
import signal
import sys
import time
from decimal import Decimal
from io import StringIO
from types import ModuleType
from unittest.mock import mock_open, patch

# The prelude every answer runs under (testing_util's import_string): star
# imports of these modules in this order, then plain imports of all but the
# last two, then a recursion limit of 50000. Plain "import datetime" after
# "from datetime import *" leaves the name bound to the module.
_STAR = ["string", "re", "datetime", "collections", "heapq", "bisect", "copy",
         "math", "random", "statistics", "itertools", "functools", "operator",
         "io", "sys", "json", "builtins", "typing"]
PRELUDE = ("".join(f"from {m} import *\n" for m in _STAR)
           + "".join(f"import {m}\n" for m in _STAR[:-2])
           + "sys.setrecursionlimit(50000)\n")


# Modules the reference's process has imported before it forks the test
# process: LiveCodeBench's testing_util and compute_code_generation_metrics
# import numpy, tqdm and multiprocessing (check_correctness forks through
# it), both MLPerf evaluators import pandas. An answer's `import numpy` then
# finds the module in sys.modules. Imported after reliability_guard instead,
# they fail (numpy's and pandas' imports call os.putenv, multiprocessing's
# os.getcwd, both of which the guard sets to None), so the warm server
# imports them before it forks. A module this interpreter lacks is reported
# in the ready line: answers importing it fail here though they pass in the
# reference.
PRELOADED = ["numpy", "pandas", "tqdm", "multiprocessing"]


def preload():
    """Imports PRELOADED and returns the names that could not be imported."""
    import importlib
    missing = []
    for name in PRELOADED:
        try:
            importlib.import_module(name)
        except Exception:
            missing.append(name)
    return missing


class TimeoutException(Exception):
    # The name matters: a failure counts as a timeout when
    # "timeoutexception" is in repr(e).lower().
    pass


def on_alarm(signum, frame):
    print("timeout occured: alarm went off")
    raise TimeoutException


class Capturing(list):
    # sys.stdout becomes a StringIO whose close() is `lambda x: 1`: calling
    # sys.stdout.close() with no argument raises TypeError, as in the reference.
    def __enter__(self):
        self._stdout = sys.stdout
        sys.stdout = self._stringio = StringIO()
        self._stringio.close = lambda x: 1
        return self

    def __exit__(self, *args):
        self.append(self._stringio.getvalue())
        del self._stringio
        sys.stdout = self._stdout


class StdinBuffer:
    def __init__(self, inputs):
        self.inputs = inputs.encode("utf-8")

    def read(self, *args):
        return self.inputs

    def readline(self, *args):
        return self.inputs.split(b"\n")[0] + b"\n"


class StdinMock:
    # sys.stdin during a stdio test: read() is the whole input, readline()
    # reads with newlines from a StringIO, readlines() splits on "\n" without
    # keeping newlines, anything else goes to the StringIO. It has no
    # __iter__, so `for line in sys.stdin` raises TypeError.
    def __init__(self, inputs):
        self.inputs = inputs
        self._stringio = StringIO(inputs)
        self.buffer = StdinBuffer(inputs)

    def read(self, *args):
        return self.inputs

    def readline(self, *args):
        return self._stringio.readline(*args)

    def readlines(self, *args):
        return self.inputs.split("\n")

    def __getattr__(self, name):
        return getattr(self._stringio, name)


def clean_if_name(code):
    # A trailing `if __name__ == '__main__':` block is replaced by its body.
    try:
        tree = ast.parse(code)
        last = tree.body[-1]
        if isinstance(last, ast.If):
            if ast.unparse(last.test).strip() == "__name__ == '__main__'":
                code = ast.unparse(tree.body[:-1]) + "\n" + ast.unparse(last.body)
    except:  # noqa: E722 - any failure keeps the code as it is
        pass
    return code


def make_function(code):
    # Top-level imports stay at module level; every other statement becomes
    # the body of `def wrapped_function():`, so top-level names are locals.
    try:
        imports, others = [], []
        for stmt in ast.parse(code).body:
            (imports if isinstance(stmt, (ast.Import, ast.ImportFrom)) else others).append(stmt)
        fn = ast.FunctionDef(
            name="wrapped_function",
            args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=others, decorator_list=[], lineno=-1)
        return PRELUDE + "\n" + ast.unparse(imports) + "\n" + ast.unparse(fn)
    except Exception:
        return code


def compile_code(code, timeout):
    signal.alarm(timeout)
    try:
        module = ModuleType("tmp_sol", "")
        exec(code, module.__dict__)
        # LeetCode answers are a class Solution; the test of that is textual.
        sol = module.Solution() if "class Solution" in code else module
        assert sol is not None
    finally:
        signal.alarm(0)
    return sol


def get_function(sol, name):
    try:
        assert hasattr(sol, name)
        return getattr(sol, name)
    except Exception:
        return None


def truncate(s, length=300):
    s = s if isinstance(s, str) else str(s)
    return s if len(s) <= length else s[: length // 2] + "...(truncated) ..." + s[-length // 2:]


def failure(results, code, message, e=None, **extra):
    meta = {"error_code": code, "error_message": message}
    if e is not None:
        meta["error"] = repr(e)
    meta.update(extra)
    return results, meta


def exception_result(results, e, inp, out):
    # A TimeoutException anywhere in repr(e) is a time-out (-3), else -4.
    if "timeoutexception" in repr(e).lower():
        results.append(-3)
        return failure(results, -3, "Time Limit Exceeded", e, inputs=truncate(inp), expected=truncate(out))
    results.append(-4)
    return failure(results, -4, "Runtime Error", e, inputs=truncate(inp), expected=truncate(out))


def grade_call_based(code, inputs, outputs, fn_name, timeout):
    sol = compile_code(PRELUDE + "\n\n" + code, timeout)
    if sol is None:
        return None
    method = get_function(sol, fn_name)
    if method is None:
        return None
    inputs = [[json.loads(line) for line in inp.split("\n")] for inp in inputs]
    outputs = [json.loads(out) for out in outputs]
    results = []
    for args, want in zip(inputs, outputs):
        signal.alarm(timeout)
        faulthandler.enable()
        try:
            got = method(*args)
            signal.alarm(0)
            if isinstance(got, tuple):  # tuples count as lists, top level only
                got = list(got)
            ok = got == want
            results.append(ok)
            if not ok:
                return failure(results, -2, "Wrong Answer", output=truncate(got),
                               inputs=truncate(args), expected=truncate(want))
        except Exception as e:
            signal.alarm(0)
            return exception_result(results, e, args, want)
        finally:
            signal.alarm(0)
            faulthandler.disable()
    return results, {}


def call_method(method, inputs):
    if isinstance(inputs, list):
        inputs = "\n".join(inputs)
    lines = iter(inputs.split("\n"))
    stdin = StdinMock(inputs)

    # Same decorators in the same order: mock applies the innermost first, so
    # the three sys.stdin.* patches land on the sys.stdin of before the test
    # (a /dev/null file, also bound to the name `stdin` by the prelude's
    # `from sys import *`), and StdinMock's own methods serve sys.stdin.
    @patch("builtins.open", mock_open(read_data=inputs))
    @patch("sys.stdin", stdin)
    @patch("sys.stdin.readline", lambda *args: next(lines))
    @patch("sys.stdin.readlines", lambda *args: inputs.split("\n"))
    @patch("sys.stdin.read", lambda *args: inputs)
    def inner(m):
        try:
            return m()
        except SystemExit:
            pass

    return inner(method)


def decimals(line):
    try:
        return True, [Decimal(x) for x in line.split()]
    except:  # noqa: E722
        return False, []


def stripped_lines(s):
    return [x.strip() for x in s.strip().split("\n")]


def output_matches(got, want):
    # Line by line after stripping; a line differs unless equal as text or as
    # a list of Decimals (so "1.0" equals "1" and "1e3" equals "1000").
    g, w = stripped_lines(got), stripped_lines(want)
    if len(g) != len(w):
        return "Wrong answer: mismatched output length"
    for i, (a, b) in enumerate(zip(g, w)):
        if a == b:
            continue
        ok1, da = decimals(a)
        ok2, db = decimals(b)
        if not (ok1 and ok2 and da == db):
            return f"Wrong answer at output_line_idx={i}: {truncate(a)} != {truncate(b)}"
    return None


def grade_stdio(code, inputs, outputs, timeout):
    sol = compile_code(make_function(clean_if_name(code)), timeout)
    if sol is None:
        return None
    method = get_function(sol, "wrapped_function")
    if method is None:
        return None
    results = []
    for inp, want in zip(inputs, outputs):
        signal.alarm(timeout)
        faulthandler.enable()
        signal.alarm(timeout)
        with Capturing() as captured:
            try:
                call_method(method, inp)
                signal.alarm(0)
            except Exception as e:
                signal.alarm(0)
                return exception_result(results, e, inp, want)
            finally:
                signal.alarm(0)
                faulthandler.disable()
        why = output_matches(captured[0], want)
        if why is not None:
            results.append(-2)
            return failure(results, -2, why, output=truncate(captured[0]),
                           inputs=truncate(inp), expected=truncate(want))
        results.append(True)
    return results, {}


def disable_destructive(memory):
    # LiveCodeBench's reliability_guard, called without a memory limit by the
    # reference (so `memory` is 0 unless the caller asks for one).
    if memory:
        import resource
        for lim in (resource.RLIMIT_AS, resource.RLIMIT_DATA, resource.RLIMIT_STACK):
            resource.setrlimit(lim, (memory, memory))
    faulthandler.disable()
    import builtins
    import shutil
    import subprocess
    builtins.quit = None
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir",
                 "setuid", "fork", "forkpty", "killpg", "rename", "renames", "truncate",
                 "replace", "unlink", "fchmod", "fchown", "chmod", "chown", "chroot",
                 "lchflags", "lchmod", "lchown", "getcwd", "chdir"):
        setattr(os, name, None)
    shutil.rmtree = shutil.move = shutil.chown = None
    subprocess.Popen = None
    builtins.help = None
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None


def run_test(job):
    signal.signal(signal.SIGALRM, on_alarm)
    disable_destructive(job.get("memory") or 0)
    timeout = job["timeout"]
    try:
        signal.alarm(timeout)
        if job.get("fn_name") is None:
            out = grade_stdio(job["code"], job["inputs"], job["outputs"], timeout)
        else:
            out = grade_call_based(job["code"], job["inputs"], job["outputs"], job["fn_name"], timeout)
        results, meta = out  # None (no function found) fails here, as in the reference
        return results, meta
    except Exception as e:
        return [-4], {"error_code": -4, "error_message": f"Error during testing: {e}"}
    finally:
        signal.alarm(0)


def verdict(results):
    # The reference turns numpy scalars into Python values, then passes an
    # answer when every result is > 0; a comparison that raises fails it.
    np = sys.modules.get("numpy")  # preloaded; None only where this interpreter lacks it
    fixed = []
    for r in results:
        if np is not None and isinstance(r, np.ndarray):
            r = r.item(0)
        if np is not None and isinstance(r, np.bool_):
            r = bool(r)
        fixed.append(r)
    try:
        passed = all([r > 0 for r in fixed])
    except Exception:
        passed = False
    codes = []
    for r in fixed:
        if isinstance(r, bool) or isinstance(r, int):
            codes.append(int(r))
        else:
            try:
                codes.append(1 if r > 0 else 0)
            except Exception:
                codes.append(0)
    return passed, codes


def die_with_parent(parent):
    """Not the reference's: the test process runs in a process group of its
    own, which killing the server's group misses, so it asks the kernel for
    SIGKILL when the server dies (Close, or the evaluation cancelled), and
    exits if the server is already gone."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the test's own deadline still ends it
    if os.getppid() != parent:
        os._exit(1)


def run_child(job, verdict_fd, parent):
    """In the forked child: the reference's test process."""
    die_with_parent(parent)
    os.setpgid(0, 0)
    out = os.fdopen(verdict_fd, "w")
    sys.stdin = open(os.devnull)  # as multiprocessing's child bootstrap leaves it
    sys.stdout = open(os.devnull, "w")  # the evaluator's worker prints to devnull
    sys.stderr = open(os.devnull, "w")
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(50000)  # set by lcb_runner's metrics module
    results, meta = run_test(job)
    passed, codes = verdict(results)
    try:
        detail = json.dumps(meta, default=str)
    except Exception:
        detail = "{}"
    out.write(json.dumps({"passed": passed, "codes": codes, "meta": detail}) + "\n")
    out.flush()
    os._exit(0)


def read_verdict(fd, seconds):
    """The child's verdict line, or None and why when it died or overran."""
    import select
    end = time.monotonic() + seconds
    buf = b""
    while b"\n" not in buf:
        left = end - time.monotonic()
        if left <= 0:
            return None, f"global timeout: the test process overran {seconds} s"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                return None, "the test process ended without a verdict (crashed or exited)"
            buf += chunk
    return json.loads(buf.split(b"\n", 1)[0]), ""


PROTOCOL_FDS = []  # the server's pipe ends, closed in each child


def run_job(job):
    # check_correctness: a fresh process per answer, joined for
    # (timeout + 1) * tests + 5 seconds, then killed.
    r, w = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        for fd in PROTOCOL_FDS:
            os.close(fd)
        try:
            run_child(job, w, parent)
        finally:
            os._exit(1)
    os.close(w)
    try:
        line, why = read_verdict(r, (job["timeout"] + 1) * len(job["inputs"]) + 5)
    finally:
        os.close(r)
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(pid, 0)
    if line is None:
        return {"crashed": why}
    return line


def serve():
    """Jobs arrive one JSON line at a time on stdin; verdicts leave one line
    at a time on stdout. Descriptors 0-2 then point at /dev/null, so nothing
    a test writes at the descriptor level reaches the protocol."""
    inp = os.fdopen(os.dup(0), "r", encoding="utf-8")
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    PROTOCOL_FDS.extend([inp.fileno(), out.fileno()])
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    exec(PRELUDE, {})  # warm the module cache the forked tests import from
    sys.setrecursionlimit(1000)
    missing = preload()
    out.write(json.dumps({"ready": sys.version.split()[0], "missing": missing}) + "\n")
    out.flush()
    for line in inp:
        try:
            job = json.loads(line)
            for key in ("code", "inputs", "outputs", "timeout"):
                if key not in job:
                    raise KeyError(f"job lacks {key!r}")
            res = run_job(job)
        except Exception as e:
            res = {"harness_error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(res) + "\n")
        out.flush()


if __name__ == "__main__":
    serve()
