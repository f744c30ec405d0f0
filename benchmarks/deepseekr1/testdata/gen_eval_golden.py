#!/usr/bin/env python3
"""End-to-end golden of the deepseek-r1 accuracy evaluation, made by running the
reference code itself: mlcommons/inference language/deepseek-r1/eval_accuracy.py
(process_mlperf_log_accuracy, then print_evaluation_results, which is what its main()
runs for an mlperf_log_accuracy.json), with the PRM800K and LiveCodeBench checkouts at
the commits its submodules pin, all exported into a temporary directory and never
committed.

It writes, into this folder:
  eval_r1.json.gz           the dataset as mlperf-go reads it: a pickled DataFrame
                            (dataset, question, ground_truth with AIME integers and a
                            None, text_input, tok_input) converted by the exact command
                            the dataset reader prints, pd.read_pickle(...).to_json(...,
                            orient='records')
  eval_r1_alt.json.gz       the same rows with the columns the script falls back on:
                            gt_output (preferred over a decoy ground_truth) and metric
                            (the sub-dataset derived from it)
  eval_accuracy.json.gz     an mlperf_log_accuracy.json (int32, LoadGen's layout): answers
                            with <think> reasoning, special tokens, every extraction case
                            of each sub-dataset, duplicated qsl_idx (the first counts) and
                            an entry beyond the dataset (skipped)
  eval_lcb.jsonl            the stand-in LiveCodeBench problems, in code_generation_lite's
                            layout for mlperf-go's --livecodebench
  eval_math_verdicts.json   grade_answer's verdict on every MATH-500 pair the script
                            graded, which the Go test gives mlperf-go for the pairs that
                            need sympy (as --prm800k would, without Python)
  eval_expected.txt         what the script printed for eval_r1: accuracy.txt
  eval_expected_alt.txt     ... for eval_r1_alt
  eval_verdicts.json        the script's extracted_answer and verdict (prompt_accuracy > 0)
                            of each row it scored for eval_r1, in its order

Pinned environment (CPython 3.11.7):
  python3 -m venv /tmp/venv-r1llama2
  /tmp/venv-r1llama2/bin/pip install numpy==1.26.4 pandas==2.2.3 transformers==4.46.2 \
      tokenizers==0.20.3 sympy==1.13.1 pylatexenc==2.10 tqdm==4.67.1 pebble==5.1.0 \
      attrs==24.2.0 datasets==2.21.0 pyarrow==17.0.0 anthropic==0.72.0
Run (from the repository root):
  /tmp/venv-r1llama2/bin/python benchmarks/deepseekr1/testdata/gen_eval_golden.py \
      --inference /work/.mirror/mlcommons+inference/repo \
      --lcb /work/.mirror/LiveCodeBench+LiveCodeBench/repo --prm800k /work/.mirror/openai+prm800k/repo

Stand-ins, each where the reference reaches the network:
  - the tokenizer is not DeepSeek-R1's (no Hugging Face access here) but
    tokenizer/testdata's bytelevel one (byte-level BPE like DeepSeek-R1's, with
    <｜end▁of▁sentence｜> special and <think>, </think> added but not special, as in
    DeepSeek-R1), its tokenizer_config.json naming LlamaTokenizerFast as DeepSeek-R1's
    does, so AutoTokenizer.from_pretrained(..., use_fast=False) resolves exactly as it
    does for DeepSeek-R1 (to the fast class; asserted);
  - load_lcb_benchmark returns synthetic problems built with LiveCodeBench's own
    CodeGenerationProblem (the real release_v1 comes from the Hugging Face hub), as
    score/exactmatch/testdata/gen_golden.py does.
Everything else - log reading, de-duplication, decoding, answer parsing, PRM800K's
grade_answer, LiveCodeBench's test runner, the per-dataset loop and the printed dict -
is the reference's own code.
"""
import argparse
import contextlib
import gzip
import importlib.util
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from transformers import AutoTokenizer  # noqa: E402

_spec = importlib.util.spec_from_file_location("score_corpus", os.path.join(ROOT, "score", "testdata", "corpus.py"))
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)

SEED = 20261128
EOS = "<｜end▁of▁sentence｜>"

# Synthetic LiveCodeBench problems: (question_id, public, private, metadata).
LCB = {
    "lcb_double": ([{"input": "3\n", "output": "6\n", "testtype": "stdin"}],
                   [{"input": "5\n", "output": "10\n", "testtype": "stdin"}, {"input": "0\n", "output": "0\n", "testtype": "stdin"}], {}),
    "lcb_add": ([{"input": "1\n2", "output": "3", "testtype": "functional"}],
                [{"input": "-1\n1", "output": "0", "testtype": "functional"}], {"func_name": "add"}),
}

DOUBLE = "```python\nn = int(input())\nprint(n * 2)\n```"
ADD = "```python\nclass Solution:\n    def add(self, a, b):\n        return a + b\n```"

# (dataset, ground truth, answer) per sub-dataset: every extraction case the parsers have.
CASES = {
    "gpqa": [("A", "ANSWER: A"), ("B", "Final Answer: (b)"), ("C", "ANSWER: D"), ("D", "I think the answer is D"),
             ("A", "['ANSWER: A']"), ("B", "answer:B."), ("C", "ANSWER: E\nno, ANSWER = C"), ("D", "FINAL ANSWER D and more"),
             ("A", "ANSWER: Apple"), ("B", "")],
    "mmlu_pro": [("J", "ANSWER: J"), ("E", "I guess E is right"), ("H", "the best choice is (H) here"),
                 ("C", "I think it's C"), ("A", "ANSWER: K, so I pick B"), ("F", "no letter at all, sorry"),
                 ("G", "Answer: (g)"), ("B", "b")],
    "math500": [("\\frac{1}{2}", "so \\boxed{\\frac{1}{2}}"), ("\\frac{1}{2}", "\\boxed{\\frac12}"),
                ("\\frac{1}{2}", "\\boxed{0.5}"), ("\\frac{1}{2}", "\\boxed{\\dfrac{1}{2}}"), ("5", "\\boxed{5}"),
                ("5", "\\boxed{5.0}"), ("5", "\\boxed{ 5 }"), ("(1,2)", "\\boxed{(1, 2)}"), ("(1,2)", "\\boxed{(2,1)}"),
                ("2\\sqrt{3}", "\\boxed{2 \\sqrt{3}}"), ("2\\sqrt{3}", "\\boxed{2\\sqrt3}"), ("x^2+1", "\\boxed{1+x^2}"),
                ("x^2+1", "\\boxed{x^2+1}"), ("\\text{(B)}", "\\boxed{B}"), ("10\\%", "\\boxed{10}"),
                ("90^\\circ", "\\boxed{90}"), ("-3", "\\boxed{-3}"), ("1,000", "\\boxed{1000}"), ("7", "\\boxed{8}"),
                ("7", "the answer is 7"), ("\\frac{\\sqrt{3}}{2}", "\\boxed{\\frac{\\sqrt{3}}{2}}"),
                ("3", "\\boxed{3"), ("3", "\\boxed{}"), ("3", "\\boxed{2} then \\boxed{3}"), ("3\\pi", "\\boxed{3\\pi}"),
                # A whitespace-only truth is graded: normalized to "", as "\\!" is.
                ("  ", "\\boxed{\\!}"), ("  ", "\\boxed{5}"), (0.5, "\\boxed{0.5}"), (5.0, "\\boxed{5.0}")],
    "aime": [(17, "\\boxed{17}"), (17, "\\boxed{ 17 }"), (17, "Answer: 17"), (17, "answer: 17."), (17, "Answer: 16"),
             (999, "\\boxed{1000}"), (17, "\\boxed{017}"), ("204", "\\boxed{204}"), (5, "\\boxed{5}\\boxed{6}"),
             (None, "\\boxed{3}"), (42, "no number here"),
             # Not strings or ints: the converter keeps a float a float, which int() truncates.
             (42.0, "\\boxed{42}"), ("42.0", "\\boxed{42}"), (42.9, "\\boxed{42}")],
    "livecodebench": [("lcb_double", DOUBLE), ("lcb_double", "```python\nprint(6)\n```"), ("lcb_double", "no code at all"),
                      ("lcb_double", "```python\n```"), ("lcb_add", ADD),
                      ("lcb_add", "```py\nclass Solution:\n    def add(self, a, b):\n        return a + b\n```"),
                      ("lcb_add", "```python\nclass Solution:\n    def add(self, a, b):\n        return a - b\n```")],
}
NAMES = {"gpqa": "gpqa", "mmlu_pro": "mmlu_pro", "math500": "math500", "aime": "aime1983", "livecodebench": "livecodebench"}


def rows(rng):
    """(dataset, ground_truth, answer text) rows: every case twice, with reasoning before it."""
    reasons = [p for p, _, _ in corpus.pairs(SEED, 200)]
    out = []
    for _ in range(2):
        for key, cases in CASES.items():
            for gt, ans in cases:
                out.append((NAMES[key], gt, f"<think>\n{rng.choice(reasons)}\n</think>\n\n{rng.choice(reasons)}\n{ans}"))
    rng.shuffle(out)
    return out


def git_export(gitdir, commit, dest, paths=()):
    arch = subprocess.run(["git", "-C", gitdir, "archive", commit, *paths], check=True, capture_output=True).stdout
    os.makedirs(dest, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", dest], input=arch, check=True)


def setup_reference(args, tmp):
    """eval_accuracy.py with its submodules laid out as in the checkout."""
    d = os.path.join(tmp, "deepseek-r1")
    commits = {}
    for sub, repo, paths in (("LiveCodeBench", args.lcb, ["lcb_runner"]), ("prm800k", args.prm800k, ["prm800k/grading"])):
        commits[sub] = subprocess.run(["git", "-C", args.inference, "ls-tree", "HEAD", f"language/deepseek-r1/submodules/{sub}"],
                                      check=True, capture_output=True, text=True).stdout.split()[2]
        git_export(repo, commits[sub], os.path.join(d, "submodules", sub), paths)
    src = subprocess.run(["git", "-C", args.inference, "show", "HEAD:language/deepseek-r1/eval_accuracy.py"],
                         check=True, capture_output=True).stdout
    open(os.path.join(d, "eval_accuracy.py"), "wb").write(src)
    return d, commits


def fake_benchmark(ref_dir):
    lcb_dir = os.path.join(ref_dir, "submodules", "LiveCodeBench")
    sys.path.insert(0, lcb_dir)
    cwd = os.getcwd()
    os.chdir(lcb_dir)
    from lcb_runner.benchmarks.code_generation import CodeGenerationProblem
    import lcb_runner.runner.scenario_router  # noqa: F401  (the reference swallows a failing import)
    os.chdir(cwd)
    return {qid: CodeGenerationProblem(
        question_title=qid, question_content="", platform="leetcode", question_id=qid, contest_id="c",
        contest_date="2023-05-01T00:00:00", starter_code="", difficulty="easy", public_test_cases=json.dumps(pub),
        private_test_cases=json.dumps(priv), metadata=json.dumps(meta)) for qid, (pub, priv, meta) in LCB.items()}


def tokenizer_dir(tmp):
    """tokenizer/testdata/bytelevel with tokenizer_class LlamaTokenizerFast, as DeepSeek-R1's config."""
    d = os.path.join(tmp, "tokenizer")
    shutil.copytree(os.path.join(ROOT, "tokenizer", "testdata", "bytelevel"), d)
    cfg_path = os.path.join(d, "tokenizer_config.json")
    cfg = json.load(open(cfg_path, encoding="utf-8"))
    cfg["tokenizer_class"] = "LlamaTokenizerFast"
    json.dump(cfg, open(cfg_path, "w", encoding="utf-8"), ensure_ascii=False, indent=2)
    tok = AutoTokenizer.from_pretrained(d, use_fast=False)
    assert tok.is_fast and type(tok).__name__ == "LlamaTokenizerFast", type(tok)
    return d, tok


def write_log(path, tok, data, rng):
    """Each row's answer encoded, EOS after most; shuffled; duplicates and one stray index."""
    eos = tok.convert_tokens_to_ids(EOS)
    entries = []
    order = list(range(len(data)))
    rng.shuffle(order)
    for q in order:
        ids = tok.encode(data[q][2], add_special_tokens=False)
        if rng.random() < 0.8:
            ids.append(eos)
        entries.append((q, ids))
        if rng.random() < 0.05:  # a later answer for the same sample: ignored
            entries.append((q, tok.encode("ANSWER: A \\boxed{1}", add_special_tokens=False)))
    entries.insert(len(entries) // 2, (len(data) + 3, tok.encode("\\boxed{1}", add_special_tokens=False)))
    with open(path, "w") as f:  # LoadGen's layout
        f.write("[\n" + ",\n".join(json.dumps({"seq_id": s, "qsl_idx": q, "data": np.array(ids, np.int32).tobytes().hex().upper(),
                                                "token_count": len(ids)}) for s, (q, ids) in enumerate(entries)) + "\n]\n")


def run(ref_dir, tok_dir, log, pkl, tmp):
    import eval_accuracy
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        df, _ = eval_accuracy.process_mlperf_log_accuracy(log, pkl, tok_dir, output_dir=tmp, base_filename="evaluated.pkl")
        eval_accuracy.print_evaluation_results(df)
    return buf.getvalue(), df


def gzip_to(src, name):
    with open(src, "rb") as fi, gzip.GzipFile(os.path.join(HERE, name), "wb", mtime=0) as fo:
        shutil.copyfileobj(fi, fo)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inference", required=True)
    ap.add_argument("--lcb", required=True)
    ap.add_argument("--prm800k", required=True)
    args = ap.parse_args()
    rng = random.Random(SEED)
    data = rows(rng)
    with tempfile.TemporaryDirectory() as tmp:
        ref_dir, commits = setup_reference(args, tmp)
        tok_dir, tok = tokenizer_dir(tmp)
        sys.path.insert(0, ref_dir)
        import eval_accuracy
        bench = fake_benchmark(ref_dir)
        eval_accuracy.load_lcb_benchmark = lambda: bench

        prompts = [tok.encode(f"Question {i}: {q}", add_special_tokens=False) for i, (_, _, q) in enumerate(data)]
        frame = {"dataset": [r[0] for r in data], "question": [f"Question {i}" for i in range(len(data))],
                 "ground_truth": [r[1] for r in data], "text_input": [f"Question {i}" for i in range(len(data))],
                 "tok_input": prompts}
        metric = [("gpqa" if r[0] == "mmlu_pro" else r[0]) + "_em" for r in data]  # "mmlu_pro_em" has no evaluator
        alt = {"gt_output": frame["ground_truth"], "ground_truth": ["DECOY"] * len(data), "metric": metric,
               "text_input": frame["text_input"], "tok_input": prompts}
        log = os.path.join(tmp, "mlperf_log_accuracy.json")
        write_log(log, tok, data, rng)
        outputs = {}
        for name, cols in (("", frame), ("_alt", alt)):
            pkl = os.path.join(tmp, f"ds{name}.pkl")
            pd.DataFrame(cols).to_pickle(pkl)
            converted = os.path.join(tmp, f"ds{name}.json")
            pd.read_pickle(pkl).to_json(converted, orient='records')  # the reader's PickleFix, verbatim
            gzip_to(converted, f"eval_r1{name}.json.gz")
            outputs[name] = run(ref_dir, tok_dir, log, pkl, tmp)
            with open(os.path.join(HERE, f"eval_expected{name}.txt"), "w") as f:
                f.write(outputs[name][0])
        gzip_to(log, "eval_accuracy.json.gz")

    # The script's per-row results for eval_r1, in its row order (the log's
    # first entry of each sample): what mlperf-go's --verdicts writes.
    rows_out = []
    for _, r in outputs[""][1].iterrows():
        ex = r["extracted_answer"]
        rows_out.append([None if ex is None else str(ex), bool(r["prompt_accuracy"] > 0)])
    with open(os.path.join(HERE, "eval_verdicts.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows_out) + "\n]\n")

    verdicts = set()
    for _, df in outputs.values():
        for _, r in df.iterrows():
            ex, gt = r["extracted_answer"], r["ground_truth"]
            if "math500" in str(r["dataset"]).lower() and ex is not None and not pd.isna(gt) and str(ex).strip():
                verdicts.add((str(ex).strip(), str(gt), bool(r["prompt_accuracy"] > 0)))
    with open(os.path.join(HERE, "eval_math_verdicts.json"), "w") as f:
        json.dump({"source": {"prm800k": commits["prm800k"], "LiveCodeBench": commits["LiveCodeBench"],
                              "inference": subprocess.run(["git", "-C", args.inference, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()},
                   "verdicts": sorted(verdicts)}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(HERE, "eval_lcb.jsonl"), "w") as f:
        for qid, (pub, priv, meta) in LCB.items():
            f.write(json.dumps({"question_id": qid, "public_test_cases": json.dumps(pub), "private_test_cases": json.dumps(priv),
                                "metadata": json.dumps(meta)}) + "\n")
    print(outputs[""][0], outputs["_alt"][0], file=sys.stderr)


if __name__ == "__main__":
    main()
