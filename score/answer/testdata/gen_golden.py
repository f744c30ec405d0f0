#!/usr/bin/env python3
"""Golden cases for score/answer, made by the reference's own functions.

Runs parse_multiple_choice, parse_boxed_math, parse_aime_answer, parse_code,
evaluate_multiple_choice and evaluate_aime of mlcommons/inference
language/gpt-oss-120b/eval_accuracy.py and language/deepseek-r1/eval_accuracy.py
(read with `git show` from a checkout, never copied here) over crafted and
seeded-random outputs, and writes their results to golden.jsonl. Also writes
pychars.json: the code points Python's re counts as \\w and as assigned.

Usage (from the repository root):
  python3 -m venv /tmp/venv-exact
  /tmp/venv-exact/bin/pip install pandas==2.2.3 numpy==2.1.3 tqdm==4.67.1
  /tmp/venv-exact/bin/python score/answer/testdata/gen_golden.py \\
      --inference /work/.mirror/mlcommons+inference/repo

Versions used for the committed outputs: CPython 3.11.7 (Unicode 14.0.0),
pandas 2.2.3, numpy 2.1.3, tqdm 4.67.1; transformers is replaced by a stub
module (the parsers never touch the tokenizer it provides).
"""
import argparse
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import types
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))


def load_reference(gitdir, path, name, tmp):
    src = subprocess.run(["git", "-C", gitdir, "show", "HEAD:" + path],
                         check=True, capture_output=True).stdout
    dst = os.path.join(tmp, name + ".py")
    with open(dst, "wb") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location(name, dst)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# Fragments that exercise every branch of the scanners, including Python's
# Unicode quirks: U+0130/U+0131/U+017F/U+212A under re.IGNORECASE, U+001C..F
# as whitespace, Arabic-Indic and fullwidth digits for \d, letters and digits
# of other scripts for \w.
FRAGMENTS = [
    "Answer", "answer", "ANSWER", "AnSwEr", "an\u017fwer", "Final Answer",
    "FINAL  ANSWER", "final\nanswer", "finalanswer", "Answers", "MyAnswer",
    ":", ".", "=", " ", "  ", "\n", "\t", "\x1c", "\u3000", "\xa0", "(", ")",
    "A", "B", "C", "D", "E", "J", "K", "a", "b", "d", "j", "x", "\u0131",
    "\u0130", "\u212a", "\u017f", "\u00e9", "\u03b2", "_", "1", "9",
    "\u0663", "\uff17", "\u00b2", "**", "*", "**B**", "['", "']", '["', '"]',
    "\\n", "\\'", "'", "<|channel|>final<|message|>", "<|channel|>analysis<|message|>",
    "<|channel|>final \u660e<|message|>", "<|channel|>final<x<|message|>",
    "<|return|>", "<|end|>", "<|start|>assistant", "\\boxed{", "\\boxed{ ",
    "{", "}", "42", "007", "1000", "999", "12.5", "Answer: 17", "Answer:",
    "```python\n", "```py\n", "```Python\n", "```\n", "```", "py", "python \n",
    "print(1)", "def f():\n    return 2\n", "x = 3", "\u660e", "-", ",", "!",
]


# Denser pools per parser, so that random texts often hold an answer.
POOLS = {
    "choice": ["answer", "Answer:", "FINAL ANSWER", "final answer", "Final\n Answer",
               " ", ":", "=", "(", ")", "A", "B", "c", "d", "J", "\u0131", "\u0130",
               "x", ".", "\n", "**", "\u0663", "<|channel|>final<|message|>", "['", "']"],
    "boxed": ["\\boxed{", "{", "}", "1", "x", " ", "\\frac", "\n", "\x1c", "\\boxed", "a"],
    "aime": ["\\boxed{", "}", " ", "Answer:", "answer: ", "ANSWER:", "1", "23", "999",
             "1000", "0", "\u0663", ".", "a", "\n", "_", "-", "\uff17", "\\boxed{7}",
             "Answer: 12", "\u00e9", "!"],
    "code": ["```python", "```", "\n", "py", "python", "PY ", "x=1", " ", "\t",
             "<|channel|>final<|message|>", "<|return|>", "<|channel|>analysis<|message|>",
             "```py\n", "print(2)\n"],
}


def structured_choice(rng):
    """An answer phrase with random surroundings, for the ANSWER patterns."""
    def pick(*opts):
        return rng.choice(opts)
    return "".join([
        pick("", "so ", "x", "\u00e9", "<|channel|>final<|message|>", "**", "My "),
        pick("answer", "Answer", "FINAL ANSWER", "final  answer", "finalanswer", "an\u017fwer"),
        pick("", " ", ":", " : ", "=", ".", "s"),
        pick("", "(", " ( "),
        pick("A", "b", "D", "E", "J", "\u0131", "\u0130", "K"),
        pick("", " ", ")", " )", ") "),
        pick("", "x", ".", "\u0663", "_", "\n", " and answer: C", "b"),
    ])


def random_text(rng, pool=None):
    pool = pool or FRAGMENTS
    n = rng.randint(1, 14)
    return "".join(rng.choice(pool) for _ in range(n))


CRAFTED_CHOICE = [
    "", "   ", "A", "b", "(C)", "**D**", "D.", "Dog", "The answer is B",
    "Answer: C", "ANSWER: (b)", "answer=d", "Final Answer: A", "FINAL ANSWER (B)",
    "answer: A and then answer: C", "answer: Ax", "answer: A)x", "answer: A) ",
    "answer:A)", "Answer.B", "Answer B", "answer  :  d ", "['B']", '["C"]', "[']",
    "<|channel|>analysis<|message|>Answer: A<|end|><|start|>assistant<|channel|>final<|message|>**C**<|return|>",
    "<|channel|>analysis<|message|>thinking ANSWER: B<|end|><|channel|>final<|message|>I pick none<|return|>",
    "<|channel|>final<|message|>The correct option is (E).",
    "<|channel|>final \u660e<|message|>B",
    "<|channel|>final<x<|message|>B",
    "So I would say \u0131 is it", "\u0130", "\u0131", "answer: \u0131", "an\u017fwer: B",
    "Final answer\\nB", "Answer:\\'C\\'", "E", "J", "answer: J", "I think H.",
    "ANSWER: A\u0663", "ANSWER: A\u00e9", "ANSWER: A_", "answer: a b c", "x answer: b",
    "finalanswer: c", "final  \n answer = (d )", "ANSWER (A", "answer: (b",
    "\x1cB\x1c", "\u3000C", "My answer: B", "Answers: C",
]

CRAFTED_BOXED = [
    "", "\\boxed{}", "\\boxed{42}", "\\boxed{ 7 }", "x \\boxed{1} y \\boxed{2}",
    "\\boxed{\\frac{1}{2}}", "\\boxed{\\sqrt{3}}", "\\boxed{a{b}c}", "\\boxed{a{b}",
    "\\boxed{1}\\boxed{2", "\\boxed{{}}}", "\\boxed 5", "\\boxed{10\\%}",
    "\\boxed{1,000}", "\\boxed{5\\text{ cm}}", "\\boxed{\u00e9}", "\\boxed{\x1c3\x1c}",
    "\\boxed{\\boxed{4}}", "\\\\boxed{9}", "\\boxed{(1,2)}",
]

CRAFTED_AIME = [
    "", "\\boxed{42}", "\\boxed{ 42 }", "\\boxed{1000}", "\\boxed{007}", "\\boxed{x}",
    "\\boxed{12}\\boxed{34}", "\\boxed{12}\\boxed{x}", "Answer: 17", "answer:17.",
    "Answer: 17.5", "ANSWER: 17a", "Answer: 17_", "Answer: 17,", "Answer:\n 5",
    "Answer: 5 then Answer: 6", "Answer : 5", "\\boxed{\u0663\u0664}", "Answer: \uff17",
    "Answer: \u00b2", "\\boxed{-3}", "\\boxed{3.0}", "an\u017fwer: 12", "\\boxed{0}",
    "Answer: " + "0" * 4301 + "5", "Answer: " + "0" * 4300 + "5", "\\boxed{5}\nAnswer: 6",
    "Answer: 999", "Answer: 5\u0663", "Answer: 5\u00e9", "Answer: 5!",
]

CRAFTED_CODE = [
    "", "no code", "```python\nprint(1)\n```", "```python\nprint(1)```\n```python\nprint(2)\n```",
    "```\nprint(3)\n```", "```py\nprint(4)\n```", "```Python\nprint(5)\n```",
    "```python print(6)```", "```\npython\n  \nprint(7)\n```", "```python", "```",
    "````", "```\n```", "```python\n```",
    "<|channel|>analysis<|message|>```python\nbad()\n```<|end|><|channel|>final<|message|>```python\ngood()\n```<|return|>",
    "<|channel|>analysis<|message|>```python\nbad()\n```<|end|><|channel|>final<|message|>no code here",
    "<|channel|>final<|message|>```\nplain()\n```", "```cpp\nint x;\n```",
    "```PY \n\nx=1\n```", "```pyx\nx=1\n```", "```python3\nx=1\n```",
]

CRAFTED_GT = ["A", "a", "B", "", "17", " 17 ", "017", "1_7", "1__7", "17.0", "+17",
              "-5", "\u0661\u0667", "x", "5", "0", "999", "1000"]


def pychars():
    word, assigned = [], []
    for c in range(0x110000):
        ch = chr(c)
        if unicodedata.category(ch) != "Cn":
            assigned.append(c)
        if re.match(r"\w", ch):
            word.append(c)

    def ranges(cs):
        out = []
        for c in cs:
            if out and out[-1][1] == c - 1:
                out[-1][1] = c
            else:
                out.append([c, c])
        return out
    space = [c for c in range(0x110000) if chr(c).isspace()]
    return {"unicode": unicodedata.unidata_version, "word": ranges(word),
            "assigned": ranges(assigned), "space": space}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inference", required=True, help="mlcommons/inference git dir")
    ap.add_argument("--random", type=int, default=2000)
    args = ap.parse_args()
    sys.modules["transformers"] = types.SimpleNamespace(AutoTokenizer=None)
    with tempfile.TemporaryDirectory() as tmp:
        gpt = load_reference(args.inference, "language/gpt-oss-120b/eval_accuracy.py", "gptoss_eval", tmp)
        ds = load_reference(args.inference, "language/deepseek-r1/eval_accuracy.py", "deepseek_eval", tmp)
    commit = subprocess.run(["git", "-C", args.inference, "rev-parse", "HEAD"],
                            check=True, capture_output=True, text=True).stdout.strip()
    rng = random.Random(20260601)
    randoms = [random_text(rng) for _ in range(args.random)]
    phrases = [structured_choice(rng) for _ in range(args.random)]
    dense = {k: [random_text(rng, pool) for _ in range(args.random // 2)]
             for k, pool in POOLS.items()}
    rows = []

    def add(fn, text, out):
        rows.append({"fn": fn, "in": text, "out": out})

    for t in CRAFTED_CHOICE + randoms + dense["choice"] + phrases:
        for var, mod in (("gptoss", gpt), ("deepseek", ds)):
            for mx in "DJ":
                add(f"choice/{var}/{mx}", t, mod.parse_multiple_choice(t, mx))
    for t in CRAFTED_BOXED + randoms + dense["boxed"]:
        add("boxed", t, gpt.parse_boxed_math(t))
        assert gpt.parse_boxed_math(t) == ds.parse_boxed_math(t)
    for t in CRAFTED_AIME + randoms + dense["aime"]:
        add("aime", t, gpt.parse_aime_answer(t))
        assert gpt.parse_aime_answer(t) == ds.parse_aime_answer(t)
    for t in CRAFTED_CODE + randoms + dense["code"]:
        add("code/gptoss", t, gpt.parse_code(t))
        add("code/deepseek", t, ds.parse_code(t))
    for t in CRAFTED_CHOICE + randoms[:300]:
        add("final", t, gpt.extract_final_section(t))
        add("bold", t, gpt.strip_markdown_bold(t))
    letters = ["A", "B", "D", "E", "J", "\u0130", "", "a"]
    for p in letters:
        for g in CRAFTED_GT:
            add("evalchoice/ABCD", p + "\x00" + g, gpt.evaluate_multiple_choice(p, g, "ABCD"))
            add("evalchoice/ABCDEFGHIJ", p + "\x00" + g, gpt.evaluate_multiple_choice(p, g, "ABCDEFGHIJ"))
    for p in [0, 5, 17, 999]:
        for g in CRAFTED_GT:
            add("evalaime", str(p) + "\x00" + g, gpt.evaluate_aime(p, g))
    with open(os.path.join(HERE, "golden.jsonl"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"source": "mlcommons/inference@" + commit,
                            "python": sys.version.split()[0]}) + "\n")
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=True) + "\n")
    with open(os.path.join(HERE, "pychars.json"), "w") as f:
        json.dump(pychars(), f)
    print(f"wrote {len(rows)} cases")


if __name__ == "__main__":
    main()
