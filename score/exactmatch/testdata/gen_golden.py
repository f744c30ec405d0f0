#!/usr/bin/env python3
"""Golden outputs for score/exactmatch, made by running the reference evaluators.

gpt-oss-120b: runs main() of language/gpt-oss-120b/eval_mlperf_accuracy.py on
a synthetic mlperf_log_accuracy.json and reference pickle, and records what it
prints. deepseek-r1: runs process_mlperf_log_accuracy and
print_evaluation_results of language/deepseek-r1/eval_accuracy.py likewise.
Both files are read with `git show` into a temporary directory next to the
LiveCodeBench and PRM800K checkouts at the commits the submodules pin; nothing
of them is copied here.

Two stand-ins, both outside what is being tested: transformers' tokenizer is
a stub whose token IDs are Unicode code points (decode = "".join(map(chr,
ids))), and load_lcb_benchmark returns synthetic LiveCodeBench problems built
with LiveCodeBench's own CodeGenerationProblem (the real ones come from the
Hugging Face hub, out of reach here). Everything after decoding, including
LiveCodeBench's test runner and PRM800K's grader, is the reference's code.

Usage (from the repository root; venv as in score/codetest/testdata/gen_golden.py
plus sympy==1.13.1 pylatexenc==2.10 anthropic==0.72.0):
  /tmp/venv-exact/bin/python score/exactmatch/testdata/gen_golden.py \\
      --inference /work/.mirror/mlcommons+inference/repo \\
      --lcb /work/.mirror/LiveCodeBench+LiveCodeBench/repo \\
      --prm800k /work/.mirror/openai+prm800k/repo
  ... --bench 4395 --out /tmp/bench   # full-size synthetic set, timed
"""
import argparse
import contextlib
import io
import json
import os
import pickle
import random
import struct
import subprocess
import sys
import tempfile
import time
import types

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))


def git_export(gitdir, commit, dest, paths=()):
    arch = subprocess.run(["git", "-C", gitdir, "archive", commit, *paths],
                          check=True, capture_output=True).stdout
    os.makedirs(dest, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", dest], input=arch, check=True)


def submodule_commit(inference, path):
    return subprocess.run(["git", "-C", inference, "ls-tree", "HEAD", path], check=True,
                          capture_output=True, text=True).stdout.split()[2]


class StubTokenizer:
    """Token IDs are code points."""

    def decode(self, ids, skip_special_tokens=False):
        return "".join(map(chr, ids))

    def batch_decode(self, seqs, skip_special_tokens=True):
        return ["".join(chr(int(x)) for x in s) for s in seqs]


def install_stub_transformers():
    mod = types.ModuleType("transformers")
    mod.AutoTokenizer = types.SimpleNamespace(from_pretrained=lambda *a, **k: StubTokenizer())
    sys.modules["transformers"] = mod


# Synthetic LiveCodeBench problems: (question_id, public, private, metadata).
def lcb_problems():
    double_pub = [{"input": "3\n", "output": "6\n", "testtype": "stdin"}]
    double_priv = [{"input": "5\n", "output": "10\n", "testtype": "stdin"},
                   {"input": "0\n", "output": "0\n", "testtype": "stdin"}]
    add_pub = [{"input": "1\n2", "output": "3", "testtype": "functional"}]
    add_priv = [{"input": "-1\n1", "output": "0", "testtype": "functional"}]
    return {
        "lcb_double": (json.dumps(double_pub), json.dumps(double_priv), json.dumps({})),
        "lcb_add": (json.dumps(add_pub), json.dumps(add_priv), json.dumps({"func_name": "add"})),
    }


FINAL = "<|channel|>analysis<|message|>thinking...<|end|><|start|>assistant<|channel|>final<|message|>"


def gptoss_rows(rng, n=None):
    """(dataset, ground_truth, output) rows covering each subset's cases."""
    rows = []
    aime = [("17", f"{FINAL}The answer is \\boxed{{17}}<|return|>"),
            ("17", "Answer: 17"), ("17", "\\boxed{18}"), ("17", "no idea"),
            ("5", "\\boxed{5}\\boxed{6}"), ("070", "\\boxed{70}"), ("1000", "\\boxed{1000}")]
    gpqa = [("A", f"{FINAL}**A**<|return|>"), ("B", f"{FINAL}Answer: B"), ("C", "FINAL ANSWER: (c)"),
            ("D", f"{FINAL}I cannot tell<|return|>"), ("A", f"{FINAL}B"), ("B", "")]
    code_double = "```python\nn = int(input())\nprint(n * 2)\n```"
    lcb = [("lcb_double", f"{FINAL}{code_double}<|return|>"),
           ("lcb_double", f"{FINAL}```python\nprint(6)\n```<|return|>"),
           ("lcb_double", "no code at all"), ("lcb_double", f"{FINAL}```python\n```"),
           ("lcb_add", f"{FINAL}```\nclass Solution:\n    def add(self, a, b):\n        return a + b\n```"),
           ("lcb_add", f"{FINAL}```py\nclass Solution:\n    def add(self, a, b):\n        return a - b\n```"),
           ("lcb_add", "```python\nclass Solution:\n    def add(self, a, b):\n        return a // 0\n```")]
    if n is None:
        for gt, out in aime:
            rows.append(("aime25", gt, out))
        for gt, out in gpqa:
            rows.append(("gpqa_diamond", gt, out))
        for qid, out in lcb:
            rows.append(("livecodebench_v6", qid, out))
        rows.append(("GPQA_extra", "C", "Answer: C"))
        return rows
    # Full-size synthetic set in the real proportions: 30 AIME x 8, 198 GPQA x 5,
    # the rest LiveCodeBench x 3.
    counts = {"aime25": 240, "gpqa_diamond": 990}
    counts["livecodebench_v6"] = n - sum(counts.values())
    pools = {"aime25": aime, "gpqa_diamond": gpqa, "livecodebench_v6": lcb}
    for ds, c in counts.items():
        for _ in range(c):
            gt, out = rng.choice(pools[ds])
            rows.append((ds, gt, out))
    return rows


def deepseek_rows():
    return [
        ("aime", "17", "so \\boxed{17}"), ("aime", "17", "Answer: 16"),
        ("gpqa", "A", "ANSWER: A"), ("gpqa", "B", "the answer is (B)"), ("gpqa", "C", "nothing"),
        ("mmlu_pro", "J", "Final Answer: J"), ("mmlu_pro", "E", "I guess E is right"),
        ("math500", "\\frac{1}{2}", "\\boxed{\\frac12}"), ("math500", "3", "\\boxed{3.0}"),
        ("math500", "10", "\\boxed{11}"), ("math500", "\\text{(B)}", "\\boxed{B}"),
        ("livecodebench", "lcb_double", "```python\nn = int(input())\nprint(n * 2)\n```"),
        ("livecodebench", "lcb_double", "```python\nprint(6)\n```"),
        ("livecodebench", "lcb_add", "```cpp\nint main(){}\n```"),
        ("aime", "17", "\\boxed{17}"),  # duplicated qsl_idx below: dropped
    ]


def write_log(path, texts, qsl):
    entries = []
    for seq, (q, t) in enumerate(zip(qsl, texts)):
        data = struct.pack(f"<{len(t)}i", *map(ord, t)).hex().upper()
        entries.append({"seq_id": seq, "qsl_idx": q, "data": data, "token_count": len(t)})
    with open(path, "w") as f:  # LoadGen's layout: one entry per line
        f.write("[\n" + ",\n".join(json.dumps(e) for e in entries) + "\n]\n")


def setup_tree(args, tmp):
    lcb_commit = submodule_commit(args.inference, "language/deepseek-r1/submodules/LiveCodeBench")
    prm_commit = submodule_commit(args.inference, "language/deepseek-r1/submodules/prm800k")
    for model in ("gpt-oss-120b", "deepseek-r1"):
        d = os.path.join(tmp, model)
        git_export(args.lcb, lcb_commit, os.path.join(d, "submodules", "LiveCodeBench"), ["lcb_runner"])
        git_export(args.prm800k, prm_commit, os.path.join(d, "submodules", "prm800k"), ["prm800k/grading"])
        for f in ("eval_accuracy.py", "eval_mlperf_accuracy.py"):
            src = subprocess.run(["git", "-C", args.inference, "show", f"HEAD:language/{model}/{f}"],
                                 capture_output=True).stdout
            if src:
                open(os.path.join(d, f), "wb").write(src)
    return lcb_commit, prm_commit


def fake_benchmark(model_dir):
    lcb_dir = os.path.join(model_dir, "submodules", "LiveCodeBench")
    sys.path.insert(0, lcb_dir)
    cwd = os.getcwd()
    os.chdir(lcb_dir)  # as load_lcb_benchmark does: lcb_runner reads files relative to it
    from lcb_runner.benchmarks.code_generation import CodeGenerationProblem
    # The reference swallows a failing import as a wrong answer; fail here.
    import lcb_runner.runner.scenario_router  # noqa: F401
    os.chdir(cwd)
    out = {}
    for qid, (pub, priv, meta) in lcb_problems().items():
        out[qid] = CodeGenerationProblem(
            question_title=qid, question_content="", platform="leetcode", question_id=qid,
            contest_id="c", contest_date="2025-01-01T00:00:00", starter_code="", difficulty="easy",
            public_test_cases=pub, private_test_cases=priv, metadata=meta)
    return out


def run_gptoss(tmp, rows, workers):
    d = os.path.join(tmp, "gpt-oss-120b")
    sys.path.insert(0, d)
    import eval_accuracy
    import eval_mlperf_accuracy
    bench = fake_benchmark(d)
    eval_accuracy.load_lcb_benchmark = lambda: bench
    eval_mlperf_accuracy.load_lcb_benchmark = eval_accuracy.load_lcb_benchmark
    df = pd.DataFrame({"dataset": [r[0] for r in rows], "ground_truth": [r[1] for r in rows]})
    ref = os.path.join(tmp, "ref.pkl")
    df.to_pickle(ref)
    log = os.path.join(tmp, "gptoss_log.json")
    write_log(log, [r[2] for r in rows], list(range(len(rows))))
    out_json = os.path.join(tmp, "gptoss_out.json")
    sys.argv = ["eval_mlperf_accuracy.py", "--mlperf-log", log, "--reference-data", ref,
                "--output-file", out_json, "--verbose", "--num-lcb-workers", str(workers)]
    buf = io.StringIO()
    t0 = time.time()
    with contextlib.redirect_stdout(buf):
        eval_mlperf_accuracy.main()
    elapsed = time.time() - t0
    detailed = json.load(open(out_json))["detailed_results"]
    verdicts = {r["seq_id"]: r["is_correct"] for r in detailed}
    sys.path.remove(d)
    for m in ("eval_accuracy", "eval_mlperf_accuracy"):
        sys.modules.pop(m)
    return buf.getvalue(), [verdicts[i] for i in range(len(rows))], elapsed


def run_deepseek(tmp, rows, qsl):
    d = os.path.join(tmp, "deepseek-r1")
    sys.path.insert(0, d)
    import eval_accuracy
    bench = fake_benchmark(d)
    eval_accuracy.load_lcb_benchmark = lambda: bench
    df = pd.DataFrame({"dataset": [r[0] for r in rows], "ground_truth": [r[1] for r in rows]})
    ds_file = os.path.join(tmp, "ds.pkl")
    df.to_pickle(ds_file)
    log = os.path.join(tmp, "ds_log.json")
    write_log(log, [rows[q][2] for q in qsl], qsl)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        evaluated, _ = eval_accuracy.process_mlperf_log_accuracy(
            log, ds_file, "stub", output_dir=tmp, base_filename="ds_eval.pkl")
        eval_accuracy.print_evaluation_results(evaluated)
    return buf.getvalue(), [float(x) > 0 for x in evaluated["prompt_accuracy"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inference", required=True)
    ap.add_argument("--lcb", required=True)
    ap.add_argument("--prm800k", required=True)
    ap.add_argument("--bench", type=int, default=0, help="full-size gpt-oss run of this many samples")
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    install_stub_transformers()
    problems = lcb_problems()
    with tempfile.TemporaryDirectory() as tmp:
        lcb_commit, prm_commit = setup_tree(args, tmp)
        if args.bench:
            rows = gptoss_rows(random.Random(7), args.bench)
            printed, verdicts, elapsed = run_gptoss(tmp, rows, args.workers)
            with open(os.path.join(args.out, "bench_input.json"), "w") as f:
                json.dump({"rows": rows, "problems": problems, "printed": printed,
                           "python_seconds": elapsed, "workers": args.workers}, f)
            print(f"reference: {len(rows)} samples in {elapsed:.1f} s with {args.workers} workers", file=sys.stderr)
            return
        g_rows = gptoss_rows(None)
        g_printed, g_verdicts, _ = run_gptoss(tmp, g_rows, args.workers)
        d_rows = deepseek_rows()
        qsl = list(range(len(d_rows) - 1)) + [0]  # last entry repeats qsl_idx 0
        d_printed, d_verdicts = run_deepseek(tmp, d_rows, qsl)
    frng = random.Random(11)
    floats = [0.0, -0.0, 1.0, 100.0, 50.0, 1e16, 1e15, 9999999999999998.0, 0.0001, 0.00001,
              1.5e-5, 123456789012345678.0, 81.3582, 3886.2274, 1 / 3, 2 / 3 * 100, 5e-324, 1.7976931348623157e308]
    floats += [frng.uniform(0, 100) for _ in range(200)] + [frng.randint(0, 10 ** 6) / frng.randint(1, 5000) for _ in range(200)]
    floats += [10.0 ** e * frng.random() for e in range(-30, 30)]
    golden = {
        "float_repr": [[struct.pack("<d", f).hex(), repr(f)] for f in floats],
        "source": {"inference": subprocess.run(["git", "-C", args.inference, "rev-parse", "HEAD"],
                                               capture_output=True, text=True).stdout.strip(),
                   "LiveCodeBench": lcb_commit, "prm800k": prm_commit,
                   "python": sys.version.split()[0]},
        "problems": problems,
        "gptoss": {"rows": g_rows, "printed": g_printed, "correct": g_verdicts},
        "deepseek": {"rows": d_rows, "qsl": qsl, "printed": d_printed, "correct": d_verdicts},
    }
    with open(os.path.join(args.out, "golden.json"), "w", encoding="utf-8") as f:
        json.dump(golden, f, indent=1, ensure_ascii=True)
    print(g_printed + d_printed)


if __name__ == "__main__":
    main()
